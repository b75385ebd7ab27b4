import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { gateWarnEvent, line, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { getEntry, listEntries } from './entry-queries';
import { EntriesInput } from '../../../shared/contract/stores';
import { StoreIndexService } from './store-index-service';
import { StaleLineError } from './stored-lines';
import type { StoreChange } from './ingest';
import { INDEX_FILE_NAME, INDEX_SCHEMA_VERSION } from './schema';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fixed mtime, set after every write: "same size and mtime" is then exactly true. */
const FIXED_TIME = new Date('2026-01-02T03:04:05.000Z');

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-index-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
  const events = path.join(project, '.swarm', 'events.jsonl');
  const cacheDir = path.join(root, 'cache');
  const paths = resolveWorkspacePaths(project, hive, 'flag', false);
  /** Opens the index (a re-open when it exists) and records the changes its first pass emits. */
  const open = async () => {
    const changes: StoreChange[] = [];
    const service = new StoreIndexService(paths, cacheDir, { watch: false });
    service.onChange((c) => changes.push(c));
    cleanups.push(() => service.close());
    await service.ready;
    return { service, changes };
  };
  const writeFixed = (file: string, text: string | Buffer) => {
    fs.writeFileSync(file, text);
    fs.utimesSync(file, FIXED_TIME, FIXED_TIME);
  };
  return { root, knowledge, events, cacheDir, open, writeFixed };
}

const entry = (id: string, lesson = `lesson of ${id}`) => swarmEntryV2({ id, lesson });
/** The entry's JSON line, its lesson padded so every line has the same length. */
const padded = (id: string, lesson: string) => line(entry(id, lesson.padEnd(900, '.')));

describe('the lean index keeps offsets, not lines', () => {
  it('reads back the exact text of every line from its offset, BOM, CRLF and multibyte text included', async () => {
    const w = workspace();
    const knowledgeLines = [JSON.stringify(entry('k1', 'first — with a dash')), JSON.stringify(entry('k2', 'ünïcødé 漢字 🧪'))];
    // BOM before line 1, CRLF after line 1, a blank line and a broken line between records.
    const knowledgeBytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${knowledgeLines[0]}\r\n\n{broken\n${knowledgeLines[1]}\n`)]);
    fs.writeFileSync(w.knowledge, knowledgeBytes);
    const eventLines = [gateWarnEvent({ reason: 'é'.repeat(50) }), gateWarnEvent({ reason: 'second' })].map((e) => JSON.stringify(e));
    fs.writeFileSync(w.events, eventLines.map((l) => `${l}\n`).join(''));
    const { service } = await w.open();

    const rows = (table: string) =>
      service.db
        .prepare(`SELECT t.offset, t.bytes, stored_line(f.path, t.offset, t.bytes, t.hash) AS text FROM ${table} t JOIN files f ON f.id = t.file_id ORDER BY t.rid`)
        .all() as { offset: number; bytes: number; text: string }[];
    const entries = rows('entries');
    expect(entries.map((r) => r.text)).toEqual(knowledgeLines);
    // Line 1's bytes run from the BOM to the CRLF; line 4's from its first byte to its newline.
    expect(knowledgeBytes.subarray(entries[0]!.offset, entries[0]!.offset + entries[0]!.bytes)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${knowledgeLines[0]}\r\n`)]),
    );
    expect(knowledgeBytes.subarray(entries[1]!.offset, entries[1]!.offset + entries[1]!.bytes).toString('utf8')).toBe(`${knowledgeLines[1]}\n`);
    expect(rows('events').map((r) => r.text)).toEqual(eventLines);
    // No table keeps a copy of a JSONL line (whole-file records keep their derived text).
    const rawTables = service.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_raw' ESCAPE '\\'").pluck().all();
    expect(rawTables).toEqual(['records_raw']);
    expect(getEntry(service.db, { id: 'k2' })?.raw.lesson).toBe('ünïcødé 漢字 🧪');
  });

  it('re-reads on re-open a file with the same size and mtime whose first bytes changed', async () => {
    const w = workspace();
    w.writeFixed(w.knowledge, padded('a1', 'old') + padded('b1', 'b'));
    const first = await w.open();
    await first.service.close();

    w.writeFixed(w.knowledge, padded('a1', 'new') + padded('b1', 'b'));
    expect(fs.statSync(w.knowledge).mtimeMs).toBe(FIXED_TIME.getTime());
    const again = await w.open();
    expect(again.changes).toEqual([expect.objectContaining({ storeKey: 'knowledge', kind: 'rewritten', count: 2 })]);
    expect(again.service.db.prepare("SELECT lesson FROM entries WHERE id = 'a1'").pluck().get()).toMatch(/^new\./);
  });

  it('trusts an unchanged file on re-open: nothing re-read, the same rows', async () => {
    const w = workspace();
    w.writeFixed(w.knowledge, padded('a1', 'x') + padded('b1', 'y'));
    const first = await w.open();
    const rids = first.service.db.prepare('SELECT rid FROM entries ORDER BY rid').pluck().all();
    await first.service.close();
    const again = await w.open();
    expect(again.changes).toEqual([]);
    expect(again.service.db.prepare('SELECT rid FROM entries ORDER BY rid').pluck().all()).toEqual(rids);
  });

  it('re-reads a grown file whose old bytes changed instead of ingesting only its tail', async () => {
    const w = workspace();
    w.writeFixed(w.knowledge, padded('a1', 'old') + padded('b1', 'b'));
    const first = await w.open();
    await first.service.close();
    fs.writeFileSync(w.knowledge, padded('a1', 'new') + padded('b1', 'b') + padded('c1', 'c'));
    const again = await w.open();
    expect(again.changes).toEqual([expect.objectContaining({ kind: 'rewritten', count: 3 })]);
    expect(again.service.db.prepare("SELECT lesson FROM entries WHERE id = 'a1'").pluck().get()).toMatch(/^new\./);
  });

  it('never serves a changed middle line the trust rule cannot see: the read fails as stale, the file is re-read, the answer is fresh', async () => {
    const w = workspace();
    // 400 lines of ~1 KB: the middle is far outside the first and last 64 KiB.
    const ids = Array.from({ length: 400 }, (_, i) => `e${String(i).padStart(3, '0')}`);
    const text = (middle: string) => ids.map((id) => padded(id, id === 'e200' ? middle : 'same')).join('');
    w.writeFixed(w.knowledge, text('before'));
    const first = await w.open();
    await first.service.close();

    w.writeFixed(w.knowledge, text('after!'));
    const again = await w.open();
    // What the trust rule cannot see (same size, mtime, head and tail): the re-open keeps the rows.
    expect(again.changes).toEqual([]);
    const lessonColumn = () => again.service.db.prepare("SELECT lesson FROM entries WHERE id = 'e200'").pluck().get() as string;
    expect(lessonColumn()).toMatch(/^before\./);
    // Its line no longer hashes to the row: a bare read refuses to serve it …
    expect(() => getEntry(again.service.db, { id: 'e200' })).toThrow(StaleLineError);
    // … and a read through the service re-reads the file and answers from the fresh rows.
    const detail = await again.service.fresh(() => getEntry(again.service.db, { id: 'e200' }));
    expect(detail?.raw.lesson).toMatch(/^after!\./);
    expect(lessonColumn()).toMatch(/^after!\./);
  });

  it(`rebuilds an index of the schema before lean rows (9) as schema ${INDEX_SCHEMA_VERSION}`, async () => {
    const w = workspace();
    fs.writeFileSync(w.knowledge, line(entry('a1')));
    fs.mkdirSync(w.cacheDir, { recursive: true });
    const old = new Database(path.join(w.cacheDir, INDEX_FILE_NAME));
    old.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '9'), ('bulk_indexes', '1');");
    old.exec('CREATE TABLE entries_raw (rid INTEGER PRIMARY KEY, raw TEXT NOT NULL)');
    old.close();
    const { service } = await w.open();
    expect(service.index.rebuilt).toBe(true);
    expect(service.index.reason).toBe(`index schema 9 ≠ ${INDEX_SCHEMA_VERSION}`);
    expect(service.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'entries_raw'").pluck().get()).toBe(0);
    expect(getEntry(service.db, { id: 'a1' })?.raw.lesson).toBe('lesson of a1');
  });

  it('answers exact totals while the column caches are still warming in slices', async () => {
    const w = workspace();
    fs.writeFileSync(w.knowledge, Array.from({ length: 50 }, (_, i) => line(entry(`w${i}`))).join(''));
    const { service } = await w.open();
    await service.warmed;
    const cache = service.columns.entries;
    cache.invalidate('full');
    expect(cache.warmSlice(20)).toBe(false);
    const page = listEntries(service.db, cache, EntriesInput.parse({ limit: 5, sort: { field: 'updated_at', dir: 'desc' } }));
    expect(page.total).toBe(50);
    expect(page.facets?.status.reduce((n, f) => n + f.count, 0)).toBe(50);
    expect(cache.warmSlice(20)).toBe(true);
  });
});
