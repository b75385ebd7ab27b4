import { describe, expect, it } from 'vitest';
import { queryFromParams } from '../knowledge-query';
import { countFacets, filterRows, findHistorical, historicalRow, historicalRows, sortRows, type HistoricalEntry } from './historical-rows';

type Row = NonNullable<HistoricalEntry['row']>;
const PLACES = {
  active: { tier: 'swarm', kind: 'active', storeKey: 'knowledge', file: '.swarm/knowledge.jsonl' },
  hive: { tier: 'hive', kind: 'hive', storeKey: 'hive', file: 'shared-learnings.jsonl' },
  quarantined: { tier: 'swarm', kind: 'quarantined', storeKey: 'knowledge-quarantined', file: '.swarm/knowledge-quarantined.jsonl' },
  rejected: { tier: 'swarm', kind: 'rejected', storeKey: 'knowledge-rejected', file: '.swarm/knowledge-rejected.jsonl' },
} as const;

/** A line as history.asOf sends it: the record then, and the row the core read from it (main/core/history/historical-row.ts). */
const entry = (id: string, record: Record<string, unknown> | null, row: Partial<Row> | null, where: keyof typeof PLACES = 'active'): HistoricalEntry => {
  const place = PLACES[where];
  return {
    id,
    ...place,
    sha256: `sha-${id}`,
    since: '2026-12-01T10:00:00.000Z',
    record,
    row:
      row === null
        ? null
        : {
            rid: 0, id, store: place.storeKey, collection: where === 'hive' ? 'active' : where, tier: place.tier, status: null, category: null, scope: null,
            priority: null, confidence: null, project: null, createdAt: null, updatedAt: null, phasesAlive: null, maxPhases: null, encounterScore: null,
            shownCount: null, lesson: null, tags: [], flagged: false, duplicate: false, file: place.file, line: 0, match: null, ...row,
          },
  };
};

const ENTRIES: HistoricalEntry[] = [
  entry('a', { lesson: 'Pin the worker image digest', triggers: ['rolling the queue consumers'] }, { lesson: 'Pin the worker image digest', status: 'established', category: 'process', confidence: 0.9, tags: ['deploy', 'docker'], priority: 'medium', updatedAt: '2026-11-02T00:00:00Z' }),
  entry('b', { lesson: 'Retry budget below the queue timeout' }, { lesson: 'Retry budget below the queue timeout', status: 'candidate', category: 'testing', confidence: 0.42, tags: ['queue'], priority: 'critical', updatedAt: '2026-11-03T00:00:00Z' }),
  entry('c', { lesson: 'Cache keys include the tenant' }, { lesson: 'Cache keys include the tenant', status: 'candidate', category: 'process', tags: ['deploy'], priority: 'medium', updatedAt: '2026-11-01T00:00:00Z' }),
  entry('h1', { lesson: 'Hive lesson' }, { lesson: 'Hive lesson', status: 'promoted', category: 'process', confidence: 0.7, project: 'payments', priority: 'medium' }, 'hive'),
  entry('q1', { lesson: 'Quarantined lesson' }, { lesson: 'Quarantined lesson', status: 'candidate', updatedAt: '2026-11-05T00:00:00Z' }, 'quarantined'),
  entry('r1', { lesson: 'Rejected' }, { lesson: 'Rejected', status: 'rejected', updatedAt: '2026-11-04T00:00:00Z' }, 'rejected'),
  entry('x', null, null),
];
const rows = historicalRows(ENTRIES);
const ids = (list: { row: { id: string | null } }[]) => list.map((r) => r.row.id);

describe('a historical line as a table row', () => {
  it("takes the core's row for the line, its position standing in for the row id, markers not known then", () => {
    expect(historicalRow(ENTRIES[1]!, 1)).toMatchObject({ rid: -2, id: 'b', priority: 'critical', confidence: 0.42, markers: null });
    // A line that was not a JSON object still has a row, with nothing to read in it.
    expect(historicalRow(ENTRIES[6]!, 6)).toMatchObject({ id: 'x', lesson: null, status: null, tags: [], collection: 'active', tier: 'swarm' });
  });

  it('filters by the URL filters: the active collection by default, every tag required, search words anywhere in the line', () => {
    expect(ids(filterRows(rows, queryFromParams({})))).toEqual(['a', 'b', 'c', 'h1', 'x']);
    expect(ids(filterRows(rows, queryFromParams({ collection: 'all' })))).toHaveLength(7);
    expect(ids(filterRows(rows, queryFromParams({ tier: 'hive' })))).toEqual(['h1']);
    expect(ids(filterRows(rows, queryFromParams({ tags: 'deploy,docker' })))).toEqual(['a']);
    expect(ids(filterRows(rows, queryFromParams({ q: 'QUEUE consumers' })))).toEqual(['a']);
    expect(ids(filterRows(rows, queryFromParams({ status: 'candidate,established', category: 'process' })))).toEqual(['a', 'c']);
  });

  it('sorts by the table column, missing values last, ties by id', () => {
    const active = filterRows(rows, queryFromParams({})).map((r) => r.row);
    expect(sortRows(active, { id: 'updated', desc: true }).map((r) => r.id)).toEqual(['b', 'a', 'c', 'h1', 'x']);
    expect(sortRows(active, { id: 'confidence', desc: false }).map((r) => r.id)).toEqual(['b', 'h1', 'a', 'c', 'x']);
    expect(sortRows(active, { id: 'priority', desc: true }).map((r) => r.id)).toEqual(['b', 'a', 'c', 'h1', 'x']);
  });

  it("counts facets from the rows then, a facet's own selection not hiding its other values", () => {
    const facets = countFacets(rows, queryFromParams({ status: 'candidate' }));
    // Status counts every active row (its own filter is lifted); the others count the candidates only.
    expect(facets.status).toEqual([
      { value: 'candidate', count: 2 },
      { value: 'established', count: 1 },
      { value: 'promoted', count: 1 },
      { value: null, count: 1 },
    ]);
    expect(facets.category).toEqual([
      { value: 'process', count: 1 },
      { value: 'testing', count: 1 },
    ]);
    expect(facets.tags).toEqual([
      { value: 'deploy', count: 1 },
      { value: 'queue', count: 1 },
    ]);
    expect(facets.collection).toEqual([
      { value: 'active', count: 2 },
      { value: 'quarantined', count: 1 },
    ]);
  });

  it('finds the entry a detail names, its active copy first', () => {
    const both = [entry('d', { status: 'candidate' }, { status: 'candidate' }, 'quarantined'), entry('d', { status: 'established' }, { status: 'established' })];
    expect(findHistorical(both, 'd')?.kind).toBe('active');
    expect(findHistorical(both, 'd', 'hive')).toBeNull();
    expect(findHistorical(both, 'zz')).toBeNull();
  });
});
