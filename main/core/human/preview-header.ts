import type { HumanServices } from './runner';
import type { MintedToken } from './tokens';
import type { StoreSnapshot } from './write/store-snapshot';

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
