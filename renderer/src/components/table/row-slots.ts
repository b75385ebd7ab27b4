export interface RowRange {
  start: number;
  end: number;
}

/**
 * Rows are recycled, as VS Code's list view does: row `i` always renders in slot `i % poolSize`,
 * so scrolling by k rows rewrites the text and position of k slots and creates no element. The
 * slot shows the one row of the range that maps to it, or nothing (-1).
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
