/**
 * Entries by index row id, kept as one list in rid order and found by binary search: 8 bytes an
 * entry, where a Map of 100k numbers costs about 50. New rows come in rid order (AUTOINCREMENT:
 * a refresh reads rows above the highest rid seen), so adding is a push; a row that arrives out
 * of order is put in its place. Lookups are few (a table page's markers, a detail).
 */
export class RidTable<T extends { readonly rid: number }> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  get(rid: number): T | undefined {
    const at = this.position(rid);
    const item = this.items[at];
    return item !== undefined && item.rid === rid ? item : undefined;
  }

  has(rid: number): boolean {
    return this.get(rid) !== undefined;
  }

  /** Adds `item`, or puts it in the place of the one with its rid. */
  set(item: T): void {
    const last = this.items[this.items.length - 1];
    if (last === undefined || last.rid < item.rid) {
      this.items.push(item);
      return;
    }
    const at = this.position(item.rid);
    if (this.items[at]!.rid === item.rid) this.items[at] = item;
    else this.items.splice(at, 0, item);
  }

  /** Removes every item `drop` says so of, in one pass; returns them (rid order). */
  removeWhere(drop: (item: T) => boolean): T[] {
    const kept: T[] = [];
    const dropped: T[] = [];
    for (const item of this.items) (drop(item) ? dropped : kept).push(item);
    if (dropped.length) this.items = kept;
    return dropped;
  }

  /** The index of the first item whose rid is not below `rid`. */
  private position(rid: number): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.items[mid]!.rid < rid) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
