export interface RowRange {
  start: number;
  end: number;
}

/**
 * Blocks of rows are recycled, as VS Code's list view recycles rows: block `b` always renders in
 * slot `b % poolSize`, so scrolling by k blocks rewrites the text and position of k slots and
 * creates no element. The slot shows the one block of the range that maps to it, or nothing (-1).
 */
export function slotIndex(slot: number, range: RowRange, poolSize: number): number {
  if (poolSize === 0) return -1;
  const index = range.start + ((((slot - range.start) % poolSize) + poolSize) % poolSize);
  return index < range.end ? index : -1;
}

export const sameRange = (a: RowRange, b: RowRange) => a.start === b.start && a.end === b.end;

/** The wanted range widened to the whole pool (kept inside the list), so no slot sits empty. */
export function fullRange(wanted: RowRange, poolSize: number, total: number): RowRange {
  const start = Math.max(0, Math.min(wanted.start, total - poolSize));
  return { start, end: Math.min(total, Math.max(wanted.end, start + poolSize)) };
}

/** The blocks of `blockRows` rows that hold the rows of `rows`, as [start, end). */
export function blocksOf(rows: RowRange, blockRows: number): RowRange {
  if (rows.end <= rows.start) return { start: 0, end: 0 };
  return { start: Math.floor(rows.start / blockRows), end: Math.ceil(rows.end / blockRows) };
}
