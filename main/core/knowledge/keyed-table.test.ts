import { describe, expect, it } from 'vitest';
import { KeyedTable } from './keyed-table';
import { LayeredLookup } from './layered-lookup';

interface Item {
  key?: string;
  n: number;
}
const keyOf = (item: Item) => item.key;

describe('keyed table', () => {
  it('finds each value by the key it carries, through growth, replacements and removals; earlier tables stay as they were', () => {
    const model = new Map<string, Item>();
    const items: Item[] = [];
    for (let n = 0; n < 3000; n++) {
      const item = { key: `c01d0000-0000-4000-8000-${String(n * 7919).padStart(12, '0')}`, n };
      items.push(item);
      model.set(item.key, item);
    }
    items.push({ n: -1 }); // no key: left out
    const first = KeyedTable.of(items, keyOf);
    expect(first.size).toBe(3000);
    let table = first;
    for (let round = 0; round < 4; round++) {
      const changes = new Map<string, Item>();
      for (let k = 0; k < 500; k++) {
        const key = k % 5 === 0 ? `new-${round}-${k}` : items[(round * 611 + k * 3) % 3000]!.key!;
        // Every seventh change removes its key (a value without one), the rest replace or add.
        const value = k % 7 === 0 ? { n: -2 } : { key, n: round * 10_000 + k };
        changes.set(key, value);
        if (value.key === undefined) model.delete(key);
        else model.set(key, value);
      }
      table = table.with(changes);
    }
    for (const [key, item] of model) expect(table.get(key)).toBe(item);
    for (const item of items.slice(0, 3000)) if (!model.has(item.key!)) expect(table.get(item.key!)).toBeUndefined();
    expect(table.get('absent')).toBeUndefined();
    for (const item of items.slice(0, 3000)) expect(first.get(item.key!)).toBe(item);
  });

  it('serves as a layered lookup base, folded into a new table when the overlay grows', () => {
    const base = KeyedTable.of(
      Array.from({ length: 100 }, (_, n) => ({ key: `k${n}`, n })),
      keyOf,
    );
    let lookup = LayeredLookup.of(base);
    const expected = new Map(Array.from({ length: 100 }, (_, n) => [`k${n}`, n]));
    for (let step = 0; step < 3000; step++) {
      const key = `k${(step * 7) % 2000}`;
      expected.set(key, step);
      lookup = lookup.with(new Map([[key, { key, n: step }]]));
    }
    for (const [key, n] of expected) expect(lookup.get(key)?.n).toBe(n);
    expect(lookup.overlaySize).toBeLessThan(1024);
  });
});
