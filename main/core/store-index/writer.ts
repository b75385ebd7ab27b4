import type Database from 'better-sqlite3';
import type { StoreDef, StoreTable, StoreTier } from '../stores/catalog';
import type { JsonlDefect } from '../stores/jsonl-reader';
import type { StoreRecord } from '../stores/read-store-file';
import type { StoreFile } from '../stores/locate';
import type { IndexDb } from './open-index';
import { entryRow, eventRow, genericRow, receiptRow } from './rows';
import { lineHash } from './stored-lines';

/** One record's column values, (whole-file records) its text, and (entries) tags and full-text fields, ready to insert. */
export interface PendingRow {
  values: unknown[];
  raw?: string;
  tags?: string[];
  fts?: [string, string, string, string];
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
  private readonly insertBatch: (batch: { table: StoreTable; rows: PendingRow[] }) => void;
  private readonly insertDefectBatch: (batch: { fileId: number; storeKey: string; defects: JsonlDefect[] }) => void;

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
      entries: p(
        `INSERT INTO entries(file_id, store_key, collection, line, offset, bytes, hash, id, tier, status, category, scope, priority, confidence, project, created_at, updated_at,
         phases_alive, max_phases, encounter_score, shown_count, lesson, tags, flagged, duplicate)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      entry_tags: p('INSERT INTO entry_tags(rid, tag) VALUES (?, ?)'),
      entries_fts: p('INSERT INTO entries_fts(rowid, lesson, tags, triggers, actions) VALUES (?, ?, ?, ?, ?)'),
      events: p(
        `INSERT INTO events(file_id, store_key, line, offset, bytes, hash, kind, ts_ms, session_id, agent, tool, knowledge_id, trace_id, phase, flagged)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      receipts: p(
        `INSERT INTO receipts(file_id, store_key, line, offset, bytes, hash, seq, gen, type, ts, trace_id, entry_id, session_id, phase, outcome, source, flagged)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      records: p('INSERT INTO records(file_id, store_key, line, offset, rec_id, kind, ts, flagged, duplicate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      records_raw: p('INSERT INTO records_raw(rid, raw) VALUES (?, ?)'),
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
      recordLineById: p('SELECT line FROM records WHERE file_id = ? AND store_key = ? AND rec_id = ? ORDER BY line LIMIT 1'),
    };
    const s = this.s;
    this.insertBatch = db.transaction(({ table, rows }) => {
      const insert = s[table] as Database.Statement;
      const insertRaw = table === 'records' ? s.records_raw! : null;
      for (const row of rows) {
        const rid = insert.run(...row.values).lastInsertRowid;
        if (insertRaw) insertRaw.run(rid, row.raw ?? '');
        if (row.tags) for (const tag of row.tags) s.entry_tags!.run(rid, tag);
        if (row.fts) s.entries_fts!.run(rid, ...row.fts);
      }
    });
    this.insertDefectBatch = db.transaction(({ fileId, storeKey, defects }) => {
      for (const d of defects) s.defect!.run(fileId, storeKey, d.line, d.offset, d.kind, d.reason);
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
   * The column values of a record, extracted at once so a batch holds compact tuples rather than
   * parsed objects (which would otherwise survive into the old generation and cost GC time).
   */
  rowOf(def: StoreDef, tier: StoreTier, fileId: number, r: StoreRecord): PendingRow {
    const flagged = r.problems.length > 0 || r.duplicateOfLine !== null ? 1 : 0;
    const duplicate = r.duplicateOfLine !== null ? 1 : 0;
    switch (def.table) {
      case 'entries': {
        const e = entryRow(r, tier, def.collection ?? 'active');
        return {
          values: [
            fileId, def.key, e.collection, r.line, r.offset, r.bytes, lineHash(r.text), e.id, e.tier, e.status, e.category, e.scope, e.priority, e.confidence, e.project,
            e.created_at, e.updated_at, e.phases_alive, e.max_phases, e.encounter_score, e.shown_count, e.lesson, JSON.stringify(e.tags), flagged, duplicate,
          ],
          tags: e.tags,
          fts: [e.lesson ?? '', e.tags.join(' '), e.triggers, e.actions],
        };
      }
      case 'events': {
        const e = eventRow(r, def.key);
        const ms = e.ts === null ? Number.NaN : Date.parse(e.ts);
        const values = [fileId, def.key, r.line, r.offset, r.bytes, lineHash(r.text), e.kind, Number.isNaN(ms) ? null : ms, e.session_id, e.agent, e.tool, e.knowledge_id, e.trace_id, e.phase, flagged];
        return { values };
      }
      case 'receipts': {
        const e = receiptRow(r);
        return { values: [fileId, def.key, r.line, r.offset, r.bytes, lineHash(r.text), e.seq, e.gen, e.type, e.ts, e.trace_id, e.entry_id, e.session_id, e.phase, e.outcome, e.source, flagged] };
      }
      default: {
        const e = genericRow(r);
        return { values: [fileId, def.key, r.line, r.offset, e.rec_id, e.kind, e.ts, flagged, duplicate], raw: r.text };
      }
    }
  }

  insertRows(table: StoreTable, rows: PendingRow[]): void {
    if (rows.length) this.insertBatch({ table, rows });
  }

  insertDefects(fileId: number, storeKey: string, defects: JsonlDefect[]): void {
    if (defects.length) this.insertDefectBatch({ fileId, storeKey, defects });
  }

  /** First line holding `id` in this file, from the index (duplicate detection across appends). */
  lineOfId(def: StoreDef, fileId: number, id: string): number | undefined {
    const row = (def.table === 'entries' ? this.s.entryLineById!.get(fileId, id) : this.s.recordLineById!.get(fileId, def.key, id)) as { line: number } | undefined;
    return row?.line;
  }
}
