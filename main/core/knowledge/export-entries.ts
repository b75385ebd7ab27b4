import type { EntryItem } from '../../../shared/contract/stores';
import type { TimeSlicer } from '../platform/util/time-slicer';

/**
 * Export of the current filtered set. JSON Lines carries each entry exactly as written in its
 * store (one line per entry); CSV carries the table's columns. Cells that a spreadsheet would
 * evaluate as a formula are prefixed with an apostrophe.
 */
const CSV_COLUMNS = [
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

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = Array.isArray(value) ? value.join(';') : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvHeader = (): string => CSV_COLUMNS.join(',');

const csvLine = (item: EntryItem): string => CSV_COLUMNS.map((column) => csvCell(item[column])).join(',');

export function toCsv(items: readonly EntryItem[]): string {
  return joinCsv([csvHeader(), ...items.map(csvLine)]);
}

/** CSV text from its lines (header first): CRLF after every line. */
const joinCsv = (lines: readonly string[]): string => `${lines.join('\r\n')}\r\n`;

/** A stored line as one JSON Lines line (already a single-line JSON object; no trailing newline kept). */
const jsonlLine = (line: string): string => line.replace(/[\r\n]+$/, '');

/** One line per entry, the exact text the store holds. */
export function toJsonl(lines: readonly string[]): string {
  return lines.length ? `${lines.map(jsonlLine).join('\n')}\n` : '';
}

interface BuiltExport {
  content: string;
  /** Rows in the content (at most the cap). */
  count: number;
  /** Rows in the filtered set. */
  total: number;
}

/**
 * Content built batch by batch as the rows stream in, giving the event loop back between
 * batches; rows past `maxRows` are only counted. Each batch is joined on its own and appended,
 * so no single step copies the whole (up to ~100 MB) text.
 */
async function build<T>(batches: AsyncIterable<readonly T[]>, maxRows: number, slicer: TimeSlicer, line: (row: T) => string, eol: string): Promise<BuiltExport> {
  let content = '';
  let count = 0;
  let total = 0;
  for await (const batch of batches) {
    const lines: string[] = [];
    for (const row of batch) {
      if (total < maxRows) lines.push(line(row));
      total++;
    }
    if (lines.length) content += lines.join(eol) + eol;
    count += lines.length;
    await slicer.yield();
  }
  return { content, count, total };
}

export async function csvExport(batches: AsyncIterable<readonly EntryItem[]>, maxRows: number, slicer: TimeSlicer): Promise<BuiltExport> {
  const built = await build(batches, maxRows, slicer, csvLine, '\r\n');
  return { ...built, content: csvHeader() + '\r\n' + built.content };
}

export async function jsonlExport(batches: AsyncIterable<readonly string[]>, maxRows: number, slicer: TimeSlicer): Promise<BuiltExport> {
  return build(batches, maxRows, slicer, jsonlLine, '\n');
}
