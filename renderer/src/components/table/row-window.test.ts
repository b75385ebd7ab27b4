import { describe, expect, it } from 'vitest';
import { rowsInView, scrollTopFor } from './row-window';

const view = { height: 1_000, count: 18_466, rowHeight: 28, overscan: 4, scrollMargin: 30 };

describe('rows in view', () => {
  it('is every row the viewport overlaps, with overscan each side', () => {
    // scrollTop 2,830: rows start at 30 + 28 i, so row 100 sits at the very top and row 135 is cut by the bottom edge.
    expect(rowsInView({ ...view, offset: 2_830 })).toEqual({ start: 96, end: 140 });
    expect(rowsInView({ ...view, offset: 2_831 })).toEqual({ start: 96, end: 140 });
    expect(rowsInView({ ...view, offset: 2_858 })).toEqual({ start: 97, end: 141 });
  });

  it('stays inside the list at both ends, and is empty with no rows or no height', () => {
    expect(rowsInView({ ...view, offset: 0 })).toEqual({ start: 0, end: 39 });
    expect(rowsInView({ ...view, offset: 18_466 * 28 + 30 - 1_000 })).toEqual({ start: 18_466 - 36 - 4, end: 18_466 });
    expect(rowsInView({ ...view, offset: 0, count: 3 })).toEqual({ start: 0, end: 3 });
    expect(rowsInView({ ...view, offset: 0, count: 0 })).toEqual({ start: 0, end: 0 });
    expect(rowsInView({ ...view, offset: 0, height: 0 })).toEqual({ start: 0, end: 0 });
  });
});

describe('scrolling a row into view', () => {
  const at = (offset: number) => ({ offset, height: 1_000, rowHeight: 28, scrollMargin: 30 });
  it('puts a row above the view right under the sticky header, and one below it at the bottom edge', () => {
    expect(scrollTopFor(50, at(2_830))).toBe(50 * 28);
    expect(scrollTopFor(200, at(2_830))).toBe(30 + 201 * 28 - 1_000);
  });

  it('leaves the scroll position alone for a row in full view, and moves for one half under the header or the edge', () => {
    expect(scrollTopFor(100, at(2_800))).toBeNull();
    expect(scrollTopFor(133, at(2_800))).toBeNull();
    expect(scrollTopFor(99, at(2_800))).toBe(99 * 28);
    expect(scrollTopFor(100, at(2_801))).toBe(100 * 28);
    expect(scrollTopFor(134, at(2_800))).toBe(30 + 135 * 28 - 1_000);
  });
});
