import crypto from 'node:crypto';

/**
 * Canonical JSON as the V2 receipt ledger proposes it: object keys sorted by UTF-16 code
 * unit order at every depth, no insignificant whitespace, JSON.stringify's string and
 * number forms. Sorting with the default comparator is code-unit order, not locale order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('canonical JSON cannot hold a non-finite number');
    if (value === undefined) throw new TypeError('canonical JSON cannot hold undefined');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

export const sha256Hex = (text: string | Buffer): string => crypto.createHash('sha256').update(text).digest('hex');

/** The record hash: SHA-256 over the canonical JSON of the record without its `hash` field. */
export function receiptRecordHash(record: Record<string, unknown>): string {
  const { hash: _ignored, ...rest } = record;
  return sha256Hex(canonicalJson(rest));
}

export const GENESIS_PREV = '0'.repeat(64);
