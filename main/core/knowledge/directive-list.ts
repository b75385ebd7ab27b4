import { z } from 'zod';
import type { DirectiveRow, DirectivesQuery } from '../../../shared/contract/knowledge';
import type { KnowledgeModel } from './knowledge-model';
import { VIOLATION_WINDOW_DAYS } from './counter-state';
import { isActiveStatus } from '../rules/thresholds';
import type { TimeSlicer } from '../platform/util/time-slicer';

type Query = z.output<typeof DirectivesQuery>;

/** "Close to expiring": archived (or deleted) within this many successful phases. */
const EXPIRING_SOON_PHASES = 2;

const PRIORITY_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const;

const expiryKey = (row: DirectiveRow) => row.expiry?.phasesLeft ?? Number.POSITIVE_INFINITY;

const SORTS: Record<Query['sort'], (a: DirectiveRow, b: DirectiveRow) => number> = {
  priority: (a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || expiryKey(a) - expiryKey(b),
  expiry: (a, b) => expiryKey(a) - expiryKey(b) || PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority],
  violations: (a, b) => b.violationsInWindow - a.violationsInWindow || b.funnel.violated - a.funnel.violated,
  signal: (a, b) => a.signal - b.signal,
  updated: (a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''),
  shown: (a, b) => b.funnel.shown - a.funnel.shown,
};

/** Lower-cased search text of a row, once per row (rows are reused while counters stay). */
const haystacks = new WeakMap<DirectiveRow, string>();
function haystackOf(row: DirectiveRow): string {
  let text = haystacks.get(row);
  if (text === undefined) {
    text = [row.lesson, ...row.triggers, ...row.required_actions, ...row.forbidden_actions, ...row.verification_checks, row.id].join('\n').toLowerCase();
    haystacks.set(row, text);
  }
  return text;
}

/** The rows in scope (active only unless asked) and the quick-filter counts, once per model. */
function scopeOf(model: KnowledgeModel, includeInactive: boolean) {
  return model.cached(`directives:${includeInactive}`, () => {
    const rows = model.directiveRows();
    const all = includeInactive ? rows : rows.filter((row) => isActiveStatus(row.status));
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
    return { all, counts };
  });
}

/**
 * Directive rows matching the query, sorted and paged, plus the counts the view's quick filters
 * show. The rows in scope are sorted once per model and sort order; a query then only filters
 * them (the sort is stable and the orders consistent, so filtering a sorted list gives what
 * sorting the filtered list gives).
 */
export function listDirectives(model: KnowledgeModel, query: Query) {
  const q = query.q.trim().toLowerCase();
  const { all, counts } = scopeOf(model, query.includeInactive);
  const sorted = model.cached(`directives:${query.includeInactive}:${query.sort}`, () => [...all].sort(SORTS[query.sort]));
  const filtered =
    query.priority.length ||
    query.tier.length ||
    query.expiringWithin !== null ||
    query.violatedInWindow ||
    query.eligibility !== 'any' ||
    q;
  const matches = !filtered
    ? sorted
    : sorted.filter((row) => {
        if (query.priority.length && !query.priority.includes(row.priority)) return false;
        if (query.tier.length && !query.tier.includes(row.tier)) return false;
        if (query.expiringWithin !== null && !(row.expiry && row.expiry.phasesLeft <= query.expiringWithin)) return false;
        if (query.violatedInWindow && row.violationsInWindow === 0) return false;
        if (query.eligibility === 'eligible' && !row.maturity.eligible) return false;
        if (query.eligibility === 'not_eligible' && row.maturity.eligible) return false;
        if (q && !haystackOf(row).includes(q)) return false;
        return true;
      });
  return {
    total: matches.length,
    rows: matches.slice(query.offset, query.offset + query.limit),
    counts: { ...counts, byPriority: { ...counts.byPriority } },
    soonPhases: EXPIRING_SOON_PHASES,
    asOf: new Date(model.asOf).toISOString(),
    windowDays: VIOLATION_WINDOW_DAYS,
  };
}

/** The default Directives page's work (scope, counts, priority order) and every row's search text, ahead of requests. */
export async function warmDirectives(model: KnowledgeModel, slicer: TimeSlicer): Promise<void> {
  const { all } = scopeOf(model, false);
  model.cached('directives:false:priority', () => [...all].sort(SORTS.priority));
  await slicer.forEach(model.directiveRows(), haystackOf);
}
