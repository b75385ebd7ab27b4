import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDatabaseFile, ensurePrivateDir } from '../platform/paths/private-files';
import { markCleanClose, takeCleanMark } from './clean-close';

export type HistoryDb = Database.Database;

export const HISTORY_FILE_NAME = 'history.db';
const HISTORY_SCHEMA_VERSION = 1;

/**
 * The console's memory of the stores (never a plugin store): one SQLite file per workspace in
 * `<user-data>/workspaces/<key>/history.db`.
 *
 * - `versions`: each distinct line an entry ever had, content-addressed by the sha256 of its bytes,
 *   stored zlib-deflated, as a delta against the entry's previous version (deflate with that version
 *   as the dictionary) when that is smaller; `depth` bounds the chain a read must inflate.
 * - `sightings`: one version of one entry in one store file, from `first_seen` until `gone_at`
 *   (null: still there). `first_after` / `gone_after` are set when the change was found on opening
 *   (the console was not watching): it happened between that time and the recorded one.
 * - `moments`: named points (`last-looked`, `phase:N`); `tombstones`: the plugin's `archived`
 *   events, kept here because its event logs are 5,000-line FIFOs.
 * - `observations`: when a console or recorder was watching (gaps are the complement).
 * - `file_marks`: the state (mtime) of each store file history has recorded and, while a pass over it
 *   has not reached the file's end, what that pass states (`pass_*`, file-marks.ts).
 * - `sightings_span`: an R*Tree over each sighting's [first_seen, gone_at] (kept by triggers), so
 *   "what was there at time t" reads the few sightings open at t, not every one before t. Its
 *   coordinates are 32-bit floats, rounded outwards: queries filter on the exact columns too.
 * - `sightings.thinned`: set on a span that stands for that many intermediate versions the size
 *   budget thinned (thinning.ts); their lines are no longer kept.
 */
/** The end of a span still open, in `sightings_span` (later than any time history will see). */
export const OPEN_END = 1e15;
/**
 * Where a sighting's span starts in `sightings_span`: its first_seen, or for a baseline sighting (the
 * state when history began, written a moment after its observation started) no later than when history
 * began, so an as-of query from then finds it.
 */
const SPAN_FROM = (row: string) =>
  `CASE WHEN ${row}.origin = 'baseline' THEN min(${row}.first_seen, coalesce((SELECT min(started_at) FROM observations), ${row}.first_seen)) ELSE ${row}.first_seen END`;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
  sha TEXT PRIMARY KEY, entry_id TEXT NOT NULL, base_sha TEXT, depth INTEGER NOT NULL,
  size INTEGER NOT NULL, data BLOB NOT NULL, first_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sightings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_id TEXT NOT NULL, tier TEXT NOT NULL, kind TEXT NOT NULL, store_key TEXT NOT NULL,
  path TEXT NOT NULL, file TEXT NOT NULL, sha TEXT NOT NULL, status TEXT,
  origin TEXT NOT NULL, first_seen INTEGER NOT NULL, first_after INTEGER,
  last_seen INTEGER, gone_at INTEGER, gone_after INTEGER, gone_reason TEXT, gone_detail TEXT, store_count INTEGER,
  thinned INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS sightings_open ON sightings(path, entry_id) WHERE gone_at IS NULL;
CREATE INDEX IF NOT EXISTS sightings_entry ON sightings(entry_id, first_seen);
CREATE INDEX IF NOT EXISTS sightings_first ON sightings(first_seen);
CREATE INDEX IF NOT EXISTS sightings_gone ON sightings(gone_at);
CREATE VIRTUAL TABLE IF NOT EXISTS sightings_span USING rtree(id, from_t, to_t);
CREATE TRIGGER IF NOT EXISTS sightings_span_insert AFTER INSERT ON sightings BEGIN
  INSERT INTO sightings_span(id, from_t, to_t) VALUES (new.id, ${SPAN_FROM('new')}, coalesce(new.gone_at, ${OPEN_END}));
END;
CREATE TRIGGER IF NOT EXISTS sightings_span_update AFTER UPDATE OF first_seen, gone_at ON sightings BEGIN
  UPDATE sightings_span SET from_t = ${SPAN_FROM('new')}, to_t = coalesce(new.gone_at, ${OPEN_END}) WHERE id = new.id;
END;
CREATE TRIGGER IF NOT EXISTS sightings_span_delete AFTER DELETE ON sightings BEGIN
  DELETE FROM sightings_span WHERE id = old.id;
END;
CREATE TABLE IF NOT EXISTS moments (name TEXT PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tombstones (
  event_key TEXT PRIMARY KEY, entry_id TEXT NOT NULL, tier TEXT, at INTEGER NOT NULL,
  actor TEXT, reason TEXT, mode TEXT, previous_status TEXT
);
CREATE INDEX IF NOT EXISTS tombstones_entry ON tombstones(entry_id, at);
CREATE TABLE IF NOT EXISTS observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, role TEXT NOT NULL, pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL, ended_at INTEGER NOT NULL, resumed_from INTEGER
);
CREATE TABLE IF NOT EXISTS file_marks (path TEXT PRIMARY KEY, index_ingested_at INTEGER, pass_origin TEXT, pass_at INTEGER, pass_after INTEGER);
`;

export interface HistoryDbStatus {
  file: string;
  /** Set when an unreadable history was set aside and history restarted (for a banner). */
  setAside: { file: string; reason: string } | null;
}

export interface OpenedHistory {
  db: HistoryDb;
  status: HistoryDbStatus;
  /** False when the file was as a clean close left it and its integrity check was skipped (clean-close.ts). */
  checked: boolean;
}

function configure(db: HistoryDb): void {
  // Before the first table exists (a new file): pages freed by thinning can be handed back to the
  // file system in small steps (thinning.ts) instead of only by a full VACUUM.
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Short: a write that finds another recorder's transaction in the way retries later instead of
  // holding up the thread that serves the live view (see recorder.ts).
  db.pragma('busy_timeout = 250');
  // A first recording writes every entry's version in thousands of short transactions whose
  // id-keyed index pages are spread over the file: checkpointing every 10,000 WAL pages instead
  // of SQLite's 1,000 writes each hot page back far fewer times (a 30,000-entry baseline: wall
  // 4.7–5.0 → 3.8 s, CPU 3.8–3.9 → 3.5–3.6 s, `npm run bench -- history`). The WAL is cut back
  // to 16 MB after each checkpoint.
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma(`journal_size_limit = ${16 * 1024 * 1024}`);
}

/** What was added after a history was first created (the schema version stays: older files gain it). */
function upgrade(db: HistoryDb): void {
  addMissingColumns(db, 'sightings', { thinned: 'INTEGER' });
  // Older files: every mark was taken as finished (a pass stopped part-way is not known there).
  addMissingColumns(db, 'file_marks', { pass_origin: 'TEXT', pass_at: 'INTEGER', pass_after: 'INTEGER' });
  const indexed = db.prepare('SELECT 1 FROM sightings_span LIMIT 1').get() !== undefined;
  if (!indexed && db.prepare('SELECT 1 FROM sightings LIMIT 1').get() !== undefined) db.exec(`INSERT INTO sightings_span(id, from_t, to_t) SELECT id, ${SPAN_FROM('sightings')}, coalesce(gone_at, ${OPEN_END}) FROM sightings`);
}

/** Adds to `table` each of `columns` (name: type) it does not have yet. */
function addMissingColumns(db: HistoryDb, table: string, columns: Record<string, string>): void {
  const present = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
  for (const [name, type] of Object.entries(columns)) if (!present.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
}

function openChecked(file: string): { db: HistoryDb; checked: boolean } {
  ensurePrivateDatabaseFile(file);
  const trusted = takeCleanMark(file);
  const db = new Database(file);
  try {
    configure(db);
    if (!trusted) {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
    }
    db.exec(SCHEMA_SQL);
    upgrade(db);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    if (!row) db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)").run(String(HISTORY_SCHEMA_VERSION));
    else if (Number(row.value) !== HISTORY_SCHEMA_VERSION) throw new Error(`schema version ${row.value}, this console reads ${HISTORY_SCHEMA_VERSION}`);
    return { db, checked: !trusted };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Opens (or creates) the workspace's history. A file that is not a readable history (truncated,
 * corrupt, another schema) is renamed `history.db.corrupt-<time>` with its -wal/-shm, and history
 * restarts empty: the console never fails to open because of its history.
 */
export function openHistoryDb(dir: string, now = Date.now()): OpenedHistory {
  ensurePrivateDir(dir);
  const file = path.join(dir, HISTORY_FILE_NAME);
  try {
    return { ...openChecked(file), status: { file, setAside: null } };
  } catch (error) {
    const reason = (error as Error).message;
    const aside = `${file}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        fs.renameSync(file + suffix, aside + suffix);
      } catch {
        /* a missing -wal/-shm is fine */
      }
    }
    return { ...openChecked(file), status: { file, setAside: { file: aside, reason } } };
  }
}

/** Closes the history; when this was its last connection, marks it clean so the next open may skip its check. */
export function closeHistoryDb(db: HistoryDb): void {
  const file = db.name;
  db.close();
  markCleanClose(file);
}
