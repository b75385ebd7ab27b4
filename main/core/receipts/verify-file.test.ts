import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, GENESIS_PREV, receiptRecordHash, sha256Hex } from '../rules/canonical-json';
import { ChainBuilder, type ReceiptRecord } from '../../demo/receipt-chain';
import { sourceHashWorkerSpec } from '../../../testing/workers/source-worker';
import { HashPool } from './hash-pool';
import { verifyChainFile, type VerifyOptions } from './verify-file';

let dir: string;
let records: ReceiptRecord[];
let lines: string[];

/** A realistic valid chain: retrievals, terminals from several sources, releases, phase closes. */
function buildChain(count: number): ReceiptRecord[] {
  const builder = new ChainBuilder({ stepMs: 1000 });
  let n = 0;
  while (builder.records.length < count) {
    const trace = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
    const kind = builder.records.length % 50;
    if (kind === 48) builder.gateRelease('staleness', [{ trace_id: trace, entry_id: 'e-1' }]);
    else if (kind === 49) builder.phaseClose('Phase 4', 'success');
    else if (builder.records.length % 2 === 0) builder.membership(trace, [{ entry_id: 'e-1', priority: 'critical' }, { entry_id: 'e-2' }]);
    else builder.terminal(trace, 'e-1', 'applied', 'reviewer', { evidence: { files: ['src/a.ts'], commands: [], tests: [], summary: 'ok' } });
  }
  return builder.records;
}

const offsetOfLine = (all: string[], lineNo: number) => all.slice(0, lineNo - 1).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
const write = (name: string, content: string | Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};
const asFile = (all: string[]) => all.map((l) => `${l}\n`).join('');
const rehash = (record: ReceiptRecord) => {
  const { hash: _old, ...rest } = record;
  return canonicalJson({ ...rest, hash: receiptRecordHash(rest) });
};

/** Every scenario runs through the fast path and the exact path (an `onRecord` consumer forces full parsing). */
const modes: [string, VerifyOptions][] = [
  ['fast path', {}],
  ['exact path', { onRecord: () => undefined }],
  ['small chunks', { chunkBytes: 4096 }],
];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipt-verify-'));
  records = buildChain(10_000);
  lines = records.map((r) => canonicalJson(r));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Every test runs on each way record hashes are checked, with its assertions unchanged: line by
 * line in this thread, in batches in this thread, and in batches on worker threads (the TS
 * worker through tsx, as the built one runs from out/main/).
 */
let workers: HashPool;
beforeAll(() => {
  workers = new HashPool({ size: 2, spec: sourceHashWorkerSpec });
});
afterAll(async () => {
  expect(workers.counts.worker).toBeGreaterThan(0);
  await workers.dispose();
});
const hashing: [string, () => VerifyOptions][] = [
  ['line by line', () => ({ hashPool: null })],
  ['in-thread batches', () => ({ hashPool: new HashPool({ spec: () => null }) })],
  ['worker threads', () => ({ hashPool: workers })],
];

describe.each(hashing)('hashing %s', (_hashing, hashingOptions) => {
  const verify = (kind: Parameters<typeof verifyChainFile>[0], file: string, options: VerifyOptions = {}) => verifyChainFile(kind, file, { ...hashingOptions(), ...options });


  describe.each(modes)('verifyChainFile (%s)', (_mode, options) => {
    it('accepts a valid chain of 10,000 records', async () => {
      const file = write('valid.jsonl', asFile(lines));
      const report = await verify('journal', file, options);
      expect(report).toMatchObject({
        state: 'ok',
        lines: 10_000,
        verifiedRecords: 10_000,
        firstSeq: 1,
        lastSeq: 10_000,
        lastHash: records[9_999]?.hash,
        generation: 1,
        break: null,
        tail: null,
        nonCanonicalLines: 0,
        bytes: fs.statSync(file).size,
        lastPhase: 'Phase 4',
      });
    });

    it('pinpoints a flipped byte in the middle as a hash mismatch', async () => {
      const altered = [...lines];
      const original = altered[4_999] as string;
      const at = original.indexOf('"ts":"2026-') + 10; // a digit of the year
      const flipped = original.slice(0, at) + String.fromCharCode(original.charCodeAt(at) ^ 0x01) + original.slice(at + 1);
      altered[4_999] = flipped;
      const report = await verify('journal', write('flipped.jsonl', asFile(altered)), options);
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({
        line: 5_000,
        byteOffset: offsetOfLine(altered, 5_000),
        byteLength: Buffer.byteLength(flipped),
        seq: 5_000,
        defect: 'hash_mismatch',
        field: 'hash',
        expected: receiptRecordHash(JSON.parse(flipped)),
        found: records[4_999]?.hash,
      });
      expect(report).toMatchObject({ verifiedRecords: 4_999, lastSeq: 4_999, lines: 10_000 });
    });

    it('reports a flipped byte that breaks the JSON as invalid JSON at that line', async () => {
      const altered = [...lines];
      altered[4_999] = (altered[4_999] as string).replace('"type":"', '"type"#"');
      const report = await verify('journal', write('badjson.jsonl', asFile(altered)), options);
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({ line: 5_000, byteOffset: offsetOfLine(altered, 5_000), defect: 'invalid_json', seq: null });
    });

    it('pinpoints a removed line as a sequence break', async () => {
      const altered = lines.filter((_, i) => i !== 4_999);
      const report = await verify('journal', write('removed.jsonl', asFile(altered)), options);
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({ line: 5_000, byteOffset: offsetOfLine(altered, 5_000), defect: 'sequence_break', field: 'seq', expected: '5000', found: '5001' });
      expect(report.break?.message).toMatch(/missing/);
    });

    it('pinpoints a duplicated line as a sequence break', async () => {
      const altered = [...lines.slice(0, 5_000), lines[4_999] as string, ...lines.slice(5_000)];
      const report = await verify('journal', write('duplicated.jsonl', asFile(altered)), options);
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({ line: 5_001, byteOffset: offsetOfLine(altered, 5_001), defect: 'sequence_break', expected: '5001', found: '5000' });
      expect(report.break?.message).toMatch(/duplicated/);
    });

    it('reports a truncated final line as an incomplete tail, not as corruption', async () => {
      const text = asFile(lines);
      const file = write('truncated.jsonl', text.slice(0, text.length - 40));
      const report = await verify('journal', file, options);
      expect(report.state).toBe('incomplete_tail');
      expect(report.tail).toEqual({ line: 10_000, byteOffset: offsetOfLine(lines, 10_000), byteLength: Buffer.byteLength(lines[9_999] as string) - 39, parses: false });
      expect(report).toMatchObject({ verifiedRecords: 9_999, lastSeq: 9_999, break: null, lines: 10_000 });
    });

    it('says when the unterminated final line is already a whole record', async () => {
      const text = asFile(lines);
      const report = await verify('journal', write('nonewline.jsonl', text.slice(0, -1)), options);
      expect(report.state).toBe('incomplete_tail');
      expect(report.tail?.parses).toBe(true);
    });

    it('pinpoints a wrong prev even when the record hash was recomputed', async () => {
      const altered = [...lines];
      const wrongPrev = sha256Hex('not the previous record');
      altered[4_999] = rehash({ ...(records[4_999] as ReceiptRecord), prev: wrongPrev });
      const report = await verify('journal', write('prev.jsonl', asFile(altered)), options);
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({ line: 5_000, defect: 'prev_mismatch', field: 'prev', expected: records[4_998]?.hash, found: wrongPrev, seq: 5_000 });
    });

    it('rejects an unknown record type', async () => {
      const altered = [...lines];
      altered[4_999] = rehash({ ...(records[4_999] as ReceiptRecord), type: 'mystery' });
      const report = await verify('journal', write('type.jsonl', asFile(altered)), options);
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({ line: 5_000, defect: 'unknown_record_type', field: 'type', found: 'mystery' });
      expect(report.break?.expected).toContain('membership');
    });

    it('reports an unknown schema as unsupported', async () => {
      const altered = [...lines];
      altered[2] = rehash({ ...(records[2] as ReceiptRecord), schema: 'swarm.knowledge-receipt/3' });
      const report = await verify('journal', write('schema.jsonl', asFile(altered)), options);
      expect(report.state).toBe('unsupported_schema');
      expect(report.break).toMatchObject({ line: 3, defect: 'unsupported_schema', expected: 'swarm.knowledge-receipt/2', found: 'swarm.knowledge-receipt/3' });
    });

    it('rejects an empty line inside the chain', async () => {
      const altered = [...lines.slice(0, 10), '', ...lines.slice(10, 20)];
      const report = await verify('journal', write('empty.jsonl', asFile(altered)), options);
      expect(report.break).toMatchObject({ line: 11, byteOffset: offsetOfLine(altered, 11), defect: 'empty_line' });
    });
  });

  describe('checkpoint generations', () => {
    function rewritten(): { builder: ChainBuilder; priorLast: ReceiptRecord } {
      const builder = new ChainBuilder();
      for (let i = 0; i < 2_000; i++) builder.membership(`t-${i}`, [{ entry_id: 'e-1' }]);
      const priorLast = builder.records[1_999] as ReceiptRecord;
      builder.records.length = 0; // the rewrite drops the folded generation from the file
      builder.checkpoint({ traces: [], open_phases: ['Phase 5'], grace_phases: [], uncertainty: [] });
      for (let i = 0; i < 10; i++) builder.terminal(`t-${i}`, 'e-1', 'n_a', 'delegate');
      return { builder, priorLast };
    }

    it('accepts a rewritten file that starts with a checkpoint carrying the prior generation', async () => {
      const { builder, priorLast } = rewritten();
      const first = builder.records[0] as ReceiptRecord;
      expect(first).toMatchObject({ seq: 2_001, gen: 2, prior_gen: 1, prior_last_seq: 2_000, prior_last_hash: priorLast.hash, prev: priorLast.hash });
      const report = await verify('journal', write('rewritten.jsonl', builder.text()));
      expect(report).toMatchObject({ state: 'ok', firstSeq: 2_001, lastSeq: 2_011, generation: 2, checkpoints: 1, verifiedRecords: 11 });
    });

    it('accepts a checkpoint appended inside a file', async () => {
      const builder = new ChainBuilder();
      for (let i = 0; i < 5; i++) builder.membership(`t-${i}`, [{ entry_id: 'e-1' }]);
      builder.checkpoint({ traces: [], open_phases: [], grace_phases: [], uncertainty: [] });
      builder.terminal('t-1', 'e-1', 'applied', 'reviewer');
      const report = await verify('journal', write('inline-checkpoint.jsonl', builder.text()));
      expect(report).toMatchObject({ state: 'ok', generation: 2, checkpoints: 1, lastSeq: 7 });
    });

    it('rejects a checkpoint whose prev is not the prior generation’s last hash', async () => {
      const { builder } = rewritten();
      const records2 = builder.records.map((r) => ({ ...r }));
      const wrong = sha256Hex('elsewhere');
      const first = records2[0] as ReceiptRecord;
      const text = [rehash({ ...first, prior_last_hash: wrong }), ...records2.slice(1).map((r) => canonicalJson(r))].map((l) => `${l}\n`).join('');
      const report = await verify('journal', write('bad-checkpoint.jsonl', text));
      expect(report.state).toBe('corrupt');
      expect(report.break).toMatchObject({ line: 1, defect: 'checkpoint_mismatch', field: 'prev', expected: wrong, found: first.prev });
    });

    it('rejects a record that keeps the old generation after a checkpoint', async () => {
      const { builder } = rewritten();
      const altered = builder.records.map((r) => canonicalJson(r));
      altered[3] = rehash({ ...(builder.records[3] as ReceiptRecord), gen: 1 });
      const report = await verify('journal', write('old-gen.jsonl', asFile(altered)));
      expect(report.break).toMatchObject({ line: 4, defect: 'generation_mismatch', field: 'gen', expected: '2', found: '1' });
    });

    it('rejects a checkpoint whose state_sha256 does not match its live state', async () => {
      const { builder } = rewritten();
      const altered = builder.records.map((r) => canonicalJson(r));
      altered[0] = rehash({ ...(builder.records[0] as ReceiptRecord), state_sha256: sha256Hex('x') });
      const report = await verify('journal', write('state.jsonl', asFile(altered)));
      expect(report.break).toMatchObject({ line: 1, defect: 'state_hash_mismatch', found: sha256Hex('x') });
    });

    it('rejects a fresh file that does not start at the genesis prev', async () => {
      const builder = new ChainBuilder({}, { prev: sha256Hex('somewhere') });
      builder.membership('t', [{ entry_id: 'e' }]);
      const report = await verify('journal', write('genesis.jsonl', builder.text()));
      expect(report.break).toMatchObject({ line: 1, byteOffset: 0, defect: 'genesis_mismatch', expected: GENESIS_PREV });
    });
  });

  describe('canonical form on disk', () => {
    it('accepts a line written with unicode escapes and other number forms when its canonical hash verifies', async () => {
      const builder = new ChainBuilder();
      builder.terminal('t', 'e', 'ignored', 'delegate', { reason: 'café – déjà vu', evidence: { files: [], commands: [], tests: [], summary: 'n=1' } });
      builder.membership('t2', [{ entry_id: 'e' }]);
      const [first, second] = builder.records.map((r) => canonicalJson(r)) as [string, string];
      const escaped = first.replace('café – déjà vu', 'caf\\u00e9 \\u2013 d\\u00e9j\\u00e0 vu').replace('"receipt_semantics":2', '"receipt_semantics":2.0');
      const report = await verify('journal', write('escaped.jsonl', `${escaped}\n${second}\n`));
      expect(report).toMatchObject({ state: 'ok', verifiedRecords: 2, nonCanonicalLines: 1 });
    });

    it('verifies lines holding a nested "hash" key and non-ASCII text', async () => {
      const builder = new ChainBuilder();
      builder.terminal('t', 'e', 'applied', 'reviewer', { evidence: { files: ['ü.ts'], commands: [], tests: [], summary: 'ok', hash: sha256Hex('nested') } });
      builder.terminal('t', 'e2', 'violated', 'reviewer', { reason: '日本語の理由' });
      for (const options of [{}, { onRecord: () => undefined }]) {
        const report = await verify('journal', write('nested.jsonl', builder.text()), options);
        expect(report).toMatchObject({ state: 'ok', verifiedRecords: 2, nonCanonicalLines: 0 });
      }
    });
  });

  describe('archive and quarantine chains', () => {
    it('verifies their own seq/prev/hash chains without generations', async () => {
      const archive = new ChainBuilder({}, {}, false);
      archive.append({ type: 'closed_summary', phase: 'Phase 3', traces: [], counts: { applied: 1 } });
      archive.append({ type: 'closed_summary', phase: 'Phase 4', traces: [], counts: { applied: 2 } });
      expect(await verify('archive', write('archive.jsonl', archive.text()))).toMatchObject({ state: 'ok', verifiedRecords: 2, generation: null });
      const quarantine = new ChainBuilder({}, {}, false);
      quarantine.append({ type: 'membership' });
      const report = await verify('quarantine', write('quarantine.jsonl', quarantine.text()));
      expect(report.break).toMatchObject({ defect: 'unknown_record_type', expected: 'capture', found: 'membership' });
    });
  });

  describe('file states', () => {
    it('reports a missing file as absent', async () => {
      expect((await verify('journal', path.join(dir, 'nope.jsonl'))).state).toBe('absent');
    });

    it('reports a directory as unreadable with the reason', async () => {
      fs.mkdirSync(path.join(dir, 'adir.jsonl'), { recursive: true });
      const report = await verify('journal', path.join(dir, 'adir.jsonl'));
      expect(report.state).toBe('unreadable');
      expect(report.osError?.code).toBe('EISDIR');
    });

    it.skipIf(process.getuid?.() === 0)('reports a file without read permission as unreadable with the OS error', async () => {
      const file = write('locked.jsonl', asFile(lines.slice(0, 3)));
      fs.chmodSync(file, 0o000);
      const report = await verify('journal', file);
      fs.chmodSync(file, 0o600);
      expect(report.state).toBe('unreadable');
      expect(report.osError?.code).toBe('EACCES');
    });

    it('accepts an empty file as an empty chain', async () => {
      expect(await verify('journal', write('zero.jsonl', ''))).toMatchObject({ state: 'ok', verifiedRecords: 0, lastSeq: null });
    });

    it('reports migrated legacy uncertainty as legacy_unverifiable', async () => {
      const builder = new ChainBuilder();
      builder.membership('t', [{ entry_id: 'e' }]);
      builder.append({ type: 'uncertainty', kind: 'legacy_unverifiable', detail: 'evicted', phase: 'Phase 2' });
      const report = await verify('journal', write('uncertain.jsonl', builder.text()));
      expect(report.state).toBe('legacy_unverifiable');
      expect(report.uncertainty).toEqual([{ seq: 2, kind: 'legacy_unverifiable', detail: 'evicted', phase: 'Phase 2', sessionId: 'ses_4Fq9xk2', repairId: null }]);
    });

    it('never changes the file it verifies', async () => {
      const altered = [...lines.slice(0, 100)];
      altered[50] = (altered[50] as string).replace('"ts":"2026', '"ts":"2027');
      const file = write('untouched.jsonl', asFile(altered));
      const before = { sha: sha256Hex(fs.readFileSync(file)), mtime: fs.statSync(file).mtimeMs };
      await verify('journal', file);
      await verify('journal', file, { onRecord: () => undefined });
      expect({ sha: sha256Hex(fs.readFileSync(file)), mtime: fs.statSync(file).mtimeMs }).toEqual(before);
    });
  });
});
