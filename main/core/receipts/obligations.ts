import type { EscapeHatches, Obligation, Trace } from '../../../shared/contract/receipts';
import type { DirectiveFacts } from './directive-facts';

/** What the gate logs and the knowledge records add to each obligation. */
interface ObligationContext {
  denials: ReadonlyMap<string, number>;
  gateWarnings: ReadonlyMap<string, number>;
  facts: ReadonlyMap<string, DirectiveFacts>;
}

const unresolvedKey = (traceId: string, entryId: string) => `${traceId}\u0000${entryId}`;

/** `phase_close.unresolved[]` of every close: trace/entry → reason (no_verdict | unremediated_violation). */
export function unresolvedAtClose(closes: readonly Record<string, unknown>[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const close of closes) {
    for (const u of Array.isArray(close.unresolved) ? (close.unresolved as Record<string, unknown>[]) : []) {
      map.set(unresolvedKey(String(u.trace_id), String(u.entry_id)), String(u.reason ?? 'unresolved'));
    }
  }
  return map;
}

/**
 * Every displayed `ack_required` entry and what became of it: still open (with how long and
 * whether a gate escape hatch is due), released by the gate (nonterminal: never application),
 * or answered by a terminal (possibly after a release).
 */
export function buildObligations(
  traces: readonly Trace[],
  hatches: EscapeHatches,
  context: ObligationContext,
  unresolvedAtClose: ReadonlyMap<string, string>,
  nowMs: number,
): Obligation[] {
  const out: Obligation[] = [];
  for (const trace of traces) {
    if (!trace.displayedSetKnown) continue;
    for (const entry of trace.entries) {
      if (entry.obligation !== 'ack_required') continue;
      const shownMs = trace.displayedAt ? Date.parse(trace.displayedAt) : Number.NaN;
      const answers = [...entry.terminals].sort((a, b) => (a.ts ?? '').localeCompare(b.ts ?? ''));
      const answer = answers[0] ?? null;
      const firstRelease = [...entry.releases].sort((a, b) => (a.ts ?? '').localeCompare(b.ts ?? ''))[0] ?? null;
      const status: Obligation['status'] = answer ? 'answered' : firstRelease ? 'released' : 'open';
      const resolvedAt = answer?.ts ?? firstRelease?.ts ?? null;
      const endMs = status === 'open' ? nowMs : resolvedAt ? Date.parse(resolvedAt) : Number.NaN;
      const ageMs = Number.isFinite(shownMs) && Number.isFinite(endMs) ? Math.max(0, endMs - shownMs) : null;
      // The staleness release is DOC-ONLY: a display known only from the released plugin's logs is never due.
      const dueMs = Number.isFinite(shownMs) && !entry.derived ? shownMs + hatches.gateStalenessMs : Number.NaN;
      out.push({
        traceId: trace.traceId,
        entryId: entry.entryId,
        phase: trace.phase,
        sessionId: trace.sessionId,
        taskId: trace.taskId,
        agent: trace.agent,
        mode: trace.mode,
        priority: entry.priority,
        displayedAt: trace.displayedAt,
        status,
        ageMs,
        releases: entry.releases,
        answer,
        answeredAfterRelease: !!(answer && firstRelease && (answer.ts ?? '') > (firstRelease.ts ?? '')),
        denials: context.denials.get(entry.entryId) ?? null,
        stalenessDue: status === 'open' && Number.isFinite(dueMs) && nowMs >= dueMs,
        stalenessDueAt: status === 'open' && Number.isFinite(dueMs) ? new Date(dueMs).toISOString() : null,
        closedUnresolved: unresolvedAtClose.get(unresolvedKey(trace.traceId, entry.entryId)) ?? null,
        derived: entry.derived,
        enforcement: context.facts.get(entry.entryId)?.enforcement ?? null,
        gateWarnings: context.gateWarnings.get(entry.entryId) ?? 0,
      });
    }
  }
  // Open first (oldest first), then released, then answered; newest displays first within those.
  const rank = { open: 0, released: 1, answered: 2 } as const;
  return out.sort((a, b) => rank[a.status] - rank[b.status] || (a.status === 'open' ? (a.displayedAt ?? '').localeCompare(b.displayedAt ?? '') : (b.displayedAt ?? '').localeCompare(a.displayedAt ?? '')));
}
