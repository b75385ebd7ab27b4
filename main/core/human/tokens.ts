import crypto from 'node:crypto';
import { canonicalJson } from '../rules/canonical-json';
import type { StoreFingerprint } from './write/store-snapshot';

/**
 * Confirmation tokens: HMAC-SHA256 with the per-install secret over the canonical JSON of
 * everything the person saw in the preview. `skc1.` + base64url(payload) + `.` + base64url(mac).
 * `token12` (the first 12 hex of the MAC) names the token in backups, audits and rollback;
 * the full token is never logged.
 */
const TOKEN_PREFIX = 'skc1';
export const TOKEN_TTL_MS = 15 * 60_000;
/** How far a token's issue time may lie ahead of this clock (two processes, one machine) before it is refused. */
export const MAX_CLOCK_SKEW_MS = 2 * 60_000;

export interface TokenPayload {
  v: 1;
  /** The human-only command this token may commit (its commit operation's name). */
  op: string;
  /** The absolute path of the store the preview read. */
  target: string;
  /** Sorted exact ids. */
  ids: string[];
  /** id → sha256 of the exact line bytes the person saw. */
  lines: Record<string, string>;
  store: StoreFingerprint;
  console_version: string;
  iat: number;
  exp: number;
  nonce: string;
  /** Command-specific bindings (e.g. the backup a rollback restores from). */
  bind: Record<string, string>;
}

export type TokenSubject = Omit<TokenPayload, 'v' | 'iat' | 'exp' | 'nonce' | 'ids'> & { ids: readonly string[] };

export interface MintedToken {
  token: string;
  token12: string;
  payload: TokenPayload;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const mac = (secret: Buffer, signed: string) => crypto.createHmac('sha256', secret).update(signed).digest();

export function mintToken(secret: Buffer, subject: TokenSubject, now = Date.now()): MintedToken {
  const payload: TokenPayload = {
    ...subject,
    v: 1,
    ids: [...subject.ids].sort(),
    iat: now,
    exp: now + TOKEN_TTL_MS,
    nonce: crypto.randomBytes(16).toString('hex'),
  };
  const signed = `${TOKEN_PREFIX}.${b64url(canonicalJson(payload))}`;
  const digest = mac(secret, signed);
  return { token: `${signed}.${b64url(digest)}`, token12: digest.toString('hex').slice(0, 12), payload };
}

/** Which binding a refused token failed: shown to the operator and written to the audit log. */
type TokenBinding =
  | 'format'
  | 'signature'
  | 'expiry'
  | 'issue time'
  | 'command'
  | 'console version'
  | 'single use'
  | 'store path'
  | 'ids'
  | 'entry'
  | 'store fingerprint'
  | 'binding';

export class TokenRefusal extends Error {
  constructor(
    readonly binding: TokenBinding,
    message: string,
    readonly token12: string | null = null,
  ) {
    super(message);
    this.name = 'TokenRefusal';
  }
}

/** token12 of a well-formed token, without trusting it (for audit records of refusals). */
export function token12Of(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const digest = Buffer.from(parts[2] as string, 'base64url');
  return digest.length === 32 ? digest.toString('hex').slice(0, 12) : null;
}

interface VerifyExpectations {
  op: string;
  consoleVersion: string;
  now?: number;
}

/**
 * Checks the signature (constant time), the command, the console version and the expiry. The
 * store bindings are checked by `checkLiveBindings` against the live store at commit.
 */
export function verifyToken(secret: Buffer, token: string, expected: VerifyExpectations): { payload: TokenPayload; token12: string } {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX) throw new TokenRefusal('format', 'This is not a console confirmation token. Run the preview again.');
  const signed = `${parts[0]}.${parts[1]}`;
  const offered = Buffer.from(parts[2] as string, 'base64url');
  const wanted = mac(secret, signed);
  const token12 = token12Of(token);
  if (offered.length !== wanted.length || !crypto.timingSafeEqual(offered, wanted)) {
    throw new TokenRefusal('signature', 'The token was not issued by this console (signature mismatch): it was forged, altered, or the console secret was reset. Run the preview again.', token12);
  }
  let payload: TokenPayload;
  try {
    payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as TokenPayload;
  } catch {
    throw new TokenRefusal('format', 'The token payload is unreadable.', token12);
  }
  if (payload.op !== expected.op) {
    throw new TokenRefusal('command', `The token was issued for ${payload.op}, not ${expected.op}.`, token12);
  }
  if (payload.console_version !== expected.consoleVersion) {
    throw new TokenRefusal('console version', `The token was issued by console ${payload.console_version}; this is ${expected.consoleVersion}. Run the preview again.`, token12);
  }
  const now = expected.now ?? Date.now();
  // A token from the future was minted under a clock set ahead (or forged with the secret): its 15 minutes would not be 15.
  if (!(typeof payload.iat === 'number' && payload.iat <= now + MAX_CLOCK_SKEW_MS)) {
    throw new TokenRefusal('issue time', `The token says it was issued at ${new Date(Number(payload.iat)).toISOString()}, more than ${MAX_CLOCK_SKEW_MS / 60_000} minutes ahead of this clock. Run the preview again.`, token12);
  }
  if (!(payload.exp > now)) {
    throw new TokenRefusal('expiry', `The token expired at ${new Date(payload.exp).toISOString()} (tokens last 15 minutes). Run the preview again.`, token12);
  }
  return { payload, token12: token12 as string };
}

/** The live facts a commit compares with what the token bound. */
export interface LiveBindings {
  target: string;
  store: StoreFingerprint;
  /** id → sha256 of every live line carrying that id (none: gone; several: ambiguous). */
  lineShasOf(id: string): string[];
  bind?: Record<string, string>;
}

/** Every bound value against the live store; the refusal names the first binding that differs. */
export function checkLiveBindings(payload: TokenPayload, live: LiveBindings, token12: string | null = null): void {
  if (payload.target !== live.target) throw new TokenRefusal('store path', `The token is for ${payload.target}, not ${live.target}.`, token12);
  for (const [key, value] of Object.entries(payload.bind)) {
    if (live.bind?.[key] === value) continue;
    if (key.startsWith('file:')) throw new TokenRefusal('binding', `${key.slice(5)} changed after the preview. Nothing was changed.`, token12);
    throw new TokenRefusal('binding', `The token is bound to ${key} ${value}, not ${live.bind?.[key] ?? '(none)'}.`, token12);
  }
  for (const id of payload.ids) {
    const shas = live.lineShasOf(id);
    const bound = payload.lines[id];
    if (bound === undefined) throw new TokenRefusal('ids', `The token binds id ${id} without its line hash.`, token12);
    if (bound === ABSENT && shas.length === 0) continue;
    if (shas.length === 0) throw new TokenRefusal('entry', `Entry ${id} is no longer in the store (it changed after the preview). Nothing was changed.`, token12);
    if (shas.length > 1) throw new TokenRefusal('entry', `Entry ${id} now occurs ${shas.length} times in the store; the selection is ambiguous. Nothing was changed.`, token12);
    if (shas[0] !== bound) throw new TokenRefusal('entry', `Entry ${id} was rewritten after the preview (its line hash changed). Nothing was changed.`, token12);
  }
  const was = payload.store;
  const now = live.store;
  if (was.entry_count !== now.entry_count) {
    throw new TokenRefusal('store fingerprint', `The store now holds ${now.entry_count} entries, not the ${was.entry_count} of the preview (something was appended or removed). Nothing was changed.`, token12);
  }
  if (was.file_sha256 !== now.file_sha256) {
    throw new TokenRefusal('store fingerprint', 'The store was rewritten after the preview (same number of entries, different bytes or order). Nothing was changed.', token12);
  }
}

/** The line hash bound for an id the command expects to be absent (e.g. one a rollback restores). */
export const ABSENT = 'absent';
