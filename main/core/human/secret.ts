import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the console keeps its human-only state inside its user-data folder. */
export interface HumanStatePaths {
  dir: string;
  secret: string;
  usedNonces: string;
  audit: string;
}

export const humanStatePaths = (userDataDir: string): HumanStatePaths => {
  const dir = path.join(userDataDir, 'human-only');
  return { dir, secret: path.join(dir, 'confirmation.key'), usedNonces: path.join(dir, 'used-nonces.jsonl'), audit: path.join(dir, 'audit.jsonl') };
};

/**
 * The per-install secret that signs confirmation tokens: 32 random bytes, created on first use
 * with owner-only permissions. It never leaves this process (not in a response, a log or a backup);
 * deleting the file invalidates every outstanding token.
 */
export function loadOrCreateSecret(paths: HumanStatePaths): Buffer {
  fs.mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  try {
    const hex = fs.readFileSync(paths.secret, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
    throw new Error(`${paths.secret} is not a 32-byte hex secret; delete it to create a new one (outstanding tokens become invalid)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = crypto.randomBytes(32);
  try {
    // 'wx': two processes starting together must not overwrite each other's secret.
    fs.writeFileSync(paths.secret, `${secret.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSecret(paths);
    throw error;
  }
}

/** The secret if this install has one, without creating it (for read-only tools such as `audit`). */
export function readSecret(paths: HumanStatePaths): Buffer | null {
  try {
    const hex = fs.readFileSync(paths.secret, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
  } catch {
    return null;
  }
}

/**
 * A key for one purpose, derived from the per-install secret (HMAC with the purpose as message),
 * so a backup manifest's signature can never pass as a token's and the secret itself signs nothing
 * outside its own purpose.
 */
export const derivedKey = (secret: Buffer, purpose: 'backup-manifest-v1'): Buffer => crypto.createHmac('sha256', secret).update(purpose).digest();
