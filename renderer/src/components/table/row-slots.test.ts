import { describe, expect, it } from 'vitest';
import { blocksOf, fullRange, slotIndex } from './row-slots';

const rowsIn = (start: number, end: number, pool: number) => Array.from({ length: pool }, (_, slot) => slotIndex(slot, { start, end }, pool));

describe('recycled row slots', () => {
  it('shows every row of the range exactly once', () => {
    for (const [start, end, pool] of [[0, 40, 40], [37, 77, 40], [99_960, 100_000, 45], [5, 9, 40]] as const) {
      const shown = rowsIn(start, end, pool).filter((i) => i >= 0).sort((a, b) => a - b);
      expect(shown).toEqual(Array.from({ length: end - start }, (_, k) => start + k));
    }
  });

  it('keeps a row in its slot while the range moves past it, so only entering rows are rewritten', () => {
    const before = rowsIn(100, 140, 40);
    const after = rowsIn(103, 143, 40);
    const rewritten = before.filter((index, slot) => index !== after[slot]);
    expect(rewritten).toEqual([100, 101, 102]);
    expect(after.filter((index, slot) => index !== before[slot]).sort()).toEqual([140, 141, 142]);
  });

  it('leaves surplus slots empty', () => {
    expect(rowsIn(0, 3, 5)).toEqual([0, 1, 2, -1, -1]);
    expect(slotIndex(0, { start: 0, end: 0 }, 0)).toBe(-1);
  });

  it('widens the range to the whole pool so slots never empty and refill as a partial row comes and goes', () => {
    expect(fullRange({ start: 100, end: 136 }, 40, 100_000)).toEqual({ start: 100, end: 140 });
    expect(fullRange({ start: 99_970, end: 100_000 }, 40, 100_000)).toEqual({ start: 99_960, end: 100_000 });
    expect(fullRange({ start: 0, end: 3 }, 40, 3)).toEqual({ start: 0, end: 3 });
  });

  it('covers a row range with the blocks holding its first and last rows, and no more', () => {
    expect(blocksOf({ start: 0, end: 30 }, 8)).toEqual({ start: 0, end: 4 });
    expect(blocksOf({ start: 8, end: 16 }, 8)).toEqual({ start: 1, end: 2 });
    expect(blocksOf({ start: 15, end: 17 }, 8)).toEqual({ start: 1, end: 3 });
    expect(blocksOf({ start: 5, end: 5 }, 8)).toEqual({ start: 0, end: 0 });
  });

  it('keeps a block in its slot while the window moves by rows inside it: those frames rewrite nothing', () => {
    const slots = (rows: { start: number; end: number }) => Array.from({ length: 5 }, (_, slot) => slotIndex(slot, fullRange(blocksOf(rows, 8), 5, 1_000), 5));
    expect(slots({ start: 100, end: 130 })).toEqual(slots({ start: 103, end: 133 }));
    const moved = slots({ start: 104, end: 134 });
    expect(moved.filter((block, slot) => block !== slots({ start: 103, end: 133 })[slot])).toEqual([17]);
  });
});
