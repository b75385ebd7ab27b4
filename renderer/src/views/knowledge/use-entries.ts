import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import type { ConsoleApi, Output } from '../../../../shared/contract';
import { createPagedRows, type FetchPage } from '../../components/table/paged-rows';
import { entriesInput, queryKey, type KnowledgeQuery } from './knowledge-query';
import { changedKeys, rowKey, rowSignature, type KnowledgeRow } from './rows';

export type Facets = NonNullable<Output<'knowledge.rows'>['facets']>;

/** How long an arrived or changed row stays marked. */
const LIVE_MARK_MS = 6000;
const BLOCK = 200;
const BULK_CHANGE_ROWS = 20;

/**
 * The Knowledge table's data: server-side pages of `knowledge.rows` (each row with its markers),
 * facet counts from the first page, and live refreshes that mark arrived/changed rows and report
 * how far the rows above the viewport moved.
 */
export function createEntries(api: ConsoleApi, query: Accessor<KnowledgeQuery>, epoch: Accessor<number>) {
  const [facets, setFacets] = createSignal<Facets | null>(null);
  const [marks, setMarks] = createSignal<ReadonlyMap<string, number>>(new Map());
  /** key → signature of every row shown since the query started. */
  const seen = new Map<string, string>();

  const fetcher = (q: KnowledgeQuery): FetchPage<KnowledgeRow> => async (offset, limit) => {
    const page = await api.call('knowledge.rows', entriesInput(q, offset, limit, offset === 0));
    if (offset === 0) setFacets(page.facets ?? null);
    const rows = page.items;
    for (const row of rows) if (!seen.has(rowKey(row))) seen.set(rowKey(row), rowSignature(row));
    return { rows, total: page.total };
  };

  const rows = createPagedRows<KnowledgeRow>(fetcher(query()), BLOCK);
  createEffect(
    on(
      () => [queryKey(query()), epoch()] as const,
      () => {
        seen.clear();
        rows.reset(fetcher(query()));
      },
      { defer: true },
    ),
  );

  const mark = (keys: string[]) => {
    if (!keys.length) return;
    const until = Date.now() + LIVE_MARK_MS;
    const next = new Map(marks());
    for (const key of keys) next.set(key, until);
    setMarks(next);
    setTimeout(() => {
      const now = Date.now();
      setMarks(new Map([...marks()].filter(([, t]) => t > now)));
    }, LIVE_MARK_MS + 50);
  };

  /** Refetches the loaded rows; returns the index shift of `anchorKey` so the caller can keep it in place. */
  const refresh = async (anchorKey: string | null): Promise<{ shift: number; newIndexOf: (key: string) => number | undefined }> => {
    const totalBefore = rows.total();
    // Compare with what was known before this refresh: the refetch itself registers rows as it loads them.
    const known = new Map(seen);
    const { before, after } = await rows.refresh();
    const keysAfter = new Map<string, number>();
    for (const [index, row] of after) keysAfter.set(rowKey(row), index);
    const changed = changedKeys(after.values(), known, rows.total() > totalBefore);
    for (const row of after.values()) seen.set(rowKey(row), rowSignature(row));
    // A bulk change (first ingest, a rewrite of the whole store) is a reload, not news row by row.
    if (changed.length <= Math.max(BULK_CHANGE_ROWS, after.size / 2)) mark(changed);
    let shift = 0;
    if (anchorKey !== null) {
      const old = [...before].find(([, row]) => rowKey(row) === anchorKey)?.[0];
      const now = keysAfter.get(anchorKey);
      if (old !== undefined && now !== undefined) shift = now - old;
    }
    return { shift, newIndexOf: (key) => keysAfter.get(key) };
  };

  const isMarked = (row: KnowledgeRow | undefined) => !!row && marks().has(rowKey(row));

  return { rows, facets, refresh, isMarked };
}
