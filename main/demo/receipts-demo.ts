import path from 'node:path';
import { canonicalJson, sha256Hex } from '../core/rules/canonical-json';
import { DAY, MINUTE, iso } from './clock';
import { LineWriter, writeText } from './line-writer';
import { RECEIPT_SCHEMA, RECEIPT_SNAPSHOT_SCHEMA, ReceiptChain, entrySetKey } from './receipt-chain';
import { type ClosedSummary, type FillerEntry, writeFillerReceipts } from './receipt-filler';
import type { Rng } from './rng';
import { GATE_STALENESS_MS, MAX_GATE_DENIALS, RECEIPT_GRACE_DAYS, type Story } from './story-types';

type Rec = Record<string, unknown>;

interface DemoReceiptsInput {
  swarmDir: string;
  story: Story;
  /** The JSONL line of every displayable entry (swarm and hive), for `entry_sha256`. */
  entryLines: Map<string, string>;
  projectId: string;
  rng: Rng;
  filler?: { records: number; pool: readonly FillerEntry[]; startMs: number; endMs: number };
}

interface DemoReceiptsResult {
  journalRecords: number;
  lastSeq: number;
  lastHash: string;
  /** seq of each gate_release record, keyed by `${kind}:${sessionId}` (events.jsonl quotes it). */
  releaseSeqs: Map<string, number>;
}

const TYPE_ORDER: Record<string, number> = { membership: 0, terminal: 1, gate_release: 2, phase_close: 3 };

/** Journal records for the story, time-ordered, without seq/prev/hash. */
function storyRecords(input: DemoReceiptsInput): Array<{ ms: number; record: Rec }> {
  const { story, projectId } = input;
  const traces = new Map(story.traces.map((t) => [t.traceId, t]));
  const out: Array<{ ms: number; record: Rec }> = [];
  const envelope = (type: string, ms: number, sessionId: string, phase: string, taskId: string | null): Rec => ({
    schema: RECEIPT_SCHEMA, gen: 1, type, ts: iso(ms), project_id: projectId, session_id: sessionId, phase, task_id: taskId,
  });
  for (const t of story.traces) {
    const entries = t.entries.map((e, i) => ({
      entry_id: e.entryId, tier: e.tier, rank: i + 1, priority: e.priority, obligation: e.obligation,
      entry_sha256: sha256Hex(input.entryLines.get(e.entryId) ?? e.entryId),
    }));
    out.push({ ms: t.atMs, record: { ...envelope('membership', t.atMs, t.sessionId, t.phase, t.taskId), trace_id: t.traceId, retrieval_mode: t.mode, agent: t.agent, entries } });
  }
  for (const term of story.terminals) {
    const t = traces.get(term.traceId);
    if (!t) throw new Error(`terminal for unknown trace ${term.traceId}`);
    out.push({
      ms: term.atMs,
      record: {
        ...envelope('terminal', term.atMs, t.sessionId, t.phase, t.taskId), trace_id: term.traceId, entry_id: term.entryId, outcome: term.outcome,
        source: term.source, agent: term.agent, reason: term.reason, evidence: term.evidence, receipt_semantics: 2,
        idempotency_key: `${term.traceId}:${term.entryId}:${term.source}`,
      },
    });
  }
  for (const r of story.releases) {
    out.push({
      ms: r.atMs,
      record: {
        ...envelope('gate_release', r.atMs, r.sessionId, r.phase, r.taskId), release_kind: r.kind, source: r.source,
        pending: r.pending.map((p) => ({ trace_id: p.traceId, entry_id: p.entryId })), entry_set_key: entrySetKey(r.pending.map((p) => p.entryId)),
        denial_count: r.denialCount, max_gate_denials: MAX_GATE_DENIALS, oldest_shown_at: iso(r.oldestShownMs), gate_staleness_ms: GATE_STALENESS_MS, tool: r.tool,
      },
    });
  }
  for (const c of story.closes) {
    out.push({
      ms: c.atMs,
      record: {
        ...envelope('phase_close', c.atMs, c.sessionId, c.phase, null), closed_phase: c.phase, phase_outcome: c.outcome,
        unresolved: c.unresolved.map((u) => ({ trace_id: u.traceId, entry_id: u.entryId, reason: u.reason })),
        overrides: c.overrides.map((o) => ({ entry_id: o.entryId, justification: o.justification })),
        grace_days: RECEIPT_GRACE_DAYS, archive_eligible_after: iso(c.atMs + RECEIPT_GRACE_DAYS * DAY),
      },
    });
  }
  const order = out.map((item, index) => ({ ...item, index }));
  order.sort((a, b) => a.ms - b.ms || (TYPE_ORDER[a.record.type as string] ?? 9) - (TYPE_ORDER[b.record.type as string] ?? 9) || a.index - b.index);
  return order;
}

interface SealedRecord {
  seq: number;
  record: Rec;
}

/**
 * Live state as a rebuild from the journal computes it: a trace is archived when the first
 * phase_close of its phase label after it became archive-eligible before `builtAtMs`; every
 * other trace is live. Open phases are labels with live traces and no later close.
 */
function buildLiveState(records: readonly SealedRecord[], builtAtMs: number): { live: Rec; archivedCloses: SealedRecord[] } {
  const closes = records.filter((r) => r.record.type === 'phase_close');
  const closeAfter = (phase: string, seq: number) => closes.find((c) => c.record.closed_phase === phase && c.seq > seq);
  const isArchived = (close: SealedRecord | undefined) => !!close && Date.parse(close.record.archive_eligible_after as string) <= builtAtMs;
  const traces = new Map<string, Rec & { entries: Rec[] }>();
  const openPhases: string[] = [];
  for (const { seq, record } of records) {
    if (record.type === 'membership') {
      const close = closeAfter(record.phase as string, seq);
      if (isArchived(close)) continue;
      if (!close && !openPhases.includes(record.phase as string)) openPhases.push(record.phase as string);
      traces.set(record.trace_id as string, {
        trace_id: record.trace_id, session_id: record.session_id, phase: record.phase, agent: record.agent, retrieval_mode: record.retrieval_mode, displayed_at: record.ts,
        entries: (record.entries as Rec[]).map((e) => ({ entry_id: e.entry_id, tier: e.tier, priority: e.priority, obligation: e.obligation, terminals: [] as Rec[], release: null as Rec | null })),
      });
    } else if (record.type === 'terminal') {
      const entry = traces.get(record.trace_id as string)?.entries.find((e) => e.entry_id === record.entry_id);
      (entry?.terminals as Rec[] | undefined)?.push({ outcome: record.outcome, source: record.source, ts: record.ts, reason: record.reason });
    } else if (record.type === 'gate_release') {
      for (const p of record.pending as Rec[]) {
        const entry = traces.get(p.trace_id as string)?.entries.find((e) => e.entry_id === p.entry_id);
        if (entry) entry.release = { kind: record.release_kind, ts: record.ts };
      }
    }
  }
  const archivedCloses = closes.filter((c) => isArchived(c));
  const grace_phases = closes
    .filter((c) => !isArchived(c))
    .map((c) => ({ phase: c.record.closed_phase, session_id: c.record.session_id, closed_at: c.record.ts, archive_eligible_after: c.record.archive_eligible_after }));
  return { live: { traces: [...traces.values()], open_phases: openPhases, grace_phases, uncertainty: [] }, archivedCloses };
}

/** Closed summary of one archived story phase (all records of its label since the previous close). */
function storySummary(records: readonly SealedRecord[], close: SealedRecord): ClosedSummary {
  const phase = close.record.closed_phase as string;
  const previousClose = records.filter((r) => r.record.type === 'phase_close' && r.record.closed_phase === phase && r.seq < close.seq).pop();
  const own = records.filter((r) => r.record.phase === phase && r.seq <= close.seq && r.seq > (previousClose?.seq ?? 0));
  const counts: ClosedSummary['counts'] = { applied: 0, contradicted: 0, ignored: 0, n_a: 0, released: 0, unresolved: 0, violated: 0 };
  const traces = own
    .filter((r) => r.record.type === 'membership')
    .map(({ record }) => ({
      agent: record.agent,
      entries: (record.entries as Rec[]).map((e) => {
        const terms = own.filter((r) => r.record.type === 'terminal' && r.record.trace_id === record.trace_id && r.record.entry_id === e.entry_id);
        const final = terms[terms.length - 1]?.record;
        const release = own.filter((r) => r.record.type === 'gate_release' && (r.record.pending as Rec[]).some((p) => p.trace_id === record.trace_id && p.entry_id === e.entry_id)).pop();
        if (final) counts[final.outcome as keyof typeof counts]++;
        else counts.unresolved++;
        if (release) counts.released++;
        return { entry_id: e.entry_id, final_outcome: final?.outcome ?? null, final_source: final?.source ?? null, priority: e.priority, released: release?.record.release_kind ?? null };
      }),
      retrieval_mode: record.retrieval_mode,
      trace_id: record.trace_id,
    }));
  return { phase, session_id: close.record.session_id as string, closed_at: close.record.ts as string, from_seq: [own[0]?.seq ?? close.seq, close.seq], traces, counts };
}

/** Journal, snapshot, archive and quarantine for the demo project (all canonical, all chained). */
export function writeDemoReceipts(input: DemoReceiptsInput): DemoReceiptsResult {
  const journalFile = path.join(input.swarmDir, 'knowledge-receipts-v2.jsonl');
  const writer = new LineWriter(journalFile);
  const chain = new ReceiptChain(writer, { keepLines: 16 });
  const archiveSummaries: Array<{ archivedAtMs: number; summary: ClosedSummary; gen: number }> = [];
  if (input.filler && input.filler.records > 0) {
    writeFillerReceipts(chain, { ...input.filler, rng: input.rng, projectId: input.projectId, exact: false }, (summary) => {
      archiveSummaries.push({ archivedAtMs: Date.parse(summary.closed_at) + RECEIPT_GRACE_DAYS * DAY + 5 * MINUTE, summary, gen: 1 });
    });
  }
  const sealed: SealedRecord[] = [];
  const releaseSeqs = new Map<string, number>();
  for (const { record } of storyRecords(input)) {
    const { seq } = chain.append(record);
    sealed.push({ seq, record });
    if (record.type === 'gate_release') releaseSeqs.set(`${record.release_kind}:${record.session_id}`, seq);
  }
  writer.close();

  const builtAtMs = Date.parse(chain.lastTs as string) + 50;
  const { live, archivedCloses } = buildLiveState(sealed, builtAtMs);
  const snapshot = { schema: RECEIPT_SNAPSHOT_SCHEMA, gen: 1, seq: chain.seq, hash: chain.prev, built_at: iso(builtAtMs), state_sha256: sha256Hex(canonicalJson(live)), live };
  writeText(path.join(input.swarmDir, 'knowledge-receipts-v2.snapshot.json'), canonicalJson(snapshot) + '\n');

  for (const close of archivedCloses) {
    const eligible = Date.parse(close.record.archive_eligible_after as string);
    archiveSummaries.push({ archivedAtMs: eligible + 5 * MINUTE, summary: storySummary(sealed, close), gen: 1 });
  }
  const archiveWriter = new LineWriter(path.join(input.swarmDir, 'knowledge-receipts-v2-archive.jsonl'));
  const archive = new ReceiptChain(archiveWriter);
  for (const { archivedAtMs, summary, gen } of archiveSummaries.sort((a, b) => a.archivedAtMs - b.archivedAtMs)) {
    // Keys in canonical order (summaries are built sorted too), so the chain can seal with one stringify.
    archive.appendSorted({
      archived_at: iso(archivedAtMs), closed_at: summary.closed_at, counts: summary.counts, from_gen: gen, from_seq: summary.from_seq, hash: '', phase: summary.phase, prev: '',
      schema: RECEIPT_SCHEMA, seq: 0, session_id: summary.session_id, traces: summary.traces, type: 'closed_summary',
    });
  }
  archiveWriter.close();

  writeQuarantine(input.swarmDir, chain.keptLines, input.rng);
  return { journalRecords: chain.seq, lastSeq: chain.seq, lastHash: chain.prev, releaseSeqs };
}

/**
 * One past repair: the plugin crashed while appending record K+1, leaving a torn final line;
 * the repair captured those exact bytes and re-installed the valid prefix (the journal then
 * continued normally, so today's journal holds the same first K records).
 */
function writeQuarantine(swarmDir: string, firstLines: readonly string[], rng: Rng): void {
  const validCount = Math.min(12, firstLines.length - 1);
  if (validCount < 1) return;
  const prefix = firstLines.slice(0, validCount).map((l) => `${l}\n`).join('');
  const torn = (firstLines[validCount] as string).slice(0, 120);
  const bytes = Buffer.from(prefix + torn, 'utf8');
  const lastValid = JSON.parse(firstLines[validCount - 1] as string) as Rec;
  const tornRecord = JSON.parse(firstLines[validCount] as string) as Rec;
  const writer = new LineWriter(path.join(swarmDir, 'knowledge-receipts-v2-quarantine.jsonl'));
  const chain = new ReceiptChain(writer);
  chain.append({
    schema: RECEIPT_SCHEMA, type: 'capture', repair_id: rng.uuid(), captured_at: iso(Date.parse(tornRecord.ts as string) + 2 * MINUTE),
    phase: tornRecord.phase, session_id: tornRecord.session_id, defect: 'unterminated_final_line', journal_byte_length: bytes.length,
    journal_sha256: sha256Hex(bytes), valid_prefix_seq: lastValid.seq, valid_prefix_hash: lastValid.hash, bytes_b64: bytes.toString('base64'), part: 1, parts: 1,
  });
  writer.close();
}
