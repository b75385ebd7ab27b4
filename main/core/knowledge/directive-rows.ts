import type { DirectiveRow } from '../../../shared/contract/knowledge';
import { entryConfidence, entryId, entryLesson, entryPriority, entryStatus, hasExplicitPriority, str, type RawEntry } from '../rules/entry-fields';
import type { EntryFacts, SourceEntry } from './model-types';
import { maturityVerdict } from '../rules/maturity-gate';
import { emptyList, sharedExpiry, sharedFunnel, sharedMaturity, stringList } from './row-parts';

function escalations(entry: RawEntry): DirectiveRow['escalation_history'] {
  const history = Array.isArray(entry.escalation_history) ? entry.escalation_history : [];
  return emptyList(
    history
      .filter((h): h is Record<string, unknown> => !!h && typeof h === 'object')
      .map((h) => ({ from: str(h.from) ?? null, to: str(h.to) ?? null, reason: str(h.reason) ?? null, at: str(h.at) ?? null })),
  );
}

/** The lesson each row was computed from (rows are ordered by file position where sort keys tie). */
const rowSources = new WeakMap<DirectiveRow, SourceEntry>();
export const sourceOfRow = (row: DirectiveRow): SourceEntry | undefined => rowSources.get(row);

/** A directive's row for the Directives view: its fields, funnel, signal, verdict and expiry. */
export function directiveRow(model: EntryFacts, source: SourceEntry): DirectiveRow {
  const row = computeRow(model, source);
  rowSources.set(row, source);
  return row;
}

function computeRow(model: EntryFacts, source: SourceEntry): DirectiveRow {
  const entry = source.value;
  const o = model.outcomes(source);
  const markers = model.markers(source);
  return {
    id: entryId(entry),
    tier: source.tier,
    lesson: entryLesson(entry),
    status: entryStatus(entry),
    confidence: entryConfidence(entry),
    priority: entryPriority(entry),
    priorityExplicit: hasExplicitPriority(entry),
    enforcement_mode: str(entry.enforcement_mode) ?? null,
    triggers: stringList(entry.triggers),
    required_actions: stringList(entry.required_actions),
    forbidden_actions: stringList(entry.forbidden_actions),
    applies_to_agents: stringList(entry.applies_to_agents),
    applies_to_tools: stringList(entry.applies_to_tools),
    verification_checks: stringList(entry.verification_checks),
    verification_predicate: str(entry.verification_predicate) ?? null,
    escalation_history: escalations(entry),
    generated_skill_path: str(entry.generated_skill_path) ?? null,
    updated_at: str(entry.updated_at) ?? null,
    funnel: sharedFunnel({
      shown: o.shown_count,
      acknowledged: o.acknowledged_count,
      applied: o.applied_explicit_count,
      ignored: o.ignored_count,
      n_a: o.n_a_count,
      contradicted: o.contradicted_count,
      violated: o.violated_count,
      succeeded_after_shown: o.succeeded_after_shown_count,
      failed_after_shown: o.failed_after_shown_count,
      partial_after_shown: o.partial_after_shown_count,
    }),
    signal: markers.signal,
    maturity: sharedMaturity(maturityVerdict(entry, o, model.thresholds)),
    expiry: sharedExpiry(markers.expiry),
    violationsInWindow: markers.violationsInWindow,
    lastViolationAt: markers.lastViolationAt,
  };
}

