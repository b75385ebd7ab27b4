/**
 * Posting lists by bigram id, for the counterpart index: a large base indexed by id and a small
 * overlay of the ids changed since the base was built, folded in once it outgrows a share of the
 * base (as LayeredLookup does for string keys). Ids are dense (a vocabulary numbers bigrams from
 * 0), so the base is a plain array: 8 bytes an id, where a Map costs several times that per key.
 */
export class PostingTable<V> {
  private constructor(
    private readonly base: readonly (V | undefined)[],
    private readonly overlay: ReadonlyMap<number, V>,
  ) {}

  static of<V>(lists: ReadonlyMap<number, V>): PostingTable<V> {
    let top = -1;
    for (const id of lists.keys()) if (id > top) top = id;
    const base: (V | undefined)[] = [];
    // Filled in id order, holes as undefined: the array stays in V8's fast elements at any size.
    for (let id = 0; id <= top; id++) base.push(lists.get(id));
    return new PostingTable(base, new Map());
  }

  get(id: number): V | undefined {
    return this.overlay.has(id) ? this.overlay.get(id) : this.base[id];
  }

  /** A table with `changes` applied (this one is left as it is). */
  with(changes: ReadonlyMap<number, V>): PostingTable<V> {
    if (changes.size === 0) return this;
    const overlay = new Map(this.overlay);
    for (const [id, value] of changes) overlay.set(id, value);
    if (overlay.size <= Math.max(1024, this.base.length / 8)) return new PostingTable(this.base, overlay);
    const base = this.base.slice();
    for (const [id, value] of overlay) {
      while (base.length <= id) base.push(undefined);
      base[id] = value;
    }
    return new PostingTable(base, new Map());
  }
}
