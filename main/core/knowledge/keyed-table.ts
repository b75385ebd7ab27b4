import { stringHash } from '../platform/util/string-hash';

/**
 * A read-only map from string keys to values that carry their own key (`keyOf`), kept as one
 * list of values and a typed table of their positions by key hash (open addressing). The model's
 * copies by id have a key per entry: a Map costs about 50 bytes a key there (entry, chain link,
 * bucket, slack and the key's slot); this costs the list's 8 bytes and 5–11 bytes of table.
 * The keys themselves are not kept: a lookup reads the key of the value it finds.
 */
export class KeyedTable<V> {
  private constructor(
    private readonly keyOf: (value: V) => string | undefined,
    private readonly values: readonly V[],
    /** Position + 1 of each value, at its key's slot (0: empty). */
    private readonly slots: Int32Array,
  ) {}

  /** The table of `values` (a value without a key is left out; a later value with a key seen before replaces the earlier). */
  static of<V>(values: Iterable<V>, keyOf: (value: V) => string | undefined): KeyedTable<V> {
    const kept: V[] = [];
    for (const value of values) if (keyOf(value) !== undefined) kept.push(value);
    let size = 16;
    // At most three quarters full: probes stay short.
    while (size * 3 < kept.length * 4) size *= 2;
    const slots = new Int32Array(size);
    const table = new KeyedTable(keyOf, kept, slots);
    for (let i = 0; i < kept.length; i++) {
      const at = table.slotOf(keyOf(kept[i]!)!);
      // A repeated key: the later value takes the slot (the earlier stays in the list, unreachable).
      slots[at] = i + 1;
    }
    return table;
  }

  get size(): number {
    return this.values.length;
  }

  get(key: string): V | undefined {
    const found = this.slots[this.slotOf(key)]!;
    return found === 0 ? undefined : this.values[found - 1];
  }

  /** A table with `changes` applied (this one is left as it is); a change to a value without a key removes the key. */
  with(changes: ReadonlyMap<string, V>): KeyedTable<V> {
    const values: V[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      const found = this.slots[i]!;
      if (found === 0) continue;
      const value = this.values[found - 1]!;
      if (!changes.has(this.keyOf(value)!)) values.push(value);
    }
    for (const value of changes.values()) values.push(value);
    return KeyedTable.of(values, this.keyOf);
  }

  /** The slot holding `key`'s value, or the empty slot where it would go (linear probing). */
  private slotOf(key: string): number {
    const mask = this.slots.length - 1;
    let at = stringHash(key) & mask;
    for (;;) {
      const found = this.slots[at]!;
      if (found === 0 || this.keyOf(this.values[found - 1]!) === key) return at;
      at = (at + 1) & mask;
    }
  }
}
