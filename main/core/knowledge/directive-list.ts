import { z } from 'zod';
import type { DirectiveRow, DirectivesQuery } from '../../../shared/contract/knowledge';
import type { KnowledgeModel } from './knowledge-model';
import { VIOLATION_WINDOW_DAYS } from './counter-state';
import { directiveScope, EXPIRING_SOON_PHASES, scopeKey, sortKey, SORTS, type DirectiveCounts, type DirectiveScope } from './directive-scope';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { ChunkedList } from './chunked-list';

type Query = z.output<typeof DirectivesQuery>;

/** What the Directives view reads of a model (persisted-knowledge.ts supplies it from the index too). */
export type DirectiveSource = Pick<KnowledgeModel, 'cached' | 'directiveRows' | 'asOf'>;

/** The fields a text search reads, each a string or a list of strings (kept-row-search.ts reads them in kept rows). */
export const SEARCHED_FIELDS = ['lesson', 'triggers', 'required_actions', 'forbidden_actions', 'verification_checks', 'id'] as const satisfies readonly (keyof DirectiveRow)[];

/** Lower-cased search text of a row, once per row (rows are reused while counters stay): its searched fields' strings, a line each. */
const haystacks = new WeakMap<DirectiveRow, string>();
function haystackOf(row: DirectiveRow): string {
  let text = haystacks.get(row);
  if (text === undefined) {
    text = SEARCHED_FIELDS.flatMap((field) => row[field]).join('\n').toLowerCase();
    haystacks.set(row, text);
  }
  return text;
}

/** Whether a row's search text (lesson, triggers, actions, checks, id) holds `q`, already trimmed and lower-cased. */
export const matchesText = (row: DirectiveRow, q: string): boolean => haystackOf(row).includes(q);

/** The rows in scope (active only unless asked) and the quick-filter counts, once per model. */
const scopeOf = (model: DirectiveSource, includeInactive: boolean): DirectiveScope =>
  model.cached(scopeKey(includeInactive), () => directiveScope(model.directiveRows(), includeInactive));

/**
 * Directive rows matching the query, sorted and paged, plus the counts the view's quick filters
 * show. The rows in scope are sorted once per model and sort order; a query then only filters
 * them (the sort is stable and the orders consistent, so filtering a sorted list gives what
 * sorting the filtered list gives).
 */
export function listDirectives(model: DirectiveSource, query: Query) {
  const q = query.q.trim().toLowerCase();
  const { sorted, counts } = sortedDirectives(model, query.includeInactive, query.sort);
  const filtered = isFiltered(query);
  const matches = !filtered ? sorted : sorted.filter((row) => passesQuickFilters(row, query) && (!q || matchesText(row, q)));
  return directivesPage(matches.length, matches.slice(query.offset, query.offset + query.limit), counts, model.asOf);
}

/** What the quick filters read of a row: a DirectiveRow has it, and the kept state keeps it per row (persisted-directives.ts). */
export interface DirectiveFacts {
  priority: DirectiveRow['priority'];
  tier: DirectiveRow['tier'];
  expiry: { phasesLeft: number } | null;
  violationsInWindow: number;
  maturity: { eligible: boolean };
}

/** Whether a row passes the query's filters other than the search text. */
export function passesQuickFilters(row: DirectiveFacts, query: Query): boolean {
  if (query.priority.length && !query.priority.includes(row.priority)) return false;
  if (query.tier.length && !query.tier.includes(row.tier)) return false;
  if (query.expiringWithin !== null && !(row.expiry && row.expiry.phasesLeft <= query.expiringWithin)) return false;
  if (query.violatedInWindow && row.violationsInWindow === 0) return false;
  if (query.eligibility === 'eligible' && !row.maturity.eligible) return false;
  if (query.eligibility === 'not_eligible' && row.maturity.eligible) return false;
  return true;
}

/** Whether a query filters the rows in scope (else its page is a slice of one sort order). */
export const isFiltered = (query: Query): boolean =>
  query.priority.length > 0 || query.tier.length > 0 || query.expiringWithin !== null || query.violatedInWindow || query.eligibility !== 'any' || query.q.trim() !== '';

/** The rows in scope in one sort order, and the quick-filter counts (once per model). */
export function sortedDirectives(model: DirectiveSource, includeInactive: boolean, sort: Query['sort']): { sorted: ChunkedList<DirectiveRow>; counts: DirectiveCounts } {
  const { all, counts } = scopeOf(model, includeInactive);
  return { sorted: model.cached(sortKey(includeInactive, sort), () => ChunkedList.from([...all].sort(SORTS[sort]))), counts };
}

/** A Directives answer. */
export function directivesPage(total: number, rows: DirectiveRow[], counts: DirectiveCounts, asOf: number) {
  return {
    total,
    rows,
    counts: { ...counts, byPriority: { ...counts.byPriority } },
    soonPhases: EXPIRING_SOON_PHASES,
    asOf: new Date(asOf).toISOString(),
    windowDays: VIOLATION_WINDOW_DAYS,
  };
}

/**
 * The default Directives page's work (scope, counts, priority order) and the search text of the
 * rows this model computed, ahead of requests. Rows taken over from the previous model were
 * warmed by it, so a model grown by one line warms one row, not every row (a search computes
 * any text still missing).
 */
export async function warmDirectives(model: KnowledgeModel, slicer: TimeSlicer): Promise<void> {
  sortedDirectives(model, false, 'priority');
  await slicer.forEach(model.takeComputedRows(), haystackOf);
}
