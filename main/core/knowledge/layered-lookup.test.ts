import { describe, expect, it } from 'vitest';
import { LayeredLookup } from './layered-lookup';

describe('layered lookup', () => {
  it('answers like one map after many small changes, folds a grown overlay into the base, and never changes an earlier lookup', () => {
    const base = new Map(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    const expected = new Map(base);
    const first = LayeredLookup.of(base);
    let lookup = first;
    const sizes: number[] = [];
    for (let step = 0; step < 3000; step++) {
      const key = `k${(step * 7) % 2000}`;
      expected.set(key, step);
      lookup = lookup.with(new Map([[key, step]]));
      sizes.push(lookup.overlaySize);
    }
    for (const [key, value] of expected) expect(lookup.get(key)).toBe(value);
    expect(lookup.get('missing')).toBeUndefined();
    // The overlay stays bounded: it was folded into the base at least once.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024);
    expect(sizes.some((size, i) => i > 0 && size < sizes[i - 1]!)).toBe(true);
    // The first lookup still answers from the base it was made of.
    expect(first.get('k7')).toBe(7);
    expect(first.get('k1500')).toBeUndefined();
  });
});
