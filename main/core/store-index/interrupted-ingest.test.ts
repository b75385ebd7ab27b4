import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { INDEX_FILE_NAME } from './schema';
import { StoreIndexService } from './store-index-service';

// The index is written with durability relaxed (no journal during the first build, many rows a
// transaction): a process that dies mid-ingest must leave an index that the next open detects as
// incomplete and reads again, never one served as complete. These tests kill a real ingesting
// process (SIGKILL) once some of a file's rows are committed, then re-open its index.

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const LINES = 60_000;
const eventLine = (i: number) => JSON.stringify({ timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i % 60)).toISOString(), event: 'knowledge_application_gate_warn', tool: 'Task', agent: 'coder', sessionID: `s${i % 7}`, n: i });

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'interrupted-ingest-'));
  roots.push(root);
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  const events = path.join(project, '.swarm', 'events.jsonl');
  const cacheDir = path.join(root, 'cache');
  return { root, project, hive, events, cacheDir, paths: resolveWorkspacePaths(project, hive, 'flag', false) };
}

const append = (file: string, from: number, count: number) =>
  fs.appendFileSync(file, Array.from({ length: count }, (_, i) => `${eventLine(from + i)}\n`).join(''));

/** Runs an ingest in a child process and SIGKILLs it as soon as `caught` holds of its index; resolves true if it was caught. */
async function killWhen(ws: ReturnType<typeof workspace>, caught: (db: Database.Database) => boolean): Promise<boolean> {
  const child = spawn(process.execPath, [path.join(repo, 'bin', 'run-ts.mjs'), path.join(repo, 'testing', 'stores', 'ingest-child.ts'), ws.project, ws.hive, ws.cacheDir], { cwd: repo, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let done = false;
  void exited.then(() => (done = true));
  const file = path.join(ws.cacheDir, INDEX_FILE_NAME);
  while (!done) {
    let hit = false;
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 50 });
      try {
        hit = caught(db);
      } finally {
        db.close();
      }
    } catch {
      // not created yet, or being written: look again
    }
    if (hit) {
      child.kill('SIGKILL');
      await exited;
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return false;
}

async function reopen(ws: ReturnType<typeof workspace>) {
  const service = new StoreIndexService(ws.paths, ws.cacheDir, { watch: false });
  await service.ready;
  const row = service.db.prepare("SELECT f.status, f.message, f.records, f.lines, (SELECT count(*) FROM events e WHERE e.file_id = f.id) AS rows, (SELECT count(DISTINCT line) FROM events e WHERE e.file_id = f.id) AS distinctLines FROM files f WHERE f.store_key = 'events'").get();
  const reason = service.index.reason;
  await service.close();
  return { row, reason };
}

const eventRows = (db: Database.Database) => (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
const eventsFile = (db: Database.Database) => db.prepare("SELECT status, records FROM files WHERE store_key = 'events'").get() as { status: string; records: number } | undefined;

describe('an ingest killed midway', () => {
  it('during the first build: the next open sees the build unfinished, rebuilds, and ends with every line once', async () => {
    const ws = workspace();
    append(ws.events, 0, LINES);
    const caught = await killWhen(ws, (db) => eventRows(db) > 0 && (db.prepare("SELECT value FROM meta WHERE key = 'bulk_indexes'").get() as { value: string }).value === '0');
    expect(caught).toBe(true);
    const { row, reason } = await reopen(ws);
    expect(reason).toBe('the first build of the index was interrupted');
    expect(row).toEqual({ status: 'ok', message: null, records: LINES, lines: LINES, rows: LINES, distinctLines: LINES });
  }, 60_000);

  it('during an append of many batches: the next open reads the file again whole, every line once', async () => {
    const ws = workspace();
    append(ws.events, 0, 1000);
    const first = await reopen(ws);
    expect(first.row).toMatchObject({ status: 'ok', rows: 1000 });
    append(ws.events, 1000, LINES);
    // Some appended rows are committed while the file's row still counts only the old ones.
    const caught = await killWhen(ws, (db) => eventRows(db) > 1000 && eventsFile(db)?.records === 1000);
    expect(caught).toBe(true);
    const { row, reason } = await reopen(ws);
    expect(reason).toBeNull();
    expect(row).toEqual({ status: 'ok', message: 're-read: its last read was interrupted', records: 1000 + LINES, lines: 1000 + LINES, rows: 1000 + LINES, distinctLines: 1000 + LINES });
  }, 60_000);
});
