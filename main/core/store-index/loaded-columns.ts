import type { IndexDb } from './open-index';
import { Dictionary, grow } from './column-utils';
import { readColumns, specHash, writeColumns, type ColumnState } from './column-snapshot';

export interface ColumnSpec {
  name: string;
  /** SQL expression over the table (alias `t`). */
  sql: string;
  type: 'code' | 'number';
}

/**
 * The loading half of a column cache (column-cache.ts holds the queries): a table's columns as
 * dictionary-coded typed arrays in rid order, loaded in slices, refreshed by the rows appended
 * since (a higher rid) or reloaded after a rewrite or removal, and kept in the index between
 * sessions (column-snapshot.ts).
 */
export class LoadedColumns {
  protected size = 0;
  protected lastRid = 0;
  protected rids = new Uint32Array(0);
  protected codes = new Map<string, Uint32Array>();
  protected numbers = new Map<string, Float64Array>();
  protected dictionaries = new Map<string, Dictionary>();
  protected tagStarts = new Uint32Array(0);
  protected tagCodes = new Uint32Array(0);
  protected tagCount = 0;
  protected readonly tagDictionary = new Dictionary();
  protected ridIndex: Map<number, number> | null = null;
  /** Per code column: rows per code, computed on first use after a refresh. */
  protected histograms = new Map<string, Uint32Array>();
  /**
   * Per code column: the rows of each code (CSR) for rows [0, covered); rows appended since are
   * scanned directly until they are many enough to rebuild.
   */
  protected postings = new Map<string, { starts: Uint32Array; rows: Uint32Array; covered: number }>();
  protected state: 'full' | 'append' | 'fresh' = 'full';
  /** The columns' identity in a kept snapshot (column-snapshot.ts). */
  private readonly spec: string;
  /** Whether the kept snapshot was tried (once: at the first load of a session). */
  private snapshotTried = false;
  /** Rows in the snapshot kept in the index, as far as this session knows (-1: none known). */
  private keptSize = -1;
  /** Rows this session took from the kept snapshot instead of reading them (tests and the bench read it). */
  restoredRows = 0;

  constructor(
    protected readonly db: IndexDb,
    protected readonly table: string,
    protected readonly columns: ColumnSpec[],
    /** For entries: a JSON array column of tags. */
    protected readonly tagsSql: string | null = null,
  ) {
    this.spec = specHash({ table, columns, tagsSql });
  }

  /**
   * Keeps what is loaded in the index for the next session (column-snapshot.ts), unless nothing
   * changed since it was kept or the cache is out of date (a rewrite it has not reloaded).
   */
  keep(): void {
    if (this.state === 'full' || this.size === this.keptSize) return;
    writeColumns(this.db, this.table, this.snapshot(), this.spec);
    this.keptSize = this.size;
  }

  private snapshot(): ColumnState {
    return {
      size: this.size,
      lastRid: this.lastRid,
      rids: this.rids,
      codes: this.codes,
      numbers: this.numbers,
      dictionaries: new Map([...this.dictionaries].map(([name, dictionary]) => [name, dictionary.values])),
      tagStarts: this.tagsSql ? this.tagStarts : null,
      tagCodes: this.tagsSql ? this.tagCodes : null,
      tagCount: this.tagCount,
      tagValues: this.tagsSql ? this.tagDictionary.values.map(String) : null,
    };
  }

  /** Takes the kept snapshot when it still holds only rows the table has; rows after it load as appended ones. */
  private restore(): void {
    const kept = readColumns(this.db, this.table, this.spec);
    // Tag codes are places in the tag dictionary: only an empty one can take the kept places.
    if (!kept || (this.tagsSql && (!kept.tagStarts || !kept.tagCodes || !kept.tagValues || this.tagDictionary.values.length > 0))) return;
    ({ size: this.size, lastRid: this.lastRid, rids: this.rids, codes: this.codes, numbers: this.numbers } = kept);
    this.dictionaries = new Map([...kept.dictionaries].map(([name, values]) => [name, Dictionary.of(values)]));
    if (this.tagsSql) {
      this.tagStarts = kept.tagStarts!;
      this.tagCodes = kept.tagCodes!;
      this.tagCount = kept.tagCount;
      for (const tag of kept.tagValues!) this.tagDictionary.code(tag);
    }
    this.keptSize = kept.size;
    this.restoredRows = kept.size;
  }

  /** Called after every change to the table: appended rows are loaded next time, anything else rebuilds. */
  invalidate(kind: 'append' | 'full'): void {
    if (kind === 'full' || this.state === 'full') this.state = 'full';
    else this.state = 'append';
  }

  get rowCount(): number {
    this.ensure();
    return this.size;
  }

  private reset(): void {
    this.size = 0;
    this.lastRid = 0;
    this.tagCount = 0;
    this.ridIndex = null;
    this.rids = new Uint32Array(0);
    this.codes = new Map(this.columns.filter((c) => c.type === 'code').map((c) => [c.name, new Uint32Array(0)]));
    this.numbers = new Map(this.columns.filter((c) => c.type === 'number').map((c) => [c.name, new Float64Array(0)]));
    this.dictionaries = new Map(this.columns.filter((c) => c.type === 'code').map((c) => [c.name, new Dictionary()]));
  }

  /** Loads every row not loaded yet. */
  ensure(): void {
    this.load(Number.MAX_SAFE_INTEGER);
  }

  /**
   * Loads at most `rows` of the rows not loaded yet and tells whether the cache is now current: a
   * re-opened index warms its caches in such slices, so requests are answered between them (any
   * query still calls ensure(), so it never sees a partly loaded cache).
   */
  warmSlice(rows: number): boolean {
    this.load(rows);
    return this.state === 'fresh';
  }

  private load(limit: number): void {
    if (this.state === 'fresh') return;
    if (this.state === 'full') {
      this.reset();
      this.histograms.clear();
      this.postings.clear();
      this.state = 'append';
      if (!this.snapshotTried) {
        this.snapshotTried = true;
        this.restore();
      }
    }
    const pending = (this.db.prepare(`SELECT count(*) FROM ${this.table} WHERE rid > ?`).pluck().get(this.lastRid) as number) ?? 0;
    const incoming = Math.min(pending, limit);
    const capacity = this.size + incoming;
    this.rids = grow(this.rids, capacity);
    for (const [name, array] of this.codes) this.codes.set(name, grow(array, capacity));
    for (const [name, array] of this.numbers) this.numbers.set(name, grow(array, capacity));
    if (this.tagsSql) this.tagStarts = grow(this.tagStarts, capacity + 1);
    // Per column: the target array and, for codes, its dictionary (resolved once, not per value).
    const targets = this.columns.map((c) =>
      c.type === 'code'
        ? { codes: this.codes.get(c.name) as Uint32Array, dictionary: this.dictionaries.get(c.name) as Dictionary, numbers: null }
        : { codes: null, dictionary: null, numbers: this.numbers.get(c.name) as Float64Array },
    );
    const select = [...this.columns.map((c) => c.sql), ...(this.tagsSql ? [this.tagsSql] : [])].join(', ');
    const statement = this.db.prepare(`SELECT t.rid, ${select} FROM ${this.table} t WHERE t.rid > ? ORDER BY t.rid LIMIT ?`).raw(true);
    const width = this.columns.length;
    let i = this.size;
    for (const row of statement.iterate(this.lastRid, incoming) as Iterable<unknown[]>) {
      if (i >= this.rids.length) break; // rows added since the count: the next refresh loads them
      this.rids[i] = row[0] as number;
      for (let c = 0; c < width; c++) {
        const target = targets[c]!;
        const value = row[c + 1];
        if (target.codes) target.codes[i] = target.dictionary!.code(value === null || value === undefined ? null : typeof value === 'string' ? value : String(value));
        else target.numbers![i] = typeof value === 'number' ? value : Number.NaN;
      }
      if (this.tagsSql) {
        this.tagStarts[i] = this.tagCount;
        const text = row[width + 1] as string | null;
        if (text && text !== '[]') {
          const tags = JSON.parse(text) as string[];
          this.tagCodes = grow(this.tagCodes, this.tagCount + tags.length);
          for (const tag of tags) this.tagCodes[this.tagCount++] = this.tagDictionary.code(tag);
        }
        this.tagStarts[i + 1] = this.tagCount;
      }
      this.lastRid = row[0] as number;
      i++;
    }
    const previous = this.size;
    this.size = i;
    this.ridIndex = null;
    // Appended rows update the histograms in place; postings keep covering their prefix.
    for (const [name, histogram] of this.histograms) {
      const codes = this.codes.get(name)!;
      const grown = grow(histogram, this.dictionaries.get(name)!.values.length);
      for (let r = previous; r < this.size; r++) grown[codes[r] as number]!++;
      this.histograms.set(name, grown);
    }
    // Rows left above the limit (or appended since the count) are loaded by the next call.
    if (incoming === pending) this.state = 'fresh';
  }

}
