import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The page cookie's name carries the port: cookies ignore ports, so two consoles in one browser
 * would otherwise overwrite each other's. The cookie only lets a reload fetch the page itself.
 */
export const pageCookieName = (port: number): string => `swarm_console_page_${port}`;

/** The header that carries the session secret; a browser never attaches it on its own. */
export const SESSION_HEADER = 'x-console-session';

/** Headers every response carries: the page may load only its own scripts and talk only to its own origin. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export const randomSecret = (): string => crypto.randomBytes(32).toString('base64url');

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

export function readCookie(request: IncomingMessage, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

type RequestVerdict = { ok: true } | { ok: false; status: number; reason: string };

/**
 * Loopback only is not enough: a page on another site can still reach 127.0.0.1, and DNS
 * rebinding can put a foreign name in front of it. So the Host must be exactly the address we
 * serve, and any Origin must be our own.
 */
export function checkOrigin(request: IncomingMessage, expectedHost: string): RequestVerdict {
  // Node keeps only the first of repeated Host headers; a proxy in between might use another.
  let hostHeaders = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]?.toLowerCase() === 'host') hostHeaders++;
  if (hostHeaders !== 1) return { ok: false, status: 400, reason: `Expected exactly one Host header, got ${hostHeaders}` };
  const host = request.headers.host;
  if (host !== expectedHost) return { ok: false, status: 421, reason: `Host "${host ?? ''}" is not ${expectedHost}` };
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${expectedHost}`) {
    return { ok: false, status: 403, reason: `Origin "${origin}" is not http://${expectedHost}` };
  }
  return { ok: true };
}

/**
 * The API answers only the console's own pages. Browsers send `Sec-Fetch-Site` on every request
 * (Origin is missing on same-origin GETs, e.g. a subscription), so it is the check that also
 * covers subscriptions; clients that send neither (curl, tests) still need the session header.
 */
export function checkFetchSite(request: IncomingMessage): RequestVerdict {
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin') return { ok: true };
  return { ok: false, status: 403, reason: `The console API answers only its own pages (Sec-Fetch-Site: ${String(site).slice(0, 40)})` };
}
