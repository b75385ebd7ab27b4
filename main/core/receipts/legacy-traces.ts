import type { Trace, TraceEntry } from '../../../shared/contract/receipts';
import type { LegacySources } from './legacy-sources';
import { isOutcome, isTerminalSource, type TerminalSource } from '../rules/receipt-format';
import { evidenceOf, int, msBetween, newEntry, newTrace, str, type V2Traces } from './trace-model';

/**
 * Folds the legacy logs into the traces. The V2 journal stays authoritative: a legacy retrieval
 * whose trace the journal already has is skipped, and a legacy answer that repeats a V2 terminal
 * is not shown twice. Legacy answers that name no known retrieval (the delegate collector mints a
 * fresh trace id; `knowledge_receipt` accepts "none") appear under a trace whose displayed set is
 * unknown. The delegate collector records a missing ack twice: a `violated` answer with reason
 * `unacknowledged` (an outcome, as the plugin counts it) and a line in unacknowledged-criticals.jsonl
 * (audit-only, attached to the retrieval that showed the directive to that agent in that session).
 */

type Rec = Record<string, unknown>;
const ANSWERS = new Set(['applied', 'ignored', 'n_a', 'contradicted', 'violated']);
/** A legacy line written within this long of a matching V2 record is the same event logged twice. */
const MIRROR_WINDOW_MS = 5_000;
/** The application log has no n_a (stored as acknowledged) and no contradicted. */
const APPLICATION_OUTCOMES: Record<string, string[]> = { acknowledged: ['n_a'], applied: ['applied'], ignored: ['ignored', 'contradicted'], violated: ['violated'] };

/** V2 terminals and audit events by entry, to recognise the same answer mirrored into a legacy log. */
class V2Mirror {
  private readonly byEntry = new Map<string, { kind: string; sessionId: string | null; ms: number }[]>();

  constructor(traces: readonly Trace[]) {
    for (const trace of traces) {
      if (trace.origin !== 'v2') continue;
      for (const entry of trace.entries) {
        const list = this.byEntry.get(entry.entryId) ?? [];
        for (const t of entry.terminals) {
          list.push({ kind: t.outcome, sessionId: trace.sessionId, ms: Date.parse(t.ts ?? '') });
          // A phase-complete override is logged as an `override` event in the legacy log.
          if (t.source === 'phase_override') list.push({ kind: 'override', sessionId: trace.sessionId, ms: Date.parse(t.ts ?? '') });
        }
        for (const a of entry.audit) list.push({ kind: a.kind, sessionId: trace.sessionId, ms: Date.parse(a.ts ?? '') });
        this.byEntry.set(entry.entryId, list);
      }
    }
  }

  has(entryId: unknown, kinds: readonly string[], sessionId: unknown, ts: unknown): boolean {
    const ms = Date.parse(typeof ts === 'string' ? ts : '');
    if (!Number.isFinite(ms)) return false;
    return (this.byEntry.get(String(entryId)) ?? []).some(
      (r) => kinds.includes(r.kind) && Math.abs(r.ms - ms) <= MIRROR_WINDOW_MS && (typeof sessionId !== 'string' || r.sessionId === null || r.sessionId === sessionId),
    );
  }
}

interface LegacyTraces {
  traces: Trace[];
  unlinked: Trace[];
  /** `outcome` events (succeeded/failed/partial after shown). */
  outcomes: Rec[];
  /** `acknowledged` events (an ack without an outcome). */
  acknowledged: Rec[];
  /** Entry ids that appear in any retrieval or membership (for the application-log `shown` rule). */
  retrievedIds: Set<string>;
  /** Application-log lines that do not repeat a V2 answer. */
  application: Rec[];
  /** Legacy lines recognised as copies of V2 records (not counted again). */
  mirrored: number;
}

/** Source of a legacy answer: explicit when valid, else inferred from the writer (architect or a delegate). */
function sourceOf(value: Rec): { source: TerminalSource; inferred: boolean } {
  if (isTerminalSource(value.source)) return { source: value.source, inferred: false };
  if (value.agent === 'architect') return { source: 'architect', inferred: true };
  if (typeof value.agent === 'string' && value.agent) return { source: 'delegate', inferred: true };
  return { source: 'unknown', inferred: true };
}

export function buildLegacyTraces(v2: V2Traces, legacy: LegacySources): LegacyTraces {
  const out: LegacyTraces = { traces: [], unlinked: [], outcomes: [], acknowledged: [], retrievedIds: new Set(), application: [], mirrored: 0 };
  const mirror = new V2Mirror(v2.traces);
  const v2PhaseOutcomes = new Set(v2.phases.closes.map((c) => `${String(c.closed_phase ?? c.phase)}\u0000${String(c.phase_outcome)}`));
  const legacyById = new Map<string, Trace>();
  const unlinkedById = new Map<string, Trace>();
  for (const trace of v2.traces) for (const e of trace.entries) out.retrievedIds.add(e.entryId);

  const traceFor = (traceId: unknown) => v2.byId.get(String(traceId)) ?? legacyById.get(String(traceId));
  const unlinkedEntry = (value: Rec, origin: Trace['origin']): { trace: Trace; entry: TraceEntry } => {
    const traceId = str(value.trace_id) || '(no trace id)';
    const sessionId = str(value.session_id);
    const key = `${origin}\u0000${traceId}\u0000${traceId === '(no trace id)' ? (sessionId ?? '') : ''}`;
    let trace = unlinkedById.get(key);
    if (!trace) {
      trace = newTrace({ traceId, origin, sessionId, phase: str(value.phase), taskId: str(value.task_id), agent: str(value.agent), displayedSetKnown: false });
      unlinkedById.set(key, trace);
      out.unlinked.push(trace);
    }
    const entryId = String(value.knowledge_id);
    let entry = trace.entries.find((e) => e.entryId === entryId);
    if (!entry) trace.entries.push((entry = newEntry({ entryId })));
    return { trace, entry };
  };
  const locate = (value: Rec, origin: Trace['origin']) => {
    const trace = traceFor(value.trace_id);
    const entry = trace?.entries.find((e) => e.entryId === value.knowledge_id);
    return trace && entry ? { trace, entry } : unlinkedEntry(value, origin);
  };

  for (const { value } of legacy.events.lines) {
    const type = value.type;
    if (type === 'retrieved') {
      const traceId = str(value.trace_id);
      const ids = Array.isArray(value.result_ids) ? value.result_ids.filter((id): id is string => typeof id === 'string') : [];
      for (const id of ids) out.retrievedIds.add(id);
      if (!traceId || v2.byId.has(traceId) || legacyById.has(traceId)) continue;
      const ranks = (value.ranks ?? {}) as Rec;
      const trace = newTrace({
        traceId,
        origin: 'knowledge-events',
        sessionId: str(value.session_id),
        phase: str(value.phase),
        taskId: str(value.task_id),
        mode: str(value.retrieval_mode),
        agent: str(value.agent),
        displayedAt: str(value.timestamp),
        entries: ids.map((id, i) => newEntry({ entryId: id, rank: int(ranks[id]) ?? i + 1 })),
      });
      out.traces.push(trace);
      legacyById.set(traceId, trace);
    } else if (type === 'outcome') {
      // One per entry shown in a phase at its completion: the V2 phase_close already says so.
      if (v2PhaseOutcomes.has(`${String(value.phase)}\u0000${String(value.outcome)}`)) out.mirrored++;
      else out.outcomes.push(value);
    } else if (type === 'acknowledged') {
      out.acknowledged.push(value);
    } else if (type === 'override') {
      if (mirror.has(value.knowledge_id, ['override'], value.session_id, value.timestamp)) {
        out.mirrored++;
        continue;
      }
      const { entry } = locate(value, 'knowledge-events');
      entry.audit.push({ kind: 'override', agent: str(value.agent), reason: str(value.reason), ts: str(value.timestamp), seq: null, origin: 'knowledge-events' });
    } else if (typeof type === 'string' && ANSWERS.has(type)) {
      if (mirror.has(value.knowledge_id, [type], value.session_id, value.timestamp)) {
        out.mirrored++;
        continue;
      }
      const { trace, entry } = locate(value, 'knowledge-events');
      if (!isOutcome(type)) continue;
      if (trace.origin === 'v2' && entry.terminals.some((t) => t.outcome === type && t.origin === 'v2')) continue;
      const { source, inferred } = sourceOf(value);
      entry.terminals.push({
        outcome: type,
        source,
        sourceInferred: inferred,
        agent: str(value.agent),
        reason: str(value.reason),
        evidence: evidenceOf(value.evidence),
        ts: str(value.timestamp),
        seq: null,
        msFromDisplay: msBetween(trace.displayedAt, str(value.timestamp)),
        origin: 'knowledge-events',
      });
    }
  }

  const all = [...v2.traces, ...out.traces];
  for (const { value } of legacy.unacknowledged.lines) {
    const at = str(value.timestamp) ?? '';
    const target = all
      .filter((t) => t.sessionId === value.session_id && (!value.agent || t.agent === value.agent) && (t.displayedAt ?? '') <= at)
      .reverse()
      .find((t) => t.entries.some((e) => e.entryId === value.knowledge_id));
    if (mirror.has(value.knowledge_id, ['unacknowledged'], value.session_id, value.timestamp)) {
      out.mirrored++;
      continue;
    }
    const entry = target?.entries.find((e) => e.entryId === value.knowledge_id) ?? unlinkedEntry(value, 'unacknowledged-criticals').entry;
    entry.audit.push({ kind: 'unacknowledged', agent: str(value.agent), reason: str(value.reason), ts: str(value.timestamp), seq: null, origin: 'unacknowledged-criticals' });
  }
  for (const { value } of legacy.application.lines) {
    const kinds = APPLICATION_OUTCOMES[String(value.result)];
    if (kinds && mirror.has(value.knowledgeId, kinds, value.sessionId, value.timestamp)) out.mirrored++;
    else if (!(kinds && attachMarker(out.traces, value))) out.application.push(value);
  }
  return out;
}

/**
 * An answer in knowledge-application.jsonl (an architect chat marker; N/A is stored as
 * "acknowledged") goes to the display it answers: the latest legacy retrieval in the same session
 * that showed the entry at or before the answer. Without one it stays a bare application line.
 */
function attachMarker(traces: readonly Trace[], value: Rec): boolean {
  const entryId = str(value.knowledgeId);
  const sessionId = str(value.sessionId);
  const ts = str(value.timestamp);
  const outcome = value.result === 'acknowledged' ? 'n_a' : value.result;
  if (!entryId || !sessionId || !ts || !isOutcome(outcome)) return false;
  let target: { trace: Trace; entry: TraceEntry } | null = null;
  for (const trace of traces) {
    if (trace.sessionId !== sessionId || !trace.displayedAt || trace.displayedAt > ts) continue;
    if (target && (target.trace.displayedAt ?? '') > trace.displayedAt) continue;
    const entry = trace.entries.find((e) => e.entryId === entryId);
    if (entry) target = { trace, entry };
  }
  if (!target) return false;
  target.entry.terminals.push({
    outcome,
    source: 'architect_marker',
    sourceInferred: true,
    agent: 'architect',
    reason: str(value.reason),
    evidence: null,
    ts,
    seq: null,
    msFromDisplay: msBetween(target.trace.displayedAt, ts),
    origin: 'knowledge-application',
  });
  return true;
}
