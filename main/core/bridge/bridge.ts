import crypto from 'node:crypto';
import type { FeedItem, LiveEvent, ServerInfo, SessionInfo } from '../../../shared/contract/live';
import { EventsLogFollower } from './events-log-follower';
import { Feed } from './feed';
import { FeedStore } from './feed-store';
import { normaliseServerUrl } from './opencode-api';
import { OpencodeConnection, type ConnectionOptions } from './opencode-connection';
import type { RememberedServers } from './remembered-servers';

/**
 * The bridge: OpenCode connections + the open project's events.jsonl → one feed. Headless (plain
 * Node); the live handlers, the CLI and the bench all drive this same object. Passwords stay in
 * the connections and never appear in anything this returns.
 */
interface BridgeOptions {
  /** SQLite file for the feed (`<userDataDir>/bridge.db`) or `:memory:` (the read-only CLI). */
  dbFile: string;
  ringSize?: number;
  /** Overrides for every connection (timings in tests). */
  connection?: Partial<Omit<ConnectionOptions, 'id' | 'url' | 'password' | 'label'>>;
  /** Remember the last seq per session across runs (false for the CLI: it reads full history). */
  persistSeqs?: boolean;
  /** Where connected servers are remembered (URL and label, never the password) for the next start. */
  remembered?: RememberedServers;
}

interface ConnectRequest {
  url: string;
  password?: string | undefined;
  label?: string | undefined;
}

const SESSIONS_THROTTLE_MS = 500;
const SERVER_TICK_MS = 2_000;

function serverIdFor(url: string): string {
  return `srv_${crypto.createHash('sha256').update(url).digest('hex').slice(0, 12)}`;
}

export class Bridge {
  readonly store: FeedStore;
  readonly feed: Feed;
  private readonly connections = new Map<string, OpencodeConnection>();
  private follower: EventsLogFollower | null = null;
  private readonly sessionTimers = new Map<string, NodeJS.Timeout>();
  private readonly lastServerSnapshot = new Map<string, string>();
  private readonly tick: NodeJS.Timeout;

  constructor(private readonly options: BridgeOptions) {
    this.store = new FeedStore(options.dbFile);
    this.feed = new Feed(this.store, options.ringSize ?? 1_000);
    this.tick = setInterval(() => this.emitChangedServers(), SERVER_TICK_MS);
    this.tick.unref();
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    return this.feed.subscribe(listener);
  }

  connect(request: ConnectRequest): ServerInfo {
    const url = normaliseServerUrl(request.url);
    const id = serverIdFor(url);
    const previous = this.connections.get(id);
    if (previous) void previous.stop();
    const persist = this.options.persistSeqs !== false;
    const connection = new OpencodeConnection(
      {
        ...this.options.connection,
        id,
        url,
        password: request.password || undefined,
        label: request.label?.trim() || new URL(url).host,
        initialSeqs: persist ? this.store.loadSeqs(url) : new Map(),
        saveSeqs: persist ? (entries) => this.store.saveSeqs(url, entries) : undefined,
      },
      {
        state: (server) => {
          if (this.connections.get(id) !== connection) return;
          this.lastServerSnapshot.set(id, JSON.stringify(server));
          this.feed.emit({ type: 'server', server });
        },
        item: (item) => this.feed.add(item),
        followUp: (itemId, followUp) => this.feed.updateFollowUp(itemId, followUp),
        sessions: (serverId) => this.sessionsChanged(serverId),
      },
    );
    this.connections.set(id, connection);
    connection.start();
    const info = connection.info();
    this.options.remembered?.remember({ url, label: info.label });
    return info;
  }

  /** Connects to every remembered server (no password: one that needs it shows as unauthorised). */
  reconnectRemembered(): void {
    for (const server of this.options.remembered?.list() ?? []) {
      try {
        this.connect({ url: server.url, label: server.label });
      } catch (error) {
        console.error(`[live] cannot reconnect to a remembered server: ${(error as Error).message}`);
      }
    }
  }

  async disconnect(serverId: string): Promise<boolean> {
    const connection = this.connections.get(serverId);
    if (!connection) return false;
    this.connections.delete(serverId);
    this.lastServerSnapshot.delete(serverId);
    this.options.remembered?.forget(connection.info().url);
    await connection.stop();
    this.feed.emit({ type: 'server-removed', serverId });
    return true;
  }

  connection(serverId: string): OpencodeConnection | undefined {
    return this.connections.get(serverId);
  }

  servers(): ServerInfo[] {
    return [...this.connections.values()].map((c) => c.info());
  }

  /**
   * `workspace`: only sessions that run in that project folder (or below), with its denials counted;
   * `includeOtherProjects` lists the others too, marked `otherProject` (so a server's session count
   * and the list can be reconciled in the view).
   */
  sessions(filter: { serverId?: string | undefined; project?: string | undefined; limit?: number; workspace?: string | undefined; includeOtherProjects?: boolean } = {}): SessionInfo[] {
    const counts = this.store.denialsPerSession(filter.workspace);
    const under = (dir: string | undefined) => {
      const root = dir?.replace(/\/+$/, '');
      return (session: SessionInfo) => !root || session.directory === root || !!session.directory?.startsWith(`${root}/`);
    };
    const inProject = under(filter.project);
    const inWorkspace = under(filter.workspace);
    const out: SessionInfo[] = [];
    for (const connection of this.connections.values()) {
      if (filter.serverId && connection.id !== filter.serverId) continue;
      for (const session of connection.processor.sessionInfos()) {
        if (!inProject(session)) continue;
        const elsewhere = !inWorkspace(session);
        if (elsewhere && !filter.includeOtherProjects) continue;
        out.push({ ...session, denials: counts.get(session.id) ?? 0, otherProject: elsewhere });
      }
    }
    out.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    return out.slice(0, filter.limit ?? 500);
  }

  /** Follow (or stop following, with null) a project's `.swarm/events.jsonl`. */
  async followProject(projectDir: string | null, follow = true): Promise<void> {
    const previous = this.follower;
    this.follower = null;
    this.feed.setWorkspace(projectDir);
    await previous?.close();
    if (!projectDir) return;
    const follower = new EventsLogFollower(projectDir, (items: FeedItem[], initial: boolean) => {
      if (this.follower === follower) this.feed.addMany(items, initial);
    });
    this.follower = follower;
    await follower.start(follow);
  }

  get eventsLog(): EventsLogFollower | null {
    return this.follower;
  }

  /** Resolves when every server has caught up once (or proved unreachable / unauthorised). */
  async whenSynced(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.whenSynced()));
  }

  async dispose(): Promise<void> {
    clearInterval(this.tick);
    for (const timer of this.sessionTimers.values()) clearTimeout(timer);
    this.sessionTimers.clear();
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
    await this.followProject(null);
    this.store.close();
  }

  private sessionsChanged(serverId: string): void {
    if (this.sessionTimers.has(serverId)) return;
    const timer = setTimeout(() => {
      this.sessionTimers.delete(serverId);
      this.feed.emit({ type: 'sessions', serverId });
    }, SESSIONS_THROTTLE_MS);
    timer.unref();
    this.sessionTimers.set(serverId, timer);
  }

  /** Warning counters and the last-event time change without a state change: push them now and then. */
  private emitChangedServers(): void {
    for (const connection of this.connections.values()) {
      const server = connection.info();
      const snapshot = JSON.stringify(server);
      if (this.lastServerSnapshot.get(server.id) === snapshot) continue;
      this.lastServerSnapshot.set(server.id, snapshot);
      this.feed.emit({ type: 'server', server });
    }
  }
}
