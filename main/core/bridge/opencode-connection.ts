import type { ConnectionState, FeedItem, FollowUp, ServerInfo } from '../../../shared/contract/live';
import { EventProcessor } from './event-processor';
import { describeFetchError, OpencodeApi, UnauthorisedError } from './opencode-api';
import { ResponseTooLargeError, type BoundedRoute } from './bounded-body';
import { SseParser } from './sse-parser';

/**
 * The console's link to one `opencode serve`: follows GET /global/event (the one stream that spans
 * every project; /api/event closes at the first session.status and /api/session/{id}/event is
 * silent for classic sessions, so neither is used), catches up through POST /sync/history after
 * every (re)connect and every seq gap, probes /global/health with a 0.5 s timeout before each
 * attempt, and reconnects with backoff.
 */
export interface ConnectionOptions {
  id: string;
  url: string;
  password?: string | undefined;
  label: string;
  initialSeqs?: Map<string, number>;
  saveSeqs?: (entries: [string, number][]) => void;
  /** No bytes (not even the 10 s heartbeat) for this long: "connected but silent". */
  silentAfterMs?: number;
  /** Silent this long: drop the stream and reconnect (a half-open socket looks exactly like this). */
  restartAfterSilenceMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** Failed probes in a row after which "reconnecting" becomes "unreachable". */
  unreachableAfter?: number;
  maxEventChars?: number;
  /** Byte caps of the REST answers (defaults in bounded-body.ts). */
  responseLimits?: Partial<Record<BoundedRoute, number>>;
}

interface ConnectionListener {
  state(server: ServerInfo): void;
  item(item: FeedItem): void;
  followUp(itemId: string, followUp: FollowUp): void;
  sessions(serverId: string): void;
}

const HEADERS_TIMEOUT_MS = 5_000;
const CATCH_UP_RETRY_MS = 2_000;

/** `refused`: the server sent more than the console reads (the same would come again, so no retry). */
type AttemptOutcome = { kind: 'unauthorised' | 'refused' | 'failed' | 'closed'; reason: string };

export class OpencodeConnection {
  readonly processor: EventProcessor;
  private readonly api: OpencodeApi;
  private currentState: ConnectionState = { kind: 'connecting', since: Date.now() };
  private version: string | null = null;
  private lastDataAt: number | null = null;
  private stopped = false;
  private streamAbort: AbortController | null = null;
  private timers = new Set<NodeJS.Timeout>();
  private wake: (() => void) | null = null;
  private catchUpRunning = false;
  private catchUpPending = false;
  private firstSync: { promise: Promise<void>; resolve: () => void };
  private readonly opts: Required<Omit<ConnectionOptions, 'password' | 'initialSeqs' | 'saveSeqs' | 'responseLimits'>>;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly listener: ConnectionListener,
  ) {
    this.opts = {
      id: options.id,
      url: options.url,
      label: options.label,
      silentAfterMs: options.silentAfterMs ?? 15_000,
      restartAfterSilenceMs: options.restartAfterSilenceMs ?? 45_000,
      backoffInitialMs: options.backoffInitialMs ?? 250,
      backoffMaxMs: options.backoffMaxMs ?? 5_000,
      unreachableAfter: options.unreachableAfter ?? 2,
      maxEventChars: options.maxEventChars ?? 4 * 1024 * 1024,
    };
    this.api = new OpencodeApi(options.url, options.password, options.responseLimits);
    let resolve!: () => void;
    this.firstSync = { promise: new Promise<void>((r) => (resolve = r)), resolve };
    this.processor = new EventProcessor(options.id, {
      item: (item) => listener.item(item),
      followUp: (id, f) => listener.followUp(id, f),
      sessionsChanged: () => listener.sessions(options.id),
      gap: () => this.requestCatchUp(),
      alive: () => this.markAlive(),
    }, options.initialSeqs);
  }

  get id(): string {
    return this.opts.id;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  info(): ServerInfo {
    return {
      id: this.opts.id,
      url: this.opts.url,
      label: this.opts.label,
      hasPassword: Boolean(this.options.password),
      state: this.currentState,
      version: this.version,
      sessionCount: this.processor.sessions.size,
      lastEventAt: this.lastDataAt,
      warnings: { ...this.processor.warnings },
    };
  }

  /** Resolves once the first catch-up after connecting is done, or the server proved unreachable/unauthorised. */
  whenSynced(): Promise<void> {
    return this.firstSync.promise;
  }

  start(): void {
    this.every(1_000, () => this.tick());
    void this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.streamAbort?.abort(new Error('stopped'));
    this.wake?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.flushSeqs();
    this.setState({ kind: 'stopped', since: Date.now() });
    this.firstSync.resolve();
  }

  private async run(): Promise<void> {
    let failures = 0;
    let everConnected = false;
    while (!this.stopped) {
      const outcome = await this.attempt();
      if (this.stopped) return;
      if (outcome.kind === 'unauthorised' || outcome.kind === 'refused') {
        this.setState({ kind: outcome.kind, since: Date.now(), reason: outcome.reason });
        this.firstSync.resolve();
        // The same password will not start working, nor the same server send less; the operator
        // reconnects (with another password, or once the server is fixed).
        return;
      }
      if (outcome.kind === 'closed') {
        everConnected = true;
        failures = 0;
      }
      failures++;
      const delay = Math.min(this.opts.backoffInitialMs * 2 ** (failures - 1), this.opts.backoffMaxMs);
      const unreachable = outcome.kind === 'failed' && (!everConnected || failures > this.opts.unreachableAfter);
      const next = { since: Date.now(), attempt: failures, reason: outcome.reason, nextAttemptAt: Date.now() + delay };
      const kind = unreachable ? 'unreachable' : 'reconnecting';
      this.setState(this.currentState.kind === kind ? { ...next, kind, since: this.currentState.since } : { ...next, kind });
      if (unreachable) this.firstSync.resolve();
      await this.sleep(delay);
    }
  }

  private async attempt(): Promise<AttemptOutcome> {
    try {
      this.version = (await this.api.health()).version;
    } catch (error) {
      if (error instanceof UnauthorisedError) return { kind: 'unauthorised', reason: error.message };
      if (error instanceof ResponseTooLargeError) return { kind: 'refused', reason: error.message };
      return { kind: 'failed', reason: describeFetchError(error, this.opts.url) };
    }
    const controller = new AbortController();
    this.streamAbort = controller;
    const headersTimer = setTimeout(() => controller.abort(new Error('no response headers within 5 s')), HEADERS_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(`${this.opts.url}/global/event`, {
        headers: { ...this.api.headers, accept: 'text/event-stream' },
        signal: controller.signal,
      });
    } catch (error) {
      return { kind: 'failed', reason: describeFetchError(error) };
    } finally {
      clearTimeout(headersTimer);
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => {});
      return { kind: 'unauthorised', reason: new UnauthorisedError(response.status).message };
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      return { kind: 'failed', reason: `event stream answered HTTP ${response.status}` };
    }
    this.lastDataAt = Date.now();
    this.setState({ kind: 'connected', since: Date.now() });
    this.requestCatchUp();
    return this.read(response.body, controller);
  }

  private async read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<AttemptOutcome> {
    const parser = new SseParser({
      maxEventChars: this.opts.maxEventChars,
      onData: (data) => this.processor.handleMessage(data),
      onOversized: (chars) => {
        this.markAlive();
        this.processor.warn('oversized', `event of about ${Math.round(chars / 1024)} KiB skipped`);
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        parser.push(decoder.decode(chunk, { stream: true }));
        if (this.stopped) break;
      }
      parser.end();
      return { kind: 'closed', reason: 'stream closed by server' };
    } catch (error) {
      parser.end();
      if (controller.signal.reason instanceof ResponseTooLargeError) return { kind: 'refused', reason: controller.signal.reason.message };
      const reason = controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason.message : describeFetchError(error);
      return { kind: 'closed', reason: reason === 'terminated' ? 'connection lost' : reason };
    } finally {
      this.streamAbort = null;
    }
  }

  /** Stored events since the last known seq per session (all of them for sessions not seen yet). */
  private requestCatchUp(): void {
    if (this.catchUpRunning) {
      this.catchUpPending = true;
      return;
    }
    this.catchUpRunning = true;
    void this.catchUp().finally(() => {
      this.catchUpRunning = false;
      if (this.catchUpPending && !this.stopped && this.streamAbort) {
        this.catchUpPending = false;
        this.requestCatchUp();
      }
    });
  }

  private async catchUp(): Promise<void> {
    const processor = this.processor;
    processor.beginCatchUp();
    try {
      const [sessions, statuses] = await Promise.all([this.api.sessions(), this.api.sessionStatus()]);
      processor.mergeSessions(sessions, statuses);
      processor.handleHistory(await this.api.history(processor.lastSeqs()));
      if (processor.finishCatchUp()) this.catchUpPending = true;
      this.flushSeqs();
      this.firstSync.resolve();
    } catch (error) {
      processor.abandonCatchUp();
      if (error instanceof UnauthorisedError || error instanceof ResponseTooLargeError) {
        this.streamAbort?.abort(error);
        return;
      }
      processor.warn('malformed', `catch-up failed: ${describeFetchError(error)}`);
      this.later(CATCH_UP_RETRY_MS, () => this.streamAbort && this.requestCatchUp());
    }
  }

  private markAlive(): void {
    this.lastDataAt = Date.now();
    if (this.currentState.kind === 'silent') this.setState({ kind: 'connected', since: Date.now() });
  }

  private tick(): void {
    this.flushSeqs();
    if (!this.streamAbort || this.lastDataAt === null) return;
    const quiet = Date.now() - this.lastDataAt;
    if (quiet >= this.opts.restartAfterSilenceMs) {
      this.streamAbort.abort(new Error(`silent for ${Math.round(quiet / 1000)} s`));
    } else if (quiet >= this.opts.silentAfterMs && this.currentState.kind === 'connected') {
      this.setState({ kind: 'silent', since: Date.now(), lastEventAt: this.lastDataAt });
    }
  }

  private flushSeqs(): void {
    const dirty = this.processor.takeDirtySeqs();
    if (dirty.length) this.options.saveSeqs?.(dirty);
  }

  private setState(state: ConnectionState): void {
    this.currentState = state;
    this.listener.state(this.info());
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.wake = null;
        resolve();
      }, ms);
      this.timers.add(timer);
      this.wake = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve();
      };
    });
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(timer);
  }

  private every(ms: number, fn: () => void): void {
    const timer = setInterval(fn, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
