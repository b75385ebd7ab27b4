import type { Input } from '../../../../shared/contract';

/**
 * The Hive view's search and facets live in the URL (`#/hive?q=retry&status=candidate&project=billing-api`),
 * restored on switching back and on reload. Multi-value params are comma-separated, as in Knowledge.
 */
export const HIVE_FACETS = [
  { key: 'status', label: 'Status' },
  { key: 'category', label: 'Category' },
  { key: 'project', label: 'Source project' },
] as const;
export type HiveFacet = (typeof HIVE_FACETS)[number]['key'];

/** Large enough that a search over the demo's 150-entry hive is one page, so "select the shown" takes every match. */
export const HIVE_PAGE = 200;

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export function hivePickerInput(params: Readonly<Record<string, string>>, offset: number): Input<'stores.entries'> {
  const filter: NonNullable<Input<'stores.entries'>['filter']> = { tier: ['hive'], collection: ['active'] };
  const text = params.q?.trim();
  if (text) filter.text = text.slice(0, 200);
  for (const { key } of HIVE_FACETS) {
    const values = list(params[key]).slice(0, 50);
    if (values.length) filter[key] = values;
  }
  // With a search, the best matches first (FTS relevance, as in Knowledge); otherwise the newest.
  return { offset, limit: HIVE_PAGE, facets: true, filter, sort: text ? { field: 'relevance', dir: 'desc' } : { field: 'updated_at', dir: 'desc' } };
}

/** The URL change for ticking or unticking one facet value. */
export function toggleFacet(params: Readonly<Record<string, string>>, key: HiveFacet, value: string): Record<string, string | null> {
  const values = list(params[key]);
  const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  return { [key]: next.length ? next.join(',') : null };
}

export const isFacetSelected = (params: Readonly<Record<string, string>>, key: HiveFacet, value: string): boolean => list(params[key]).includes(value);

/** Whether any search or facet narrows the list (then "select the shown" says what it takes). */
export const isNarrowed = (params: Readonly<Record<string, string>>): boolean => !!params.q?.trim() || HIVE_FACETS.some(({ key }) => list(params[key]).length > 0);
