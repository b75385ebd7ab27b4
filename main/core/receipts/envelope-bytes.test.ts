import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainBuilder } from '../../demo/receipt-chain';
import { writeReceiptJournal } from '../../demo/generate';
import { readEnvelopeBytes, verifiedOwnHash } from './envelope-bytes';
import { FastEnvelope, HASH_MEMBER_BYTES, readEnvelope } from './fast-envelope';
import { seededRandom } from '../../../testing/stores/synthetic-stores';

/**
 * The byte-level envelope reader makes the string reader's decisions (`readEnvelope`, the
 * reference the fast path was first built and proven on), on real lines and on lines mutated
 * where the envelope is, each read inside a block whose neighbouring lines offer bytes that
 * would complete a search or a fixed-width value running past the line's end.
 */

let dir: string;
let lines: string[];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envelope-bytes-'));
  const file = path.join(dir, 'real.jsonl');
  writeReceiptJournal(file, { records: 1_500, seed: 7 });
  const builder = new ChainBuilder();
  for (let i = 0; i < 5; i++) builder.membership(`t-${i}`, [{ entry_id: 'e-1', priority: 'critical' }]);
  builder.checkpoint({ traces: [], open_phases: [], grace_phases: [], uncertainty: [] });
  builder.terminal('t-1', 'e-1', 'applied', 'reviewer');
  lines = [...fs.readFileSync(file, 'latin1').split('\n').slice(0, -1), ...builder.text().split('\n').slice(0, -1)];
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));


const TEMPTING = ['"', ',', ':', '{', '}', '\\', '0', '1', '9', 'a', 'f', '"hash":"', '"prev":"', '"seq":', '"gen":', '"type":"', '"schema":"', 'terminal"', '\n'];

/** One edit near the envelope (most of it sits in the line's last 500 bytes), as a hostile writer might make. */
function mutate(line: string, next: () => number): string {
  const at = Math.max(0, line.length - 1 - Math.floor(next() * Math.min(line.length, 520)));
  const piece = TEMPTING[Math.floor(next() * TEMPTING.length)]!;
  switch (Math.floor(next() * 5)) {
    case 0:
      return line.slice(0, at) + piece + line.slice(at + 1);
    case 1:
      return line.slice(0, at) + piece + line.slice(at);
    case 2:
      return line.slice(0, at) + line.slice(at + 1 + Math.floor(next() * 8));
    case 3:
      return line.slice(0, at);
    default: {
      // Shift a key or value: cut a run out and put it elsewhere.
      const from = Math.max(0, at - Math.floor(next() * 80));
      const run = line.slice(from, at);
      const rest = line.slice(0, from) + line.slice(at);
      const to = Math.floor(next() * rest.length);
      return rest.slice(0, to) + run + rest.slice(to);
    }
  }
}

/** What each reader found, with the byte reader's positions made relative to its line. */
function bothReaders(line: string, before: string, after: string, withGen: boolean) {
  const byString = new FastEnvelope();
  const stringOk = readEnvelope(line, 0, line.length, withGen, byString);
  const block = Buffer.from(`${before}\n${line}\n${after}\n`, 'latin1');
  const start = before.length + 1;
  const byBytes = new FastEnvelope();
  const bytesOk = readEnvelopeBytes(block, start, start + line.length, withGen, byBytes);
  const fields = (ok: boolean, e: FastEnvelope, base: number) =>
    ok ? { ok, seq: e.seq, gen: e.gen, type: e.type, typeIndex: e.typeIndex, prevAt: e.prevAt - base, hashAt: e.hashAt - base, cutStart: e.cutStart - base } : { ok };
  return { string: fields(stringOk, byString, 0), bytes: fields(bytesOk, byBytes, start), block, start, envelope: byBytes };
}

describe('readEnvelopeBytes', () => {
  it('reads every real line as the string reader does', () => {
    let fast = 0;
    for (let i = 0; i < lines.length; i++) {
      for (const withGen of [true, false]) {
        const { string, bytes } = bothReaders(lines[i]!, lines[i - 1] ?? '', lines[i + 1] ?? '', withGen);
        expect(bytes, `line ${i + 1}`).toEqual(string);
        if (string.ok) fast++;
      }
    }
    expect(fast).toBeGreaterThan(lines.length); // most lines are ordinary records
  });

  it('makes the same decision on lines mutated near their envelope, between tempting neighbours', () => {
    const next = seededRandom(21);
    const decoy = `{"gen":7,"hash":"${'b'.repeat(64)}","prev":"${'c'.repeat(64)}","schema":"swarm.knowledge-receipt/2","seq":9,"type":"terminal"}`;
    let agreedOk = 0;
    for (let n = 0; n < 20_000; n++) {
      const line = mutate(lines[Math.floor(next() * lines.length)]!, next).replaceAll('\n', '');
      const withGen = next() < 0.8;
      // Neighbours that complete what a search running past the line would find: a decoy, or the line itself.
      const before = next() < 0.5 ? decoy : line.slice(0, 40);
      const after = next() < 0.5 ? decoy : line.slice(-90);
      const { string, bytes } = bothReaders(line, before, after, withGen);
      expect(bytes, JSON.stringify(line)).toEqual(string);
      if (string.ok) agreedOk++;
    }
    // Both outcomes were exercised.
    expect(agreedOk).toBeGreaterThan(1_000);
    expect(agreedOk).toBeLessThan(19_000);
  });

  it('never reads a fixed-width value past the end of its line', () => {
    const short = `{"gen":1,"hash":"${'a'.repeat(64)}","prev":""schema":"swarm.knowledge-receipt/2","seq":7,"type":"capture"}`;
    const { string, bytes } = bothReaders(short, '', lines[0]!, true);
    expect(string.ok).toBe(false);
    expect(bytes.ok).toBe(false);
  });
});

describe('verifiedOwnHash', () => {
  const sha256 = (text: string) => crypto.createHash('sha256').update(Buffer.from(text, 'latin1')).digest('hex');

  it('confirms a real line and leaves its block unchanged', () => {
    const line = lines[1]!;
    const { block, start, envelope } = bothReaders(line, lines[0]!, lines[2]!, true);
    const copy = Buffer.from(block);
    const cut = envelope.cutStart - start;
    expect(verifiedOwnHash(block, start, start + line.length, envelope)).toBe(sha256(line.slice(0, cut) + line.slice(cut + HASH_MEMBER_BYTES)));
    expect(block.equals(copy)).toBe(true);
  });

  it('confirms a record longer than the scratch memory it keeps, and the next ordinary one', () => {
    const builder = new ChainBuilder();
    builder.terminal('t-1', 'e-1', 'applied', 'reviewer', { reason: 'x'.repeat(3 * 1024 * 1024) });
    builder.terminal('t-2', 'e-1', 'applied', 'reviewer');
    const [huge, next] = builder.text().split('\n') as [string, string];
    for (const [line, record] of [[huge, builder.records[0]!], [next, builder.records[1]!]] as const) {
      const { block, start, envelope, bytes } = bothReaders(line, '', '', true);
      expect(bytes.ok).toBe(true);
      expect(verifiedOwnHash(block, start, start + line.length, envelope)).toBe(record.hash);
    }
  });

  it('refuses a stored hash that differs in any one of its 64 digits', () => {
    const line = lines[1]!;
    const valueAt = line.indexOf('"hash":"') + 8;
    for (let k = 0; k < 64; k++) {
      const digit = line[valueAt + k] === '0' ? '1' : '0';
      const altered = line.slice(0, valueAt + k) + digit + line.slice(valueAt + k + 1);
      const { block, start, envelope, bytes } = bothReaders(altered, lines[0]!, lines[2]!, true);
      expect(bytes.ok).toBe(true);
      expect(verifiedOwnHash(block, start, start + altered.length, envelope), `digit ${k}`).toBeNull();
    }
  });
});
