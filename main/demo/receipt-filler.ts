import { DAY, HOUR, iso } from './clock';
import { LineWriter } from './line-writer';
import { RECEIPT_SCHEMA, ReceiptChain, entrySetKey } from './receipt-chain';
import { createRng, type Rng } from './rng';
import { sha256Hex } from '../core/rules/canonical-json';
import { DEMO_REMOTE_URL } from './ids';
import type { Outcome, TerminalSource } from './story-types';
import { GATE_STALENESS_MS, MAX_GATE_DENIALS, RECEIPT_GRACE_DAYS } from './story-types';

type Rec = Record<string, unknown>;

export interface FillerEntry {
  id: string;
  tier: 'swarm' | 'hive' | 'link';
  priority: 'low' | 'medium' | 'high' | 'critical';
  sha256: string;
}

export interface ClosedSummary {
  phase: string;
  session_id: string;
  closed_at: string;
  from_seq: [number, number];
  traces: Rec[];
  counts: Record<'applied' | 'ignored' | 'n_a' | 'contradicted' | 'violated' | 'released' | 'unresolved', number>;
}

export const demoProjectId = (): string => sha256Hex(DEMO_REMOTE_URL).slice(0, 12);

const ROLES: ReadonlyArray<readonly [{ agent: string; mode: string; source: TerminalSource }, number]> = [
  [{ agent: 'architect', mode: 'auto_injection', source: 'architect_marker' }, 40],
  [{ agent: 'coder', mode: 'delegate_inject', source: 'delegate' }, 30],
  [{ agent: 'reviewer', mode: 'review_context', source: 'reviewer' }, 15],
  [{ agent: 'test_engineer', mode: 'coder_context', source: 'test_engineer' }, 10],
  [{ agent: 'architect', mode: 'manual', source: 'architect' }, 5],
];
const OUTCOMES: ReadonlyArray<readonly [Outcome, number]> = [
  ['applied', 60],
  ['n_a', 20],
  ['ignored', 12],
  ['violated', 5],
  ['contradicted', 3],
];

export function fillerPool(rng: Rng, size: number): FillerEntry[] {
  return Array.from({ length: size }, (_, i) => {
    const id = rng.uuid();
    return { id, tier: i % 7 === 0 ? 'hive' : 'swarm', priority: rng.weighted([['low', 20], ['medium', 50], ['high', 25], ['critical', 5]] as const), sha256: sha256Hex(id) };
  });
}

/**
 * Endless, self-consistent ledger history: phases of traces (membership, terminals, an
 * occasional gate release), each closed with its unresolved and overridden criticals.
 * Records are built with their keys already in canonical (sorted) order, including the
 * `seq`/`prev`/`hash`/`ts` slots the chain fills, so the chain can seal them with one
 * JSON.stringify (tests assert every line equals canonicalJson). `emit` returns false to stop;
 * with a finite `budget` the history stops cleanly after a phase_close.
 */
function emitFillerRecords(rng: Rng, pool: readonly FillerEntry[], projectId: string, budget: number, withSummaries: boolean, emit: (record: Rec, summary?: ClosedSummary) => boolean): void {
  let produced = 0;
  let phaseNumber = 0;
  for (;;) {
    phaseNumber = (phaseNumber % 8) + 1;
    const phase = `Phase ${phaseNumber}`;
    const sessionId = `ses_${rng.base62(12)}`;
    const traceCount = rng.int(6, 12);
    const summaryTraces: Rec[] = [];
    const counts: ClosedSummary['counts'] = { applied: 0, contradicted: 0, ignored: 0, n_a: 0, released: 0, unresolved: 0, violated: 0 };
    const unresolved: Rec[] = [];
    const overrides: Rec[] = [];
    const firstSeqOffset = produced;
    for (let t = 0; t < traceCount; t++) {
      const role = rng.weighted(ROLES);
      const picked = rng.sample(pool, rng.int(2, 4));
      if (produced + picked.length + 3 > budget) break;
      const traceId = rng.uuid();
      const taskId = `${phaseNumber}.${1 + (t >> 1)}`;
      const entries = picked.map((e, i) => ({ entry_id: e.id, entry_sha256: e.sha256, obligation: e.priority === 'critical' ? 'ack_required' : 'advisory', priority: e.priority, rank: i + 1, tier: e.tier }));
      produced++;
      if (!emit({ agent: role.agent, entries, gen: 1, hash: '', phase, prev: '', project_id: projectId, retrieval_mode: role.mode, schema: RECEIPT_SCHEMA, seq: 0, session_id: sessionId, task_id: taskId, trace_id: traceId, ts: '', type: 'membership' })) return;
      const summaryEntries: Rec[] = [];
      for (const e of picked) {
        const critical = e.priority === 'critical';
        let final: Outcome | null = null;
        let released: string | null = null;
        if (rng.chance(critical ? 0.6 : 0.8)) {
          final = rng.weighted(OUTCOMES);
          produced++;
          counts[final]++;
          const record: Rec = {
            agent: role.agent, entry_id: e.id, evidence: null, gen: 1, hash: '', idempotency_key: `${traceId}:${e.id}:${role.source}`, outcome: final, phase, prev: '', project_id: projectId,
            reason: final === 'applied' ? null : 'recorded by the filler history', receipt_semantics: 2, schema: RECEIPT_SCHEMA, seq: 0, session_id: sessionId, source: role.source, task_id: taskId, trace_id: traceId, ts: '', type: 'terminal',
          };
          if (!emit(record)) return;
        } else if (critical && rng.chance(0.5)) {
          const kind = rng.chance(0.5) ? 'denial_limit' : 'staleness';
          released = kind;
          produced++;
          counts.released++;
          overrides.push({ entry_id: e.id, justification: 'released by the gate; verified by hand at phase end' });
          const record: Rec = {
            denial_count: kind === 'denial_limit' ? MAX_GATE_DENIALS : 1, entry_set_key: entrySetKey([e.id]), gate_staleness_ms: GATE_STALENESS_MS, gen: 1, hash: '', max_gate_denials: MAX_GATE_DENIALS,
            oldest_shown_at: '', pending: [{ entry_id: e.id, trace_id: traceId }], phase, prev: '', project_id: projectId, release_kind: kind, schema: RECEIPT_SCHEMA, seq: 0, session_id: sessionId,
            source: kind === 'denial_limit' ? 'application_gate_denial_limit_release' : 'application_gate_staleness_release', task_id: taskId, tool: 'Task', ts: '', type: 'gate_release',
          };
          if (!emit(record)) return;
        }
        if (!final && critical && !released) unresolved.push({ entry_id: e.id, reason: 'no_verdict', trace_id: traceId });
        if (!final) counts.unresolved++;
        if (withSummaries) summaryEntries.push({ entry_id: e.id, final_outcome: final, final_source: final ? role.source : null, priority: e.priority, released });
      }
      if (withSummaries) summaryTraces.push({ agent: role.agent, entries: summaryEntries, retrieval_mode: role.mode, trace_id: traceId });
    }
    produced++;
    const close: Rec = {
      archive_eligible_after: '', closed_phase: phase, gen: 1, grace_days: RECEIPT_GRACE_DAYS, hash: '', overrides, phase, phase_outcome: unresolved.length ? 'partial' : 'success', prev: '',
      project_id: projectId, schema: RECEIPT_SCHEMA, seq: 0, session_id: sessionId, task_id: null, ts: '', type: 'phase_close', unresolved,
    };
    const summary = withSummaries ? { phase, session_id: sessionId, closed_at: '', from_seq: [firstSeqOffset + 1, produced] as [number, number], traces: summaryTraces, counts } : undefined;
    if (!emit(close, summary)) return;
    if (produced + 6 > budget) return;
  }
}

/**
 * Streams filler records into `chain`, timestamps spread evenly over [startMs, endMs]:
 * exactly `records` of them when `exact`, else as many as fit before a phase_close. Calls
 * `onClosed` with each phase's closed summary (seqs absolute).
 */
export function writeFillerReceipts(chain: ReceiptChain, options: { records: number; rng: Rng; pool: readonly FillerEntry[]; projectId: string; startMs: number; endMs: number; exact: boolean }, onClosed?: (summary: ClosedSummary) => void): number {
  const { records, startMs, endMs } = options;
  if (records <= 0) return 0;
  const step = (endMs - startMs) / records;
  const seqBase = chain.seq;
  let written = 0;
  let oldestShown = startMs;
  emitFillerRecords(options.rng, options.pool, options.projectId, options.exact ? Number.POSITIVE_INFINITY : records, onClosed !== undefined, (record, summary) => {
    const tsMs = Math.floor(startMs + written * step);
    record.ts = iso(tsMs);
    if (record.type === 'membership') oldestShown = tsMs;
    else if (record.type === 'gate_release') record.oldest_shown_at = iso(oldestShown);
    else if (record.type === 'phase_close') record.archive_eligible_after = iso(tsMs + RECEIPT_GRACE_DAYS * DAY);
    chain.appendSorted(record);
    written++;
    if (summary && onClosed) {
      summary.closed_at = record.ts as string;
      summary.from_seq = [summary.from_seq[0] + seqBase, summary.from_seq[1] + seqBase];
      onClosed(summary);
    }
    return !options.exact || written < records;
  });
  return written;
}

interface ReceiptJournalOptions {
  records: number;
  seed: number;
  now?: number;
}

/**
 * A valid V2 journal of exactly `records` records (seq 1…N, genesis prev, canonical lines),
 * streamed to `file`. Used by the receipts benchmark and tests that need a big, valid chain.
 */
export function writeReceiptJournal(file: string, options: ReceiptJournalOptions): { records: number; bytes: number; lastSeq: number; lastHash: string } {
  const now = options.now ?? Date.UTC(2026, 6, 2, 12, 0, 0);
  const rng = createRng(options.seed, 'receipt-journal');
  const writer = new LineWriter(file);
  const chain = new ReceiptChain(writer);
  const written = writeFillerReceipts(chain, { records: options.records, rng, pool: fillerPool(rng, 4000), projectId: demoProjectId(), startMs: now - 400 * DAY, endMs: now - HOUR, exact: true });
  writer.close();
  return { records: written, bytes: writer.bytes, lastSeq: chain.seq, lastHash: chain.prev };
}
