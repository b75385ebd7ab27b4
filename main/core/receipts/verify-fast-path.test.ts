import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, receiptRecordHash } from '../rules/canonical-json';
import { ChainBuilder, type ReceiptRecord } from '../../demo/receipt-chain';
import { sourceHashWorkerSpec } from '../../../testing/workers/source-worker';
import { HashPool } from './hash-pool';
import { verifyChainFile, type VerifyOptions } from './verify-file';

/**
 * The fast path's shortcuts, one defect each, in the middle of a run of ordinary lines (where a
 * batch marks lines LINKED and the reading thread checks only their type): every way of hashing
 * must find the break exactly where the exact path (every record parsed) finds it.
 */

let dir: string;
let workers: HashPool;
let records: ReceiptRecord[];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-fast-path-'));
  workers = new HashPool({ size: 2, spec: sourceHashWorkerSpec });
  const builder = new ChainBuilder({ stepMs: 1000 });
  for (let n = 0; builder.records.length < 600; n++) {
    const trace = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    if (n % 2 === 0) builder.membership(trace, [{ entry_id: 'e-1', priority: 'critical' }]);
    else builder.terminal(trace, 'e-1', 'applied', 'reviewer');
  }
  records = builder.records;
});
afterAll(async () => {
  expect(workers.counts.worker).toBeGreaterThan(0);
  await workers.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The record with `change` applied and its own hash made right again (a writer that links wrongly, not a bit flip). */
const rehashed = (record: ReceiptRecord, change: ReceiptRecord) => {
  const { hash: _old, ...rest } = { ...record, ...change };
  return canonicalJson({ ...rest, hash: receiptRecordHash(rest) });
};
const otherDigit = (hex: string, at: number) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

const AT = 400; // 0-based record index of the defect (line 401)

const cases: [string, () => string[], { defect: string; field: string | null; line?: number }][] = [
  ['a prev that differs from the record before only in its last digit', () => {
    const lines = records.map((r) => canonicalJson(r));
    lines[AT] = rehashed(records[AT]!, { prev: otherDigit(records[AT]!.prev as string, 63) });
    return lines;
  }, { defect: 'prev_mismatch', field: 'prev' }],
  ['a prev that differs only in its first digit', () => {
    const lines = records.map((r) => canonicalJson(r));
    lines[AT] = rehashed(records[AT]!, { prev: otherDigit(records[AT]!.prev as string, 0) });
    return lines;
  }, { defect: 'prev_mismatch', field: 'prev' }],
  ['a seq that skips one', () => {
    const lines = records.map((r) => canonicalJson(r));
    lines[AT] = rehashed(records[AT]!, { seq: (records[AT]!.seq as number) + 1 });
    return lines;
  }, { defect: 'sequence_break', field: 'seq' }],
  ['a gen that changes without a checkpoint', () => {
    const lines = records.map((r) => canonicalJson(r));
    lines[AT] = rehashed(records[AT]!, { gen: 2 });
    return lines;
  }, { defect: 'generation_mismatch', field: 'gen' }],
  ['a record type a journal may not hold (that a quarantine may)', () => {
    const lines = records.map((r) => canonicalJson(r));
    lines[AT] = rehashed(records[AT]!, { type: 'capture' });
    return lines;
  }, { defect: 'unknown_record_type', field: 'type' }],
  ['a stored hash wrong in its last digit, the next prev matching it', () => {
    const lines = records.map((r) => canonicalJson(r));
    const wrong = otherDigit(records[AT]!.hash as string, 63);
    lines[AT] = canonicalJson({ ...records[AT]!, hash: wrong });
    lines[AT + 1] = rehashed(records[AT + 1]!, { prev: wrong });
    return lines;
  }, { defect: 'hash_mismatch', field: 'hash' }],
  ['the last record with a stored hash wrong in its last digit', () => {
    const lines = records.map((r) => canonicalJson(r));
    const last = records.length - 1;
    lines[last] = canonicalJson({ ...records[last]!, hash: otherDigit(records[last]!.hash as string, 63) });
    return lines;
  }, { defect: 'hash_mismatch', field: 'hash', line: 600 }],
  ['an escaped quote at the end of the hash member (62 digits of the right hash, then \\")', () => {
    const lines = records.map((r) => canonicalJson(r));
    const hash = records[AT]!.hash as string;
    lines[AT] = lines[AT]!.replace(`"hash":"${hash}"`, `"hash":"${hash.slice(0, 62)}\\""`);
    return lines;
  }, { defect: 'missing_field', field: 'hash' }],
];

const hashing: [string, () => VerifyOptions][] = [
  ['line by line', () => ({ hashPool: null })],
  ['in-thread batches', () => ({ hashPool: new HashPool({ spec: () => null }) })],
  ['worker threads', () => ({ hashPool: workers })],
];

describe('every fast path breaks where the exact path does', () => {
  it.each(cases)('%s', async (name, build, expected) => {
    const lines = build();
    const file = path.join(dir, `${name.replace(/\W+/g, '-').slice(0, 60)}.jsonl`);
    fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    const exact = await verifyChainFile('journal', file, { onRecord: () => undefined });
    expect(exact.state).toBe('corrupt');
    expect(exact.break).toMatchObject({ line: expected.line ?? AT + 1, defect: expected.defect, field: expected.field });
    for (const [way, options] of hashing) {
      for (const chunkBytes of [undefined, 4096]) {
        const report = await verifyChainFile('journal', file, { ...options(), ...(chunkBytes ? { chunkBytes } : {}) });
        expect({ way, chunkBytes, report }).toEqual({ way, chunkBytes, report: exact });
      }
    }
  });
});
