import { z } from 'zod';
import type { DirectiveRow, DirectivesQuery } from '../../../shared/contract/knowledge';
import { entryConfidence, entryId, entryLesson, entryPriority, entryStatus, hasExplicitPriority, str, strList, type RawEntry } from './entry-fields';
import type { KnowledgeModel, SourceEntry } from './knowledge-model';
import { VIOLATION_WINDOW_DAYS } from './knowledge-model';
import { maturityVerdict } from './maturity-gate';
import { isActiveStatus } from './thresholds';

type Query = z.output<typeof DirectivesQuery>;

/** "Close to expiring": archived (or deleted) within this many successful phases. */
export const EXPIRING_SOON_PHASES = 2;

const DIRECTIVE_FIELDS = [
  'triggers',
  'required_actions',
  'forbidden_actions',
  'verification_checks',
  'applies_to_agents',
  'applies_to_tools',
  'verification_predicate',
  'directive_priority',
  'enforcement_mode',
  'escalation_history',
  'generated_skill_path',
] as const;

/** An entry "has v2 directive fields" when any of them is present and non-empty. */
export function isDirective(entry: RawEntry): boolean {
  return DIRECTIVE_FIELDS.some((field) => {
    const value = entry[field];
    return Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value !== '';
  });
}

const PRIORITY_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const;

function escalations(entry: RawEntry): DirectiveRow['escalation_history'] {
  const history = Array.isArray(entry.escalation_history) ? entry.escalation_history : [];
  return history
    .filter((h): h is Record<string, unknown> => !!h && typeof h === 'object')
    .map((h) => ({ from: str(h.from) ?? null, to: str(h.to) ?? null, reason: str(h.reason) ?? null, at: str(h.at) ?? null }));
}

export function directiveRow(model: KnowledgeModel, source: SourceEntry): DirectiveRow {
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
    triggers: strList(entry.triggers),
    required_actions: strList(entry.required_actions),
    forbidden_actions: strList(entry.forbidden_actions),
    applies_to_agents: strList(entry.applies_to_agents),
    applies_to_tools: strList(entry.applies_to_tools),
    verification_checks: strList(entry.verification_checks),
    verification_predicate: str(entry.verification_predicate) ?? null,
    escalation_history: escalations(entry),
    generated_skill_path: str(entry.generated_skill_path) ?? null,
    updated_at: str(entry.updated_at) ?? null,
    funnel: {
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
    },
    signal: markers.signal,
    maturity: maturityVerdict(entry, o, model.thresholds),
    expiry: markers.expiry,
    violationsInWindow: markers.violationsInWindow,
    lastViolationAt: markers.lastViolationAt,
  };
}

const expiryKey = (row: DirectiveRow) => row.expiry?.phasesLeft ?? Number.POSITIVE_INFINITY;

const SORTS: Record<Query['sort'], (a: DirectiveRow, b: DirectiveRow) => number> = {
  priority: (a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || expiryKey(a) - expiryKey(b),
  expiry: (a, b) => expiryKey(a) - expiryKey(b) || PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority],
  violations: (a, b) => b.violationsInWindow - a.violationsInWindow || b.funnel.violated - a.funnel.violated,
  signal: (a, b) => a.signal - b.signal,
  updated: (a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''),
  shown: (a, b) => b.funnel.shown - a.funnel.shown,
};

/** Directive rows matching the query, sorted and paged, plus the counts the view's quick filters show. */
export function listDirectives(model: KnowledgeModel, query: Query) {
  const q = query.q.trim().toLowerCase();
  const rows = model.cached('directive-rows', () =>
    model
      .lessons()
      .filter((source) => isDirective(source.value))
      .map((source) => directiveRow(model, source)),
  );
  const all = query.includeInactive ? rows : rows.filter((row) => isActiveStatus(row.status));
  const counts = {
    all: all.length,
    byPriority: { low: 0, medium: 0, high: 0, critical: 0 } as Record<string, number>,
    expiringSoon: 0,
    violatedInWindow: 0,
    notEligible: 0,
  };
  for (const row of all) {
    counts.byPriority[row.priority] = (counts.byPriority[row.priority] ?? 0) + 1;
    if (row.expiry && row.expiry.phasesLeft <= EXPIRING_SOON_PHASES) counts.expiringSoon++;
    if (row.violationsInWindow > 0) counts.violatedInWindow++;
    if (!row.maturity.eligible) counts.notEligible++;
  }
  const matches = all.filter((row) => {
    if (query.priority.length && !query.priority.includes(row.priority)) return false;
    if (query.tier.length && !query.tier.includes(row.tier)) return false;
    if (query.expiringWithin !== null && !(row.expiry && row.expiry.phasesLeft <= query.expiringWithin)) return false;
    if (query.violatedInWindow && row.violationsInWindow === 0) return false;
    if (query.eligibility === 'eligible' && !row.maturity.eligible) return false;
    if (query.eligibility === 'not_eligible' && row.maturity.eligible) return false;
    if (q) {
      const haystack = [row.lesson, ...row.triggers, ...row.required_actions, ...row.forbidden_actions, ...row.verification_checks, row.id].join('\n').toLowerCase();
      if (!haystack.includes(q)) return false;
    }
    return true;
  });
  matches.sort(SORTS[query.sort]);
  return {
    total: matches.length,
    rows: matches.slice(query.offset, query.offset + query.limit),
    counts,
    soonPhases: EXPIRING_SOON_PHASES,
    asOf: new Date(model.asOf).toISOString(),
    windowDays: VIOLATION_WINDOW_DAYS,
  };
}
