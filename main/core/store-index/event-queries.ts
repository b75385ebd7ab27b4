import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract/define';
import type { EventsInput, EventsPage } from '../../../shared/contract/stores';
import type { IndexDb } from './open-index';
import { storedLineSql } from './stored-lines';
import { Where, orderedByRids, parseJsonObject } from './sql';
import { facetList, type ColumnCache, type ColumnSpec, type Predicate } from './column-cache';

type Input = z.output<typeof EventsInput>;

const SORT: Record<Exclude<Input['sort']['field'], 'line'>, string> = { ts: 'ev.ts_ms', kind: 'ev.kind' };

function instant(text: string, field: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new ConsoleError('invalid_input', `${field}: expected an ISO-8601 timestamp, got ${JSON.stringify(text.slice(0, 40))}`);
  return ms;
}

/** Filter columns with a (column, ts_ms) index, as cache column → SQL column. */
const INDEXED = { store: 'store_key', kind: 'kind', session: 'session_id', agent: 'agent', knowledge: 'knowledge_id' } as const;
type Indexed = keyof typeof INDEXED;

/**
 * `plan` decides which index SQLite may use: `null` lets the planner choose; `'walk'` walks the
 * ts index (every filter written as `+expr`, which SQLite cannot serve from an index); a column
 * name keeps only that column indexable, so its (column, ts_ms) index finds the rows already in
 * time order.
 */
function eventWhere(filter: Input['filter'], skip: 'kind' | 'store' | null = null, plan: Indexed | 'walk' | null = null): Where {
  const where = new Where();
  const col = (key: Indexed | 'other') => `${plan === null || plan === key ? '' : '+'}ev.${key === 'other' ? '' : INDEXED[key]}`;
  if (skip !== 'store') where.in(col('store'), filter.store);
  if (skip !== 'kind') where.in(col('kind'), filter.kind);
  if (filter.session) where.add(`${col('session')} = ?`, filter.session);
  if (filter.agent) where.add(`${col('agent')} = ?`, filter.agent);
  if (filter.tool) where.add(`${col('other')}tool = ?`, filter.tool);
  if (filter.knowledgeId) where.add(`${col('knowledge')} = ?`, filter.knowledgeId);
  if (filter.traceId) where.add(`${col('other')}trace_id = ?`, filter.traceId);
  // Time bounds stay indexable in every plan: they narrow whichever (…, ts_ms) index is walked.
  if (filter.since) where.add('ev.ts_ms >= ?', instant(filter.since, 'since'));
  if (filter.until) where.add('ev.ts_ms <= ?', instant(filter.until, 'until'));
  if (filter.flaggedOnly) where.add(`${col('other')}flagged = 1`);
  return where;
}

/**
 * The plan for a time-sorted page. Driving by the most selective indexed filter reads rows
 * already in time order and stops at the page; walking the ts index is only chosen when no
 * indexed filter applies, or when an IN-list driver would need a sort and matches are common
 * enough that the walk finds a page quickly.
 */
function timePlan(cache: ColumnCache, filter: Input['filter'], matches: number): Indexed | 'walk' {
  const candidates: [Indexed, readonly string[]][] = [];
  if (filter.store?.length) candidates.push(['store', filter.store]);
  if (filter.kind?.length) candidates.push(['kind', filter.kind]);
  if (filter.session) candidates.push(['session', [filter.session]]);
  if (filter.agent) candidates.push(['agent', [filter.agent]]);
  if (filter.knowledgeId) candidates.push(['knowledge', [filter.knowledgeId]]);
  if (!candidates.length) return 'walk';
  const [driver, values] = candidates.reduce((best, c) => (cache.countOf(c[0], c[1]) < cache.countOf(best[0], best[1]) ? c : best));
  if (values.length > 1 && matches >= 0.05 * cache.rowCount) return 'walk';
  return driver;
}

/** The column cache of the events table (see column-cache.ts), as the service builds it. */
export const EVENT_COLUMNS: ColumnSpec[] = [
  { name: 'store', sql: 't.store_key', type: 'code' },
  { name: 'kind', sql: 't.kind', type: 'code' },
  { name: 'session', sql: 't.session_id', type: 'code' },
  { name: 'agent', sql: 't.agent', type: 'code' },
  { name: 'tool', sql: 't.tool', type: 'code' },
  { name: 'knowledge', sql: 't.knowledge_id', type: 'code' },
  { name: 'flagged', sql: 't.flagged', type: 'code' },
  { name: 'ts', sql: 't.ts_ms', type: 'number' },
];

const CACHE_SELECT_MAX = 20_000;

function cachePredicates(filter: Input['filter']): Predicate[] {
  const predicates: Predicate[] = [];
  const equals: [string, string | undefined][] = [
    ['session', filter.session],
    ['agent', filter.agent],
    ['tool', filter.tool],
    ['knowledge', filter.knowledgeId],
  ];
  if (filter.store?.length) predicates.push({ column: 'store', values: filter.store });
  if (filter.kind?.length) predicates.push({ column: 'kind', values: filter.kind });
  for (const [column, value] of equals) if (value) predicates.push({ column, values: [value] });
  if (filter.since || filter.until) {
    predicates.push({ column: 'ts', min: filter.since ? instant(filter.since, 'since') : undefined, max: filter.until ? instant(filter.until, 'until') : undefined });
  }
  if (filter.flaggedOnly) predicates.push({ column: 'flagged', values: ['1'] });
  return predicates;
}

/** Totals and facets from the column cache; null when a filter needs SQL (trace ids are not cached). */
function cachedCount(cache: ColumnCache, filter: Input['filter'], facets: boolean) {
  if (filter.traceId) return null;
  return cache.count(cachePredicates(filter), facets ? ['kind', 'store'] : []);
}

interface EventRowOut {
  rid: number;
  store_key: string;
  name: string;
  line: number;
  offset: number;
  kind: string | null;
  session_id: string | null;
  agent: string | null;
  tool: string | null;
  knowledge_id: string | null;
  trace_id: string | null;
  phase: string | null;
  flagged: number;
  raw: string;
}

export function listEvents(db: IndexDb, cache: ColumnCache, input: Input): z.output<typeof EventsPage> {
  const counted = cachedCount(cache, input.filter, input.facets);
  const total = counted?.total ?? (db.prepare(`SELECT count(*) AS n FROM events ev ${eventWhere(input.filter).sql}`).get(...eventWhere(input.filter).params) as { n: number }).n;
  // Few matches: the column cache finds and time-sorts them without touching SQLite's indexes
  // (a driver index may hold many rows the other filters reject).
  const predicates = input.sort.field === 'ts' && !input.filter.traceId && total <= CACHE_SELECT_MAX ? cachePredicates(input.filter) : null;
  const plan = input.sort.field === 'ts' && !input.filter.traceId ? timePlan(cache, input.filter, total) : null;
  const where = eventWhere(input.filter, null, plan);
  const dir = input.sort.dir === 'asc' ? 'ASC' : 'DESC';
  // Rows of one file are stored in line order, so file order is rid order.
  const order = input.sort.field === 'line' ? `ev.rid ${dir}` : `${SORT[input.sort.field]} ${dir}, ev.rid ${dir}`;
  // Two steps: the page's rids from an index alone, then their details (a join in one query
  // lets the planner walk the whole index to probe the page).
  const rids = predicates
    ? cache.select(predicates, [{ column: 'ts', dir: input.sort.dir }], input.offset, input.limit)
    : (db.prepare(`SELECT ev.rid FROM events ev ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).pluck().all(...where.params, input.limit, input.offset) as number[]);
  const rows = orderedByRids(
    rids,
    rids.length
      ? (db
          .prepare(
            `SELECT ev.rid, ev.store_key, fl.name, ev.line, ev.offset, ev.kind, ev.session_id, ev.agent, ev.tool, ev.knowledge_id, ev.trace_id, ev.phase, ev.flagged, ${storedLineSql('ev', 'fl')} AS raw
             FROM events ev JOIN files fl ON fl.id = ev.file_id WHERE ev.rid IN (${rids.map(() => '?').join(', ')})`,
          )
          .all(...rids) as EventRowOut[])
      : [],
  );
  const facet = (column: 'kind' | 'store_key', skip: 'kind' | 'store') => {
    const w = eventWhere(input.filter, skip);
    return db.prepare(`SELECT ev.${column} AS value, count(*) AS count FROM events ev ${w.sql} GROUP BY ev.${column} ORDER BY count DESC LIMIT 200`).all(...w.params) as {
      value: string | null;
      count: number;
    }[];
  };
  return {
    total,
    items: rows.map((r) => {
      const record = parseJsonObject(r.raw);
      const ts = typeof record.timestamp === 'string' ? record.timestamp : typeof record.ts === 'string' ? record.ts : null;
      return {
        rid: r.rid,
        store: r.store_key,
        file: r.name,
        line: r.line,
        offset: r.offset,
        kind: r.kind,
        ts,
        sessionId: r.session_id,
        agent: r.agent,
        tool: r.tool,
        knowledgeId: r.knowledge_id,
        traceId: r.trace_id,
        phase: r.phase,
        flagged: r.flagged === 1,
        record,
      };
    }),
    facets: !input.facets
      ? null
      : counted
        ? { kind: facetList(counted.facets.kind), store: facetList(counted.facets.store) }
        : { kind: facet('kind', 'kind'), store: facet('store_key', 'store') },
  };
}
