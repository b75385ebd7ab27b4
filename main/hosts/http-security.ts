import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const SESSION_COOKIE = 'swarm_console_session';

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

export type RequestVerdict = { ok: true } | { ok: false; status: number; reason: string };

/**
 * Loopback only is not enough: a page on another site can still reach 127.0.0.1, and DNS
 * rebinding can put a foreign name in front of it. So the Host must be exactly the address we
 * serve, and any Origin must be our own.
 */
export function checkOrigin(request: IncomingMessage, expectedHost: string): RequestVerdict {
  const host = request.headers.host;
  if (host !== expectedHost) return { ok: false, status: 421, reason: `Host "${host ?? ''}" is not ${expectedHost}` };
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${expectedHost}`) {
    return { ok: false, status: 403, reason: `Origin "${origin}" is not http://${expectedHost}` };
  }
  return { ok: true };
}
