import type { DirectiveRow, DirectivesQuery } from '../../../shared/contract/knowledge';
import type { z } from 'zod';
import { isActiveStatus } from '../rules/thresholds';
import { sourceOfRow } from './directive-rows';
import type { SourceEntry } from './model-types';
import { ChunkedList, type ReadList } from './chunked-list';

/**
 * What the Directives view computes once per model and keeps in the model's memo: the rows in
 * scope with the quick-filter counts, and those rows in each sort order. Rows of appended
 * lessons are put into a previous model's results in their places (`growDirectiveMemo`), when a
 * memo is first asked for (`StaleDirectiveMemo`), which gives exactly what computing them again
 * gives: sorts are stable over file order, so a row's place is fixed by its sort key, then its
 * file position.
 */
type Query = z.output<typeof DirectivesQuery>;
export type DirectiveSort = Query['sort'];

/** "Close to expiring": archived (or deleted) within this many successful phases. */
export const EXPIRING_SOON_PHASES = 2;

const PRIORITY_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const;

const expiryKey = (row: DirectiveRow) => row.expiry?.phasesLeft ?? Number.POSITIVE_INFINITY;

export const SORTS: Record<DirectiveSort, (a: DirectiveRow, b: DirectiveRow) => number> = {
  priority: (a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || expiryKey(a) - expiryKey(b),
  expiry: (a, b) => expiryKey(a) - expiryKey(b) || PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority],
  violations: (a, b) => b.violationsInWindow - a.violationsInWindow || b.funnel.violated - a.funnel.violated,
  signal: (a, b) => a.signal - b.signal,
  updated: (a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''),
  shown: (a, b) => b.funnel.shown - a.funnel.shown,
};

export interface DirectiveCounts {
  all: number;
  byPriority: Record<string, number>;
  expiringSoon: number;
  violatedInWindow: number;
  notEligible: number;
}

export interface DirectiveScope {
  all: ChunkedList<DirectiveRow>;
  counts: DirectiveCounts;
}

export const scopeKey = (includeInactive: boolean) => `directives:${includeInactive}`;
export const sortKey = (includeInactive: boolean, sort: DirectiveSort) => `directives:${includeInactive}:${sort}`;

const inScope = (row: DirectiveRow, includeInactive: boolean) => includeInactive || isActiveStatus(row.status);

function count(counts: DirectiveCounts, row: DirectiveRow): void {
  counts.all++;
  counts.byPriority[row.priority] = (counts.byPriority[row.priority] ?? 0) + 1;
  if (row.expiry && row.expiry.phasesLeft <= EXPIRING_SOON_PHASES) counts.expiringSoon++;
  if (row.violationsInWindow > 0) counts.violatedInWindow++;
  if (!row.maturity.eligible) counts.notEligible++;
}

function uncount(counts: DirectiveCounts, row: DirectiveRow): void {
  counts.all--;
  counts.byPriority[row.priority] = (counts.byPriority[row.priority] ?? 0) - 1;
  if (row.expiry && row.expiry.phasesLeft <= EXPIRING_SOON_PHASES) counts.expiringSoon--;
  if (row.violationsInWindow > 0) counts.violatedInWindow--;
  if (!row.maturity.eligible) counts.notEligible--;
}

/** The rows in scope (active only unless asked, file order) and the quick-filter counts. */
export function directiveScope(rows: ReadList<DirectiveRow>, includeInactive: boolean): DirectiveScope {
  const all = rows.filter((row) => inScope(row, includeInactive));
  const counts: DirectiveCounts = { all: 0, byPriority: { low: 0, medium: 0, high: 0, critical: 0 }, expiringSoon: 0, violatedInWindow: 0, notEligible: 0 };
  for (const row of all) count(counts, row);
  return { all: ChunkedList.from(all), counts };
}

/** The order of a Directives list: `order`, then file order. */
const rowOrder = (order: (a: DirectiveRow, b: DirectiveRow) => number, fileOrder: (a: SourceEntry, b: SourceEntry) => number) => (a: DirectiveRow, b: DirectiveRow) =>
  order(a, b) || fileOrder(sourceOfRow(a)!, sourceOfRow(b)!);

/** `rows` (ordered by `order`, then file order) with `added` put in their places (each copies one chunk of the list). */
function insertRows(rows: ChunkedList<DirectiveRow>, added: readonly DirectiveRow[], order: (a: DirectiveRow, b: DirectiveRow) => number, fileOrder: (a: SourceEntry, b: SourceEntry) => number): ChunkedList<DirectiveRow> {
  const compare = rowOrder(order, fileOrder);
  for (const row of added) rows = rows.insertAt(rows.upperBound(row, compare), row);
  return rows;
}

/** `rows` (ordered by `order`, then file order) without `row`. */
function removeRow(rows: ChunkedList<DirectiveRow>, row: DirectiveRow, order: (a: DirectiveRow, b: DirectiveRow) => number, fileOrder: (a: SourceEntry, b: SourceEntry) => number): ChunkedList<DirectiveRow> {
  for (let at = rows.lowerBound(row, rowOrder(order, fileOrder)); at < rows.length; at++) if (rows.at(at) === row) return rows.removeAt(at);
  throw new Error('directive row missing from its sorted list');
}

/** Above this many changed rows a Directives memo is computed again rather than patched. */
const MAX_PATCHED_ROWS = 256;

/**
 * A Directives memo value (`sort` undefined: the rows in scope and their counts; else the rows in
 * scope in that sort order) without `removed` and with `added` in their places, or undefined for
 * an unknown sort.
 */
function patchedMemo(sort: string | undefined, value: unknown, removed: readonly DirectiveRow[], added: readonly DirectiveRow[], fileOrder: (a: SourceEntry, b: SourceEntry) => number): unknown {
  if (sort === undefined) {
    const scope = value as DirectiveScope;
    const counts = { ...scope.counts, byPriority: { ...scope.counts.byPriority } };
    let all = scope.all;
    for (const row of removed) {
      uncount(counts, row);
      all = removeRow(all, row, () => 0, fileOrder);
    }
    for (const row of added) count(counts, row);
    return { all: insertRows(all, added, () => 0, fileOrder), counts } satisfies DirectiveScope;
  }
  const order = SORTS[sort as DirectiveSort];
  if (!order) return undefined;
  let rows = value as ChunkedList<DirectiveRow>;
  for (const row of removed) rows = removeRow(rows, row, order, fileOrder);
  return insertRows(rows, added, order, fileOrder);
}

/**
 * A previous model's memo value for `key` with rows replaced (`[old, new]`, the same lesson under
 * new counters), or undefined when `key` is not a Directives memo or too many rows changed.
 */
function replaceInDirectiveMemo(key: string, value: unknown, replaced: readonly [DirectiveRow, DirectiveRow][], fileOrder: (a: SourceEntry, b: SourceEntry) => number): unknown {
  const [area, inactive, sort] = key.split(':');
  if (area !== 'directives' || replaced.length > MAX_PATCHED_ROWS) return undefined;
  // A row's scope follows its lesson's status, which a counter change leaves as it is.
  const pairs = replaced.filter(([old]) => inScope(old, inactive === 'true'));
  return patchedMemo(sort, value, pairs.map(([old]) => old), pairs.map(([, next]) => next), fileOrder);
}

/**
 * A previous model's memo value for `key` without the rows of gone directives and with those of
 * added ones, or undefined when `key` is not a Directives memo or too many rows went (it is then
 * computed again when asked).
 */
function growDirectiveMemo(key: string, value: unknown, added: readonly DirectiveRow[], removed: readonly DirectiveRow[], fileOrder: (a: SourceEntry, b: SourceEntry) => number): unknown {
  const [area, inactive, sort] = key.split(':');
  if (area !== 'directives' || removed.length > MAX_PATCHED_ROWS || added.length > MAX_PATCHED_ROWS) return undefined;
  const inScopeHere = (row: DirectiveRow) => inScope(row, inactive === 'true');
  return patchedMemo(sort, value, removed.filter(inScopeHere), added.filter(inScopeHere), fileOrder);
}

/** A change of the directive rows since a memo was computed: rows replaced (the same lessons under new counters), or rows added and removed (lines appended, rewritten or gone). */
export type DirectiveRowChange =
  | { replaced: readonly [DirectiveRow, DirectiveRow][]; fileOrder: (a: SourceEntry, b: SourceEntry) => number }
  | { added: readonly DirectiveRow[]; removed: readonly DirectiveRow[]; fileOrder: (a: SourceEntry, b: SourceEntry) => number };

const changeSize = (change: DirectiveRowChange) => ('replaced' in change ? change.replaced.length : Math.max(change.added.length, change.removed.length));

/**
 * A Directives memo of an earlier model with the row changes since, applied in order when the
 * memo is first asked for (`resolve`). A saved model holds fourteen of them (two scopes, each
 * with six sort orders), each a copy of up to every directive row; an append brings up to date
 * only those a request asks for, not all fourteen before its first answer.
 */
export class StaleDirectiveMemo {
  private constructor(
    private readonly key: string,
    private readonly base: unknown,
    private readonly changes: readonly DirectiveRowChange[],
    private readonly rows: number,
  ) {}

  /**
   * `value` (a memo value, or one already stale) with `change` still to apply, or undefined when
   * `key` is not a Directives memo or too many rows changed since it was computed (it is then
   * computed again when asked).
   */
  static after(key: string, value: unknown, change: DirectiveRowChange): StaleDirectiveMemo | undefined {
    const [area, , sort] = key.split(':');
    if (area !== 'directives' || (sort !== undefined && !SORTS[sort as DirectiveSort])) return undefined;
    const earlier = value instanceof StaleDirectiveMemo ? value : new StaleDirectiveMemo(key, value, [], 0);
    const rows = earlier.rows + changeSize(change);
    if (rows > MAX_PATCHED_ROWS) return undefined;
    return new StaleDirectiveMemo(key, earlier.base, [...earlier.changes, change], rows);
  }

  /** The memo's value with every change applied: what computing it again gives. */
  resolve(): unknown {
    let value = this.base;
    for (const change of this.changes) {
      value =
        'replaced' in change
          ? replaceInDirectiveMemo(this.key, value, change.replaced, change.fileOrder)
          : growDirectiveMemo(this.key, value, change.added, change.removed, change.fileOrder);
    }
    return value;
  }
}
