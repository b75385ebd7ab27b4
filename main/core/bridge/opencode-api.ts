import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2';
import { boundedFetch, readBoundedText, RESPONSE_LIMITS, ResponseTooLargeError, type BoundedRoute } from './bounded-body';

/**
 * The REST side of one OpenCode server, through the official SDK (v2 flavour, flat parameters)
 * where it works. Every request carries its own timeout: during start-up the server accepts a
 * connection and then never answers, so an unbounded request would hang the bridge for ever.
 */
const HEALTH_TIMEOUT_MS = 500;
const LIST_TIMEOUT_MS = 10_000;
const HISTORY_TIMEOUT_MS = 60_000;

export class UnauthorisedError extends Error {
  constructor(readonly status: number) {
    super(status === 403 ? 'forbidden (HTTP 403)' : 'wrong or missing password (HTTP 401)');
    this.name = 'UnauthorisedError';
  }
}

function basicAuthHeader(password: string | undefined, username = 'opencode'): Record<string, string> {
  if (!password) return {};
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

/** `http://host:port` without a trailing slash; rejects anything but http(s). */
export function normaliseServerUrl(raw: string): string {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Not an http(s) URL: ${raw}`);
  url.hash = '';
  url.search = '';
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/+$/, '');
}

/** Why fetch (undici) refuses a URL before connecting: its port is on the browsers' unsafe list. */
export const blockedPortMessage = (port: string) =>
  `port ${port} is blocked by the HTTP client (fetch refuses ports browsers consider unsafe, e.g. 1, 6000, 6667); start the server on another port`;

/** Turns a fetch failure into a short reason an operator can act on (`url` names a blocked port). */
export function describeFetchError(error: unknown, url?: string): string {
  if (error instanceof UnauthorisedError || error instanceof ResponseTooLargeError) return error.message;
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'no answer in time';
  if (e?.name === 'AbortError') return 'aborted';
  if (e?.cause?.message === 'bad port') return blockedPortMessage(url ? new URL(url).port || '(default)' : '(given)');
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  return (e?.cause?.message ?? e?.message ?? String(error)).slice(0, 200);
}

export interface SessionRecord {
  id: string;
  directory?: string;
  projectID?: string;
  title?: string;
  agent?: string;
  time?: { created?: number; updated?: number };
}

export interface HistoryEvent {
  id: string;
  aggregate_id: string;
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

export type SessionStatusMap = Record<string, { type?: string }>;

export class OpencodeApi {
  readonly client: OpencodeClient;
  readonly headers: Record<string, string>;

  constructor(
    readonly baseUrl: string,
    password: string | undefined,
    private readonly limits: Partial<Record<BoundedRoute, number>> = {},
  ) {
    this.headers = basicAuthHeader(password);
    this.client = createOpencodeClient({ baseUrl, headers: this.headers, fetch: boundedFetch(limits) });
  }

  private check<T>(result: { data?: T; error?: unknown; response?: Response }, what: string): T {
    // No response: the SDK hands back the fetch error itself (refused, timed out…); rethrow it so
    // describeFetchError can name the cause.
    if (!result.response && result.error instanceof Error) throw result.error;
    const status = result.response?.status ?? 0;
    if (status === 401 || status === 403) throw new UnauthorisedError(status);
    if (result.error !== undefined || result.data === undefined) throw new Error(`${what}: HTTP ${status || 'error'}`);
    return result.data;
  }

  async health(timeoutMs = HEALTH_TIMEOUT_MS): Promise<{ version: string | null }> {
    const result = await this.client.global.health({ signal: AbortSignal.timeout(timeoutMs) });
    const data = this.check(result, 'health');
    return { version: typeof data.version === 'string' ? data.version : null };
  }

  /** All sessions of all directories (GET /experimental/session). */
  async sessions(): Promise<SessionRecord[]> {
    const result = await this.client.experimental.session.list({ limit: 2000 }, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
    const data = this.check(result, 'sessions');
    return Array.isArray(data) ? (data as SessionRecord[]) : [];
  }

  async sessionStatus(): Promise<SessionStatusMap> {
    const result = await this.client.session.status({}, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
    return this.check(result, 'session status') as SessionStatusMap;
  }

  /**
   * Stored events with `seq` above the given one per session, plus the full history of every
   * session not listed (POST /sync/history). This is the only catch-up: the streams never replay.
   */
  async history(lastSeq: Record<string, number>): Promise<HistoryEvent[]> {
    // Plain fetch: the SDK's sync.history.list (1.18.33) sends no body for `{}` (every first
    // catch-up), and the server answers 400 "Expected object, got undefined".
    const response = await fetch(`${this.baseUrl}/sync/history`, {
      method: 'POST',
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify(lastSeq),
      signal: AbortSignal.timeout(HISTORY_TIMEOUT_MS),
    });
    if (!response.ok) await response.body?.cancel().catch(() => undefined);
    if (response.status === 401 || response.status === 403) throw new UnauthorisedError(response.status);
    if (!response.ok) throw new Error(`sync history: HTTP ${response.status}`);
    const data: unknown = JSON.parse(await readBoundedText(response, 'history', this.limits.history ?? RESPONSE_LIMITS.history));
    return Array.isArray(data) ? (data as HistoryEvent[]) : [];
  }
}
