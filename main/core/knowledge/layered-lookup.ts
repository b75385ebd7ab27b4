import type { KeyedTable } from './keyed-table';

/** What a lookup's base is: a Map, or a compact table (keyed-table.ts) that makes its successor with changes applied. */
type LookupBase<V> = ReadonlyMap<string, V> | KeyedTable<V>;

const isMap = <V>(base: LookupBase<V>): base is ReadonlyMap<string, V> => base instanceof Map;

/**
 * A read-only map from key to value made of a large base and a small overlay of the keys changed
 * since the base was built. Growing it after an append copies only the overlay, so a model built
 * for one new line costs work in proportion to that line, not to the 100k keys of the base; the
 * overlay is folded into a fresh base once it outgrows a share of the base (amortised, so the
 * average cost per change stays constant). Earlier lookups are never changed by a later one.
 */
export class LayeredLookup<V> {
  private constructor(
    private readonly base: LookupBase<V>,
    private readonly overlay: ReadonlyMap<string, V>,
  ) {}

  static of<V>(base: LookupBase<V>): LayeredLookup<V> {
    return new LayeredLookup(base, new Map());
  }

  get(key: string): V | undefined {
    return this.overlay.has(key) ? this.overlay.get(key) : this.base.get(key);
  }

  /** Keys in the overlay (tests read it to see that growing stayed small). */
  get overlaySize(): number {
    return this.overlay.size;
  }

  /** A lookup with `changes` applied (this one is left as it is). */
  with(changes: ReadonlyMap<string, V>): LayeredLookup<V> {
    if (changes.size === 0) return this;
    const overlay = new Map(this.overlay);
    for (const [key, value] of changes) overlay.set(key, value);
    if (overlay.size <= Math.max(1024, this.base.size / 8)) return new LayeredLookup(this.base, overlay);
    if (!isMap(this.base)) return new LayeredLookup(this.base.with(overlay), new Map());
    const base = new Map(this.base);
    for (const [key, value] of overlay) base.set(key, value);
    return new LayeredLookup(base, new Map());
  }
}
