import type { Input } from '../../../../shared/contract';
import type { SortState } from '../../components/table/table-state';

/**
 * The Knowledge view's saved filter lives in the URL (`#/knowledge?q=scope&status=candidate…`)
 * so a view can be shared and restored. This maps URL params to the `stores.entries` input and
 * back; multi-value params are comma-separated.
 */
export type EntriesFilter = NonNullable<Input<'stores.entries'>['filter']>;
type EntriesSortField = NonNullable<Input<'stores.entries'>['sort']>['field'];

/** The stores whose changes can alter the Knowledge view's rows, markers, counts, defects and details (and their families, see state/freshness-reducer). */
export const KNOWLEDGE_STORES = ['knowledge', 'hive'] as const;

export const LIST_FILTERS = ['tier', 'collection', 'status', 'category', 'priority', 'scope', 'tags', 'project'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

/** Column id → the server-side sort field (columns without one are not sortable). */
export const SORT_FIELDS: Record<string, EntriesSortField> = {
  lesson: 'lesson',
  tier: 'tier',
  status: 'status',
  category: 'category',
  confidence: 'confidence',
  priority: 'priority',
  phases: 'phases_alive',
  created: 'created_at',
  updated: 'updated_at',
  encounter: 'encounter_score',
  shown: 'shown_count',
};

const DEFAULT_SORT: SortState = { id: 'updated', desc: true };
/** Without a `collection` param the table shows the lessons of the main stores; `collection=all` lifts that. */
const DEFAULT_COLLECTION = 'active';

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .slice(0, 50);

export interface KnowledgeQuery {
  filter: EntriesFilter;
  sort: SortState;
}

export function queryFromParams(params: Readonly<Record<string, string>>): KnowledgeQuery {
  const filter: EntriesFilter = {};
  const text = (params.q ?? '').slice(0, 200).trim();
  if (text) filter.text = text;
  for (const key of LIST_FILTERS) {
    const raw = key === 'collection' ? (params.collection ?? DEFAULT_COLLECTION) : params[key];
    const values = list(raw);
    if (key === 'collection' && values.includes('all')) continue;
    if (values.length) (filter as Record<string, string[]>)[key] = values;
  }
  if (params.flagged === '1') filter.flaggedOnly = true;
  const [id = DEFAULT_SORT.id, dir] = (params.sort ?? '').split(':');
  const sort = SORT_FIELDS[id] ? { id, desc: dir !== 'asc' } : DEFAULT_SORT;
  return { filter, sort };
}

export function entriesInput(query: KnowledgeQuery, offset: number, limit: number, facets: boolean): Input<'stores.entries'> {
  const field = query.filter.text && query.sort.id === 'relevance' ? 'relevance' : (SORT_FIELDS[query.sort.id] ?? 'updated_at');
  return { offset, limit, filter: query.filter, sort: { field, dir: query.sort.desc ? 'desc' : 'asc' }, facets };
}

/** The param change that toggles one facet value. */
export function toggleValue(params: Readonly<Record<string, string>>, key: ListFilter, value: string): Record<string, string | null> {
  const current = key === 'collection' ? list(params.collection ?? DEFAULT_COLLECTION).filter((v) => v !== 'all') : list(params[key]);
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  if (key === 'collection') return { collection: next.length ? next.join(',') : 'all' };
  return { [key]: next.length ? next.join(',') : null };
}

export function isSelected(params: Readonly<Record<string, string>>, key: ListFilter, value: string): boolean {
  const raw = key === 'collection' ? (params.collection ?? DEFAULT_COLLECTION) : params[key];
  return list(raw).includes(value);
}

/** A stable key for the query, to restart paging when it changes. */
export const queryKey = (query: KnowledgeQuery) => JSON.stringify(query);
