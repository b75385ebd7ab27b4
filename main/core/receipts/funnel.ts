import type { FunnelCounts, FunnelRow, Trace } from '../../../shared/contract/receipts';
import type { V2Phases } from './trace-model';
import { str } from './trace-model';

/**
 * Per-directive figures across every source, per display: displays → displays answered (any
 * answer) → by outcome, then succeeded/failed/partial after shown. Each display counts once, under
 * the effective outcome the gate would use, so the outcome columns add up to `answered` and
 * `answered` never exceeds `shown` (issue 19 item 1). An answer that names no recorded display (a
 * fresh trace id, an `acknowledged` event, an application-log marker with no earlier retrieval in
 * its session) is counted apart, in `unlinkedAnswers`. Releases and open obligations are separate
 * columns (a release is never an answer), and so are the audit-only events. "Acknowledged" is kept
 * for the plugin's own `acknowledged_count` (added by the model), which is not per display.
 */

type Rec = Record<string, unknown>;
type Origin = FunnelRow['bySource'][number]['origin'];
/** A funnel row before the model adds what the knowledge records say (priority source, enforcement, acknowledged_count). */
type BaseFunnelRow = Pick<FunnelRow, 'entryId' | 'priority' | 'total' | 'bySource'>;

const PRIORITY_ORDER = ['critical', 'high', 'medium', 'low'];

export const FUNNEL_NOTES = [
  'V2 journal displays are authoritative; a legacy retrieval whose trace the journal already holds is not counted again.',
  'Answered = displays with at least one answer of any kind (applied, ignored, N/A, contradicted, violated); the outcome columns count each display once, by the outcome the gate would use. So answered never exceeds shown, and the outcome columns add up to answered.',
  'Answers without a display: answers that name no display the logs recorded (a fresh trace id from the delegate ack collector, knowledge_receipt with trace "none", acknowledged events, chat markers with no earlier retrieval in their session). They are real answers, counted apart because no display can be matched to them.',
  'Acknowledged = the plugin’s effective acknowledged_count (explicit acknowledgements only: acknowledged events and N/A markers, over the counter baseline and both logs), the figure the Knowledge and Directives views show. Applied, ignored or violated answers are not acknowledgements.',
  'Gate releases (denial limit, staleness, session reset) are nonterminal: counted as released, never as answered or applied.',
  'knowledge-application.jsonl stores an N/A acknowledgement as "acknowledged"; those lines are counted as answered (outcome n/a) and shown as "N/A stored as acknowledged".',
  'Legacy displays have no priority of their own: the priority, and "ack required" for critical directives, are derived from the knowledge entry (marked "derived from legacy logs"). Chat-marker answers in knowledge-application.jsonl count for the latest earlier display of the entry in the same session.',
  'knowledge-application.jsonl "shown" lines count only for entries that no retrieval or membership shows (as the plugin rolls up its counters).',
  'Audit only: unacknowledged-criticals.jsonl lines and V2 unacknowledged / no_relevant records; never outcomes. (The released plugin also records a missing delegate ack as a violated answer with reason "unacknowledged"; that one is an outcome.)',
  'A legacy line that repeats a V2 record (same entry, same answer, same session, within 5 s) is the same event logged twice and is counted once, under V2.',
  'Succeeded/failed/partial: legacy outcome events, plus one per entry displayed in a V2 phase that closed with that outcome.',
];

function emptyCounts(): FunnelCounts {
  return {
    shown: 0,
    answered: 0,
    unlinkedAnswers: 0,
    applied: 0,
    ignored: 0,
    n_a: 0,
    contradicted: 0,
    violated: 0,
    naStoredAsAcknowledged: 0,
    succeeded: 0,
    failed: 0,
    partial: 0,
    released: 0,
    open: 0,
    unacknowledged: 0,
    noRelevant: 0,
  };
}

class Tally {
  private readonly rows = new Map<string, { priority: string | null; bySource: Map<Origin, FunnelCounts> }>();

  counts(entryId: string, origin: Origin): FunnelCounts {
    let row = this.rows.get(entryId);
    if (!row) this.rows.set(entryId, (row = { priority: null, bySource: new Map() }));
    let counts = row.bySource.get(origin);
    if (!counts) row.bySource.set(origin, (counts = emptyCounts()));
    return counts;
  }

  priority(entryId: string, priority: string | null): void {
    const row = this.rows.get(entryId);
    if (!row || !priority) return;
    const rank = (p: string | null) => (p === null ? 99 : PRIORITY_ORDER.indexOf(p) === -1 ? 50 : PRIORITY_ORDER.indexOf(p));
    if (rank(priority) < rank(row.priority)) row.priority = priority;
  }

  result(): BaseFunnelRow[] {
    return [...this.rows.entries()].map(([entryId, row]) => {
      const total = emptyCounts();
      const bySource = [...row.bySource.entries()].map(([origin, counts]) => {
        for (const key of Object.keys(total) as (keyof FunnelCounts)[]) total[key] += counts[key];
        return { origin, counts };
      });
      return { entryId, priority: row.priority, total, bySource };
    });
  }
}

interface FunnelInputs {
  traces: readonly Trace[];
  phases: V2Phases;
  legacyOutcomes: readonly Rec[];
  legacyAcknowledged: readonly Rec[];
  /** Application-log lines still to count (copies of V2 answers removed). */
  application: readonly Rec[];
  retrievedIds: ReadonlySet<string>;
}

export function buildFunnel(input: FunnelInputs): BaseFunnelRow[] {
  const tally = new Tally();
  const phaseEntries = new Map<string, Set<string>>();

  for (const trace of input.traces) {
    for (const entry of trace.entries) {
      const counts = tally.counts(entry.entryId, trace.origin);
      tally.priority(entry.entryId, entry.priority);
      if (trace.displayedSetKnown) counts.shown++;
      if (entry.effective && !trace.displayedSetKnown) counts.unlinkedAnswers++;
      else if (entry.effective) {
        counts.answered++;
        counts[entry.effective.outcome]++;
      } else if (entry.releases.length) counts.released++;
      else if (entry.obligation === 'ack_required') counts.open++;
      for (const t of entry.terminals) if (t.origin === 'knowledge-application' && t.outcome === 'n_a') tally.counts(entry.entryId, 'knowledge-application').naStoredAsAcknowledged++;
      for (const audit of entry.audit) {
        const auditCounts = tally.counts(entry.entryId, audit.origin);
        if (audit.kind === 'unacknowledged') auditCounts.unacknowledged++;
        else if (audit.kind === 'no_relevant') auditCounts.noRelevant++;
      }
      if (trace.origin === 'v2' && trace.phase && trace.displayedSetKnown) {
        let set = phaseEntries.get(trace.phase);
        if (!set) phaseEntries.set(trace.phase, (set = new Set()));
        set.add(entry.entryId);
      }
    }
  }

  for (const close of input.phases.closes) {
    const outcome = close.phase_outcome;
    const phase = str(close.closed_phase) ?? str(close.phase);
    if (!phase || (outcome !== 'success' && outcome !== 'failure' && outcome !== 'partial')) continue;
    for (const entryId of phaseEntries.get(phase) ?? []) {
      const counts = tally.counts(entryId, 'v2');
      if (outcome === 'success') counts.succeeded++;
      else if (outcome === 'failure') counts.failed++;
      else counts.partial++;
    }
  }

  for (const event of input.legacyOutcomes) {
    const id = str(event.knowledge_id);
    if (!id) continue;
    const counts = tally.counts(id, 'knowledge-events');
    if (event.outcome === 'success') counts.succeeded++;
    else if (event.outcome === 'failure') counts.failed++;
    else if (event.outcome === 'partial') counts.partial++;
  }
  for (const event of input.legacyAcknowledged) {
    const id = str(event.knowledge_id);
    if (id) tally.counts(id, 'knowledge-events').unlinkedAnswers++;
  }

  for (const value of input.application) {
    const id = str(value.knowledgeId);
    if (!id) continue;
    const counts = tally.counts(id, 'knowledge-application');
    switch (value.result) {
      case 'shown':
        if (!input.retrievedIds.has(id)) counts.shown++;
        break;
      // Markers no retrieval in their session precedes (attachMarker found no display for them).
      case 'acknowledged':
        counts.unlinkedAnswers++;
        counts.naStoredAsAcknowledged++;
        break;
      case 'applied':
      case 'ignored':
      case 'violated':
        counts.unlinkedAnswers++;
        break;
    }
  }

  return tally.result().sort((a, b) => b.total.shown - a.total.shown || a.entryId.localeCompare(b.entryId));
}
