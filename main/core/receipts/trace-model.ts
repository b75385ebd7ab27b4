import type { Release, Terminal, Trace, TraceEntry } from '../../../shared/contract/receipts';
import { isAuditKind, isOutcome, isReleaseKind, isTerminalSource, sourceRank, type Outcome, type TerminalSource } from '../rules/receipt-format';

/**
 * Retrieval traces from the V2 journal (authoritative) and its archive: each displayed entry
 * with its terminals, gate releases (nonterminal) and audit-only events, in journal order.
 */

type Rec = Record<string, unknown>;
export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export function msBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms : null;
}

export function evidenceOf(value: unknown): Terminal['evidence'] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const e = value as Rec;
  return { files: strings(e.files), commands: strings(e.commands), tests: strings(e.tests), summary: str(e.summary) };
}

export function newEntry(fields: Partial<TraceEntry> & { entryId: string }): TraceEntry {
  return {
    tier: null,
    rank: null,
    priority: null,
    obligation: null,
    entrySha256: null,
    status: 'unanswered',
    effective: null,
    terminals: [],
    releases: [],
    audit: [],
    derived: false,
    ...fields,
  };
}

export function newTrace(fields: Partial<Trace> & { traceId: string; origin: Trace['origin'] }): Trace {
  return { sessionId: null, phase: null, taskId: null, mode: null, agent: null, displayedAt: null, seq: null, displayedSetKnown: true, entries: [], ...fields };
}

/** The outcome the gate would go by: strongest source first, then the latest. */
function effectiveOf(terminals: readonly Terminal[]): TraceEntry['effective'] {
  let best: Terminal | null = null;
  for (const t of terminals) {
    if (!best || sourceRank(t.source) < sourceRank(best.source) || (sourceRank(t.source) === sourceRank(best.source) && (t.ts ?? '') >= (best.ts ?? ''))) best = t;
  }
  return best ? { outcome: best.outcome, source: best.source } : null;
}

export function settle(entry: TraceEntry): void {
  entry.effective = effectiveOf(entry.terminals);
  entry.status = entry.terminals.length ? 'answered' : entry.releases.length ? 'released' : entry.obligation === 'ack_required' ? 'open' : 'unanswered';
}

export interface V2Phases {
  /** phase_close records in journal order. */
  closes: Rec[];
  /** Closed phases carried by a checkpoint (their close record was folded away). */
  graceFromCheckpoint: Rec[];
  /** closed_summary records from the archive. */
  archived: Rec[];
  /** Legacy `outcome` events (knowledge-events.jsonl) not already said by a V2 phase_close. */
  legacyOutcomes?: Rec[];
}

export interface V2Traces {
  traces: Trace[];
  byId: Map<string, Trace>;
  phases: V2Phases;
  /** Terminals/audit naming a trace the journal never displayed (the plugin rejects those). */
  unlinked: Trace[];
}

function entryOf(trace: Trace | undefined, entryId: unknown): TraceEntry | undefined {
  return trace?.entries.find((e) => e.entryId === entryId);
}

function releaseFrom(record: Rec, displayedAt: string | null): Release {
  return {
    kind: record.release_kind as Release['kind'],
    source: str(record.source) ?? 'unknown',
    ts: str(record.ts),
    seq: int(record.seq),
    tool: str(record.tool),
    denialCount: int(record.denial_count),
    maxGateDenials: int(record.max_gate_denials),
    gateStalenessMs: typeof record.gate_staleness_ms === 'number' ? record.gate_staleness_ms : null,
    msFromDisplay: msBetween(displayedAt, str(record.ts)),
    origin: 'v2',
  };
}

function restoreCheckpoint(live: unknown, into: V2Traces): void {
  const l = (live ?? {}) as Rec;
  for (const t of Array.isArray(l.traces) ? (l.traces as Rec[]) : []) {
    const traceId = str(t.trace_id);
    if (!traceId || into.byId.has(traceId)) continue;
    const displayedAt = str(t.displayed_at);
    const trace = newTrace({ traceId, origin: 'v2', sessionId: str(t.session_id), phase: str(t.phase), mode: str(t.retrieval_mode), agent: str(t.agent), displayedAt });
    for (const e of Array.isArray(t.entries) ? (t.entries as Rec[]) : []) {
      const entry = newEntry({ entryId: String(e.entry_id), tier: str(e.tier), priority: str(e.priority), obligation: e.obligation === 'ack_required' || e.obligation === 'advisory' ? e.obligation : null });
      for (const term of Array.isArray(e.terminals) ? (e.terminals as Rec[]) : []) {
        if (!isOutcome(term.outcome)) continue;
        entry.terminals.push({
          outcome: term.outcome,
          source: isTerminalSource(term.source) ? term.source : 'unknown',
          sourceInferred: false,
          agent: null,
          reason: str(term.reason),
          evidence: null,
          ts: str(term.ts),
          seq: null,
          msFromDisplay: msBetween(displayedAt, str(term.ts)),
          origin: 'v2',
        });
      }
      const release = e.release as Rec | null | undefined;
      if (release && isReleaseKind(release.kind)) {
        entry.releases.push({ kind: release.kind, source: 'checkpoint', ts: str(release.ts), seq: null, tool: null, denialCount: null, maxGateDenials: null, gateStalenessMs: null, msFromDisplay: msBetween(displayedAt, str(release.ts)), origin: 'v2' });
      }
      trace.entries.push(entry);
    }
    into.traces.push(trace);
    into.byId.set(traceId, trace);
  }
  for (const g of Array.isArray(l.grace_phases) ? (l.grace_phases as Rec[]) : []) into.phases.graceFromCheckpoint.push(g);
}

function unlinkedTrace(into: V2Traces, record: Rec): TraceEntry {
  const traceId = str(record.trace_id) ?? '(no trace id)';
  let trace = into.unlinked.find((t) => t.traceId === traceId);
  if (!trace) {
    trace = newTrace({ traceId, origin: 'v2', sessionId: str(record.session_id), phase: str(record.phase), taskId: str(record.task_id), agent: str(record.agent), displayedSetKnown: false });
    into.unlinked.push(trace);
  }
  let entry = entryOf(trace, record.entry_id);
  if (!entry) {
    entry = newEntry({ entryId: String(record.entry_id) });
    trace.entries.push(entry);
  }
  return entry;
}

export function buildV2Traces(journal: readonly Rec[], archive: readonly Rec[]): V2Traces {
  const out: V2Traces = { traces: [], byId: new Map(), phases: { closes: [], graceFromCheckpoint: [], archived: [] }, unlinked: [] };
  for (const record of journal) {
    switch (record.type) {
      case 'checkpoint':
        restoreCheckpoint(record.live, out);
        break;
      case 'membership': {
        const traceId = str(record.trace_id);
        if (!traceId || out.byId.has(traceId)) break;
        const trace = newTrace({
          traceId,
          origin: 'v2',
          sessionId: str(record.session_id),
          phase: str(record.phase),
          taskId: str(record.task_id),
          mode: str(record.retrieval_mode),
          agent: str(record.agent),
          displayedAt: str(record.ts),
          seq: int(record.seq),
          entries: (Array.isArray(record.entries) ? (record.entries as Rec[]) : []).map((e) =>
            newEntry({
              entryId: String(e.entry_id),
              tier: str(e.tier),
              rank: int(e.rank),
              priority: str(e.priority),
              obligation: e.obligation === 'ack_required' || e.obligation === 'advisory' ? e.obligation : null,
              entrySha256: str(e.entry_sha256),
            }),
          ),
        });
        out.traces.push(trace);
        out.byId.set(traceId, trace);
        break;
      }
      case 'terminal': {
        const trace = out.byId.get(String(record.trace_id));
        const entry = entryOf(trace, record.entry_id) ?? unlinkedTrace(out, record);
        const displayedAt = trace?.displayedAt ?? null;
        if (isOutcome(record.outcome)) {
          entry.terminals.push({
            outcome: record.outcome,
            source: isTerminalSource(record.source) ? record.source : 'unknown',
            sourceInferred: false,
            agent: str(record.agent),
            reason: str(record.reason),
            evidence: evidenceOf(record.evidence),
            ts: str(record.ts),
            seq: int(record.seq),
            msFromDisplay: msBetween(displayedAt, str(record.ts)),
            origin: 'v2',
          });
        } else if (isAuditKind(record.outcome)) {
          entry.audit.push({ kind: record.outcome, agent: str(record.agent), reason: str(record.reason), ts: str(record.ts), seq: int(record.seq), origin: 'v2' });
        }
        break;
      }
      case 'gate_release': {
        if (!isReleaseKind(record.release_kind)) break;
        for (const pending of Array.isArray(record.pending) ? (record.pending as Rec[]) : []) {
          const trace = out.byId.get(String(pending.trace_id));
          const entry = entryOf(trace, pending.entry_id);
          entry?.releases.push(releaseFrom(record, trace?.displayedAt ?? null));
        }
        break;
      }
      case 'phase_close':
        out.phases.closes.push(record);
        break;
    }
  }
  for (const summary of archive) {
    if (summary.type !== 'closed_summary') continue;
    out.phases.archived.push(summary);
    for (const t of Array.isArray(summary.traces) ? (summary.traces as Rec[]) : []) {
      const traceId = str(t.trace_id);
      if (!traceId || out.byId.has(traceId)) continue;
      const trace = newTrace({ traceId, origin: 'archive', sessionId: str(summary.session_id), phase: str(summary.phase), mode: str(t.retrieval_mode), agent: str(t.agent) });
      for (const e of Array.isArray(t.entries) ? (t.entries as Rec[]) : []) {
        const entry = newEntry({ entryId: String(e.entry_id), priority: str(e.priority) });
        if (isOutcome(e.final_outcome)) {
          const source: TerminalSource = isTerminalSource(e.final_source) ? e.final_source : 'unknown';
          entry.terminals.push({ outcome: e.final_outcome as Outcome, source, sourceInferred: false, agent: null, reason: null, evidence: null, ts: null, seq: null, msFromDisplay: null, origin: 'archive' });
        }
        if (isReleaseKind(e.released)) {
          entry.releases.push({ kind: e.released, source: 'archive', ts: null, seq: null, tool: null, denialCount: null, maxGateDenials: null, gateStalenessMs: null, msFromDisplay: null, origin: 'archive' });
        }
        trace.entries.push(entry);
      }
      out.traces.push(trace);
      out.byId.set(traceId, trace);
    }
  }
  return out;
}
