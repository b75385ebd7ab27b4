import path from 'node:path';
import type { IndexDb } from '../index/open-index';
import { parseJsonObject } from '../index/sql';
import { storeDef } from '../stores/catalog';
import { parseFrontmatter } from '../stores/frontmatter';
import { strList } from './entry-fields';
import type { EntryCollection, EntryTier, KnowledgeInputs, SkillRef, SourceEntry, SourceEvent } from './knowledge-model';

/**
 * Reads what the knowledge model needs from the stores layer's SQLite index, read-only (tables
 * and columns of main/core/index/schema.ts: each row table keeps its exact line in `<table>_raw`). Every
 * record is re-checked with its store's checker so entries come out exactly as the plugin
 * reads them (v1→v2 normalisation) together with the notes saying what that changed.
 */

/** Changes whenever any indexed file is (re)ingested; cheap (one row per file). */
export function indexFingerprint(db: IndexDb): string {
  const row = db.prepare("SELECT count(*) AS n, coalesce(group_concat(id || ':' || coalesce(ingested_at, 0) || ':' || end_offset, ','), '') AS f FROM files").get() as {
    n: number;
    f: string;
  };
  return `${row.n}|${row.f}`;
}

interface EntrySqlRow {
  rid: number;
  store_key: string;
  collection: string;
  tier: string;
  line: number;
  raw: string;
  path: string;
}

function toSourceEntry(row: EntrySqlRow): SourceEntry {
  const raw = parseJsonObject(row.raw);
  const check = storeDef(row.store_key)?.check(raw) ?? { value: raw, notes: [], problems: [] };
  return {
    rid: row.rid,
    value: check.value,
    text: row.raw,
    tier: row.tier as EntryTier,
    collection: row.collection as EntryCollection,
    storeKey: row.store_key,
    file: row.path,
    line: row.line,
    notes: check.notes,
  };
}

const ENTRY_SQL = 'SELECT e.rid, e.store_key, e.collection, e.tier, e.line, r.raw, f.path FROM entries e JOIN files f ON f.id = e.file_id JOIN entries_raw r ON r.rid = e.rid';

export function loadEntries(db: IndexDb): SourceEntry[] {
  return (db.prepare(`${ENTRY_SQL} ORDER BY e.file_id, e.line`).all() as EntrySqlRow[]).map(toSourceEntry);
}

export function loadEntriesByRid(db: IndexDb, rids: readonly number[]): SourceEntry[] {
  if (rids.length === 0) return [];
  return (db.prepare(`${ENTRY_SQL} WHERE e.rid IN (${rids.map(() => '?').join(', ')})`).all(...rids) as EntrySqlRow[]).map(toSourceEntry);
}

function loadEvents(db: IndexDb, storeKey: string): SourceEvent[] {
  const rows = db
    .prepare('SELECT r.raw, ev.line, ev.store_key, f.path FROM events ev JOIN files f ON f.id = ev.file_id JOIN events_raw r ON r.rid = ev.rid WHERE ev.store_key = ? ORDER BY ev.file_id, ev.line')
    .all(storeKey) as { raw: string; line: number; store_key: string; path: string }[];
  return rows.map((r) => ({ value: parseJsonObject(r.raw), storeKey: r.store_key, file: r.path, line: r.line }));
}

function recordRows(db: IndexDb, storeKey: string): { raw: string; path: string }[] {
  return db
    .prepare('SELECT x.raw, f.path FROM records r JOIN files f ON f.id = r.file_id JOIN records_raw x ON x.rid = r.rid WHERE r.store_key = ? ORDER BY r.file_id, r.line')
    .all(storeKey) as { raw: string; path: string }[];
}

/** JSON records (the index keeps each record's exact text). */
function loadRecords(db: IndexDb, storeKey: string): { value: Record<string, unknown>; path: string }[] {
  return recordRows(db, storeKey).map((r) => ({ value: parseJsonObject(r.raw), path: r.path }));
}

/** The events that drive effective counters (small: FIFO-capped at 5000 lines each). */
export function loadCounterInputs(db: IndexDb) {
  const baseline = loadRecords(db, 'knowledge-counter-baseline')[0]?.value ?? null;
  return {
    knowledgeEvents: loadEvents(db, 'knowledge-events'),
    applicationLog: loadEvents(db, 'knowledge-application'),
    baseline,
  };
}

const slugOfMarker = (file: string) => path.basename(path.dirname(file));

function loadSkills(db: IndexDb): SkillRef[] {
  const retired = new Set(recordRows(db, 'skill-retired-markers').map((r) => slugOfMarker(r.path)));
  const stale = new Set(recordRows(db, 'skill-stale-markers').map((r) => slugOfMarker(r.path)));
  const skills: SkillRef[] = [];
  for (const [storeKey, kind] of [
    ['skills-generated', 'active'],
    ['skill-proposals', 'proposal'],
  ] as const) {
    for (const record of recordRows(db, storeKey)) {
      // The index keeps markdown either as the parsed record (JSON) or as the file text; accept both.
      const parsed = parseJsonObject(record.raw);
      const frontmatter =
        parsed.frontmatter && typeof parsed.frontmatter === 'object' ? (parsed.frontmatter as Record<string, unknown>) : (parseFrontmatter(record.raw).frontmatter ?? {});
      const slug = kind === 'active' ? slugOfMarker(record.path) : path.basename(record.path, '.md');
      const sourceIds = [...new Set([...strList(frontmatter.source_knowledge_ids), ...strList(frontmatter.generated_from_knowledge)])];
      skills.push({
        slug,
        path: record.path,
        kind,
        status: typeof frontmatter.status === 'string' ? frontmatter.status : null,
        retired: kind === 'active' && retired.has(slug),
        stale: kind === 'active' && stale.has(slug),
        sourceIds,
      });
    }
  }
  return skills;
}

export function loadKnowledgeInputs(db: IndexDb): KnowledgeInputs {
  return {
    entries: loadEntries(db),
    ...loadCounterInputs(db),
    retractions: loadRecords(db, 'knowledge-retractions').map((r) => r.value),
    skills: loadSkills(db),
  };
}

/** The exact stored lines of the given rows, in the order asked. */
export function rawLinesByRid(db: IndexDb, rids: readonly number[]): string[] {
  const byRid = new Map<number, string>();
  const CHUNK = 900;
  for (let i = 0; i < rids.length; i += CHUNK) {
    const chunk = rids.slice(i, i + CHUNK);
    const rows = db.prepare(`SELECT rid, raw FROM entries_raw WHERE rid IN (${chunk.map(() => '?').join(', ')})`).all(...chunk) as { rid: number; raw: string }[];
    for (const row of rows) byRid.set(row.rid, row.raw);
  }
  return rids.map((rid) => byRid.get(rid)).filter((line): line is string => line !== undefined);
}
