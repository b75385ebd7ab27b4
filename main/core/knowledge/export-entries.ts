import type { EntryItem } from '../../../shared/contract/stores';

/**
 * Export of the current filtered set. JSON Lines carries each entry exactly as written in its
 * store (one line per entry); CSV carries the table's columns. Cells that a spreadsheet would
 * evaluate as a formula are prefixed with an apostrophe.
 */
export const CSV_COLUMNS = [
  'id',
  'tier',
  'collection',
  'store',
  'status',
  'category',
  'scope',
  'priority',
  'confidence',
  'project',
  'createdAt',
  'updatedAt',
  'phasesAlive',
  'maxPhases',
  'encounterScore',
  'shownCount',
  'tags',
  'lesson',
  'file',
  'line',
] as const;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = Array.isArray(value) ? value.join(';') : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(items: readonly EntryItem[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const item of items) lines.push(CSV_COLUMNS.map((column) => csvCell(item[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One line per entry, the exact text the store holds (already a single-line JSON object). */
export function toJsonl(lines: readonly string[]): string {
  return lines.length ? `${lines.map((line) => line.replace(/[\r\n]+$/, '')).join('\n')}\n` : '';
}
