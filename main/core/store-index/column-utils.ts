/** Small helpers of the column cache: value dictionaries, growable typed arrays, ordering. */

/** Maps each distinct value of a column to a dense integer code. */
export class Dictionary {
  private readonly codes = new Map<string | null, number>();
  readonly values: (string | null)[] = [];
  /** A dictionary whose codes are the places of `values` (distinct), as a kept cache recorded them. */
  static of(values: readonly (string | null)[]): Dictionary {
    const dictionary = new Dictionary();
    for (const value of values) dictionary.code(value);
    return dictionary;
  }
  code(value: string | null): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
  lookup(value: string | null): number | undefined {
    return this.codes.get(value);
  }
}

export function grow<T extends Uint32Array | Float64Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, array.length * 2, 1024));
  next.set(array);
  return next;
}

export const nullLow = (v: number) => (Number.isNaN(v) ? -Infinity : v);
export const compareNullable = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** Facet maps as sorted contract lists (most frequent first, at most `limit`). */
export function facetList(counts: Map<string | null, number> | undefined, limit = 200): { value: string | null; count: number }[] {
  if (!counts) return [];
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)))
    .slice(0, limit);
}
