import type { PhaseSummary, Trace } from '../../../shared/contract/receipts';
import type { V2Phases } from './trace-model';
import { str } from './trace-model';

/**
 * One summary per phase label: what was displayed, answered, released and left open, and the
 * phase-close state — open, closed and within its grace period (`receipt_close_grace_days`),
 * past its grace period but still live, or archived (a closed summary in the archive).
 */

type Rec = Record<string, unknown>;

function blank(phase: string, origin: PhaseSummary['origin']): PhaseSummary {
  return {
    phase,
    origin,
    sessions: [],
    traces: 0,
    displayed: 0,
    ackRequired: 0,
    answered: 0,
    released: 0,
    open: 0,
    outcomes: { applied: 0, ignored: 0, n_a: 0, contradicted: 0, violated: 0 },
    state: 'no_close_record',
    closedAt: null,
    phaseOutcome: null,
    graceDays: null,
    archiveEligibleAfter: null,
    unresolved: [],
    overrides: [],
    derived: false,
  };
}

function applyClose(summary: PhaseSummary, close: Rec): void {
  summary.closedAt = str(close.ts) ?? str(close.closed_at);
  summary.phaseOutcome = str(close.phase_outcome) ?? summary.phaseOutcome;
  summary.graceDays = typeof close.grace_days === 'number' ? close.grace_days : summary.graceDays;
  summary.archiveEligibleAfter = str(close.archive_eligible_after);
  const list = (value: unknown) => (Array.isArray(value) ? (value as Rec[]) : []);
  summary.unresolved = list(close.unresolved).map((u) => ({ traceId: String(u.trace_id ?? ''), entryId: String(u.entry_id ?? ''), reason: String(u.reason ?? '') }));
  summary.overrides = list(close.overrides).map((o) => ({ entryId: String(o.entry_id ?? ''), justification: String(o.justification ?? '') }));
}

export function buildPhaseSummaries(traces: readonly Trace[], phases: V2Phases, nowMs: number): PhaseSummary[] {
  const byPhase = new Map<string, PhaseSummary>();
  const lastDisplay = new Map<string, string>();
  const summaryOf = (phase: string, origin: PhaseSummary['origin']) => {
    let s = byPhase.get(phase);
    if (!s) byPhase.set(phase, (s = blank(phase, origin)));
    else if (origin === 'v2' && s.origin !== 'v2') s.origin = 'v2';
    return s;
  };

  for (const trace of traces) {
    if (!trace.displayedSetKnown || !trace.phase) continue;
    const s = summaryOf(trace.phase, trace.origin === 'v2' ? 'v2' : trace.origin === 'archive' ? 'archive' : 'legacy');
    if (trace.sessionId && !s.sessions.includes(trace.sessionId)) s.sessions.push(trace.sessionId);
    if (trace.origin === 'v2' && trace.displayedAt && (lastDisplay.get(trace.phase) ?? '') < trace.displayedAt) lastDisplay.set(trace.phase, trace.displayedAt);
    s.traces++;
    for (const entry of trace.entries) {
      s.displayed++;
      if (entry.obligation === 'ack_required') s.ackRequired++;
      if (entry.status === 'answered') s.answered++;
      else if (entry.status === 'released') s.released++;
      else if (entry.status === 'open') s.open++;
      if (entry.effective) s.outcomes[entry.effective.outcome]++;
    }
  }

  for (const grace of phases.graceFromCheckpoint) {
    const phase = str(grace.phase);
    if (!phase) continue;
    const s = summaryOf(phase, 'v2');
    applyClose(s, { ts: grace.closed_at, archive_eligible_after: grace.archive_eligible_after });
  }
  for (const close of phases.closes) {
    const phase = str(close.closed_phase) ?? str(close.phase);
    if (!phase) continue;
    const s = summaryOf(phase, 'v2');
    if (close.session_id && typeof close.session_id === 'string' && !s.sessions.includes(close.session_id)) s.sessions.push(close.session_id);
    applyClose(s, close);
  }
  const archivedPhases = new Set<string>();
  for (const summary of phases.archived) {
    const phase = str(summary.phase);
    if (!phase) continue;
    archivedPhases.add(phase);
    const s = summaryOf(phase, 'archive');
    if (!s.closedAt) applyClose(s, { closed_at: summary.closed_at });
  }

  // No phase_close on legacy data: the `outcome` events written at phase completion say it completed.
  const legacyEnds = new Map<string, { at: string; outcome: string }>();
  for (const event of phases.legacyOutcomes ?? []) {
    const phase = str(event.phase);
    const at = str(event.timestamp) ?? '';
    if (!phase) continue;
    const known = legacyEnds.get(phase);
    if (!known || at >= known.at) legacyEnds.set(phase, { at, outcome: str(event.outcome) ?? 'unknown' });
  }
  for (const s of byPhase.values()) {
    const end = legacyEnds.get(s.phase);
    if (s.origin !== 'legacy' || s.closedAt !== null || !end) continue;
    s.state = 'completed_legacy';
    s.derived = true;
    s.closedAt = end.at || null;
    s.phaseOutcome = end.outcome;
  }

  for (const s of byPhase.values()) {
    if (s.state === 'completed_legacy') continue;
    const reopened = s.closedAt !== null && (lastDisplay.get(s.phase) ?? '') > s.closedAt;
    if (s.closedAt === null || reopened) s.state = s.origin === 'legacy' ? 'no_close_record' : 'open';
    else if (archivedPhases.has(s.phase)) s.state = 'archived';
    else {
      const eligible = s.archiveEligibleAfter ? Date.parse(s.archiveEligibleAfter) : Number.NaN;
      s.state = Number.isFinite(eligible) && nowMs >= eligible ? 'archive_eligible' : 'in_grace';
    }
  }
  const number = (phase: string) => Number(/(\d+)/.exec(phase)?.[1] ?? Number.MAX_SAFE_INTEGER);
  return [...byPhase.values()].sort((a, b) => number(a.phase) - number(b.phase) || a.phase.localeCompare(b.phase));
}
