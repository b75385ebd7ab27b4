import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../rules/canonical-json';
import { ChainBuilder } from '../../demo/receipt-chain';
import { sourceHashWorkerSpec } from '../../../testing/workers/source-worker';
import { HashPool } from './hash-pool';
import { verifyReceipts } from './verify-receipts';

const A = 'aaaa1111-0000-4000-8000-000000000000';
const B = 'bbbb2222-0000-4000-8000-000000000000';
const ts = (minute: number) => new Date(Date.parse('2026-07-01T10:00:00.000Z') + minute * 60_000).toISOString();

let swarm: string;
beforeEach(() => {
  swarm = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-receipts-'));
});
afterEach(() => fs.rmSync(swarm, { recursive: true, force: true }));

/** Phase 3 closed long ago (its grace is over, so it left live state); phase 4 is open. */
function journal(): ChainBuilder {
  const j = new ChainBuilder({ stepMs: 0 });
  j.membership('t0', [{ entry_id: A, priority: 'critical' }], { phase: 'Phase 3', ts: ts(0) });
  j.phaseClose('Phase 3', 'success', { ts: ts(10), archive_eligible_after: ts(20) });
  j.membership('t1', [{ entry_id: A, priority: 'critical' }, { entry_id: B }], { ts: ts(30) });
  j.terminal('t1', A, 'applied', 'reviewer', { ts: ts(35) });
  j.gateRelease('session_reset', [{ trace_id: 't1', entry_id: B }], { ts: ts(40) });
  j.write(path.join(swarm, 'knowledge-receipts-v2.jsonl'));
  return j;
}

/** Live state after the journal above, written by hand (not by the rebuild under test). */
const expectedLive = () => ({
  grace_phases: [],
  open_phases: ['Phase 4'],
  traces: [
    {
      agent: 'architect',
      displayed_at: ts(30),
      entries: [
        { entry_id: B, obligation: 'advisory', priority: 'high', release: { kind: 'session_reset', ts: ts(40) }, terminals: [], tier: 'swarm' },
        { entry_id: A, obligation: 'ack_required', priority: 'critical', release: null, terminals: [{ outcome: 'applied', reason: null, source: 'reviewer', ts: ts(35) }], tier: 'swarm' },
      ],
      phase: 'Phase 4',
      retrieval_mode: 'auto_injection',
      session_id: 'ses_4Fq9xk2',
      trace_id: 't1',
    },
  ],
  uncertainty: [],
});

function writeSnapshot(j: ChainBuilder, live: unknown, overrides: Record<string, unknown> = {}) {
  const last = j.records[j.records.length - 1] as Record<string, unknown>;
  const snapshot = { schema: 'swarm.knowledge-receipt-snapshot/2', gen: 1, seq: last.seq, hash: last.hash, built_at: ts(41), state_sha256: sha256Hex(canonicalJson(live)), live, ...overrides };
  fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.snapshot.json'), JSON.stringify(snapshot));
}

/** Every test runs on each way record hashes are checked (see verify-file.test.ts), assertions unchanged. */
let workers: HashPool;
beforeAll(() => {
  workers = new HashPool({ size: 2, spec: sourceHashWorkerSpec });
});
afterAll(async () => {
  expect(workers.counts.worker).toBeGreaterThan(0);
  await workers.dispose();
});
const hashing: [string, () => { hashPool: HashPool | null }][] = [
  ['line by line', () => ({ hashPool: null })],
  ['in-thread batches', () => ({ hashPool: new HashPool({ spec: () => null }) })],
  ['worker threads', () => ({ hashPool: workers })],
];

describe.each(hashing)('hashing %s', (_hashing, hashingOptions) => {
  const snapshotOf = async () => (await verifyReceipts(swarm, hashingOptions())).integrity.files.find((f) => f.kind === 'snapshot');

  describe('snapshot against a rebuild from the journal', () => {
    it('accepts a snapshot that lists the same live state in another order', async () => {
      writeSnapshot(journal(), expectedLive());
      const snapshot = await snapshotOf();
      expect(snapshot).toMatchObject({ state: 'ok', snapshot: { coversSeq: 5, coversGen: 1, journalLastSeq: 5, difference: null } });
      expect(snapshot?.reason).toBe('ok — matches a rebuild from the journal at seq 5');
    });

    it('reports a snapshot missing a terminal as stale, which the plugin rebuilds', async () => {
      const live = expectedLive();
      (live.traces[0]?.entries[1] as { terminals: unknown[] }).terminals = [];
      writeSnapshot(journal(), live);
      const snapshot = await snapshotOf();
      expect(snapshot?.state).toBe('stale');
      expect(snapshot?.reason).toBe('snapshot stale — disagrees with a rebuild at seq 5: trace t1 differs (terminals or releases); the plugin rebuilds it');
      expect(snapshot?.recovery?.text).toMatch(/rebuilds it/);
    });

    it('reports a snapshot still holding a trace whose phase left live state', async () => {
      const live = expectedLive();
      live.traces.push({ ...(live.traces[0] as (typeof live.traces)[number]), trace_id: 't0', phase: 'Phase 3' });
      writeSnapshot(journal(), live);
      expect((await snapshotOf())?.snapshot?.difference).toBe('snapshot holds 1 trace the journal does not have live, e.g. t0');
    });

    it('accepts a snapshot that covers an earlier record, noting the later ones', async () => {
      const j = journal();
      const live = expectedLive();
      writeSnapshot(j, live);
      j.terminal('t1', B, 'n_a', 'delegate', { ts: ts(50) });
      j.write(path.join(swarm, 'knowledge-receipts-v2.jsonl'));
      expect((await snapshotOf())?.reason).toBe('ok — matches a rebuild from the journal at seq 5; 1 later record not folded in yet (normal)');
    });

    it('reports a snapshot that points past the journal or at another hash', async () => {
      const j = journal();
      writeSnapshot(j, expectedLive(), { seq: 9 });
      expect((await snapshotOf())?.reason).toMatch(/covers seq 9 but the journal's last verified record is seq 5/);
      writeSnapshot(j, expectedLive(), { hash: sha256Hex('other') });
      expect((await snapshotOf())?.reason).toMatch(/^snapshot stale — seq 5 has hash [0-9a-f]{12}… in the journal/);
    });

    it('reports a snapshot whose state_sha256 disagrees with its own live state', async () => {
      writeSnapshot(journal(), expectedLive(), { state_sha256: sha256Hex('x') });
      expect((await snapshotOf())?.reason).toBe('snapshot stale — state_sha256 does not match its own live state; the plugin rebuilds it');
    });

    it('reports an unknown snapshot schema and unparseable snapshots', async () => {
      writeSnapshot(journal(), expectedLive(), { schema: 'swarm.knowledge-receipt-snapshot/9' });
      expect((await snapshotOf())?.state).toBe('unsupported_schema');
      fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.snapshot.json'), '{"schema":');
      expect(await snapshotOf()).toMatchObject({ state: 'stale' });
    });
  });

  describe('verdict over the four files', () => {
    it('says plainly that missing V2 files are normal', async () => {
      const { integrity } = await verifyReceipts(swarm, hashingOptions());
      expect(integrity.verdict).toBe('ok');
      expect(integrity.files.map((f) => f.state)).toEqual(['absent', 'absent', 'absent', 'absent']);
      expect(integrity.summary).toMatch(/legacy receipt logs only \(normal/);
      expect(integrity.files[0]?.reason).toMatch(/^absent — no V2 receipt journal \(normal/);
    });

    it('fails closed on a corrupt journal and names the repair with phase and session', async () => {
      const j = journal();
      const text = j.text().replace('"outcome":"applied"', '"outcome":"ignored"');
      fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), text);
      const { integrity } = await verifyReceipts(swarm, hashingOptions());
      const file = integrity.files[0];
      expect(integrity.verdict).toBe('corrupt');
      expect(file?.reason).toMatch(/^corrupt at line 4 \(byte \d+, seq 4\): hash mismatch — expected [0-9a-f]{12}…, found [0-9a-f]{12}…; 3 records verified \(seq 1–3, generation 1\) before it$/);
      expect(file?.recovery).toMatchObject({ tool: 'repair_knowledge_receipt_ledger', phase: 'Phase 4', sessionId: 'ses_4Fq9xk2' });
      expect(file?.recovery?.text).toMatch(/installs only the validated prefix \(seq 1–3\)/);
    });

    it('needs attention, not repair, for a last line still being written — and says what the plugin would think', async () => {
      const text = journal().text();
      fs.writeFileSync(path.join(swarm, 'knowledge-receipts-v2.jsonl'), text.slice(0, -30));
      const { integrity } = await verifyReceipts(swarm, hashingOptions());
      expect(integrity.verdict).toBe('attention');
      expect(integrity.files[0]?.state).toBe('incomplete_tail');
      expect(integrity.files[0]?.tail?.pluginView).toMatch(/counts an unterminated final line as corruption/);
    });
  });
});
