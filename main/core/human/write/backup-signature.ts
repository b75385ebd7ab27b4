import crypto from 'node:crypto';
import { canonicalJson } from '../../rules/canonical-json';

/**
 * Backups are trusted by who made them, not by how they look: every manifest.json this console
 * writes carries `signature`, an HMAC-SHA256 with a key derived from the per-install secret
 * (human/secret.ts) over the canonical JSON of the manifest without its `signature` field. A
 * folder planted under `quarantine-backups/` can be self-consistent (its files hash to its
 * manifest) but cannot carry a signature that verifies here.
 *
 * A manifest without `signature` is either from before signing existed or planted: the two cannot
 * be told apart, so both need the person's separate, explicit choice before a rollback.
 */
export const SIGNATURE_ALG = 'hmac-sha256';

export interface ManifestSignature {
  alg: typeof SIGNATURE_ALG;
  /** Names the key without revealing it, so a backup from another install of the console says so. */
  key_id: string;
  value: string;
}

export type ManifestTrust =
  | { state: 'signed'; label: string }
  | { state: 'unsigned_legacy'; label: string }
  | { state: 'foreign'; label: string; why: string };

export const TRUST_LABELS = {
  signed: 'signed by this console',
  unsigned_legacy: 'unsigned (made before signing)',
  foreign: 'not made by this console (unsigned)',
} as const;

const keyId = (key: Buffer): string => crypto.createHmac('sha256', key).update('backup-key-id').digest('hex').slice(0, 16);

const mac = (manifest: Record<string, unknown>, key: Buffer): string => {
  const { signature: _ignored, ...rest } = manifest;
  return crypto.createHmac('sha256', key).update(canonicalJson(rest)).digest('hex');
};

/** The manifest with its `signature` (over everything else in it). */
export function signManifest(manifest: Record<string, unknown>, key: Buffer): Record<string, unknown> {
  const { signature: _dropped, ...rest } = manifest;
  const signature: ManifestSignature = { alg: SIGNATURE_ALG, key_id: keyId(key), value: mac(rest, key) };
  return { ...rest, signature };
}

/** Whether this console made the manifest: signed and verifying with this install's key. */
export function manifestTrust(manifest: unknown, key: Buffer): ManifestTrust {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) return { state: 'foreign', label: TRUST_LABELS.foreign, why: 'manifest.json is missing or not an object' };
  const record = manifest as Record<string, unknown>;
  if (!('signature' in record)) return { state: 'unsigned_legacy', label: TRUST_LABELS.unsigned_legacy };
  const signature = record.signature as Partial<ManifestSignature> | null;
  if (!signature || typeof signature !== 'object' || signature.alg !== SIGNATURE_ALG || typeof signature.value !== 'string') {
    return { state: 'foreign', label: TRUST_LABELS.foreign, why: 'its signature field is not an hmac-sha256 signature' };
  }
  let expected: string;
  try {
    expected = mac(record, key);
  } catch {
    return { state: 'foreign', label: TRUST_LABELS.foreign, why: 'its manifest cannot be put in canonical form' };
  }
  const given = Buffer.from(signature.value, 'utf8');
  if (given.length === expected.length && crypto.timingSafeEqual(given, Buffer.from(expected, 'utf8'))) return { state: 'signed', label: TRUST_LABELS.signed };
  const why = signature.key_id === keyId(key) ? "its signature does not verify: the manifest was changed after this console signed it" : 'it was signed with another key (another install of the console, or forged)';
  return { state: 'foreign', label: TRUST_LABELS.foreign, why };
}
