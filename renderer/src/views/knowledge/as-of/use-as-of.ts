import { createEffect, createMemo, on, untrack, type Accessor } from 'solid-js';
import type { AsOfOutput } from '../../../../../shared/contract/history';
import { createPagedRows, type FetchPage, type PagedRows } from '../../../components/table/paged-rows';
import { freshQuery } from '../../../state/query';
import { KNOWLEDGE_STORES, type KnowledgeQuery } from '../knowledge-query';
import type { KnowledgeRow } from '../rows';
import type { Facets } from '../use-entries';
import { countFacets, filterRows, historicalRows, sortRows } from './historical-rows';

/**
 * history.asOf answers up to this many entries at once. The plugin caps its stores at 100 (swarm)
 * and 200 (hive) entries, so a workspace's entries at one moment, side files included, stay far
 * below it; past it the banner says how many are left out.
 */
export const AS_OF_BOUND = 5000;

export interface AsOfModel {
  /** The core's answer (the last one while a refetch runs), or undefined before the first. */
  output: Accessor<AsOfOutput | undefined>;
  error: Accessor<string | null>;
  /** The rows the URL's filters select, sorted, as the table pages through them. */
  rows: PagedRows<KnowledgeRow>;
  facets: Accessor<Facets | null>;
  /** How many rows the filters select (of `output().entries`). */
  shown: Accessor<number>;
}

/**
 * The Knowledge table's data as of a moment: one `history.asOf` query (fresh like the live table:
 * history follows the same stores), read into rows and filtered, sorted and counted in the page.
 */
export function createAsOf(moment: Accessor<string | null>, query: Accessor<KnowledgeQuery>): AsOfModel {
  const answer = freshQuery(KNOWLEDGE_STORES, 'history.asOf', () => {
    const m = moment();
    return m ? { moment: m, offset: 0, limit: AS_OF_BOUND } : false;
  });
  const error = () => (answer.data.error ? String((answer.data.error as Error).message ?? answer.data.error) : null);
  const output = () => (answer.data.error || !moment() ? undefined : answer.data.latest);
  const all = createMemo(() => historicalRows(output()?.entries ?? []));
  const selected = createMemo(() => sortRows(filterRows(all(), query()).map((item) => item.row), query().sort));
  const facets = createMemo(() => (output() ? countFacets(all(), query()) : null));

  const fetchPage: FetchPage<KnowledgeRow> = async (offset, limit) => {
    const list = untrack(selected);
    return { rows: list.slice(offset, offset + limit), total: list.length };
  };
  const rows = createPagedRows<KnowledgeRow>(fetchPage, 200, { settleMs: 0 });
  createEffect(on(selected, () => rows.reset(fetchPage), { defer: true }));

  return { output, error, rows, facets, shown: () => selected().length };
}
