/**
 * The keyboard cursor of the Changes list: where it is (by the selected id, kept in the URL, so a
 * refresh that adds rows above keeps it on the same entry), where a key moves it, and "3 of 41".
 */

export interface Keyed {
  id: string;
}

/** The cursor's row: the selected id where it still is, else the first row. -1 for an empty list. */
export function cursorIndex(rows: readonly Keyed[], sel: string | null): number {
  if (rows.length === 0) return -1;
  const at = sel === null ? -1 : rows.findIndex((r) => r.id === sel);
  return at >= 0 ? at : 0;
}

/** One step of the keys (j/k, arrows, PageUp/PageDown), clamped to the list. */
export function moveCursor(index: number, step: number, length: number): number {
  if (length === 0) return -1;
  return Math.max(0, Math.min(length - 1, Math.max(0, index) + step));
}

export function positionText(index: number, length: number, of = 'change'): string {
  if (length === 0) return `no ${of}s shown`;
  return `${index + 1} of ${length.toLocaleString('en-US')}`;
}
