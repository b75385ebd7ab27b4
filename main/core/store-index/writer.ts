import type Database from 'better-sqlite3';
import type { StoreDef, StoreTable } from '../stores/catalog';
import type { JsonlDefect } from '../stores/jsonl-reader';
import type { StoreFile } from '../stores/locate';
import type { IndexDb } from './open-index';
import { BATCH_COLUMNS, ROW_COLUMNS, type RowBatch } from './row-batch';

/** Writes made in the transaction of a batch, before and after its rows. */
export interface BatchWrites {
  before?: (() => void) | null;
  after?: () => void;
}

/** Everything the index remembers about one file between reads. */
export interface FileState {
  id: number;
  path: string;
  store_key: string;
  status: string;
  dev: number | null;
  ino: number | null;
  size: number | null;
  mtime_ms: number | null;
  head_sha: string | null;
  tail_sha: string | null;
  end_offset: number;
  next_line: number;
  lines: number;
  records: number;
  defects: number;
  pending_tail: number;
  /** The status message as stored (rows read with `SELECT *` carry it). */
  message?: string | null;
}

/** What one read of a file changes in its state (identity, offsets, counts), plus a status message. */
type FileUpdate = Omit<FileState, 'id' | 'path' | 'store_key'> & { message: string | null };

const EMPTY_FILE = { dev: null, ino: null, size: null, mtime_ms: null, head_sha: null, tail_sha: null, end_offset: 0, next_line: 1, lines: 0, records: 0, defects: 0, pending_tail: 0 };

/** Prepared statements for writing one workspace's index; every batch is one transaction. */
export class IndexWriter {
  private readonly s: Record<string, Database.Statement>;
  private readonly inserts: Record<StoreTable | 'entry_tags' | 'entries_fts' | 'records_raw', MultiRowInsert>;
  private readonly writeBatch: (batch: RowBatch, defects: { fileId: number; storeKey: string; list: JsonlDefect[] }, around: BatchWrites) => void;

  constructor(private readonly db: IndexDb) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      fileByPath: p('SELECT * FROM files WHERE path = ?'),
      insertFile: p(
        `INSERT INTO files(path, store_key, tier, name, orphaned, symlink_target, status) VALUES (@path, @storeKey, @tier, @name, @orphaned, @symlinkTarget, 'new')
         ON CONFLICT(path) DO UPDATE SET store_key = excluded.store_key, tier = excluded.tier, name = excluded.name, orphaned = excluded.orphaned, symlink_target = excluded.symlink_target`,
      ),
      updateFile: p(
        `UPDATE files SET status = @status, message = @message, dev = @dev, ino = @ino, size = @size, mtime_ms = @mtime_ms, head_sha = @head_sha, tail_sha = @tail_sha,
         end_offset = @end_offset, next_line = @next_line, lines = @lines, records = @records, defects = @defects, pending_tail = @pending_tail, ingested_at = @now WHERE id = @id`,
      ),
      deleteFile: p('DELETE FROM files WHERE id = ?'),
      setStatus: p('UPDATE files SET status = ? WHERE id = ?'),
      defect: p('INSERT INTO defects(file_id, store_key, line, offset, kind, reason) VALUES (?, ?, ?, ?, ?, ?)'),
      clearFts: p('DELETE FROM entries_fts WHERE rowid IN (SELECT rid FROM entries WHERE file_id = ?)'),
      clearTags: p('DELETE FROM entry_tags WHERE rid IN (SELECT rid FROM entries WHERE file_id = ?)'),
      clearRecordsRaw: p('DELETE FROM records_raw WHERE rid IN (SELECT rid FROM records WHERE file_id = ?)'),
      clearEntries: p('DELETE FROM entries WHERE file_id = ?'),
      clearEvents: p('DELETE FROM events WHERE file_id = ?'),
      clearReceipts: p('DELETE FROM receipts WHERE file_id = ?'),
      clearRecords: p('DELETE FROM records WHERE file_id = ?'),
      clearDefects: p('DELETE FROM defects WHERE file_id = ?'),
      clearDefectsFrom: p('DELETE FROM defects WHERE file_id = ? AND offset >= ?'),
      entryLineById: p('SELECT line FROM entries WHERE file_id = ? AND id = ? ORDER BY line LIMIT 1'),
      // AUTOINCREMENT keeps the largest rid a table ever had here (0 before its first row).
      lastRid: p('SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)').pluck(),
      recordLineById: p('SELECT line FROM records WHERE file_id = ? AND store_key = ? AND rec_id = ? ORDER BY line LIMIT 1'),
    };
    this.inserts = {
      entries: multiRowInsert(db, 'entries', ROW_COLUMNS.entries, BATCH_COLUMNS.entries),
      events: multiRowInsert(db, 'events', ROW_COLUMNS.events, BATCH_COLUMNS.events),
      receipts: multiRowInsert(db, 'receipts', ROW_COLUMNS.receipts, BATCH_COLUMNS.receipts),
      records: multiRowInsert(db, 'records', ROW_COLUMNS.records, BATCH_COLUMNS.records),
      entry_tags: multiRowInsert(db, 'entry_tags', ['rid', 'tag']),
      entries_fts: multiRowInsert(db, 'entries_fts', ['rowid', 'lesson', 'tags', 'triggers', 'actions']),
      records_raw: multiRowInsert(db, 'records_raw', ['rid', 'raw']),
    };
    this.writeBatch = db.transaction((batch: RowBatch, defects: { fileId: number; storeKey: string; list: JsonlDefect[] }, around: BatchWrites) => {
      around.before?.();
      this.insertRowsOf(batch);
      for (const d of defects.list) this.s.defect!.run(defects.fileId, defects.storeKey, d.line, d.offset, d.kind, d.reason);
      around.after?.();
    });
  }

  fileState(path: string): FileState | undefined {
    return this.s.fileByPath!.get(path) as FileState | undefined;
  }

  /**
   * Registers (or refreshes the description of) a file and returns its row. A path that now
   * belongs to another store (e.g. the local knowledge file once the worktree is linked) starts
   * over: its rows are dropped and it is read again as the new store.
   */
  ensureFile(file: StoreFile): FileState {
    const previous = this.fileState(file.path);
    if (previous && previous.store_key !== file.storeKey) {
      this.clearFile(previous.id);
      this.updateFile(previous.id, { ...EMPTY_FILE, status: 'new', message: null });
    }
    this.s.insertFile!.run({ path: file.path, storeKey: file.storeKey, tier: file.tier, name: file.name, orphaned: file.orphaned ? 1 : 0, symlinkTarget: file.symlinkTarget });
    return this.fileState(file.path) as FileState;
  }

  updateFile(id: number, update: FileUpdate): void {
    this.s.updateFile!.run({ ...update, id, now: Date.now() });
  }

  /** Drops a file's rows and records its new state, in one transaction. */
  resetFile(id: number, update: FileUpdate): void {
    this.db.transaction(() => {
      this.clearFile(id);
      this.updateFile(id, update);
    })();
  }

  /** Sets a file's status alone (a pass under way marks its file: see ingest.ts). */
  setStatus(id: number, status: string): void {
    this.s.setStatus!.run(status, id);
  }

  forgetFile(id: number): void {
    this.clearFile(id);
    this.s.deleteFile!.run(id);
  }

  /** Removes every row read from a file (before a re-ingest, or when it is gone). */
  clearFile(id: number): void {
    this.db.transaction(() => {
      this.s.clearFts!.run(id);
      this.s.clearTags!.run(id);
      for (const key of ['clearRecordsRaw', 'clearEntries', 'clearEvents', 'clearReceipts', 'clearRecords', 'clearDefects']) {
        this.s[key]!.run(id);
      }
    })();
  }

  /** Drops defects at or after `offset` (the incomplete tail an append has now completed). */
  clearDefectsFrom(id: number, offset: number): void {
    this.s.clearDefectsFrom!.run(id, offset);
  }

  /**
   * Writes a batch of rows and the defects met with them in one transaction, with what must go
   * before them (dropping the rows they replace) and after them (the file's new state, or the
   * mark that a pass is under way): a pass whose rows fit one batch leaves the index as before
   * it or as after it, never in between.
   */
  write(batch: RowBatch, fileId: number, storeKey: string, defects: JsonlDefect[], around: BatchWrites): void {
    this.writeBatch(batch, { fileId, storeKey, list: defects }, around);
  }

  private insertRowsOf(batch: RowBatch): void {
    if (batch.rows === 0) return;
    const rids = this.inserts[batch.table].run(batch.values, batch.rows, batch.table === 'entries' || batch.table === 'records', batch.constants);
    if (batch.table === 'entries') {
      const tags: unknown[] = [];
      for (let i = 0; i < batch.tags.length; i += 2) tags.push(rids![batch.tags[i] as number], batch.tags[i + 1]);
      this.inserts.entry_tags.run(tags, tags.length / 2, false);
      const fts: unknown[] = [];
      for (let row = 0; row < batch.rows; row++) fts.push(rids![row], batch.fts[4 * row], batch.fts[4 * row + 1], batch.fts[4 * row + 2], batch.fts[4 * row + 3]);
      this.inserts.entries_fts.run(fts, batch.rows, false);
    } else if (batch.table === 'records') {
      const raws: unknown[] = [];
      for (let row = 0; row < batch.rows; row++) raws.push(rids![row], batch.raws[row]);
      this.inserts.records_raw.run(raws, batch.rows, false);
    }
  }

  /** The largest rid `table` has ever had: every row written from now on has a larger one. */
  lastRid(table: StoreTable): number {
    return this.s.lastRid!.get(table) as number;
  }

  /** First line holding `id` in this file, from the index (duplicate detection across appends). */
  lineOfId(def: StoreDef, fileId: number, id: string): number | undefined {
    const row = (def.table === 'entries' ? this.s.entryLineById!.get(fileId, id) : this.s.recordLineById!.get(fileId, def.key, id)) as { line: number } | undefined;
    return row?.line;
  }
}

/** Bound parameters per multi-row statement: about where the per-statement cost stops mattering. */
const PARAMS_PER_STATEMENT = 256;

interface MultiRowInsert {
  /**
   * Inserts `rows` rows whose values are `values` (flat, a row after another) and, in every row,
   * `constants` in the constant columns; returns their rids when asked.
   */
  run(values: unknown[], rows: number, wantRids: boolean, constants?: unknown[]): number[] | null;
}

/**
 * An INSERT of many rows a statement (one statement per row costs a call into SQLite, a VM run
 * and, with AUTOINCREMENT, a write of sqlite_sequence, per row). The rows of one statement get
 * consecutive rids in their order (AUTOINCREMENT gives each new row the largest rid ever + 1), so
 * each row's rid follows from the last one's. The constant columns are named parameters ($k0…),
 * which every row of the statement shares: bound once per statement, not once per row.
 */
function multiRowInsert(db: IndexDb, table: string, columns: readonly string[], constantColumns: readonly string[] = []): MultiRowInsert {
  const width = columns.length;
  const per = Math.max(1, Math.floor((PARAMS_PER_STATEMENT - constantColumns.length) / width));
  const tuple = `(${[...constantColumns.map((_, i) => `$k${i}`), ...columns.map(() => '?')].join(', ')})`;
  const sql = (rows: number) => `INSERT INTO ${table}(${[...constantColumns, ...columns].join(', ')}) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
  const many = db.prepare(sql(per));
  const one = db.prepare(sql(1));
  return {
    run(values, rows, wantRids, constants = []) {
      const rids = wantRids ? new Array<number>(rows) : null;
      const named = constantColumns.length ? Object.fromEntries(constantColumns.map((_, i) => [`k${i}`, constants[i]])) : null;
      let row = 0;
      const insert = (statement: Database.Statement, count: number) => {
        const slice = values.slice(row * width, (row + count) * width);
        const info = named ? statement.run(slice, named) : statement.run(slice);
        if (rids) {
          const last = Number(info.lastInsertRowid);
          for (let j = 0; j < count; j++) rids[row + j] = last - count + 1 + j;
        }
        row += count;
      };
      while (row + per <= rows) insert(many, per);
      while (row < rows) insert(one, 1);
      return rids;
    },
  };
}
