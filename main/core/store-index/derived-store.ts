import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { cachedPrepare } from './cached-prepare';
import { ENTRY_COLUMNS } from './knowledge-source';
import type Database from 'better-sqlite3';
import type { IndexedEntryLine } from './knowledge-source';
import type { IndexDb } from './open-index';

/**
 * Where the knowledge layer keeps what it derived from the stores (`derived_*` tables, schema.ts),
 * so a re-open of an unchanged workspace answers before its model is rebuilt. Every value carries
 * a stamp: the content fingerprint of the stores it was computed from. Unlike
 * KnowledgeSource.fingerprint (which moves whenever a file is looked at again, a missing file on
 * every open), a content fingerprint moves only when what the index holds for a file does: its
 * identity, size, mtime and head/tail hashes, offsets and counts, plus the entries' highest rid
 * and count (a re-read file gets new rids, which the bigram postings name).
 */

/** A lesson's postings: its tier group (0 project, 1 hive) and hashed bigram tokens (distinct). */
export interface LessonPostings {
  rid: number;
  grp: number;
  tokens: readonly number[];
}

/** The rids of a tier group's lessons holding one token (derived_postings keeps one row per list). */
export interface PostingList {
  grp: number;
  token: number;
  rids: number[];
}

/** One stored entry line with its place in file order. */
export type IndexedEntryAt = IndexedEntryLine;

const RID_CHUNK = 500;
/** The part of a value holding its stamp and part count. */
const HEADER = -1;
/** The count deadLessons reads. */
const DEAD_LESSONS = 'bigrams-dead';

/**
 * Parts this long or longer are kept deflated (raw DEFLATE in a BLOB), shorter ones as text: the
 * kept JSON (directive rows, orders of rids, inboxes) repeats its keys, phrases and digits, and
 * was the largest thing in the index of a knowledge-heavy workspace. Reading takes either form,
 * so values kept as text by an older version are still read. Level 1: at 90,000 lessons the
 * Directives orders, rewritten at every change, deflate in 21 ms at level 1 and 68 ms at zlib's
 * default (0.94 vs 0.86 MB), the row blocks in 159 vs 244 ms (5.2 vs 4.8 MB).
 */
const PACK_FROM = 512;
const LEVEL = { level: 1 };
const deflateRawAsync = promisify(deflateRaw);
const packed = (value: string | Buffer): string | Buffer => (typeof value !== 'string' || value.length < PACK_FROM ? value : deflateRawSync(value, LEVEL));

/** Parts as the store keeps them, deflated on zlib's thread pool rather than the thread that answers pages; writeParts and writePartsAt store them as they are. */
export async function packedParts(values: readonly string[]): Promise<(string | Buffer)[]> {
  return Promise.all(values.map((value) => (value.length < PACK_FROM ? value : deflateRawAsync(value, LEVEL))));
}

/** Output chunks of 256 KiB: with zlib's 16 KiB, inflating the 1,414 blocks of 90,000 lessons' directive rows took 56 ms instead of 33. */
const unpacked = (value: string | Buffer): string => (typeof value === 'string' ? value : inflateRawSync(value, { chunkSize: 256 * 1024 }).toString('utf8'));

/**
 * A token's rids as stored: ascending, each as its distance from the one before in 7-bit groups
 * (LEB128), low group first, the high bit set on every group but the last. Rids of one token are
 * mostly close together, so most take a byte or two instead of 4.
 */
export function ridListBytes(rids: readonly number[]): Buffer {
  const sorted = [...new Set(rids)].sort((a, b) => a - b);
  const out: number[] = [];
  let previous = 0;
  for (const rid of sorted) {
    if (!Number.isSafeInteger(rid) || rid < 0) throw new Error(`not a rid: ${rid}`);
    let gap = rid - previous;
    previous = rid;
    while (gap >= 0x80) {
      out.push((gap % 0x80) | 0x80);
      gap = Math.floor(gap / 0x80);
    }
    out.push(gap);
  }
  return Buffer.from(out);
}

export function ridListOf(bytes: Uint8Array): number[] {
  const rids: number[] = [];
  let previous = 0;
  for (let at = 0; at < bytes.length; ) {
    let gap = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[at++]!;
      gap += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte & 0x80 && at < bytes.length);
    previous += gap;
    rids.push(previous);
  }
  return rids;
}

/** A posting list's key: the tier group above a token's 32 bits (as unsigned). */
const postingKey = (grp: number, token: number) => grp * 0x1_0000_0000 + (token >>> 0);

export class DerivedStore {
  private readonly prepare: (sql: string) => Database.Statement;

  constructor(private readonly db: IndexDb) {
    this.prepare = cachedPrepare(db);
  }

  /** The content fingerprint of the given stores (see above); with `entries`, of the entries table too. */
  contentFingerprint(storeKeys: readonly string[], entries: boolean): string {
    const files = this.prepare(
      `SELECT coalesce(group_concat(f, ','), '') FROM (SELECT id || ':' || store_key || ':' || status || ':' || coalesce(dev, '') || ':' || coalesce(ino, '') || ':' || coalesce(size, '') || ':' ||
        coalesce(mtime_ms, '') || ':' || coalesce(head_sha, '') || ':' || coalesce(tail_sha, '') || ':' || end_offset || ':' || next_line || ':' || records AS f
        FROM files WHERE store_key IN (SELECT value FROM json_each(?)) ORDER BY id)`,
    )
      .pluck()
      .get(JSON.stringify(storeKeys)) as string;
    if (!entries) return files;
    // The highest rid (a file read again gets new rids even with the same count). No count(*): it
    // scans the table (16 ms at 50k entries, three times per update), and each file's record count,
    // size and offsets are already in `files` above.
    const rows = this.prepare('SELECT coalesce(max(rid), 0) FROM entries').pluck().get() as number;
    return `${files}|${rows}`;
  }

  /** A value's parts when it was stored under `stamp` (complete), else null. */
  readValue(name: string, stamp: string): string[] | null {
    const header = this.prepare('SELECT value FROM derived_values WHERE name = ? AND part = ?').pluck().get(name, HEADER) as string | undefined;
    if (header === undefined) return null;
    const { stamp: stored, parts } = JSON.parse(header) as { stamp: string; parts: number | null };
    if (stored !== stamp || parts === null) return null;
    const values = this.prepare('SELECT value FROM derived_values WHERE name = ? AND part >= 0 ORDER BY part').pluck().all(name) as (string | Buffer)[];
    return values.length === parts ? values.map(unpacked) : null;
  }

  /** The given parts of a value stored under `stamp` (complete), in the order asked; null when not stored so. */
  readParts(name: string, stamp: string, parts: readonly number[]): string[] | null {
    if (this.storedStamp(name) !== stamp) return null;
    const rows = this.prepare('SELECT part, value FROM derived_values WHERE name = ? AND part IN (SELECT value FROM json_each(?))').all(name, JSON.stringify(parts)) as { part: number; value: string | Buffer }[];
    const byPart = new Map(rows.map((row) => [row.part, unpacked(row.value)]));
    const values = parts.map((part) => byPart.get(part));
    return values.every((value) => value !== undefined) ? (values as string[]) : null;
  }

  /** The stamp a complete value was stored under, or null. */
  storedStamp(name: string): string | null {
    const header = this.prepare('SELECT value FROM derived_values WHERE name = ? AND part = ?').pluck().get(name, HEADER) as string | undefined;
    return header === undefined ? null : (JSON.parse(header) as { stamp: string }).stamp;
  }

  /** Forgets a value's stamp (its parts are then rewritten, the stamp last). */
  invalidate(name: string): void {
    this.prepare('DELETE FROM derived_values WHERE name = ? AND part = ?').run(name, HEADER);
  }

  /** Writes parts `from`… of a value (one transaction); a Buffer is a part packed already (packedParts). */
  writeParts(name: string, from: number, parts: readonly (string | Buffer)[]): void {
    const insert = this.prepare('INSERT OR REPLACE INTO derived_values(name, part, value) VALUES (?, ?, ?)');
    this.db.transaction(() => parts.forEach((value, i) => insert.run(name, from + i, packed(value))))();
  }

  /** Writes the given parts of a value (one transaction); a Buffer is a part packed already (packedParts). */
  writePartsAt(name: string, parts: readonly (readonly [number, string | Buffer])[]): void {
    const insert = this.prepare('INSERT OR REPLACE INTO derived_values(name, part, value) VALUES (?, ?, ?)');
    this.db.transaction(() => parts.forEach(([part, value]) => insert.run(name, part, packed(value))))();
  }

  /** Drops the given parts of a value (all when none are given). */
  dropParts(name: string, parts?: readonly number[]): void {
    if (!parts) this.prepare('DELETE FROM derived_values WHERE name = ? AND part >= 0').run(name);
    else if (parts.length) this.prepare('DELETE FROM derived_values WHERE name = ? AND part IN (SELECT value FROM json_each(?))').run(name, JSON.stringify(parts));
  }

  /**
   * Ends a write: stamps the value; with a part count, drops parts beyond it (null: parts are
   * keyed by the caller, who reads those it names, see readParts).
   */
  finishValue(name: string, stamp: string, parts: number | null): void {
    this.db.transaction(() => {
      if (parts !== null) this.prepare('DELETE FROM derived_values WHERE name = ? AND part >= ?').run(name, parts);
      this.prepare('INSERT OR REPLACE INTO derived_values(name, part, value) VALUES (?, ?, ?)').run(name, HEADER, JSON.stringify({ stamp, parts }));
    })();
  }

  /** The rids whose postings are stored. */
  postedRids(): number[] {
    return this.prepare('SELECT rid FROM derived_lessons').pluck().all() as number[];
  }

  /**
   * Forgets lessons. Their rids stay in the token lists they were in, where sharingTokens leaves
   * them out: a removed lesson's rid is never given to another (AUTOINCREMENT), and keeping every
   * lesson's tokens only to take it out of its lists again took 8.9 MB at 90,000 lessons. How many
   * such lessons the lists hold is counted (deadLessons), so the caller can write them anew.
   */
  removeLessons(rids: readonly number[]): void {
    this.db.transaction(() => {
      let removed = 0;
      for (let i = 0; i < rids.length; i += RID_CHUNK) {
        removed += this.prepare('DELETE FROM derived_lessons WHERE rid IN (SELECT value FROM json_each(?))').run(JSON.stringify(rids.slice(i, i + RID_CHUNK))).changes;
      }
      this.setDeadLessons(this.deadLessons() + removed);
    })();
  }

  /** Removed lessons whose rids are still in token lists (see removeLessons). */
  deadLessons(): number {
    const count = this.prepare('SELECT value FROM derived_values WHERE name = ? AND part = 0').pluck().get(DEAD_LESSONS) as string | undefined;
    return count === undefined ? 0 : Number(count);
  }

  private setDeadLessons(count: number): void {
    this.prepare('INSERT OR REPLACE INTO derived_values(name, part, value) VALUES (?, 0, ?)').run(DEAD_LESSONS, String(count));
  }

  /** Drops every lesson and token list (before all are written again). */
  clearPostings(): void {
    this.db.transaction(() => {
      this.prepare('DELETE FROM derived_postings').run();
      this.prepare('DELETE FROM derived_lessons').run();
      this.setDeadLessons(0);
    })();
  }

  /** Records lessons; with `postings`, their postings too (one transaction). */
  addLessons(lessons: readonly LessonPostings[], postings: boolean): void {
    const insertLesson = this.prepare('INSERT OR REPLACE INTO derived_lessons(rid) VALUES (?)');
    this.db.transaction(() => {
      for (const lesson of lessons) insertLesson.run(lesson.rid);
      if (!postings) return;
      const lists = new Map<string, PostingList>();
      for (const { rid, grp, tokens } of lessons) {
        for (const token of tokens) {
          const key = `${grp}:${token}`;
          const list = lists.get(key) ?? { grp, token, rids: [] };
          list.rids.push(rid);
          lists.set(key, list);
        }
      }
      this.mergeLists([...lists.values()]);
    })();
  }

  /** Adds rids to tokens' lists (one transaction). */
  addPostings(lists: readonly PostingList[]): void {
    this.db.transaction(() => this.mergeLists(lists))();
  }

  private mergeLists(lists: readonly PostingList[]): void {
    for (const { grp, token, rids } of lists) {
      const stored = this.listOf(grp, token);
      this.writeList(grp, token, stored.length === 0 ? rids : [...new Set([...stored, ...rids])]);
    }
  }

  private listOf(grp: number, token: number): number[] {
    const bytes = this.prepare('SELECT rids FROM derived_postings WHERE key = ?').pluck().get(postingKey(grp, token)) as Buffer | undefined;
    return bytes ? ridListOf(bytes) : [];
  }

  private writeList(grp: number, token: number, rids: readonly number[]): void {
    if (rids.length === 0) this.prepare('DELETE FROM derived_postings WHERE key = ?').run(postingKey(grp, token));
    else this.prepare('INSERT OR REPLACE INTO derived_postings(key, rids) VALUES (?, ?)').run(postingKey(grp, token), ridListBytes(rids));
  }

  /** Rids of the group's lessons sharing at least `minShared` of the tokens (ascending). */
  sharingTokens(grp: number, tokens: readonly number[], minShared: number): number[] {
    if (tokens.length === 0) return [];
    const lists = this.prepare('SELECT rids FROM derived_postings WHERE key IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(JSON.stringify([...new Set(tokens)].map((token) => postingKey(grp, token)))) as Buffer[];
    const shared = new Map<number, number>();
    for (const list of lists) for (const rid of ridListOf(list)) shared.set(rid, (shared.get(rid) ?? 0) + 1);
    const candidates = [...shared].filter(([, n]) => n >= minShared).map(([rid]) => rid);
    // Removed lessons' rids are still in the lists (removeLessons): only recorded lessons count.
    const live: number[] = [];
    for (let i = 0; i < candidates.length; i += RID_CHUNK) {
      live.push(...(this.prepare('SELECT rid FROM derived_lessons WHERE rid IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(candidates.slice(i, i + RID_CHUNK))) as number[]));
    }
    return live.sort((a, b) => a - b);
  }

  /** Every stored line whose indexed id is `id`, in file order. */
  entriesWithId(id: string): IndexedEntryAt[] {
    return this.prepare(`SELECT ${ENTRY_COLUMNS} FROM entries e JOIN files f ON f.id = e.file_id WHERE e.id = ? ORDER BY e.file_id, e.line`).all(id) as IndexedEntryAt[];
  }

  /** The given entries in file order (rids no longer indexed are left out). */
  entriesByRid(rids: readonly number[]): IndexedEntryAt[] {
    const out: IndexedEntryAt[] = [];
    for (let i = 0; i < rids.length; i += RID_CHUNK) {
      const chunk = JSON.stringify(rids.slice(i, i + RID_CHUNK));
      out.push(...(this.prepare(`SELECT ${ENTRY_COLUMNS} FROM entries e JOIN files f ON f.id = e.file_id WHERE e.rid IN (SELECT value FROM json_each(?))`).all(chunk) as IndexedEntryAt[]));
    }
    return out.sort((a, b) => a.fileId - b.fileId || a.line - b.line);
  }
}
