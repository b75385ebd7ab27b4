import { cachedPrepare } from './cached-prepare';
import type Database from 'better-sqlite3';
import type { IndexDb } from './open-index';
import { storedLineSql } from './stored-lines';

/**
 * What the knowledge model reads from the index, as typed rows: the knowledge layer never writes
 * SQL against the index's tables. Every method is a short query (or a bounded batch), so a
 * caller that loads 100k entries does it as many small reads it can interleave with requests.
 */

/** One knowledge-entry line as indexed: its row id, where it sits, and its exact text. */
export interface IndexedEntryLine {
  rid: number;
  fileId: number;
  storeKey: string;
  collection: string;
  tier: string;
  line: number;
  /** The line exactly as written in the store. */
  raw: string;
  /** Absolute path of its file. */
  path: string;
}

/** One line (or whole-file record) of another store, with its file and line. */
export interface IndexedLine {
  raw: string;
  storeKey: string;
  line: number;
  path: string;
}

/** An entry's place in file order (file, then line). */
export interface EntryPosition {
  rid: number;
  fileId: number;
  line: number;
}

// Line texts come from the store files (stored-lines.ts); rid order is file order within a file, so a batch reads on.
export const ENTRY_COLUMNS = `e.rid, e.file_id AS fileId, e.store_key AS storeKey, e.collection, e.tier, e.line, ${storedLineSql('e', 'f')} AS raw, f.path`;
const ENTRY_FROM = 'entries e JOIN files f ON f.id = e.file_id';
/** SQLite's default limit on bound parameters is far above this; it keeps statements short. */
const RID_CHUNK = 500;

export class KnowledgeSource {
  private readonly prepare: (sql: string) => Database.Statement;

  constructor(private readonly db: IndexDb) {
    this.prepare = cachedPrepare(db);
  }

  /**
   * Changes whenever a file of the given stores (all stores when omitted) is (re)ingested; cheap,
   * one row per file. A rewrite, an append or a removal all change it.
   */
  fingerprint(storeKeys?: readonly string[]): string {
    const where = storeKeys ? `WHERE store_key IN (${storeKeys.map(() => '?').join(', ')})` : '';
    const row = this.prepare(
      `SELECT count(*) AS n, coalesce(group_concat(id || ':' || coalesce(ingested_at, 0) || ':' || end_offset, ','), '') AS f FROM files ${where}`,
    ).get(...(storeKeys ?? [])) as { n: number; f: string };
    return `${row.n}|${row.f}`;
  }

  /** Entries whose rid is above `rid`, lowest first, at most `limit` (rids only grow: see schema.ts). */
  entriesAfter(rid: number, limit: number): IndexedEntryLine[] {
    return this.prepare(`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE e.rid > ? ORDER BY e.rid LIMIT ?`).all(rid, limit) as IndexedEntryLine[];
  }

  /** The given entries (any order; rids no longer indexed are left out). */
  entriesByRid(rids: readonly number[]): IndexedEntryLine[] {
    const out: IndexedEntryLine[] = [];
    for (let i = 0; i < rids.length; i += RID_CHUNK) {
      const chunk = rids.slice(i, i + RID_CHUNK);
      out.push(...(this.db.prepare(`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE e.rid IN (${chunk.map(() => '?').join(', ')})`).all(...chunk) as IndexedEntryLine[]));
    }
    return out;
  }

  /** How many entries the index holds. */
  entryCount(): number {
    return this.prepare('SELECT count(*) FROM entries').pluck().get() as number;
  }

  /** Entry positions in file order after `after` (null: from the start), at most `limit`. */
  entryOrder(after: EntryPosition | null, limit: number): EntryPosition[] {
    return after
      ? (this.prepare('SELECT rid, file_id AS fileId, line FROM entries WHERE (file_id, line) > (?, ?) ORDER BY file_id, line LIMIT ?').all(after.fileId, after.line, limit) as EntryPosition[])
      : (this.prepare('SELECT rid, file_id AS fileId, line FROM entries ORDER BY file_id, line LIMIT ?').all(limit) as EntryPosition[]);
  }

  /** Lines of one event store in file order (knowledge events and the application log are FIFO-capped). */
  events(storeKey: string): IndexedLine[] {
    return this.prepare(
      `SELECT ${storedLineSql('ev', 'f')} AS raw, ev.store_key AS storeKey, ev.line, f.path FROM events ev JOIN files f ON f.id = ev.file_id WHERE ev.store_key = ? ORDER BY ev.file_id, ev.line`,
    ).all(storeKey) as IndexedLine[];
  }

  /** Records of one record store (JSON files, markdown skills, small JSONL side files) in file order. */
  records(storeKey: string): IndexedLine[] {
    return this.prepare(
      'SELECT x.raw, r.store_key AS storeKey, r.line, f.path FROM records r JOIN files f ON f.id = r.file_id JOIN records_raw x ON x.rid = r.rid WHERE r.store_key = ? ORDER BY r.file_id, r.line',
    ).all(storeKey) as IndexedLine[];
  }

  /** The exact stored line of one entry, or undefined when the index no longer has its row. */
  entryLine(rid: number): string | undefined {
    return (this.prepare(`SELECT ${storedLineSql('e', 'f')} FROM entries e JOIN files f ON f.id = e.file_id WHERE e.rid = ?`).pluck().get(rid) as string | undefined) ?? undefined;
  }

  /** The exact stored lines of the given entries, in the order asked (missing rids left out). */
  rawEntryLines(rids: readonly number[]): string[] {
    const byRid = new Map<number, string>();
    for (let i = 0; i < rids.length; i += RID_CHUNK) {
      const chunk = rids.slice(i, i + RID_CHUNK);
      const rows = this.db
        .prepare(`SELECT e.rid, ${storedLineSql('e', 'f')} AS raw FROM entries e JOIN files f ON f.id = e.file_id WHERE e.rid IN (${chunk.map(() => '?').join(', ')}) ORDER BY e.rid`)
        .all(...chunk) as { rid: number; raw: string }[];
      for (const row of rows) byRid.set(row.rid, row.raw);
    }
    return rids.map((rid) => byRid.get(rid)).filter((line): line is string => line !== undefined);
  }
}
