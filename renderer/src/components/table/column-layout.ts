/**
 * Column widths in whole pixels for the pane's current width, computed once per resize instead
 * of by every row's grid: a `minmax(…, 1fr)` track sized against a row of `width: 100%` made each
 * recycled row size its tracks again, and kept rows from being layout boundaries.
 */
export interface ColumnSize {
  /** Width in px; for a `grow` column, the least it shrinks to. */
  width: number;
  /** Takes what the pane has left (the first grow column only). */
  grow?: boolean;
}

export interface ColumnLayout {
  /** px per column, in order. */
  widths: number[];
  /** `grid-template-columns` of the header and every row. */
  template: string;
  /** The rows' width: the pane's, or more when the columns need more (sideways scrolling). */
  total: number;
}

export function columnLayout(columns: readonly ColumnSize[], paneWidth: number): ColumnLayout {
  const fixed = columns.reduce((sum, c) => sum + c.width, 0);
  const spare = Math.max(0, Math.floor(paneWidth) - fixed);
  const growAt = columns.findIndex((c) => c.grow);
  const widths = columns.map((c, i) => (i === growAt ? c.width + spare : c.width));
  const total = widths.reduce((sum, w) => sum + w, 0);
  return { widths, template: widths.map((w) => `${w}px`).join(' '), total };
}
