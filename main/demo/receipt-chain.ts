import { GENESIS_PREV, canonicalJson, sha256Hex } from '../core/rules/canonical-json';
import type { LineWriter } from './line-writer';

export const RECEIPT_SCHEMA = 'swarm.knowledge-receipt/2';
export const RECEIPT_SNAPSHOT_SCHEMA = 'swarm.knowledge-receipt-snapshot/2';

type Rec = Record<string, unknown>;

/**
 * Canonical line and hash of a record in one pass: each top-level value is serialised once,
 * the hash covers the pieces without `hash`, and the line is the same pieces with `hash`
 * spliced in at its sorted position. Equal to `canonicalJson`/`receiptRecordHash` (tested).
 */
export function sealRecord(record: Rec): { hash: string; line: string } {
  const keys = Object.keys(record)
    .filter((key) => key !== 'hash' && record[key] !== undefined)
    .sort();
  const pieces = keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  const hash = sha256Hex(`{${pieces.join(',')}}`);
  let at = keys.findIndex((key) => key > 'hash');
  if (at < 0) at = keys.length;
  pieces.splice(at, 0, `"hash":"${hash}"`);
  return { hash, line: `{${pieces.join(',')}}` };
}

/**
 * Appends records to a hash-chained receipt file (journal, archive or quarantine): assigns
 * `seq` (contiguous from `startSeq`) and `prev`, seals each record and streams its canonical
 * line. Keeps the first `keepLines` lines in memory for callers that quote a prefix.
 */
export class ReceiptChain {
  seq: number;
  prev: string;
  lastTs: string | null = null;
  readonly keptLines: string[] = [];

  constructor(
    private readonly writer: LineWriter,
    options: { startSeq?: number; prev?: string; keepLines?: number } = {},
  ) {
    this.seq = (options.startSeq ?? 1) - 1;
    this.prev = options.prev ?? GENESIS_PREV;
    this.keepLines = options.keepLines ?? 0;
  }

  private readonly keepLines: number;

  append(record: Rec): { seq: number; hash: string } {
    const seq = this.seq + 1;
    const { hash, line } = sealRecord({ ...record, seq, prev: this.prev });
    this.writer.line(line);
    if (this.keptLines.length < this.keepLines) this.keptLines.push(line);
    this.seq = seq;
    this.prev = hash;
    if (typeof record.ts === 'string') this.lastTs = record.ts;
    return { seq, hash };
  }

  /**
   * Fast path for records built with every key in canonical order, including `hash`, `prev`
   * and `seq` slots, and values JSON.stringify already writes canonically (plain strings,
   * integers, null, arrays, sorted objects). One stringify gives the line; the hash covers it
   * without the `hash` member.
   */
  appendSorted(record: Rec): { seq: number; hash: string } {
    const seq = this.seq + 1;
    record.seq = seq;
    record.prev = this.prev;
    record.hash = HASH_SLOT;
    const json = JSON.stringify(record);
    const hash = sha256Hex(json.replace(HASH_MEMBER, ''));
    const line = json.replace(HASH_SLOT, hash);
    record.hash = hash;
    this.writer.line(line);
    if (this.keptLines.length < this.keepLines) this.keptLines.push(line);
    this.seq = seq;
    this.prev = hash;
    if (typeof record.ts === 'string') this.lastTs = record.ts;
    return { seq, hash };
  }
}

/** Never valid hex, so it cannot collide with any hash or id in a record. */
const HASH_SLOT = 'z'.repeat(64);
const HASH_MEMBER = `"hash":"${HASH_SLOT}",`;

/** `entry_set_key`: the first 16 hex of SHA-256 over the sorted unique entry ids joined by `\n`. */
export const entrySetKey = (entryIds: readonly string[]): string => sha256Hex([...new Set(entryIds)].sort().join('\n')).slice(0, 16);
