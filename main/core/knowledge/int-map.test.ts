import { describe, expect, it } from 'vitest';
import { IntMap } from './int-map';

describe('int map', () => {
  it('reads like a Map of whole numbers through many growths, colliding and far-apart keys included', () => {
    const map = new IntMap();
    const model = new Map<number, number>();
    // Keys that share low bits, keys near 2^31, and a dense run: every probe path is exercised.
    const keys = [...Array.from({ length: 3000 }, (_, k) => k * 1024), ...Array.from({ length: 500 }, (_, k) => 0x7fffffff - k * 7), ...Array.from({ length: 2000 }, (_, k) => 5_000_000 + k)];
    keys.forEach((key, i) => {
      map.set(key, i);
      model.set(key, i);
      if (i % 3 === 0) {
        map.set(key, i + 1); // an update keeps the count
        model.set(key, i + 1);
      }
    });
    expect(map.size).toBe(model.size);
    for (const [key, value] of model) expect(map.get(key)).toBe(value);
    for (const absent of [1, 1023, 2_999_999, 0x7fffffff - 1, 7_000_001]) expect(map.get(absent)).toBeUndefined();
    expect(map.get(0)).toBe(1);
  });

  it('refuses keys and values it cannot hold rather than mixing them up', () => {
    const map = new IntMap();
    expect(() => map.set(-1, 0)).toThrow(RangeError);
    expect(() => map.set(2 ** 31, 0)).toThrow(RangeError);
    expect(() => map.set(1.5, 0)).toThrow(RangeError);
    expect(() => map.set(1, -3)).toThrow(RangeError);
  });
});
