import type { AsOfOutput } from '../../../../../shared/contract/history';
import type { KnowledgeQuery, ListFilter } from '../knowledge-query';
import type { KnowledgeRow } from '../rows';
import type { Facets } from '../use-entries';

/**
 * The Knowledge table as of a moment, worked out in the page from `history.asOf`: each historical
 * line read into the live table's row shape (the same columns render it), then filtered, sorted
 * and counted by the same URL filters the live table sends to the store index. The line is all
 * history keeps: markers and effective counters (receipts, events) are not known as of a moment.
 */
export type HistoricalEntry = AsOfOutput['entries'][number];

const PRIORITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1 };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** History's file kinds as the table's collections: the active store of any tier is `active`. */
export const collectionOf = (kind: HistoricalEntry['kind']): string => (kind === 'hive' || kind === 'link' ? 'active' : kind);

/**
 * One historical line as a table row: the core read it as the store index reads a live line
 * (`row`, main/core/history/historical-row.ts); its position stands in for the row id.
 */
export function historicalRow(entry: HistoricalEntry, index: number): KnowledgeRow {
  const rid = -(index + 1);
  if (entry.row) return { ...entry.row, rid, markers: null };
  // A line that was not a JSON object: a row with nothing to read in it.
  return {
    rid, id: entry.id, store: entry.storeKey, collection: collectionOf(entry.kind), tier: entry.tier, status: null, category: null, scope: null, priority: null,
    confidence: null, project: null, createdAt: null, updatedAt: null, phasesAlive: null, maxPhases: null, encounterScore: null, shownCount: null, lesson: null,
    tags: [], flagged: false, duplicate: false, file: entry.file, line: 0, match: null, markers: null,
  };
}

/** What the search box looks in: the lesson, tags, triggers and actions of the line then. */
function searchText(entry: HistoricalEntry): string {
  const v = entry.record ?? {};
  return [str(v.lesson) ?? '', ...strings(v.tags), ...strings(v.triggers), ...strings(v.required_actions), ...strings(v.forbidden_actions), ...strings(v.verification_checks)].join('\n').toLowerCase();
}

export interface HistoricalRow {
  row: KnowledgeRow;
  text: string;
}

export const historicalRows = (entries: readonly HistoricalEntry[]): HistoricalRow[] => entries.map((entry, i) => ({ row: historicalRow(entry, i), text: searchText(entry) }));

/** A row's values for one facet (tags: each of them; a missing value: null). */
function facetValues(row: KnowledgeRow, key: ListFilter): (string | null)[] {
  if (key === 'tags') return row.tags;
  return [row[key] as string | null];
}

function matches(item: HistoricalRow, query: KnowledgeQuery, except?: ListFilter): boolean {
  const filter = query.filter as Record<string, unknown>;
  for (const key of ['tier', 'collection', 'status', 'category', 'priority', 'scope', 'project'] as const) {
    if (key === except) continue;
    const wanted = filter[key] as string[] | undefined;
    if (wanted?.length && !wanted.includes(String(item.row[key] ?? ''))) return false;
  }
  if (except !== 'tags') for (const tag of (filter.tags as string[] | undefined) ?? []) if (!item.row.tags.includes(tag)) return false;
  const words = (query.filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return words.every((word) => item.text.includes(word));
}

/** The rows the URL's filters and search select. */
export const filterRows = (rows: readonly HistoricalRow[], query: KnowledgeQuery): HistoricalRow[] => rows.filter((item) => matches(item, query));

type SortValue = string | number | null;
const SORT_VALUE: Record<string, (row: KnowledgeRow) => SortValue> = {
  lesson: (r) => r.lesson?.toLowerCase() ?? null,
  tier: (r) => r.tier,
  status: (r) => r.status,
  category: (r) => r.category,
  confidence: (r) => r.confidence,
  priority: (r) => (r.priority === null ? null : (PRIORITY_RANK[r.priority] ?? 0)),
  phases: (r) => r.phasesAlive,
  created: (r) => r.createdAt,
  updated: (r) => r.updatedAt,
  encounter: (r) => r.encounterScore,
  shown: (r) => r.shownCount,
};

/** Sorted by the table's sort column (missing values last either way; ties by id, so the order is stable). */
export function sortRows(rows: readonly KnowledgeRow[], sort: KnowledgeQuery['sort']): KnowledgeRow[] {
  const value = SORT_VALUE[sort.id] ?? SORT_VALUE.updated!;
  const dir = sort.desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? (a.id ?? '').localeCompare(b.id ?? '') : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return order !== 0 ? order * dir : (a.id ?? '').localeCompare(b.id ?? '');
  });
}

const FACET_KEYS: ListFilter[] = ['collection', 'tier', 'status', 'category', 'priority', 'scope', 'tags', 'project'];

/**
 * Facet counts of the historical rows, as the live facets count: each facet counts the rows that
 * every other filter (and the search) selects, so a facet's own selection does not hide its other
 * values. Most frequent first, then by name, a missing value last.
 */
export function countFacets(rows: readonly HistoricalRow[], query: KnowledgeQuery): Facets {
  const facets: Record<string, { value: string | null; count: number }[]> = {};
  for (const key of FACET_KEYS) {
    const counts = new Map<string | null, number>();
    for (const item of rows) {
      if (!matches(item, query, key)) continue;
      for (const value of facetValues(item.row, key)) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    facets[key] = [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value === null ? 1 : b.value === null ? -1 : a.value.localeCompare(b.value)));
  }
  return facets as Facets;
}

/** The entry a detail target names, as of the moment: its active store first, else a side file. */
export function findHistorical(entries: readonly HistoricalEntry[], id: string, tier?: string): HistoricalEntry | null {
  const candidates = entries.filter((e) => e.id === id && (!tier || e.tier === tier));
  return candidates.find((e) => collectionOf(e.kind) === 'active') ?? candidates[0] ?? null;
}
