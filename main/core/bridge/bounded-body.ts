/**
 * Every response body read from an OpenCode server is read with a byte cap: a misbehaving (or
 * hostile) server that streams an endless body would otherwise be buffered whole (the issue saw
 * 6 GB). Over the cap the request is cancelled and the caller gets a `ResponseTooLargeError`
 * naming the cap, which the connection shows as its state.
 */
const MB = 1024 * 1024;

/** Caps per route, far above what a working server sends (the history is every stored event). */
export const RESPONSE_LIMITS = {
  health: 1 * MB,
  sessions: 32 * MB,
  'session status': 8 * MB,
  history: 64 * MB,
} as const;

export type BoundedRoute = keyof typeof RESPONSE_LIMITS;

export class ResponseTooLargeError extends Error {
  constructor(
    readonly route: string,
    readonly limitBytes: number,
  ) {
    super(`${route} response over ${formatLimit(limitBytes)}`);
    this.name = 'ResponseTooLargeError';
  }
}

const formatLimit = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KiB`);

/** Reads a body as text, stopping (and cancelling the request) once it passes `limitBytes`. */
export async function readBoundedText(response: Response, route: string, limitBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(route, limitBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(route, limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Which capped route a request URL is (the SDK calls these through `boundedFetch`). */
function routeOf(url: string): BoundedRoute | null {
  const pathname = new URL(url).pathname.replace(/\/+$/, '');
  if (pathname.endsWith('/global/health')) return 'health';
  if (pathname.endsWith('/experimental/session')) return 'sessions';
  if (pathname.endsWith('/session/status')) return 'session status';
  if (pathname.endsWith('/sync/history')) return 'history';
  return null;
}

/**
 * A `fetch` for the SDK client whose responses on the capped routes are read here, within the
 * cap, and handed on as a buffered Response; any other route has a 32 MB cap.
 */
export function boundedFetch(limits: Partial<Record<BoundedRoute, number>> = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const route = routeOf(request.url);
    const limit = route ? (limits[route] ?? RESPONSE_LIMITS[route]) : 32 * MB;
    const text = await readBoundedText(response, route ?? new URL(request.url).pathname, limit);
    const headers = new Headers(response.headers);
    // The text is already decoded and may be shorter than declared.
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(response.status === 204 || response.status === 304 ? null : text, { status: response.status, statusText: response.statusText, headers });
  };
}
