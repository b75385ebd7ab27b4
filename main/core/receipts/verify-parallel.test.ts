import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceHashWorkerSpec } from '../../../testing/workers/source-worker';
import { ChainBuilder } from '../../demo/receipt-chain';
import { writeReceiptJournal } from '../../demo/generate';
import { FastEnvelope, readEnvelope } from './fast-envelope';
import { HashPool } from './hash-pool';
import { hashLines, HASHED, META_FIELDS } from './receipt-hash-lines';
import { verifyChainFile, type VerifyOptions } from './verify-file';

/**
 * Verification on worker threads gives the single-threaded verifier's report, byte for byte, on
 * the generated (real-shaped) journal and on hostile variants of it, at several chunk sizes.
 */

let dir: string;
let workers: HashPool;
let real: Buffer;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-parallel-'));
  workers = new HashPool({ size: 2, spec: sourceHashWorkerSpec });
  const file = path.join(dir, 'real.jsonl');
  writeReceiptJournal(file, { records: 3_000, seed: 21 });
  real = fs.readFileSync(file);
});
afterAll(async () => {
  await workers.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A line whose `prev` value, read at its fixed width, would end on the second byte (a quote) of the next line. */
const RUNS_ON = `{"gen":1,"hash":"${'a'.repeat(64)}","prev":""schema":"swarm.knowledge-receipt/2","seq":7,"type":"capture"}`;

const linesOf = (bytes: Buffer) => bytes.toString('latin1').split('\n').slice(0, -1);
const join = (lines: string[], end = '\n') => Buffer.from(lines.map((l) => l + end).join(''), 'latin1');

/** The journal with one thing done to it, as a hostile or broken writer would. */
function corpus(): [string, Buffer][] {
  const lines = linesOf(real);
  const at = 1_501;
  const edit = (fn: (l: string[]) => void) => {
    const copy = [...lines];
    fn(copy);
    return join(copy);
  };
  const checkpointed = new ChainBuilder();
  for (let i = 0; i < 40; i++) checkpointed.membership(`t-${i}`, [{ entry_id: 'e-1', priority: 'critical' }]);
  checkpointed.checkpoint({ traces: [], open_phases: [], grace_phases: [], uncertainty: [] });
  checkpointed.append({ type: 'uncertainty', kind: 'legacy_unverifiable', detail: 'evicted', phase: 'Phase 2' });
  for (let i = 0; i < 40; i++) checkpointed.terminal(`t-${i}`, 'e-1', 'applied', 'reviewer');
  return [
    ['intact', real],
    ['a flipped byte', edit((l) => (l[at] = l[at]!.replace('"ts":"2', '"ts":"3')))],
    ['a removed line', edit((l) => l.splice(at, 1))],
    ['a duplicated line', edit((l) => l.splice(at, 0, l[at]!))],
    ['an empty line', edit((l) => l.splice(at, 0, ''))],
    ['not JSON', edit((l) => (l[at] = l[at]!.slice(0, -1)))],
    ['a swapped prev', edit((l) => (l[at] = l[at]!.replace(/"prev":"[0-9a-f]{64}"/, `"prev":"${'f'.repeat(64)}"`)))],
    ['CRLF line ends', join(lines, '\r\n')],
    ['invalid UTF-8 in a value', Buffer.concat([join(lines.slice(0, at)), Buffer.from([0xff, 0xfe, 0x0a]), join(lines.slice(at))])],
    ['a short line whose prev would run into the next line', edit((l) => (l[at] = RUNS_ON))],
    ['a truncated tail', real.subarray(0, real.length - 100)],
    ['a tail that is a whole record', real.subarray(0, real.length - 1)],
    ['checkpoints and uncertainty', Buffer.from(checkpointed.text())],
  ];
}

const hashings: [string, () => VerifyOptions][] = [
  ['in-thread batches', () => ({ hashPool: new HashPool({ spec: () => null }) })],
  ['worker threads', () => ({ hashPool: workers })],
];

describe('the report does not depend on where hashes are checked', () => {
  it.each([[undefined], [4096], [1_000]])('on the real and hostile corpora, chunk size %s', async (chunkBytes) => {
    const states: Record<string, string> = {};
    for (const [name, bytes] of corpus()) {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.jsonl`);
      fs.writeFileSync(file, bytes);
      const options = chunkBytes ? { chunkBytes } : {};
      const single = await verifyChainFile('journal', file, { ...options, hashPool: null });
      states[name] = `${single.state}${single.break ? ` ${single.break.defect}` : ''}`;
      for (const [hashing, pool] of hashings) {
        expect({ name, hashing, report: await verifyChainFile('journal', file, { ...options, ...pool() }) }).toEqual({ name, hashing, report: single });
      }
    }
    expect(states).toEqual({
      intact: 'ok',
      'a flipped byte': 'corrupt hash_mismatch',
      'a removed line': 'corrupt sequence_break',
      'a duplicated line': 'corrupt sequence_break',
      'an empty line': 'corrupt empty_line',
      'not JSON': 'corrupt invalid_json',
      'a swapped prev': 'corrupt hash_mismatch',
      'CRLF line ends': 'ok',
      'invalid UTF-8 in a value': 'corrupt invalid_json',
      'a short line whose prev would run into the next line': 'corrupt invalid_json',
      'a truncated tail': 'incomplete_tail',
      'a tail that is a whole record': 'incomplete_tail',
      'checkpoints and uncertainty': 'legacy_unverifiable',
    });
    expect(workers.counts.worker).toBeGreaterThan(0);
  });

  it('a line longer than the longest record accepted, and what follows it', async () => {
    const lines = linesOf(real).slice(0, 200);
    lines.splice(100, 0, `{"x":"${'y'.repeat(20_000)}"}`);
    const file = path.join(dir, 'long.jsonl');
    fs.writeFileSync(file, join(lines));
    const options = { chunkBytes: 4096, maxLineBytes: 8192 };
    const single = await verifyChainFile('journal', file, { ...options, hashPool: null });
    expect(single.break).toMatchObject({ line: 101, defect: 'line_too_long' });
    expect(single.lines).toBe(201);
    for (const [, pool] of hashings) expect(await verifyChainFile('journal', file, { ...options, ...pool() })).toEqual(single);
  });
});

describe('hash pool', () => {
  it('hashes in-thread, with the same results, when its worker cannot start', async () => {
    const broken = new HashPool({ size: 1, spec: () => ({ filename: path.join(dir, 'no-such-worker.js'), options: {} }) });
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const block = real.subarray(0, real.indexOf(0x0a, 50_000) + 1);
      const { result } = await broken.hash(Buffer.from(block), true);
      expect(broken.counts).toEqual({ worker: 0, inline: 1 });
      expect(result).toEqual(hashLines(block, true));
    } finally {
      console.warn = warn;
      await broken.dispose();
    }
  });

  it('a block crosses to a worker and comes back with its bytes', async () => {
    const block = Buffer.from(real.subarray(0, real.indexOf(0x0a, 50_000) + 1));
    const copy = Buffer.from(block);
    const before = workers.counts.worker;
    const { block: back, result } = await workers.hash(block, true, true);
    expect(workers.counts.worker).toBe(before + 1);
    expect(block.length).toBe(0); // the memory moved to the worker…
    expect(back.equals(copy)).toBe(true); // …and came back unchanged
    expect(result).toEqual(hashLines(copy, true));
    expect(result.count).toBeGreaterThan(10);
    for (let i = 0; i < result.count; i++) expect(result.meta[i * META_FIELDS]).toBe(HASHED);
  });
});

describe('readEnvelope in a block of lines', () => {
  it('never reads a fixed-width value past the end of its line', () => {
    const short = RUNS_ON;
    const next = linesOf(real)[0]!;
    const envelope = new FastEnvelope();
    expect(readEnvelope(short, 0, short.length, true, envelope)).toBe(false);
    expect(readEnvelope(`${short}\n${next}`, 0, short.length, true, envelope)).toBe(false);
  });
});
