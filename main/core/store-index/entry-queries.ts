import type { z } from 'zod';
import { ENTRY_FACETS, type EntriesInput, type EntriesPage, type EntryDetail, type EntryItem } from '../../../shared/contract/stores';
import { storeDef } from '../stores/catalog';
import type { IndexDb } from './open-index';
import { storedLineSql } from './stored-lines';
import { PRIORITY_RANK_SQL } from './schema';
import { Where, ftsQuery, orderedByRids, parseJsonObject } from './sql';
import { facetList, type ColumnCache, type ColumnSpec, type Predicate } from './column-cache';
import { entrySearchTexts, type EntryRow } from './rows';

type Input = z.output<typeof EntriesInput>;
type Filter = Input['filter'];
type FacetName = (typeof ENTRY_FACETS)[number];

/** Sort fields the column cache can order by (column cache names, ties broken by rid). */
const CACHE_SORT_KEYS: Partial<Record<Input['sort']['field'], string[]>> = {
  updated_at: ['updated'],
  created_at: ['created'],
  confidence: ['confidence'],
  priority: ['priorityRank'],
  status: ['status', 'updated'],
  category: ['category', 'updated'],
  tier: ['tier', 'updated'],
  shown_count: ['shown'],
  encounter_score: ['encounter'],
  phases_alive: ['phases'],
};

/** Below this many matches, sorting them all is cheap (and immune to how they spread). */
const WALK_MIN_MATCHES = 20_000;

/** Filters on the column a sort field orders by. */
const SORT_FILTER: Partial<Record<Input['sort']['field'], (keyof Filter)[]>> = {
  priority: ['priority'],
  status: ['status'],
  category: ['category'],
  tier: ['tier'],
  confidence: ['minConfidence', 'maxConfidence'],
};

/** Sorting by a facet column breaks ties by recency, matching the (column, updated_at) indexes. */
const FACET_SORTS = new Set<string>(['status', 'category', 'tier']);

// Each matches an index of schema.ts (the priority expression is written exactly as indexed).
const SORT_COLUMNS: Record<Exclude<Input['sort']['field'], 'relevance'>, string> = {
  updated_at: 'e.updated_at',
  created_at: 'e.created_at',
  confidence: 'e.confidence',
  priority: PRIORITY_RANK_SQL,
  status: 'e.status',
  category: 'e.category',
  tier: 'e.tier',
  lesson: 'e.lesson COLLATE NOCASE',
  shown_count: 'e.shown_count',
  encounter_score: 'e.encounter_score',
  phases_alive: 'e.phases_alive',
};

interface Source {
  /** FROM clause (with the FTS join when searching). */
  from: string;
  where: Where;
}

/**
 * FROM + WHERE of the page query. Two plans, chosen by `viaSortIndex`:
 * - filter first (default): the filter's index finds the matches, which are then sorted — best
 *   when few rows match;
 * - walk the sort index and test each row (every filter term written as `+expr`, which keeps
 *   SQLite from using an index for it) until the page is full — best when many rows match, since
 *   about (offset + limit) × rows / matches rows are visited instead of sorting every match.
 */
export function source(filter: Filter, viaSortIndex = false): Source {
  const where = new Where();
  const col = (name: string) => (viaSortIndex ? `+e.${name}` : `e.${name}`);
  const match = filter.text ? ftsQuery(filter.text) : null;
  let from = 'entries e';
  if (match && !viaSortIndex) {
    from = 'entries e JOIN (SELECT rowid AS frid, rank AS frank FROM entries_fts WHERE entries_fts MATCH ?) f ON f.frid = e.rid';
    where.params.push(match);
  } else if (match) where.add('+e.rid IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?)', match);
  if (filter.text && !match) where.add('0');
  if (filter.id) where.add(`substr(${col('id')}, 1, ?) = ?`, filter.id.length, filter.id);
  where.in(col('tier'), filter.tier);
  where.in(col('collection'), filter.collection);
  where.in(col('store_key'), filter.store);
  where.in(col('status'), filter.status);
  where.in(col('category'), filter.category);
  where.in(col('priority'), filter.priority);
  where.in(col('scope'), filter.scope);
  where.in(col('project'), filter.project);
  for (const tag of filter.tags ?? []) where.add(`${col('rid')} IN (SELECT rid FROM entry_tags WHERE tag = ?)`, tag);
  if (filter.minConfidence !== undefined) where.add(`${col('confidence')} >= ?`, filter.minConfidence);
  if (filter.maxConfidence !== undefined) where.add(`${col('confidence')} <= ?`, filter.maxConfidence);
  if (filter.flaggedOnly) where.add(`${col('flagged')} = 1`);
  return { from, where };
}

/** An `entries` row as the list query selects it: the stored columns, tags still as JSON text. */
export type EntryRowOut = Omit<EntryRow, 'tags' | 'triggers' | 'actions' | 'collection'> & {
  rid: number;
  store_key: string;
  collection: string;
  tags: string;
  flagged: number;
  duplicate: number;
  name: string;
  line: number;
};

export const LIST_COLUMNS = `e.rid, e.id, e.store_key, e.collection, e.tier, e.status, e.category, e.scope, e.priority, e.confidence, e.project, e.created_at,
  e.updated_at, e.phases_alive, e.max_phases, e.encounter_score, e.shown_count, e.lesson, e.tags, e.flagged, e.duplicate, fl.name, e.line`;

export function toItem(row: EntryRowOut): EntryItem {
  return {
    rid: row.rid,
    id: row.id,
    store: row.store_key,
    collection: row.collection,
    tier: row.tier,
    status: row.status,
    category: row.category,
    scope: row.scope,
    priority: row.priority,
    confidence: row.confidence,
    project: row.project,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    phasesAlive: row.phases_alive,
    maxPhases: row.max_phases,
    encounterScore: row.encounter_score,
    shownCount: row.shown_count,
    lesson: row.lesson,
    tags: JSON.parse(row.tags) as string[],
    flagged: row.flagged === 1,
    duplicate: row.duplicate === 1,
    file: row.name,
    line: row.line,
    match: null,
  };
}

const foldCase = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Token ranges of `text` that start with one of the query words, as the FTS tokenizer sees them. */
function prefixRanges(text: string, words: string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const token of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const folded = foldCase(token[0]);
    if (words.some((w) => folded.startsWith(w))) ranges.push([token.index, token.index + token[0].length]);
  }
  return ranges;
}

/** The texts the full-text index was given for these entries (it keeps tokens only): tags from the row, the rest from the line. */
function searchTexts(db: IndexDb, items: EntryItem[]): Map<number, { tags: string; triggers: string; actions: string }> {
  const rows = db
    .prepare(`SELECT e.rid, e.store_key, e.tags, ${storedLineSql('e', 'fl')} AS raw FROM entries e JOIN files fl ON fl.id = e.file_id WHERE e.rid IN (${items.map(() => '?').join(', ')})`)
    .all(...items.map((i) => i.rid)) as { rid: number; store_key: string; tags: string; raw: string }[];
  return new Map(
    rows.map((r) => {
      const raw = parseJsonObject(r.raw);
      const check = storeDef(r.store_key)?.check;
      return [r.rid, { tags: (JSON.parse(r.tags) as string[]).join(' '), ...entrySearchTexts(check ? check(raw).value : raw) }];
    }),
  );
}

/**
 * Match highlights for a page, computed here from the entries' texts: asking FTS5 for highlight()
 * per row re-reads the whole doclist of a frequent prefix for every row.
 */
function addMatches(db: IndexDb, text: string, items: EntryItem[]): void {
  if (!items.length) return;
  const words = foldCase(text)
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w.length > 0);
  const byRid = searchTexts(db, items);
  for (const item of items) {
    const row = byRid.get(item.rid);
    const lesson = prefixRanges(item.lesson ?? '', words);
    const fields = [
      lesson.length ? 'lesson' : null,
      ...(['tags', 'triggers', 'actions'] as const).map((f) => (row && prefixRanges(row[f] ?? '', words).length ? f : null)),
    ].filter((f): f is string => f !== null);
    item.match = { lesson, fields };
  }
}

/** The column cache of the entries table (see column-cache.ts), as the service builds it. */
export const ENTRY_COLUMNS: ColumnSpec[] = [
  { name: 'status', sql: 't.status', type: 'code' },
  { name: 'category', sql: 't.category', type: 'code' },
  { name: 'tier', sql: 't.tier', type: 'code' },
  { name: 'priority', sql: 't.priority', type: 'code' },
  { name: 'scope', sql: 't.scope', type: 'code' },
  { name: 'project', sql: 't.project', type: 'code' },
  { name: 'collection', sql: 't.collection', type: 'code' },
  { name: 'store', sql: 't.store_key', type: 'code' },
  { name: 'flagged', sql: 't.flagged', type: 'code' },
  { name: 'confidence', sql: 't.confidence', type: 'number' },
  // Sort keys (julianday() orders ISO timestamps numerically; NULL when unparsable).
  { name: 'updated', sql: 'julianday(t.updated_at)', type: 'number' },
  { name: 'created', sql: 'julianday(t.created_at)', type: 'number' },
  { name: 'priorityRank', sql: PRIORITY_RANK_SQL, type: 'number' },
  { name: 'shown', sql: 't.shown_count', type: 'number' },
  { name: 'encounter', sql: 't.encounter_score', type: 'number' },
  { name: 'phases', sql: 't.phases_alive', type: 'number' },
];
export const ENTRY_TAGS_SQL = 't.tags';

const CODE_FILTERS: [keyof Filter, string][] = [
  ['tier', 'tier'],
  ['collection', 'collection'],
  ['store', 'store'],
  ['status', 'status'],
  ['category', 'category'],
  ['priority', 'priority'],
  ['scope', 'scope'],
  ['project', 'project'],
];

function predicatesOf(db: IndexDb, cache: ColumnCache, filter: Filter): Predicate[] {
  const predicates: Predicate[] = [];
  for (const [key, column] of CODE_FILTERS) {
    const values = filter[key] as string[] | undefined;
    if (values?.length) predicates.push({ column, values });
  }
  if (filter.tags?.length) predicates.push({ allTags: filter.tags });
  if (filter.minConfidence !== undefined || filter.maxConfidence !== undefined) {
    predicates.push({ column: 'confidence', min: filter.minConfidence, max: filter.maxConfidence });
  }
  if (filter.flaggedOnly) predicates.push({ column: 'flagged', values: ['1'] });
  if (filter.text) {
    const match = ftsQuery(filter.text);
    const rids = match ? (db.prepare('SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?').pluck().all(match) as number[]) : [];
    predicates.push({ rows: cache.maskOf(rids) });
  }
  if (filter.id) {
    const rids = db.prepare('SELECT rid FROM entries WHERE substr(id, 1, ?) = ?').pluck().all(filter.id.length, filter.id) as number[];
    predicates.push({ rows: cache.maskOf(rids) });
  }
  return predicates;
}

/** The ORDER BY of a page (or export) query over `from` (see source()); ties always broken by rid. */
export function orderBy(sort: Input['sort'], from: string): string {
  const searching = from.includes('entries_fts');
  const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
  if (sort.field === 'relevance') return searching ? `f.frank ${dir === 'ASC' ? 'DESC' : 'ASC'}, e.rid` : `e.updated_at DESC, e.rid DESC`;
  return FACET_SORTS.has(sort.field)
    ? `${SORT_COLUMNS[sort.field]} ${dir}, e.updated_at ${dir}, e.rid ${dir}`
    : `${SORT_COLUMNS[sort.field]} ${dir}, e.rid ${dir}`;
}

export function listEntries(db: IndexDb, cache: ColumnCache, input: Input): z.output<typeof EntriesPage> {
  const facetColumns = input.facets ? ENTRY_FACETS.filter((f) => f !== 'tags') : [];
  const predicates = predicatesOf(db, cache, input.filter);
  const counted = cache.count(predicates, facetColumns, input.facets);
  // The exact match count is known before the page query: pick the cheaper plan (see source()).
  const rows = cache.rowCount;
  const matches = counted.total;
  // Walking the sort index visits about (offset + limit) × rows / matches rows when matches are
  // spread evenly along the sort order; it is used only when matches are many (so even a skewed
  // spread stays cheap) and never when the sort column is itself filtered (the matches then sit
  // in one stretch of the sort order).
  const sortedColumnFiltered = SORT_FILTER[input.sort.field]?.some((key) => (input.filter[key] as unknown[] | undefined)?.length) ?? false;
  const walk = matches === 0 ? Infinity : ((input.offset + input.limit) * rows) / matches;
  const viaSortIndex = input.sort.field !== 'relevance' && !sortedColumnFiltered && matches > WALK_MIN_MATCHES && walk < matches;
  const { from, where } = source(input.filter, viaSortIndex);
  const order = orderBy(input.sort, from);
  // Page rids: from a walk of the sort index (many matches), from the column cache (few
  // matches: sorting them in typed arrays beats fetching each row's sort value), or from SQLite
  // for relevance and lesson order. Then the page's details in a second query.
  const cacheKeys = input.sort.field === 'relevance' ? undefined : CACHE_SORT_KEYS[input.sort.field];
  const rids =
    !viaSortIndex && cacheKeys
      ? cache.select(predicates, cacheKeys.map((column) => ({ column, dir: input.sort.dir })), input.offset, input.limit)
      : (db.prepare(`SELECT e.rid FROM ${from} ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).pluck().all(...where.params, input.limit, input.offset) as number[]);
  const page = orderedByRids(
    rids,
    rids.length
      ? (db.prepare(`SELECT ${LIST_COLUMNS} FROM entries e JOIN files fl ON fl.id = e.file_id WHERE e.rid IN (${rids.map(() => '?').join(', ')})`).all(...rids) as EntryRowOut[])
      : [],
  );
  const items = page.map(toItem);
  if (input.filter.text && ftsQuery(input.filter.text)) addMatches(db, input.filter.text, items);
  const facets = input.facets
    ? (Object.fromEntries(ENTRY_FACETS.map((f) => [f, facetList(counted.facets[f])])) as Record<FacetName, { value: string | null; count: number }[]>)
    : null;
  return { total: counted.total, items, facets };
}

export function getEntry(db: IndexDb, input: { id?: string | undefined; rid?: number | undefined; store?: string | undefined }): z.output<typeof EntryDetail> | null {
  const where = new Where();
  if (input.rid !== undefined) where.add('e.rid = ?', input.rid);
  if (input.id !== undefined) where.add('e.id = ?', input.id);
  if (input.store !== undefined) where.add('e.store_key = ?', input.store);
  // Prefer the active store, then the tier order swarm/link/hive, then file order.
  const row = db
    .prepare(
      `SELECT e.rid, e.id, e.store_key, e.collection, e.tier, e.line, e.offset, ${storedLineSql('e', 'fl')} AS raw, e.file_id, fl.name, fl.path
       FROM entries e JOIN files fl ON fl.id = e.file_id
       ${where.sql} ORDER BY (e.collection = 'active') DESC, e.tier = 'hive', e.line LIMIT 1`,
    )
    .get(...where.params) as
    | { rid: number; id: string | null; store_key: string; collection: string; tier: 'swarm' | 'hive' | 'link'; line: number; offset: number; raw: string; file_id: number; name: string; path: string }
    | undefined;
  if (!row) return null;
  const def = storeDef(row.store_key);
  const raw = parseJsonObject(row.raw);
  const check = def ? def.check(raw) : { value: raw, notes: [], problems: [] };
  const defects = db
    .prepare('SELECT line, offset, kind, reason FROM defects WHERE file_id = ? AND offset = ? ORDER BY rid')
    .all(row.file_id, row.offset) as { line: number; offset: number; kind: z.infer<typeof EntryDetail>['defects'][number]['kind']; reason: string }[];
  const alsoIn = row.id
    ? (db
        .prepare('SELECT e.rid, e.store_key AS store, e.tier, fl.name AS file, e.line FROM entries e JOIN files fl ON fl.id = e.file_id WHERE e.id = ? AND e.rid <> ? ORDER BY e.rid LIMIT 50')
        .all(row.id, row.rid) as { rid: number; store: string; tier: 'swarm' | 'hive' | 'link'; file: string; line: number }[])
    : [];
  return {
    rid: row.rid,
    id: row.id,
    store: row.store_key,
    storeLabel: def?.label ?? row.store_key,
    collection: row.collection,
    tier: row.tier,
    file: row.name,
    path: row.path,
    line: row.line,
    offset: row.offset,
    raw,
    normalised: check.value,
    notes: check.notes,
    defects,
    alsoIn,
  };
}
