import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { ConsoleApi } from '../../../../shared/contract';
import type { DirectiveCounter, FeedFilter, FeedItem, RepeatAlert, RepeatRule, ServerInfo, SessionInfo } from '../../../../shared/contract/live';
import { appendPage, mergeItems, removeItems } from './feed-state';
import { mergeServerList, upsertServer } from './server-list';

/**
 * The Live view's state and all of its I/O (views stay free of calls). Pushed feed items are
 * buffered and applied at most every FLUSH_MS in one merge, so a flood of thousands of events per
 * minute costs the UI a few renders per second.
 */
const FLUSH_MS = 120;
const PAGE = 200;
const CAP = 5_000;
const SIDE_REFRESH_MS = 3_000;

export interface LiveStore {
  servers: Accessor<ServerInfo[]>;
  sessions: Accessor<SessionInfo[]>;
  /** Whether sessions running in other project folders are listed too (marked otherProject). */
  otherProjects: Accessor<boolean>;
  setOtherProjects(show: boolean): void;
  items: Accessor<FeedItem[]>;
  hasMore: Accessor<boolean>;
  loading: Accessor<boolean>;
  error: Accessor<string | undefined>;
  /** The most recent failure among the calls that are still failing (a new object per failure). */
  failure: Accessor<unknown>;
  /** Fetches the feed, servers, sessions and side panels again (after a failure or a broken stream). */
  retry(): void;
  counters: Accessor<DirectiveCounter[]>;
  facets: Accessor<{ projects: string[]; tools: string[]; gates: string[]; directives: string[]; sessions: string[] }>;
  alerts: Accessor<RepeatAlert[]>;
  rule: Accessor<RepeatRule | undefined>;
  now: Accessor<number>;
  connect(url: string, password: string, label: string): Promise<string | null>;
  disconnect(serverId: string): Promise<void>;
  loadMore(): void;
  setRule(rule: RepeatRule): Promise<string | null>;
  dismissAlert(alert: RepeatAlert): void;
}

/**
 * `workspaceEpoch` changes when another workspace is opened: live history belongs to its workspace,
 * so the feed, counters, sessions and alerts start over from what the new one holds.
 */
export function createLiveStore(api: ConsoleApi, filter: Accessor<FeedFilter>, onAlert: (alert: RepeatAlert) => void, workspaceEpoch: Accessor<number> = () => 0): LiveStore {
  const [servers, setServers] = createSignal<ServerInfo[]>([]);
  const [sessions, setSessions] = createSignal<SessionInfo[]>([]);
  const [otherProjects, setOtherProjectsSignal] = createSignal(false);
  const [items, setItems] = createSignal<FeedItem[]>([]);
  const [cursor, setCursor] = createSignal<{ time: number; id: string } | null>(null);
  const [loading, setLoading] = createSignal(false);
  // Per call, its last failure until it next succeeds: one panel's failure is not cleared by another's success.
  const [failures, setFailures] = createSignal<ReadonlyMap<string, unknown>>(new Map());
  const failure = () => [...failures().values()].at(-1);
  const error = () => {
    const current = failure();
    return current === undefined ? undefined : (current as Error).message;
  };
  const failed = (key: string) => (e: unknown) =>
    setFailures((map) => {
      const next = new Map(map);
      next.delete(key); // re-inserted last: the newest failure is the one shown
      return next.set(key, e);
    });
  const succeeded = (key: string) => failures().has(key) && setFailures((map) => {
    const next = new Map(map);
    next.delete(key);
    return next;
  });
  /** `call`'s value to `apply`, recording whether that call (by `key`) fails or succeeds. */
  const track = <T,>(key: string, call: Promise<T>, apply: (value: T) => void) =>
    call.then((value) => {
      apply(value);
      succeeded(key);
    }, failed(key));
  const [counters, setCounters] = createSignal<DirectiveCounter[]>([]);
  const [facets, setFacets] = createSignal({ projects: [] as string[], tools: [] as string[], gates: [] as string[], directives: [] as string[], sessions: [] as string[] });
  const [alerts, setAlerts] = createSignal<RepeatAlert[]>([]);
  const [rule, setRuleSignal] = createSignal<RepeatRule>();
  const [now, setNow] = createSignal(Date.now());

  let generation = 0;
  let pending: FeedItem[] = [];
  let pendingRemoved: string[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let sideTimer: ReturnType<typeof setTimeout> | undefined;

  const refreshSide = () => {
    void track('counters', api.call('live.counters', { project: filter().project, limit: 50 }), setCounters);
    void track('facets', api.call('live.facets', {}), setFacets);
  };
  const refreshSessions = () => track('sessions', api.call('live.sessions', { limit: 500, scope: otherProjects() ? 'all' : 'project' }), setSessions);
  const refreshServers = () => void track('servers', api.call('live.servers', {}), (fetched) => setServers((list) => mergeServerList(list, fetched)));
  const scheduleSide = () => {
    sideTimer ??= setTimeout(() => {
      sideTimer = undefined;
      refreshSide();
    }, SIDE_REFRESH_MS);
  };

  const flush = () => {
    flushTimer = undefined;
    const incoming = pending;
    const removed = pendingRemoved;
    pending = [];
    pendingRemoved = [];
    setItems((current) => mergeItems(removeItems(current, removed), incoming, filter(), CAP).items);
    scheduleSide();
  };

  const loadFirst = async () => {
    const gen = ++generation;
    setLoading(true);
    try {
      const page = await api.call('live.feed', { filter: filter(), limit: PAGE });
      if (gen !== generation) return;
      batch(() => {
        setItems(page.items);
        setCursor(page.nextCursor);
        succeeded('feed');
      });
    } catch (e) {
      if (gen === generation) failed('feed')(e);
    } finally {
      if (gen === generation) setLoading(false);
    }
  };

  createEffect(on(filter, () => {
    pending = [];
    void loadFirst();
    refreshSide();
  }));
  createEffect(on(workspaceEpoch, () => {
    pending = [];
    pendingRemoved = [];
    batch(() => {
      setItems([]);
      setAlerts([]);
      setCounters([]);
    });
    void loadFirst();
    refreshSide();
    void refreshSessions();
  }, { defer: true }));

  refreshServers();
  const refreshRules = () => void track('rules', api.call('live.rules', {}), setRuleSignal);
  refreshRules();
  void refreshSessions();

  // After an interrupted stream the feed, servers and sessions are fetched again: events were missed.
  const resync = () => {
    // One-off actions (a next page, a disconnect) are not repeated: their failures are done with.
    if (failures().has('more') || failures().has('disconnect')) setFailures((map) => new Map([...map].filter(([key]) => key !== 'more' && key !== 'disconnect')));
    pending = [];
    pendingRemoved = [];
    void loadFirst();
    refreshSide();
    refreshServers();
    if (failures().has('rules')) refreshRules();
    void refreshSessions();
  };
  const stop = api.subscribe('live.events', {}, (event) => {
    switch (event.type) {
      case 'items':
        pending.push(...event.items);
        flushTimer ??= setTimeout(flush, FLUSH_MS);
        break;
      case 'removed':
        pendingRemoved.push(...event.ids);
        flushTimer ??= setTimeout(flush, FLUSH_MS);
        break;
      case 'server':
        setServers((list) => upsertServer(list, event.server));
        break;
      case 'server-removed':
        setServers((list) => list.filter((s) => s.id !== event.serverId));
        void refreshSessions();
        break;
      case 'sessions':
        void refreshSessions();
        break;
      case 'repeat':
        setAlerts((list) => [event.alert, ...list].slice(0, 20));
        onAlert(event.alert);
        break;
    }
  }, resync);
  const clock = setInterval(() => setNow(Date.now()), 1_000);
  onCleanup(() => {
    stop();
    clearInterval(clock);
    if (flushTimer) clearTimeout(flushTimer);
    if (sideTimer) clearTimeout(sideTimer);
    generation++;
  });

  return {
    servers,
    sessions,
    otherProjects,
    setOtherProjects(show) {
      setOtherProjectsSignal(show);
      void refreshSessions();
    },
    items,
    hasMore: () => cursor() !== null,
    loading,
    error,
    failure,
    retry: resync,
    counters,
    facets,
    alerts,
    rule,
    now,
    async connect(url, password, label) {
      try {
        const server = await api.call('live.connect', { url, ...(password ? { password } : {}), ...(label ? { label } : {}) });
        setServers((list) => upsertServer(list, server));
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    },
    async disconnect(serverId) {
      await track('disconnect', api.call('live.disconnect', { serverId }), () => undefined);
      setServers((list) => list.filter((s) => s.id !== serverId));
    },
    loadMore() {
      const before = cursor();
      if (!before || loading()) return;
      const gen = generation;
      setLoading(true);
      api
        .call('live.feed', { filter: filter(), before, limit: PAGE })
        .then((page) => {
          if (gen !== generation) return;
          batch(() => {
            setItems((current) => appendPage(current, page.items));
            setCursor(page.nextCursor);
            succeeded('more');
          });
        }, failed('more'))
        .finally(() => gen === generation && setLoading(false));
    },
    async setRule(next) {
      try {
        setRuleSignal(await api.call('live.setRules', next));
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    },
    dismissAlert(alert) {
      setAlerts((list) => list.filter((a) => a !== alert));
    },
  };
}
