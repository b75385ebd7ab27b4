import Database from 'better-sqlite3';
import type { z } from 'zod';
import type { EntriesInput, EntryItem } from '../../../shared/contract/stores';
import { LIST_COLUMNS, orderBy, source, toItem, type EntryRowOut } from './entry-queries';
import type { IndexDb } from './open-index';
import { registerStoredLine, storedLineSql } from './stored-lines';
import { maskCredentials, maskDeep } from '../platform/util/credentials';

type Input = z.output<typeof EntriesInput>;

interface ExportQuery {
  filter: Input['filter'];
  sort: Input['sort'];
}

/** The index an export reads: its connection, and its file (to open a second, read-only one). */
interface ExportIndex {
  db: IndexDb;
  file: string;
}

/** Rows handed out at most per batch; a batch also ends when the caller's time slice is used. */
const MAX_BATCH = 2000;

/** Tells when the caller's time slice is used (see util/time-slicer.ts). */
interface SliceClock {
  readonly due: boolean;
}

/**
 * The whole filtered, sorted set of entries in ONE query (the filter, search and order of the
 * Knowledge table's page query), handed out in batches. The query runs on its own read-only
 * connection: its cursor stays open while the caller gives the event loop back between batches
 * (a batch ends when the caller's time slice is used),
 * and better-sqlite3 forbids the ingest's writes on a connection with an open cursor. It also
 * reads one consistent snapshot of the index. An in-memory index has no second connection; it
 * is read in one go.
 *
 * Every row leaves with its credentials masked (an export is a copy that travels): CSV cells
 * and JSON Lines alike, before they are quoted into the file.
 */
export function exportEntries(index: ExportIndex, query: ExportQuery, kind: 'items', clock: SliceClock): AsyncGenerator<EntryItem[]>;
export function exportEntries(index: ExportIndex, query: ExportQuery, kind: 'raw', clock: SliceClock): AsyncGenerator<string[]>;
export async function* exportEntries(index: ExportIndex, query: ExportQuery, kind: 'items' | 'raw', clock: SliceClock): AsyncGenerator<EntryItem[] | string[]> {
  const { from, where } = source(query.filter);
  const order = orderBy(query.sort, from);
  const sql =
    kind === 'items'
      ? `SELECT ${LIST_COLUMNS} FROM ${from} JOIN files fl ON fl.id = e.file_id ${where.sql} ORDER BY ${order}`
      : `SELECT ${storedLineSql('e', 'fl')} AS raw FROM ${from} JOIN files fl ON fl.id = e.file_id ${where.sql} ORDER BY ${order}`;
  const inMemory = index.file === ':memory:' || index.db.memory;
  const reader = inMemory ? index.db : new Database(index.file, { readonly: true, fileMustExist: true });
  const lines = inMemory ? null : registerStoredLine(reader);
  try {
    if (!inMemory) reader.pragma('busy_timeout = 5000');
    const statement = reader.prepare(sql);
    const rows = inMemory ? (statement.all(...where.params) as unknown[]) : (statement.iterate(...where.params) as Iterable<unknown>);
    let batch: (EntryItem | string)[] = [];
    for (const row of rows) {
      batch.push(kind === 'items' ? maskDeep(toItem(row as EntryRowOut)) : maskCredentials((row as { raw: string }).raw));
      // Rows cost more when their pages are not cached yet: the slice's clock, not a row count, ends a batch.
      if (batch.length >= MAX_BATCH || ((batch.length & 31) === 31 && clock.due)) {
        yield batch as EntryItem[] | string[];
        batch = [];
      }
    }
    if (batch.length) yield batch as EntryItem[] | string[];
  } finally {
    // The store files this connection opened to read lines back are closed with it.
    lines?.close();
    if (!inMemory) reader.close();
  }
}
