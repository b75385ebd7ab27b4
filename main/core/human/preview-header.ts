import type { CallerContext } from './confirmation';
import type { HumanServices } from './runner';
import type { MintedToken } from './tokens';
import type { StoreLine, StoreSnapshot } from './write/store-snapshot';

/** The store fingerprint as every preview shows it to the person. */
const fingerprintShape = (snapshot: StoreSnapshot) => ({
  path: snapshot.path,
  entryCount: snapshot.fingerprint.entry_count,
  lineCount: snapshot.fingerprint.line_count,
  byteLength: snapshot.fingerprint.byte_length,
  fileSha256: snapshot.fingerprint.file_sha256,
});

/** What every human-only preview starts with: the token, its expiry, the console version and the store it binds. */
export const previewHeader = (services: HumanServices, minted: MintedToken, snapshot: StoreSnapshot) => ({
  token: minted.token,
  token12: minted.token12,
  expiresAt: new Date(minted.payload.exp).toISOString(),
  consoleVersion: services.consoleVersion,
  store: fingerprintShape(snapshot),
});

/**
 * Mints the token of a preview that names exact lines of one store: it binds their ids, each
 * line's sha256 and the store's fingerprint (plus `bind`, the command's other files and values).
 */
export const mintForLines = (services: HumanServices, caller: CallerContext, op: string, snapshot: StoreSnapshot, lines: readonly StoreLine[], bind: Record<string, string> = {}) =>
  services.preview(caller, {
    op,
    target: snapshot.path,
    ids: lines.map((l) => l.id as string),
    lines: Object.fromEntries(lines.map((l) => [l.id as string, l.sha256])),
    store: snapshot.fingerprint,
    bind,
  });
