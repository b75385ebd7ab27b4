/**
 * The derived index: a cache of every store, rebuilt from the files at any time (deleting the
 * database loses nothing). One database per workspace (project + its hive together) at
 * `<workspace.cacheDir>/store-index.sqlite`. Bump INDEX_SCHEMA_VERSION whenever the tables or
 * what goes into them change: a database with another version is deleted and rebuilt.
 */
export const INDEX_SCHEMA_VERSION = 18;
export const INDEX_FILE_NAME = 'store-index.sqlite';

// Row tables (entries, events, receipts, records) hold one row per store record, pointing at its
// file and line, with the few columns queries filter, sort and count on. The JSONL tables keep no
// copy of the line: `offset` and `bytes` say where it sits in its file and `hash` (stored-lines.ts)
// checks it when it is read back, so the index stays smaller than the data. Whole-file records
// (JSON, markdown: their text is derived) keep it in `records_raw` under the same rid.
// Their rids are AUTOINCREMENT: a rid is never reused after a file is re-read, so a rid names one
// line for the life of the index and caches keyed by rid (the knowledge model's parsed entries,
// the column caches' "rows above the last rid") can trust it.

/** Directive priority as a sortable number; the same expression is indexed and used in ORDER BY. */
export const PRIORITY_RANK_SQL = "CASE priority WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 END";

export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  store_key TEXT NOT NULL,
  tier TEXT NOT NULL,
  name TEXT NOT NULL,
  orphaned INTEGER NOT NULL DEFAULT 0,
  symlink_target TEXT,
  status TEXT NOT NULL,
  message TEXT,
  dev INTEGER, ino INTEGER, size INTEGER, mtime_ms REAL,
  head_sha TEXT, tail_sha TEXT,
  end_offset INTEGER NOT NULL DEFAULT 0,
  next_line INTEGER NOT NULL DEFAULT 1,
  lines INTEGER NOT NULL DEFAULT 0,
  records INTEGER NOT NULL DEFAULT 0,
  defects INTEGER NOT NULL DEFAULT 0,
  pending_tail INTEGER NOT NULL DEFAULT 0,
  ingested_at INTEGER
);
CREATE INDEX files_store ON files(store_key);

CREATE TABLE entries (
  rid INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL,
  store_key TEXT NOT NULL,
  collection TEXT NOT NULL,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  -- the line's length with its newline, and the hash of its bytes (stores/line-hash.ts)
  bytes INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  id TEXT,
  tier TEXT NOT NULL,
  status TEXT,
  category TEXT,
  scope TEXT,
  priority TEXT,
  confidence REAL,
  project TEXT,
  created_at TEXT,
  updated_at TEXT,
  phases_alive INTEGER,
  max_phases INTEGER,
  encounter_score REAL,
  shown_count INTEGER,
  lesson TEXT,
  tags TEXT,
  flagged INTEGER NOT NULL DEFAULT 0,
  duplicate INTEGER NOT NULL DEFAULT 0
);

-- An entry's tags, for the tag filter (rid IN … WHERE tag = ?): the (tag, rid) b-tree alone, no
-- table beside it. Clearing a file's rows finds its tags by scanning this (no index by rid: a
-- file is cleared only when it is read again whole, which costs far more).
CREATE TABLE entry_tags (tag TEXT NOT NULL, rid INTEGER NOT NULL, PRIMARY KEY (tag, rid) ON CONFLICT IGNORE) WITHOUT ROWID;

-- Contentless: the full-text index keeps the tokens of these texts, not the texts (tags and lesson
-- are columns of entries, triggers and actions are in the line); deletable by rowid.
CREATE VIRTUAL TABLE entries_fts USING fts5(lesson, tags, triggers, actions, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');

CREATE TABLE events (
  rid INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL,
  store_key TEXT NOT NULL,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  -- the line's length with its newline, and the hash of its bytes (stores/line-hash.ts)
  bytes INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  kind TEXT,
  -- epoch ms of the record's timestamp: integer keys keep the big indexes small and fast to build
  ts_ms INTEGER,
  session_id TEXT,
  agent TEXT,
  tool TEXT,
  knowledge_id TEXT,
  trace_id TEXT,
  phase TEXT,
  flagged INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE receipts (
  rid INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL,
  store_key TEXT NOT NULL,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  -- the line's length with its newline, and the hash of its bytes (stores/line-hash.ts)
  bytes INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  -- only what listRecords filters and sorts on (schema 16: seq, gen, entry, session, phase,
  -- outcome and source were written for every receipt and read by no query; the receipts views
  -- read the journal files, and a record's line is read back from its file)
  type TEXT,
  ts TEXT,
  trace_id TEXT,
  flagged INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE records (
  rid INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL,
  store_key TEXT NOT NULL,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  rec_id TEXT,
  kind TEXT,
  ts TEXT,
  flagged INTEGER NOT NULL DEFAULT 0,
  duplicate INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX records_file ON records(file_id, line);
CREATE INDEX records_store ON records(store_key, line);
CREATE INDEX records_id ON records(store_key, rec_id);

CREATE TABLE records_raw (rid INTEGER PRIMARY KEY, raw TEXT NOT NULL);

CREATE TABLE defects (
  rid INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  store_key TEXT NOT NULL,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX defects_file ON defects(file_id, offset);
CREATE INDEX defects_store ON defects(store_key, file_id, offset);

-- Derived knowledge state (derived-store.ts), so a re-open answers before the model is rebuilt.
-- Values are JSON split in parts (long parts deflated); part -1 holds the stamp (the fingerprint
-- they were computed at) and the part count, written last. Bigram postings of the active lessons
-- (by tier group, tokens hashed) with the rids of the lessons posted, to find an entry's
-- counterparts without the model.
-- (A rowid table: its values run to kilobytes, which a WITHOUT ROWID table stores at twice the size.)
CREATE TABLE derived_values (name TEXT NOT NULL, part INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (name, part));
-- A posting list's key is its tier group above the token's 32 bits: a rowid, so no second b-tree for the pair.
CREATE TABLE derived_postings (key INTEGER PRIMARY KEY, rids BLOB NOT NULL);
-- The lessons whose postings are written (a removed lesson's rid may stay in lists: derived-store.ts).
CREATE TABLE derived_lessons (rid INTEGER PRIMARY KEY);
`;

/**
 * Secondary indexes of the big tables. They are created after the first bulk load (building an
 * index once is much cheaper than maintaining it row by row during a million-row ingest) and
 * exist from then on, so later appends maintain them.
 */
export const BULK_INDEX_SQL = `
CREATE INDEX IF NOT EXISTS entries_file ON entries(file_id, line);
CREATE INDEX IF NOT EXISTS entries_id ON entries(id);
CREATE INDEX IF NOT EXISTS entries_updated ON entries(updated_at);
CREATE INDEX IF NOT EXISTS entries_created ON entries(created_at);
CREATE INDEX IF NOT EXISTS entries_status ON entries(status, updated_at);
CREATE INDEX IF NOT EXISTS entries_category ON entries(category, updated_at);
CREATE INDEX IF NOT EXISTS entries_tier ON entries(tier, updated_at);
CREATE INDEX IF NOT EXISTS entries_priority ON entries(priority, updated_at);
CREATE INDEX IF NOT EXISTS entries_priority_rank ON entries(${PRIORITY_RANK_SQL});
CREATE INDEX IF NOT EXISTS entries_confidence ON entries(confidence);
CREATE INDEX IF NOT EXISTS entries_lesson ON entries(lesson COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS entries_shown ON entries(shown_count);
CREATE INDEX IF NOT EXISTS entries_encounter ON entries(encounter_score);
CREATE INDEX IF NOT EXISTS entries_phases ON entries(phases_alive);
CREATE INDEX IF NOT EXISTS events_ts ON events(ts_ms);
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, ts_ms);
CREATE INDEX IF NOT EXISTS events_store ON events(store_key, ts_ms);
CREATE INDEX IF NOT EXISTS events_session ON events(session_id, ts_ms) WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_agent ON events(agent, ts_ms) WHERE agent IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_knowledge ON events(knowledge_id, ts_ms) WHERE knowledge_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS receipts_store ON receipts(store_key);
CREATE INDEX IF NOT EXISTS receipts_trace ON receipts(trace_id) WHERE trace_id IS NOT NULL;
`;
// Schema 18: derived_lessons keeps rids only, no tokens: a removed lesson stays in its token lists
// and queries leave it out (8.9 of 115 MB at 90,000 lessons).
// Schema 17: a token's posting list keyed by one integer (group and token), its rids as
// ascending gaps of 7-bit groups (derived-store.ts): the postings took 2.9 MB of a 34 MB index
// at 20,000 lessons, most of them lists of one rid with a second b-tree for (grp, token);
// entry_tags is its (tag, rid) b-tree alone (a table and two indexes took 9.5 MB at 90,000).
// Schema 16: receipts rows keep only type, ts and trace_id of their record's fields; entry_tags'
// indexes are built here, after the first bulk load, instead of row by row during it.
// Schema 15: the kept knowledge state is packed (a lesson's bigram tokens and a token's lessons as
// 32-bit words, one row per token; a directive row's values without their keys).
// Schema 14: the indexes of columns often empty (an event's agent, session or knowledge id; a
// receipt's trace id) leave out the rows without a value: they only ever serve `column = ?`,
// which no such row matches, and the first build sorts a sixth to two fifths fewer keys.
// Deliberately not indexed: events/receipts by file (rows of a file are dropped only when it is
// rewritten or removed, a scan then); receipts by entry_id or seq (no query filters or sorts on
// them, and schema 16 no longer stores them: the receipts views read the journal files;
// store-queries.ts filters receipts by store, trace_id and type, and receipts_store keeps a
// store's rows in rid order, its line order).
