import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { lines, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { probeSwarmDb } from './swarm-db';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function project(): { root: string; project: string; hive: string; swarm: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'swarm-db-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, 'project');
  fs.mkdirSync(path.join(dir, '.swarm'), { recursive: true });
  fs.mkdirSync(path.join(root, 'hive'));
  return { root, project: dir, hive: path.join(root, 'hive'), swarm: path.join(dir, '.swarm') };
}

/** A swarm.db as a 7.162 plugin might leave it, made with SQLite itself. */
function makeSwarmDb(swarm: string): string {
  const file = path.join(swarm, 'swarm.db');
  const db = new Database(file);
  db.pragma('user_version = 7');
  db.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT);
           INSERT INTO schema_migrations VALUES (1, '2026-06-01'), (2, '2026-07-01');
           CREATE TABLE knowledge (id TEXT PRIMARY KEY, body TEXT);
           INSERT INTO knowledge VALUES ('a', '{}'), ('b', '{}');
           CREATE TABLE qa_gate_profiles (id TEXT);`);
  db.close();
  return file;
}

async function open(p: { project: string; hive: string; root: string }): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: path.join(p.root, 'user-data'), host: 'browser', version: 'test' }, { project: p.project, hive: p.hive });
  cleanups.push(() => core.dispose());
  return core;
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message}`);
  return result.value as T;
}

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('a project whose plugin imported knowledge.jsonl into swarm.db', () => {
  it('reads the .imported archive as the store, says why, lists the store tables, and never writes swarm.db', async () => {
    const p = project();
    const db = makeSwarmDb(p.swarm);
    const archive = path.join(p.swarm, 'knowledge.jsonl.imported');
    fs.writeFileSync(archive, lines([swarmEntryV2({ id: 'k1', lesson: 'Archived lesson one' }), swarmEntryV2({ id: 'k2', lesson: 'Archived lesson two' })]));
    const archivedAt = new Date('2026-07-10T08:00:00Z');
    fs.utimesSync(archive, archivedAt, archivedAt);
    const before = sha(db);

    const core = await open(p);
    const summary = await call(core, 'stores.summary');
    const knowledge = summary.stores.find((s: { key: string }) => s.key === 'knowledge');
    expect(knowledge.status).toBe('ok');
    expect(knowledge.records).toBe(2);
    expect(knowledge.imported).toMatchObject({ storeKey: 'knowledge', name: '.swarm/knowledge.jsonl.imported', archivedAt: archivedAt.toISOString() });
    expect(knowledge.message).toContain(`this project's plugin keeps Swarm knowledge in swarm.db since ${archivedAt.toISOString()}; the console shows the archived JSONL as of then`);
    expect(summary.upgrade.swarmDb).toMatchObject({ state: 'ok', userVersion: 7, migrations: { table: 'schema_migrations', rows: 2, latest: '2' } });
    expect(summary.upgrade.swarmDb.storeTables).toEqual([{ name: 'knowledge', rows: 2, storeKey: 'knowledge' }]);

    const entries = await call(core, 'stores.entries', {});
    expect(entries.items.map((i: { id: string; file: string }) => [i.id, i.file]).sort()).toEqual([
      ['k1', '.swarm/knowledge.jsonl.imported'],
      ['k2', '.swarm/knowledge.jsonl.imported'],
    ]);

    const info = await call(core, 'workspace.info');
    expect(info.upgrade.notices[0]).toContain("this project's plugin keeps Swarm knowledge in swarm.db since");

    expect(sha(db)).toBe(before);
    expect(fs.readdirSync(p.swarm).filter((n) => n.startsWith('swarm.db')).sort()).toEqual(['swarm.db']);
  });

  it('follows the plugin renaming the live file while the console is open', async () => {
    const p = project();
    makeSwarmDb(p.swarm);
    const live = path.join(p.swarm, 'knowledge.jsonl');
    fs.writeFileSync(live, lines([swarmEntryV2({ id: 'k1' })]));
    const core = await open(p);
    expect((await call(core, 'stores.entries', {})).items[0].file).toBe('.swarm/knowledge.jsonl');
    fs.renameSync(live, `${live}.imported`);
    let files: string[] = [];
    for (let i = 0; i < 100; i++) {
      files = (await call(core, 'stores.entries', {})).items.map((item: { file: string }) => item.file);
      if (files.join() === '.swarm/knowledge.jsonl.imported') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(files).toEqual(['.swarm/knowledge.jsonl.imported']);
  });

  it('reports a corrupt swarm.db and still starts', async () => {
    const p = project();
    fs.writeFileSync(path.join(p.swarm, 'swarm.db'), crypto.randomBytes(8192));
    expect(probeSwarmDb(p.swarm)).toMatchObject({ state: 'unreadable' });
    expect(probeSwarmDb(p.swarm)?.problem).toMatch(/swarm\.db is not a readable SQLite database|could not be read/);
    const core = await open(p);
    const info = await call(core, 'workspace.info');
    expect(info.upgrade.swarmDb.state).toBe('unreadable');
    expect(info.upgrade.notices.join('\n')).toMatch(/swarm\.db/);
  });
});

/** A plugin process holding swarm.db: `BEGIN <mode>`, one insert, then waits for "commit" on stdin. */
function holdLock(file: string, mode: 'IMMEDIATE' | 'EXCLUSIVE'): Promise<{ child: ChildProcess; committed: Promise<string> }> {
  const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `
    const Database = require(${JSON.stringify(betterSqlite)});
    const db = new Database(${JSON.stringify(file)}, { timeout: 0 });
    db.exec('BEGIN ${mode}');
    db.prepare("INSERT INTO knowledge VALUES ('held', '{}')").run();
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => {
      try { db.exec('COMMIT'); process.stdout.write('committed\\n'); }
      catch (e) { process.stdout.write('commit failed: ' + e.code + '\\n'); }
      db.close(); process.exit(0);
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  cleanups.push(() => void child.kill());
  let out = '';
  const committed = new Promise<string>((resolve) => child.on('exit', () => resolve(out)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('locked')) resolve({ child, committed });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`lock holder exited (${code}) before locking: ${out}`)));
  });
}

describe('a swarm.db another process is writing', () => {
  it('is read beside a plugin transaction (BEGIN IMMEDIATE), and the plugin then commits without waiting', async () => {
    const p = project();
    const file = makeSwarmDb(p.swarm);
    const { child, committed } = await holdLock(file, 'IMMEDIATE');
    const started = Date.now();
    const probe = probeSwarmDb(p.swarm);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(probe).toMatchObject({ state: 'ok', userVersion: 7 });
    expect(probe?.storeTables).toEqual([{ name: 'knowledge', rows: 2, storeKey: 'knowledge' }]);
    const core = await open(p);
    expect((await call(core, 'workspace.info')).upgrade.swarmDb.state).toBe('ok');
    await call(core, 'stores.summary');
    // The plugin's commit needs every reader gone; its busy timeout is 0, so a lingering console read would fail it.
    child.stdin!.write('commit\n');
    expect(await committed).toContain('committed');
  });

  it('never blocks or fails the console start while the plugin holds an exclusive lock', async () => {
    const p = project();
    const file = makeSwarmDb(p.swarm);
    fs.writeFileSync(path.join(p.swarm, 'knowledge.jsonl.imported'), lines([swarmEntryV2({ id: 'k1' })]));
    const { child, committed } = await holdLock(file, 'EXCLUSIVE');
    const started = Date.now();
    const probe = probeSwarmDb(p.swarm);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(probe).toMatchObject({ state: 'busy' });
    expect(probe?.problem).toContain('locked by the plugin');
    const core = await open(p);
    const info = await call(core, 'workspace.info');
    expect(info.upgrade.swarmDb.state).toBe('busy');
    expect(info.upgrade.notices[0]).toContain('keeps Swarm knowledge in swarm.db');
    expect((await call(core, 'stores.entries', {})).total).toBe(1);
    child.stdin!.write('commit\n');
    expect(await committed).toContain('committed');
  });
});
