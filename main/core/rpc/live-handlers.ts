import path from 'node:path';
import { ConsoleError } from '../../../shared/contract';
import type { FeedItem, LiveEvent } from '../../../shared/contract/live';
import { Bridge } from '../bridge/bridge';
import { FeedStore } from '../bridge/feed-store';
import { RememberedServers } from '../bridge/remembered-servers';

const REMEMBERED_SERVERS_FILE = 'live-servers.json';
import type { CoreContext } from './context';
import type { CallHandlers, SubscriptionHandlers } from './dispatcher';

type LiveCalls = 'live.connect' | 'live.disconnect' | 'live.servers' | 'live.sessions' | 'live.feed' | 'live.facets' | 'live.counters' | 'live.rules' | 'live.setRules';

/** Items pushed at most this often (the first one after a quiet spell goes out at once). */
const BATCH_MS = 50;
const MAX_BATCH = 500;

/**
 * Pushes live events to one subscriber, coalescing bursts of feed items so thousands of events
 * per minute reach the renderer as a few dozen messages. Other events keep their order: pending
 * items are flushed before them.
 */
function batchLiveEvents(emit: (event: LiveEvent) => void): { push(event: LiveEvent): void; stop(): void } {
  let items = new Map<string, FeedItem>();
  let removed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let lastFlush = 0;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastFlush = Date.now();
    const batch = [...items.values()].filter((i) => !removed.has(i.id));
    const gone = [...removed];
    items = new Map();
    removed = new Set();
    for (let i = 0; i < batch.length; i += MAX_BATCH) emit({ type: 'items', items: batch.slice(i, i + MAX_BATCH) });
    if (gone.length) emit({ type: 'removed', ids: gone });
  };
  return {
    push(event) {
      if (event.type === 'items' || event.type === 'removed') {
        if (event.type === 'items') for (const item of event.items) items.set(item.id, item);
        else for (const id of event.ids) removed.add(id);
        if (!timer) timer = setTimeout(flush, Date.now() - lastFlush >= BATCH_MS ? 0 : BATCH_MS);
        return;
      }
      if (items.size || removed.size) flush();
      emit(event);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

export function createLiveHandlers(ctx: CoreContext): Pick<CallHandlers, LiveCalls> & Pick<SubscriptionHandlers, 'live.events'> {
  let bridge: Bridge | null = null;
  let following: Promise<void> = Promise.resolve();

  const follow = (projectDir: string) => {
    const b = bridge;
    if (!b) return;
    following = b.followProject(projectDir).catch((error) => console.error('[live] cannot follow events.jsonl:', error));
  };

  /** The bridge exists from the first live call on: the console's feed DB and the open project's events.jsonl. */
  const get = (): Bridge => {
    if (bridge) return bridge;
    const created = new Bridge({ dbFile: path.join(ctx.options.userDataDir, 'bridge.db'), remembered });
    bridge = created;
    ctx.onDispose(() => created.dispose());
    ctx.workspaces.onOpened((workspace) => follow(workspace.paths.projectDir));
    try {
      follow(ctx.workspaces.current.paths.projectDir);
    } catch {
      // no workspace open yet: the onOpened listener picks the first one up
    }
    created.reconnectRemembered();
    return created;
  };
  // Servers connected in an earlier run are reconnected at start, not at the first visit to Live.
  const remembered = new RememberedServers(path.join(ctx.options.userDataDir, REMEMBERED_SERVERS_FILE));
  if (remembered.list().length > 0) get();

  const ready = async () => {
    const b = get();
    await following;
    return b;
  };

  /**
   * Live history belongs to the workspace it came from: every query, count and push is scoped to the
   * open project, so the demo's denials never show in another project (bridge.db is shared by all).
   */
  const workspace = (): string | undefined => {
    try {
      return ctx.workspaces.current.paths.projectDir;
    } catch {
      return undefined;
    }
  };
  const ownItems = (event: LiveEvent): LiveEvent | null => {
    if (event.type !== 'items') return event;
    const project = workspace();
    const items = project ? event.items.filter((item) => FeedStore.belongsTo(item, project)) : event.items;
    return items.length ? { type: 'items', items } : null;
  };

  return {
    'live.connect': ({ url, password, label }) => {
      try {
        return get().connect({ url, password, label });
      } catch (error) {
        throw new ConsoleError('invalid_input', `Cannot connect to ${url.slice(0, 200)}: ${(error as Error).message}`);
      }
    },
    'live.disconnect': async ({ serverId }) => ({ removed: await get().disconnect(serverId) }),
    'live.servers': () => get().servers(),
    'live.sessions': ({ serverId, project, limit, scope }) => get().sessions({ serverId, project, limit, workspace: workspace(), includeOtherProjects: scope === 'all' }),
    'live.feed': async ({ filter, before, limit }) => (await ready()).store.query(filter, before, limit, workspace()),
    'live.facets': async () => (await ready()).store.facets(workspace()),
    'live.counters': async ({ project, limit }) => (await ready()).store.counters(Date.now(), project, limit, workspace()),
    'live.rules': () => get().feed.rule,
    'live.setRules': (rule) => get().feed.setRule(rule),
    'live.events': (_input, emit) => {
      const batcher = batchLiveEvents(emit);
      const unsubscribe = get().subscribe((event) => {
        const own = ownItems(event);
        if (own) batcher.push(own);
      });
      // A subscriber may connect after a state change it cares about (the renderer's stream can
      // open after its first `live.connect`), so every subscription starts from the current states.
      for (const server of get().servers()) batcher.push({ type: 'server', server });
      return () => {
        unsubscribe();
        batcher.stop();
      };
    },
  };
}
