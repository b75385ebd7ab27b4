import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_PREV, canonicalJson, receiptRecordHash, sha256Hex } from '../core/rules/canonical-json';
import { type DemoFixture, type Rec, makeDemo, readJsonl, verifyChain } from '../../testing/demo/demo-workspace';
import { DEMO_IDS, DEMO_TRACES, writeReceiptJournal } from './generate';
import { sealRecord } from './receipt-chain';

const TERMINAL_SOURCES = ['delegate', 'reviewer', 'architect', 'architect_marker', 'test_engineer', 'phase_override', 'manual', 'migration', 'unknown'];
const OUTCOMES = ['applied', 'ignored', 'n_a', 'contradicted', 'violated'];

describe('sealRecord', () => {
  it('produces the canonical line and the record hash of the shared canonical-json module', () => {
    const records: Rec[] = [
      { seq: 1, prev: GENESIS_PREV, type: 'membership', entries: [{ z: 1, a: 'é', m: [{ y: null, b: true }] }], ts: '2026-07-01T00:00:00.000Z' },
      { zeta: 'line\nbreak "q" \u2028', alpha: 1e21, hash: 'ignored', mid: -0, list: [3, 2, 1], nested: { b: { d: 1, c: 2 }, a: [] } },
      { Z: 1, a: 2, 'é': 3, '\u{1F600}': 4, i: 5 },
    ];
    for (const record of records) {
      const { hash, line } = sealRecord(record);
      expect(hash).toBe(receiptRecordHash(record));
      expect(line).toBe(canonicalJson({ ...record, hash }));
    }
  });
});

describe('writeReceiptJournal', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes exactly N records as a valid chain, identically for the same seed', () => {
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    const result = writeReceiptJournal(a, { records: 10_000, seed: 7 });
    writeReceiptJournal(b, { records: 10_000, seed: 7 });
    const records = verifyChain(a);
    expect(records).toHaveLength(10_000);
    expect(result).toMatchObject({ records: 10_000, lastSeq: 10_000, lastHash: records[9_999]?.hash, bytes: fs.statSync(a).size });
    expect(sha256Hex(fs.readFileSync(a))).toBe(sha256Hex(fs.readFileSync(b)));
    const types = new Set(records.map((r) => r.type));
    expect([...types].sort()).toEqual(['gate_release', 'membership', 'phase_close', 'terminal']);
    writeReceiptJournal(b, { records: 10_000, seed: 8 });
    expect(sha256Hex(fs.readFileSync(b))).not.toBe(sha256Hex(fs.readFileSync(a)));
  });
});

describe('demo V2 receipts', () => {
  let demo: DemoFixture;
  let journal: Rec[];
  beforeAll(() => {
    demo = makeDemo();
    journal = verifyChain(demo.swarm('knowledge-receipts-v2.jsonl'));
  });
  afterAll(() => demo.cleanup());

  it('has a valid journal whose records keep the typed contract', () => {
    const memberships = new Map<string, Rec>();
    const seen = new Set<string>();
    for (const r of journal) {
      expect(r.gen).toBe(1);
      expect(r.project_id).toMatch(/^[0-9a-f]{12}$/);
      expect(r.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      if (r.type === 'membership') {
        memberships.set(r.trace_id as string, r);
        for (const e of r.entries as Rec[]) {
          expect(e.obligation).toBe(e.priority === 'critical' ? 'ack_required' : 'advisory');
          expect(e.entry_sha256).toMatch(/^[0-9a-f]{64}$/);
        }
      } else if (r.type === 'terminal') {
        const membership = memberships.get(r.trace_id as string);
        expect(membership, `terminal seq ${String(r.seq)} has no earlier membership`).toBeDefined();
        expect((membership?.entries as Rec[]).some((e) => e.entry_id === r.entry_id)).toBe(true);
        expect(TERMINAL_SOURCES).toContain(r.source);
        expect(OUTCOMES).toContain(r.outcome);
        expect(r.idempotency_key).toBe(`${String(r.trace_id)}:${String(r.entry_id)}:${String(r.source)}`);
        expect(seen.has(r.idempotency_key as string)).toBe(false);
        seen.add(r.idempotency_key as string);
        expect(r.receipt_semantics).toBe(2);
        if (r.outcome !== 'applied') expect(String(r.reason).length).toBeGreaterThan(0);
        if (r.reason !== null) expect(String(r.reason).length).toBeLessThanOrEqual(280);
      } else if (r.type === 'gate_release') {
        const expected = { denial_limit: 'application_gate_denial_limit_release', staleness: 'application_gate_staleness_release', session_reset: 'manual' } as Record<string, string>;
        expect(r.source).toBe(expected[r.release_kind as string]);
        for (const p of r.pending as Rec[]) expect(memberships.has(p.trace_id as string)).toBe(true);
      } else {
        expect(r.type).toBe('phase_close');
        expect(r.closed_phase).toBe(r.phase);
        expect(Date.parse(r.archive_eligible_after as string) - Date.parse(r.ts as string)).toBe((r.grace_days as number) * 86_400_000);
      }
    }
  });

  it('has a snapshot consistent with the journal', () => {
    const snapshot = JSON.parse(fs.readFileSync(demo.swarm('knowledge-receipts-v2.snapshot.json'), 'utf8')) as Rec;
    const last = journal[journal.length - 1] as Rec;
    expect(snapshot).toMatchObject({ schema: 'swarm.knowledge-receipt-snapshot/2', gen: 1, seq: last.seq, hash: last.hash });
    expect(snapshot.state_sha256).toBe(sha256Hex(canonicalJson(snapshot.live)));
    const live = snapshot.live as { traces: Rec[]; open_phases: string[]; grace_phases: Rec[]; uncertainty: unknown[] };
    expect(live.open_phases).toEqual(['Phase 5']);
    expect(live.grace_phases.map((g) => g.phase)).toEqual(['Phase 3', 'Phase 4']);
    const liveTraceIds = journal.filter((r) => r.type === 'membership' && ['Phase 3', 'Phase 4', 'Phase 5'].includes(r.phase as string)).map((r) => r.trace_id);
    expect(live.traces.map((t) => t.trace_id)).toEqual(liveTraceIds);
    const open = live.traces.find((t) => t.trace_id === DEMO_TRACES.phase4Open)?.entries as Rec[];
    expect(open.find((e) => e.entry_id === DEMO_IDS.openObligation)).toEqual({ entry_id: DEMO_IDS.openObligation, tier: 'swarm', priority: 'critical', obligation: 'ack_required', terminals: [], release: null });
    const pan = (live.traces.find((t) => t.trace_id === DEMO_TRACES.phase4Architect)?.entries as Rec[]).find((e) => e.entry_id === DEMO_IDS.panReleased) as Rec;
    expect((pan.release as Rec).kind).toBe('denial_limit');
    expect((pan.terminals as Rec[]).map((t) => t.source)).toEqual(['phase_override']);
  });

  it('archives the closed summaries of phases past their grace period in its own chain', () => {
    const archive = verifyChain(demo.swarm('knowledge-receipts-v2-archive.jsonl'));
    expect(archive.map((a) => a.phase)).toEqual(['Phase 1', 'Phase 2']);
    for (const summary of archive) {
      const [first, last] = summary.from_seq as [number, number];
      const own = journal.filter((r) => r.phase === summary.phase);
      expect([own[0]?.seq, own[own.length - 1]?.seq]).toEqual([first, last]);
      expect(own.every((r) => r.session_id === summary.session_id)).toBe(true);
      const entries = (summary.traces as Rec[]).flatMap((t) => t.entries as Rec[]);
      const counts = summary.counts as Record<string, number>;
      expect(counts.applied! + counts.ignored! + counts.n_a! + counts.contradicted! + counts.violated! + counts.unresolved!).toBe(entries.length);
      expect(Date.parse(summary.archived_at as string)).toBeGreaterThan(Date.parse(summary.closed_at as string) + 7 * 86_400_000);
    }
  });

  it('quarantines the exact bytes of a torn journal whose valid prefix matches today’s journal', () => {
    const [capture] = verifyChain(demo.swarm('knowledge-receipts-v2-quarantine.jsonl')) as [Rec];
    expect(capture).toMatchObject({ type: 'capture', defect: 'unterminated_final_line', part: 1, parts: 1 });
    const bytes = Buffer.from(capture.bytes_b64 as string, 'base64');
    expect(bytes.length).toBe(capture.journal_byte_length);
    expect(sha256Hex(bytes)).toBe(capture.journal_sha256);
    const lines = bytes.toString('utf8').split('\n');
    const torn = lines.pop() as string;
    const journalLines = fs.readFileSync(demo.swarm('knowledge-receipts-v2.jsonl'), 'utf8').split('\n');
    expect(lines).toEqual(journalLines.slice(0, capture.valid_prefix_seq as number));
    expect(journalLines[capture.valid_prefix_seq as number]?.startsWith(torn)).toBe(true);
    expect(capture.valid_prefix_hash).toBe(journal[(capture.valid_prefix_seq as number) - 1]?.hash);
  });

  it('quotes each gate release seq in the matching events.jsonl clear event', () => {
    const clears = readJsonl(demo.swarm('events.jsonl')).filter((e) => /_(denial_limit|staleness)_clear$/.test(String(e.event)));
    expect(clears).toHaveLength(2);
    for (const clear of clears) {
      const release = journal.find((r) => r.seq === clear.receipt_seq) as Rec;
      expect(release.type).toBe('gate_release');
      expect(release.entry_set_key).toBe(clear.entry_set_key);
      expect(release.session_id).toBe(clear.sessionID);
    }
  });
});
