import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { writeSyntheticStores } from '../../../testing/stores/synthetic-stores';
import { sourceParseWorkerSpec } from '../../../testing/workers/source-worker';
import { INDEX_FILE_NAME } from './schema';
import { StoreIndexService } from './store-index-service';

// Big files parse on a worker thread while the main thread writes (parse-runner.ts). The index
// must come out exactly as from an in-thread read, and a process killed while the worker is ahead
// of the writes must leave an index the next open reads again.

/** Files this big parse on the worker here (the synthetic logs are 1–5 MB). */
const MIN_BYTES = 1024 * 1024;
const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A workspace with files over the worker's threshold, defects past a batch's worth, duplicate ids and an incomplete tail. */
function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parse-worker-'));
  roots.push(root);
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  writeSyntheticStores(project, hive, { events: 12_000, entries: 4_000, receipts: 6_000 }, 3);
  const knowledgeEvents = path.join(project, '.swarm', 'knowledge-events.jsonl');
  fs.appendFileSync(knowledgeEvents, Array.from({ length: 2_500 }, (_, i) => (i % 2 ? `{"broken": ${i}\n` : `[${i}]\n`)).join(''));
  fs.appendFileSync(knowledgeEvents, `${JSON.stringify({ schema_version: 1, type: 'outcome', timestamp: '2026-03-01T00:00:00.000Z', knowledge_id: 'x' })}\n{"tail": `);
  const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
  const first = fs.readFileSync(knowledge, 'utf8').split('\n', 1)[0]!;
  fs.appendFileSync(knowledge, `${first}\n`);
  return { root, project, hive, paths: resolveWorkspacePaths(project, hive, 'flag', false) };
}

/**
 * Every row of the index a read writes, by file and line (a re-read file's rows get new rids: a rid
 * is never reused), the time a file was ingested aside; and the lines full-text searches find.
 */
function dump(db: Database.Database) {
  const all = (sql: string) => db.prepare(sql).all();
  const without = (table: string) => {
    const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}') WHERE name <> 'rid'`).pluck().all() as string[]).map((c) => `t.${c}`);
    return columns.join(', ');
  };
  const words = (db.prepare('SELECT lesson FROM entries WHERE lesson IS NOT NULL ORDER BY file_id, line LIMIT 20').pluck().all() as string[]).flatMap((l) => l.split(/\W+/).filter((w) => w.length > 4));
  return {
    files: all('SELECT path, store_key, status, message, size, head_sha, tail_sha, end_offset, next_line, lines, records, defects, pending_tail FROM files ORDER BY path'),
    entries: all(`SELECT ${without('entries')} FROM entries t ORDER BY t.file_id, t.line`),
    tags: all('SELECT e.file_id, e.line, g.tag FROM entry_tags g JOIN entries e ON e.rid = g.rid ORDER BY e.file_id, e.line, g.tag'),
    events: all(`SELECT ${without('events')} FROM events t ORDER BY t.file_id, t.line`),
    receipts: all(`SELECT ${without('receipts')} FROM receipts t ORDER BY t.file_id, t.line`),
    records: all(`SELECT ${without('records')}, x.raw FROM records t LEFT JOIN records_raw x ON x.rid = t.rid ORDER BY t.file_id, t.line`),
    defects: all('SELECT file_id, store_key, line, offset, kind, reason FROM defects ORDER BY file_id, offset, line'),
    search: words.map((w) => db.prepare('SELECT e.file_id, e.line FROM entries_fts f JOIN entries e ON e.rid = f.rowid WHERE entries_fts MATCH ? ORDER BY e.file_id, e.line').all(`"${w}"`)),
  };
}

/** The real worker, dying once it has posted two batches of a file (their rows are written by then). */
const dyingWorkerSpec = () => {
  const real = sourceParseWorkerSpec();
  const dieAfterTwoBatches =
    "const { parentPort } = require('node:worker_threads'); const post = parentPort.postMessage.bind(parentPort); let batches = 0;" +
    "parentPort.postMessage = (message, transfer) => { if (message && message.kind === 'flush' && ++batches > 2) process.exit(3); return post(message, transfer); };";
  return { filename: dieAfterTwoBatches + real.filename, options: real.options };
};

async function build(ws: ReturnType<typeof workspace>, cacheDir: string, onWorker: boolean | typeof dyingWorkerSpec, minBytes = MIN_BYTES) {
  const parseWorker = onWorker === true ? sourceParseWorkerSpec : onWorker === false ? () => null : onWorker;
  const service = new StoreIndexService(ws.paths, path.join(ws.root, cacheDir), { watch: false, parseWorker, parseWorkerMinBytes: minBytes });
  try {
    await service.ready;
    return { rows: dump(service.db), workerReads: service.workerReads };
  } finally {
    await service.close();
  }
}

describe('the parse worker', () => {
  it('gives the index an in-thread read gives, row for row', async () => {
    const ws = workspace();
    const inThread = await build(ws, 'cache-in-thread', false);
    const onWorker = await build(ws, 'cache-worker', true);
    expect(inThread.workerReads).toBe(0);
    expect(onWorker.workerReads).toBeGreaterThanOrEqual(3);
    expect(onWorker.rows.events.length).toBeGreaterThan(10_000);
    expect(onWorker.rows.defects.length).toBeGreaterThan(2_000);
    expect(onWorker.rows.search.flat().length).toBeGreaterThan(0);
    expect(onWorker.rows).toEqual(inThread.rows);
  }, 120_000);

  it('a first build in two lanes (worker and this thread at once) gives the index one lane of in-thread reads gives, file ids in the order the files were found', async () => {
    const ws = workspace();
    // No file is big enough for the worker: one lane, every file read in turn, as before lanes.
    const oneLane = await build(ws, 'cache-one-lane', false, Number.MAX_SAFE_INTEGER);
    const lanes = await build(ws, 'cache-lanes', true);
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const big = [...files(ws.project), ...files(ws.hive)].filter((file) => fs.statSync(file).size >= MIN_BYTES).length;
    // Both lanes read big files: some on the worker, the others on this thread.
    expect(oneLane.workerReads).toBe(0);
    expect(lanes.workerReads).toBeGreaterThanOrEqual(2);
    expect(lanes.workerReads).toBeLessThan(big);
    expect(lanes.rows).toEqual(oneLane.rows);
  }, 120_000);

  it('a worker that dies mid-read: the file is read again in-thread, its rows written so far dropped', async () => {
    const ws = workspace();
    const inThread = await build(ws, 'cache-in-thread', false);
    const dying = await build(ws, 'cache-dying', dyingWorkerSpec);
    expect(dying.workerReads).toBeGreaterThanOrEqual(3);
    expect(dying.rows).toEqual(inThread.rows);
  }, 120_000);

  it('killed mid-ingest: the next open sees the build unfinished and ends with every line once', async () => {
    const ws = workspace();
    const cacheDir = path.join(ws.root, 'cache');
    const child = spawn(process.execPath, [path.join(repo, 'bin', 'run-ts.mjs'), path.join(repo, 'testing', 'stores', 'ingest-child.ts'), ws.project, ws.hive, cacheDir], {
      cwd: repo,
      stdio: 'ignore',
      env: { ...process.env, INGEST_PARSE_WORKER: String(MIN_BYTES) },
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let done = false;
    void exited.then(() => (done = true));
    let caught = false;
    while (!done && !caught) {
      try {
        const db = new Database(path.join(cacheDir, INDEX_FILE_NAME), { readonly: true, fileMustExist: true, timeout: 50 });
        try {
          // Some rows of a file read on the worker are committed, its read not ended.
          caught = (db.prepare("SELECT count(*) FROM files WHERE status = 'reading' AND store_key = 'knowledge-events'").pluck().get() as number) > 0;
        } finally {
          db.close();
        }
      } catch {
        // not created yet, or being written: look again
      }
      if (!caught) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    await exited;
    expect(caught).toBe(true);
    const service = new StoreIndexService(ws.paths, cacheDir, { watch: false, parseWorker: sourceParseWorkerSpec, parseWorkerMinBytes: MIN_BYTES });
    try {
      await service.ready;
      expect(service.index.reason).toBe('the first build of the index was interrupted');
      const rows = dump(service.db);
      const reference = await build(ws, 'cache-reference', false);
      expect(rows).toEqual(reference.rows);
    } finally {
      await service.close();
    }
  }, 120_000);
});
