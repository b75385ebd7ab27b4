import { compareNullable, nullLow } from './column-utils';
import { LoadedColumns } from './loaded-columns';

export type { ColumnSpec } from './loaded-columns';

export { facetList } from './column-utils';

export type Predicate =
  | { column: string; values: readonly (string | null)[] }
  | { column: string; min?: number; max?: number }
  | { rows: Uint8Array }
  | { allTags: readonly string[] };

interface CountResult {
  total: number;
  /** Facet column → value → count; each facet ignores its own predicate (disjunctive facets). */
  facets: Record<string, Map<string | null, number>>;
}

/**
 * In-memory, dictionary-coded columns of one index table, for exact totals and facet counts.
 * SQLite answers sorted pages from its indexes in well under a millisecond, but counting every
 * row that matches a broad filter (or grouping 100k rows eight times for facets) visits each row;
 * a pass over typed arrays does the same in a few milliseconds. The cache is derived from the
 * table, refreshed incrementally after appends (rows with a higher rid) and rebuilt after a
 * rewrite or removal (loaded-columns.ts: loading, and keeping between sessions).
 */
export class ColumnCache extends LoadedColumns {
  /** Builds histograms and postings of `columns` (and the rid index) now, so no query pays for them. */
  warm(columns: readonly string[], ridIndex = false): void {
    this.ensure();
    for (const column of columns) this.posting(column);
    if (ridIndex) this.maskOf([]);
  }

  /** A total without facets, through postings (see throughPostings). */
  private countThroughPostings(predicates: Predicate[]): number | null {
    return this.throughPostings(predicates)?.length ?? null;
  }

  /** Row indices matching every predicate: through postings when a code predicate applies. */
  private matchingRows(predicates: Predicate[]): number[] {
    const viaPostings = this.throughPostings(predicates);
    if (viaPostings) return viaPostings;
    const { failures } = this.failuresOf(predicates);
    const rows: number[] = [];
    for (let i = 0; i < this.size; i++) if (failures[i] === 0) rows.push(i);
    return rows;
  }

  /**
   * The matching rows found by visiting only the rows of the most selective code predicate and
   * testing the others on them (instead of a pass over every row per predicate).
   */
  private throughPostings(predicates: Predicate[]): number[] | null {
    const coded = predicates.filter((p): p is { column: string; values: readonly (string | null)[] } => 'values' in p && this.codes.has(p.column));
    if (!coded.length) return null;
    const codesOf = (p: (typeof coded)[number]) => [...new Set(p.values.map((v) => this.dictionaries.get(p.column)!.lookup(v)))].filter((c): c is number => c !== undefined);
    const sizeOf = (p: (typeof coded)[number]) => codesOf(p).reduce((n, c) => n + (this.histogram(p.column)[c] ?? 0), 0);
    const driver = coded.reduce((best, p) => (sizeOf(p) < sizeOf(best) ? p : best));
    // The other predicates as typed-array tests (no closures in the per-row loop).
    const codeArrays: Uint32Array[] = [];
    const allowedCodes: Uint8Array[] = [];
    const masks: Uint8Array[] = [];
    const ranges: { array: Float64Array; min: number; max: number }[] = [];
    for (const p of predicates) {
      if (p === driver) continue;
      if ('rows' in p) masks.push(p.rows);
      else if ('allTags' in p) masks.push(this.tagMask(p.allTags));
      else if ('values' in p) {
        const allowed = new Uint8Array(this.dictionaries.get(p.column)!.values.length + 1);
        for (const code of codesOf(p as (typeof coded)[number])) allowed[code] = 1;
        codeArrays.push(this.codes.get(p.column)!);
        allowedCodes.push(allowed);
      } else ranges.push({ array: this.numbers.get(p.column)!, min: p.min ?? -Infinity, max: p.max ?? Infinity });
    }
    const passes = (i: number): boolean => {
      for (let c = 0; c < codeArrays.length; c++) if ((allowedCodes[c] as Uint8Array)[(codeArrays[c] as Uint32Array)[i] as number] !== 1) return false;
      for (let m = 0; m < masks.length; m++) if ((masks[m] as Uint8Array)[i] !== 1) return false;
      for (const r of ranges) {
        const v = r.array[i] as number;
        if (!(v >= r.min && v <= r.max)) return false;
      }
      return true;
    };
    const { starts, rows, covered } = this.posting(driver.column);
    const driverCodes = codesOf(driver);
    const matching: number[] = [];
    for (const code of driverCodes) {
      if (code + 1 >= starts.length) continue; // a value first seen after the postings were built
      for (let k = starts[code] as number; k < (starts[code + 1] as number); k++) {
        const i = rows[k] as number;
        if (passes(i)) matching.push(i);
      }
    }
    const tailCodes = new Set(driverCodes);
    const column = this.codes.get(driver.column)!;
    for (let i = covered; i < this.size; i++) if (tailCodes.has(column[i] as number) && passes(i)) matching.push(i);
    return matching;
  }

  private posting(column: string): { starts: Uint32Array; rows: Uint32Array; covered: number } {
    let posting = this.postings.get(column);
    if (!posting || this.size - posting.covered > Math.max(10_000, posting.covered / 20)) {
      const histogram = this.histogram(column);
      const codes = this.codes.get(column)!;
      const starts = new Uint32Array(histogram.length + 1);
      for (let c = 0; c < histogram.length; c++) starts[c + 1] = (starts[c] as number) + (histogram[c] as number);
      const fill = starts.slice(0, histogram.length);
      const rows = new Uint32Array(this.size);
      for (let i = 0; i < this.size; i++) rows[fill[codes[i] as number]!++] = i;
      posting = { starts, rows, covered: this.size };
      this.postings.set(column, posting);
    }
    return posting;
  }

  /** Rows whose `column` holds one of `values` (a histogram lookup). */
  countOf(column: string, values: readonly (string | null)[]): number {
    this.ensure();
    const dictionary = this.dictionaries.get(column);
    if (!dictionary) throw new Error(`no column ${column}`);
    const histogram = this.histogram(column);
    let total = 0;
    for (const code of new Set(values.map((v) => dictionary.lookup(v)))) if (code !== undefined) total += histogram[code] ?? 0;
    return total;
  }

  private histogram(column: string): Uint32Array {
    let histogram = this.histograms.get(column);
    if (!histogram) {
      const codes = this.codes.get(column)!;
      histogram = new Uint32Array(this.dictionaries.get(column)!.values.length);
      for (let i = 0; i < this.size; i++) histogram[codes[i] as number]!++;
      this.histograms.set(column, histogram);
    }
    return histogram;
  }

  /** Rows holding every one of `tags`, as a mask (one pass over the tag lists). */
  private tagMask(tags: readonly string[]): Uint8Array {
    const mask = new Uint8Array(this.size);
    const wanted = tags.map((t) => this.tagDictionary.lookup(t));
    if (wanted.some((c) => c === undefined)) return mask;
    const unique = [...new Set(wanted as number[])];
    for (let i = 0; i < this.size; i++) {
      let found = 0;
      for (let k = this.tagStarts[i] as number; k < (this.tagStarts[i + 1] as number); k++) if (unique.includes(this.tagCodes[k] as number)) found++;
      if (found >= unique.length) mask[i] = 1;
    }
    return mask;
  }

  /** A row mask from a list of rids (e.g. full-text matches). */
  maskOf(rids: Iterable<number>): Uint8Array {
    this.ensure();
    if (!this.ridIndex) {
      this.ridIndex = new Map();
      for (let i = 0; i < this.size; i++) this.ridIndex.set(this.rids[i] as number, i);
    }
    const mask = new Uint8Array(this.size);
    for (const rid of rids) {
      const i = this.ridIndex.get(rid);
      if (i !== undefined) mask[i] = 1;
    }
    return mask;
  }

  /**
   * Column-at-a-time: each predicate is one tight loop over a typed array that counts, per row,
   * how many predicates fail and which one failed last.
   */
  private failuresOf(predicates: Predicate[]): { failures: Uint8Array; lastFailed: Int16Array; facetPredicate: Map<string, number> } {
    const n = this.size;
    const failures = new Uint8Array(n);
    const lastFailed = new Int16Array(n).fill(-1);
    const facetPredicate = new Map<string, number>();
    predicates.forEach((p, j) => {
      if ('rows' in p) {
        const mask = p.rows;
        for (let i = 0; i < n; i++) if (mask[i] !== 1) (failures[i]!++, (lastFailed[i] = j));
      } else if ('allTags' in p) {
        const mask = this.tagMask(p.allTags);
        for (let i = 0; i < n; i++) if (mask[i] !== 1) (failures[i]!++, (lastFailed[i] = j));
      } else if ('values' in p) {
        const dictionary = this.dictionaries.get(p.column);
        const array = this.codes.get(p.column);
        if (!dictionary || !array) throw new Error(`no column ${p.column}`);
        facetPredicate.set(p.column, j);
        const allowed = new Uint8Array(dictionary.values.length + 1);
        for (const v of p.values) {
          const code = dictionary.lookup(v);
          if (code !== undefined) allowed[code] = 1;
        }
        for (let i = 0; i < n; i++) if (allowed[array[i] as number] !== 1) (failures[i]!++, (lastFailed[i] = j));
      } else {
        const array = this.numbers.get(p.column);
        if (!array) throw new Error(`no column ${p.column}`);
        const min = p.min ?? -Infinity;
        const max = p.max ?? Infinity;
        for (let i = 0; i < n; i++) {
          const v = array[i] as number;
          if (!(v >= min && v <= max)) (failures[i]!++, (lastFailed[i] = j));
        }
      }
    });
    return { failures, lastFailed, facetPredicate };
  }

  /**
   * The rids of one page of the rows matching every predicate, sorted by `keys` (then rid) in
   * typed arrays: for a few thousand matches this beats fetching each row's sort value from
   * SQLite. Nulls sort first ascending and last descending, as in SQLite.
   */
  select(predicates: Predicate[], keys: readonly { column: string; dir: 'asc' | 'desc' }[], offset: number, limit: number): number[] {
    this.ensure();
    const rows = this.matchingRows(predicates);
    const comparators = keys.map(({ column, dir }) => {
      const sign = dir === 'asc' ? 1 : -1;
      const numbers = this.numbers.get(column);
      if (numbers) return (a: number, b: number) => sign * (nullLow(numbers[a] as number) - nullLow(numbers[b] as number));
      const codes = this.codes.get(column)!;
      const rank = this.rankOf(column);
      return (a: number, b: number) => sign * ((rank[codes[a] as number] as number) - (rank[codes[b] as number] as number));
    });
    const tie = keys[0]?.dir === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      for (const compare of comparators) {
        const c = compare(a, b);
        if (c !== 0) return c;
      }
      return tie * ((this.rids[a] as number) - (this.rids[b] as number));
    });
    return rows.slice(offset, offset + limit).map((i) => this.rids[i] as number);
  }

  /** Code → position of its value in sorted order (null first), for sorting by a code column. */
  private rankOf(column: string): Uint32Array {
    const values = this.dictionaries.get(column)!.values;
    const order = values.map((_, code) => code).sort((a, b) => compareNullable(values[a] ?? null, values[b] ?? null));
    const rank = new Uint32Array(values.length);
    order.forEach((code, position) => (rank[code] = position));
    return rank;
  }

  /**
   * Exact total of rows matching every predicate, and per facet column the counts of rows that
   * match every predicate except the ones on that column.
   */
  count(predicates: Predicate[], facetColumns: readonly string[] = [], tagFacet = false): CountResult {
    this.ensure();
    // The common single-filter total (no facets) is a histogram lookup.
    if (!facetColumns.length && !tagFacet && predicates.length <= 1) {
      const only = predicates[0];
      if (!only) return { total: this.size, facets: {} };
      if ('values' in only && this.codes.has(only.column)) {
        const histogram = this.histogram(only.column);
        const dictionary = this.dictionaries.get(only.column)!;
        let total = 0;
        for (const code of new Set(only.values.map((v) => dictionary.lookup(v)))) if (code !== undefined) total += histogram[code] ?? 0;
        return { total, facets: {} };
      }
    }
    if (!facetColumns.length && !tagFacet) {
      const quick = this.countThroughPostings(predicates);
      if (quick !== null) return { total: quick, facets: {} };
    }
    const n = this.size;
    const { failures, lastFailed, facetPredicate } = this.failuresOf(predicates);
    let total = 0;
    for (let i = 0; i < n; i++) if (failures[i] === 0) total++;
    const facetArrays = facetColumns.map((name) => {
      const array = this.codes.get(name)!;
      const counts = new Uint32Array(this.dictionaries.get(name)!.values.length);
      const own = facetPredicate.get(name) ?? -2;
      for (let i = 0; i < n; i++) {
        const f = failures[i] as number;
        if (f === 0 || (f === 1 && lastFailed[i] === own)) counts[array[i] as number]!++;
      }
      return { name, counts };
    });
    const tagCounts = tagFacet ? new Uint32Array(this.tagDictionary.values.length) : null;
    if (tagCounts) {
      for (let i = 0; i < n; i++) {
        if (failures[i] !== 0) continue;
        for (let k = this.tagStarts[i] as number; k < (this.tagStarts[i + 1] as number); k++) tagCounts[this.tagCodes[k] as number]!++;
      }
    }
    const facets: CountResult['facets'] = {};
    for (const f of facetArrays) {
      const values = this.dictionaries.get(f.name)!.values;
      facets[f.name] = new Map([...f.counts].map((count, code) => [values[code] ?? null, count] as [string | null, number]).filter(([, c]) => c > 0));
    }
    if (tagCounts) facets.tags = new Map([...tagCounts].map((count, code) => [this.tagDictionary.values[code] ?? null, count] as [string | null, number]).filter(([, c]) => c > 0));
    return { total, facets };
  }
}
