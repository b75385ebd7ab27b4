import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BULK_INDEX_SQL, INDEX_FILE_NAME, INDEX_SCHEMA_VERSION, SCHEMA_SQL } from './schema';
import { ensurePrivateDatabaseFile, ensurePrivateDir } from '../platform/paths/private-files';
import { registerStoredLine } from './stored-lines';

export type IndexDb = Database.Database;

export interface OpenedIndex {
  db: IndexDb;
  file: string;
  /** True when the database was created now (missing, corrupt, or of another schema version). */
  rebuilt: boolean;
  /** Why it was rebuilt, for the status line. */
  reason: string | null;
}

function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}

function configure(db: IndexDb, initialBuild = false): void {
  // The first build writes every page once, without a journal (a cache: an interrupted build is
  // discarded on the next open); from then on the index runs in WAL mode.
  db.pragma(initialBuild ? 'journal_mode = OFF' : 'journal_mode = WAL');
  // A cache: losing the last transactions on power loss only means re-reading some bytes.
  db.pragma('synchronous = OFF');
  // Index builds sort through temp files, so a million-row build does not grow the process.
  db.pragma('temp_store = FILE');
  db.pragma('cache_size = -16000');
  db.pragma('busy_timeout = 5000');
  // The WAL is cut back to 4 MB after a checkpoint; else it keeps the size of the largest burst of
  // writes (the knowledge warm-up's) for the whole session.
  db.pragma('journal_size_limit = 4194304');
  // Line texts are read back from the store files (stored-lines.ts).
  registerStoredLine(db);
}

function currentVersion(db: IndexDb): number | null {
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    return row ? Number(row.value) : null;
  } catch {
    return null;
  }
}

function create(file: string): IndexDb {
  if (file !== ':memory:') ensurePrivateDatabaseFile(file);
  const db = new Database(file);
  configure(db, true);
  db.exec(SCHEMA_SQL);
  db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?)").run(String(INDEX_SCHEMA_VERSION));
  db.prepare("INSERT INTO meta(key, value) VALUES ('bulk_indexes', '0')").run();
  return db;
}

/** Opens (or rebuilds) the index in `cacheDir`. `:memory:` as cacheDir gives a throwaway index. */
export function openIndex(cacheDir: string): OpenedIndex {
  if (cacheDir === ':memory:') return { db: create(':memory:'), file: ':memory:', rebuilt: true, reason: 'in-memory index' };
  ensurePrivateDir(cacheDir);
  const file = path.join(cacheDir, INDEX_FILE_NAME);
  if (!fs.existsSync(file)) return { db: create(file), file, rebuilt: true, reason: 'no index yet' };
  let reason: string;
  try {
    ensurePrivateDatabaseFile(file);
    const db = new Database(file);
    const version = currentVersion(db);
    if (version === INDEX_SCHEMA_VERSION && hasBulkIndexes(db)) {
      configure(db);
      return { db, file, rebuilt: false, reason: null };
    }
    db.close();
    reason =
      version === null
        ? 'index had no schema version'
        : version !== INDEX_SCHEMA_VERSION
          ? `index schema ${version} ≠ ${INDEX_SCHEMA_VERSION}`
          : 'the first build of the index was interrupted';
  } catch (error) {
    reason = `index unreadable (${(error as Error).message})`;
  }
  removeDatabase(file);
  return { db: create(file), file, rebuilt: true, reason };
}

export function hasBulkIndexes(db: IndexDb): boolean {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'bulk_indexes'").get() as { value: string } | undefined;
  return row?.value === '1';
}

/** Ends the first build: secondary indexes, planner statistics, then WAL from here on. */
export function createBulkIndexes(db: IndexDb): void {
  // Index builds sort every row: let SQLite's sorter merge on a helper thread (the second core)
  // meanwhile; queries keep sorting on the connection's own thread.
  db.pragma(`threads = ${Math.min(2, os.availableParallelism())}`);
  db.exec(BULK_INDEX_SQL);
  db.pragma('threads = 0');
  // Exact statistics for the tables the planner must choose well on (facet-filtered, sorted
  // entry pages); sampled ones for the million-row tables, whose queries have one obvious index.
  db.pragma('analysis_limit = 0');
  db.exec('ANALYZE entries; ANALYZE entry_tags; ANALYZE records; ANALYZE files');
  db.pragma('analysis_limit = 1000');
  db.exec('ANALYZE events; ANALYZE receipts');
  db.prepare("UPDATE meta SET value = '1' WHERE key = 'bulk_indexes'").run();
  if (db.name !== ':memory:') db.pragma('journal_mode = WAL');
}
