import { describe, expect, it } from 'vitest';
import { ChunkedList } from './chunked-list';

/** A small deterministic generator (the same sequence on every run). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Every read of `list` against the array it should equal. */
function expectSame(list: ChunkedList<number>, array: readonly number[]): void {
  expect(list.length).toBe(array.length);
  expect([...list]).toEqual(array);
  expect(list.toArray()).toEqual(array);
  // Every position (they are found through the chunks' end positions), and past both ends.
  expect(Array.from({ length: array.length + 2 }, (_, i) => list.at(i - 1))).toEqual(Array.from({ length: array.length + 2 }, (_, i) => array.at(i - 1)));
  expect(list.at(-array.length - 1)).toBeUndefined();
  for (let start = 0; start < array.length; start += 97) expect(list.slice(start, start + 130)).toEqual(array.slice(start, start + 130));
  expect(list.map((x, i) => x * 2 + i)).toEqual(array.map((x, i) => x * 2 + i));
  expect(list.filter((x, i) => (x + i) % 3 === 0)).toEqual(array.filter((x, i) => (x + i) % 3 === 0));
  const seen: [number, number][] = [];
  list.forEach((x, i) => seen.push([x, i]));
  expect(seen).toEqual(array.map((x, i) => [x, i]));
  for (const [start, end] of [[0, undefined], [5, 700], [-40, undefined], [-2000, -3], [600, 500], [1023, 1030]] as const) expect(list.slice(start, end)).toEqual(array.slice(start, end));
  const probe = array[array.length >> 1] ?? 0;
  expect(list.some((x) => x === probe)).toBe(array.some((x) => x === probe));
  expect(list.find((x) => x > probe)).toBe(array.find((x) => x > probe));
}

describe('ChunkedList', () => {
  it('reads as the array it was made from, at every size around its chunk boundaries', () => {
    for (const size of [0, 1, 511, 512, 513, 1024, 1025, 3000]) {
      const array = Array.from({ length: size }, (_, i) => i * 7);
      expectSame(ChunkedList.from(array), array);
    }
  });

  it('after thousands of insertions, removals and replacements equals an array given the same changes, and the lists before each change stay as they were', () => {
    const next = random(7);
    let array = Array.from({ length: 1500 }, (_, i) => i);
    let list = ChunkedList.from(array);
    const kept: [ChunkedList<number>, number[]][] = [];
    for (let step = 0; step < 6000; step++) {
      const roll = next();
      if (roll < 0.6 || array.length === 0) {
        // Clustered insertions grow one chunk past twice its size, so chunks split.
        const at = step % 4 === 0 ? array.length : Math.floor(next() * (array.length + 1)) % 300;
        list = list.insertAt(at, 10_000 + step);
        array = array.toSpliced(at, 0, 10_000 + step);
      } else if (roll < 0.85) {
        // Removals from the front empty whole chunks.
        const at = step % 3 === 0 ? 0 : Math.floor(next() * array.length);
        list = list.removeAt(at);
        array = array.toSpliced(at, 1);
      } else {
        const changes: [number, number][] = Array.from({ length: 1 + Math.floor(next() * 40) }, () => [Math.floor(next() * array.length), -step]);
        list = list.withItems(changes);
        array = array.slice();
        for (const [at, value] of changes) array[at] = value;
      }
      if (step % 500 === 0) kept.push([list, array]);
      if (step % 250 === 0) expectSame(list, array);
    }
    expectSame(list, array);
    // The changes split chunks (some grew past twice their size) and emptied others.
    expect(list.length).toBeGreaterThan(3000);
    for (const [before, itsArray] of kept) expectSame(before, itsArray);
  });

  it('finds the bounds of a value in a sorted list, duplicates included', () => {
    const array = [1, 3, 3, 3, 5, ...Array.from({ length: 2000 }, (_, i) => 6 + Math.floor(i / 3))];
    const list = ChunkedList.from(array);
    const compare = (a: number, b: number) => a - b;
    for (const probe of [0, 1, 2, 3, 4, 5, 6, 400, 671, 672, 10_000]) {
      expect(list.lowerBound(probe, compare)).toBe(array.findIndex((x) => x >= probe) < 0 ? array.length : array.findIndex((x) => x >= probe));
      expect(list.upperBound(probe, compare)).toBe(array.findIndex((x) => x > probe) < 0 ? array.length : array.findIndex((x) => x > probe));
    }
  });

  it('refuses positions outside the list', () => {
    const list = ChunkedList.from([1, 2, 3]);
    expect(() => list.insertAt(4, 0)).toThrow(RangeError);
    expect(() => list.insertAt(-1, 0)).toThrow(RangeError);
    expect(() => list.removeAt(3)).toThrow(RangeError);
    expect(() => list.withItems([[3, 0]])).toThrow(RangeError);
    expect(list.withItems([])).toBe(list);
  });

  it('tells the items appended after a prefix, by identity, whether or not the two share chunks', () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ i }));
    const before = ChunkedList.from(items);
    let after = before;
    for (let k = 0; k < 600; k++) after = after.insertAt(after.length, { i: 5000 + k });
    expect(after.appendedTo(before)?.map((x) => x.i)).toEqual(Array.from({ length: 600 }, (_, k) => 5000 + k));
    expect(after.appendedTo(items)).toEqual(after.slice(2000));
    expect(before.appendedTo(before)).toEqual([]);
    expect(before.appendedTo(after)).toBeNull();
    // Equal items in other chunks count as the same prefix; another object at one place does not.
    expect(ChunkedList.from(after.toArray()).appendedTo(before)).toHaveLength(600);
    expect(after.withItems([[1999, { i: 1999 }]]).appendedTo(before)).toBeNull();
    expect(after.insertAt(700, { i: -1 }).appendedTo(before)).toBeNull();
    expect(after.removeAt(0).appendedTo(before)).toBeNull();
  });
});
