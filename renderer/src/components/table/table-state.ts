/** The column state a table is controlled with: saved in the URL or local storage by the view. */
export interface SortState {
  id: string;
  desc: boolean;
}

export interface ColumnState {
  /** Column ids in display order (ids missing here keep their definition order at the end). */
  order: string[];
  /** Column ids that are hidden. */
  hidden: string[];
}

export const formatSort = (sort: SortState): string => `${sort.id}:${sort.desc ? 'desc' : 'asc'}`;

/** Moves `id` one step within `order` (-1 = left/up, +1 = right/down). */
export function moveColumn(order: readonly string[], id: string, step: -1 | 1): string[] {
  const next = [...order];
  const at = next.indexOf(id);
  const to = at + step;
  if (at < 0 || to < 0 || to >= next.length) return next;
  [next[at], next[to]] = [next[to]!, next[at]!];
  return next;
}

/** Full order: the saved order first (known ids only), then any column it does not mention. */
export function resolveOrder(saved: readonly string[], all: readonly string[]): string[] {
  const known = new Set(all);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of saved) if (known.has(id) && !seen.has(id)) out.push(id), seen.add(id);
  for (const id of all) if (!seen.has(id)) out.push(id);
  return out;
}
