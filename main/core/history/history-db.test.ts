import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore } from '../console-core';
import { swarmEntryV2 } from '../../../testing/stores/sample-records';
import { callOk } from '../../../testing/stores/core-calls';
import { rewriteStore, waitFor } from '../../../testing/history/plugin-writes';
import { closeHistoryDb, HISTORY_FILE_NAME, openHistoryDb } from './history-db';
import { FileMarks } from './file-marks';

/** An unreadable history never stops the console: it is set aside, said once for a banner, and history restarts. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real history database with some pages, for truncating. */
function realHistory(dir: string): string {
  const { db } = openHistoryDb(dir);
  const put = db.prepare('INSERT INTO versions(sha, entry_id, base_sha, depth, size, data, first_at) VALUES (?, ?, NULL, 0, 10, ?, 0)');
  for (let i = 0; i < 2000; i++) put.run(`sha-${i}`, `e${i}`, Buffer.alloc(200, i % 250));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return path.join(dir, HISTORY_FILE_NAME);
}

describe('an unreadable history database', () => {
  it.each([
    ['garbage bytes', (file: string) => fs.writeFileSync(file, 'this is not a database\n'.repeat(200))],
    ['a truncated file', (file: string) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 3))],
    // Header and schema intact, a data page overwritten: only an integrity check finds it.
    ['a damaged page', (file: string) => {
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, Math.floor(fs.statSync(file).size / 2 / 4096) * 4096);
      fs.closeSync(fd);
    }],
  ])('%s is set aside and history restarts', (_what, damage) => {
    const dir = tempDir('history-db-');
    const file = realHistory(dir);
    damage(file);
    const opened = openHistoryDb(dir, Date.UTC(2026, 6, 1, 12));
    expect(opened.status.setAside).toEqual({ file: `${file}.corrupt-2026-07-01T12-00-00-000Z`, reason: expect.any(String) });
    expect(fs.existsSync(opened.status.setAside!.file)).toBe(true);
    expect((opened.db.prepare('SELECT count(*) AS n FROM versions').get() as { n: number }).n).toBe(0);
    opened.db.close();
    // The next open finds the new, healthy history.
    const again = openHistoryDb(dir);
    expect(again.status.setAside).toBeNull();
    again.db.close();
  });

  it('skips the integrity check only on a file as a clean close of its last connection left it', () => {
    const dir = tempDir('history-db-clean-');
    const file = realHistory(dir);
    const mark = `${file}.clean-close`;
    // Closed without the mark (as by a crash): checked.
    let opened = openHistoryDb(dir);
    expect(opened.checked).toBe(true);
    // Another connection still open keeps the WAL: the first close marks nothing.
    const other = openHistoryDb(dir);
    opened.db.prepare("INSERT INTO meta(key, value) VALUES ('probe', '1')").run();
    closeHistoryDb(opened.db);
    expect(fs.existsSync(mark)).toBe(false);
    closeHistoryDb(other.db);
    expect(fs.existsSync(mark)).toBe(true);
    // Untouched since: the check is skipped, and the mark is used up.
    opened = openHistoryDb(dir);
    expect(opened.checked).toBe(false);
    expect(fs.existsSync(mark)).toBe(false);
    expect(opened.db.prepare("SELECT value FROM meta WHERE key = 'probe'").pluck().get()).toBe('1');
    closeHistoryDb(opened.db);
    // A page damaged after a clean close changes the file's mtime: checked, found, set aside.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, Math.floor(fs.statSync(file).size / 2 / 4096) * 4096);
    fs.closeSync(fd);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    opened = openHistoryDb(dir, Date.UTC(2026, 6, 1, 12));
    expect(opened.checked).toBe(true);
    expect(opened.status.setAside).not.toBeNull();
    opened.db.close();
  });

  it('does not stop the console from opening: the moments query carries the banner, and recording goes on', async () => {
    const root = tempDir('history-db-core-');
    const project = path.join(root, 'project');
    const hive = path.join(root, 'hive');
    rewriteStore(path.join(project, '.swarm', 'knowledge.jsonl'), [swarmEntryV2({ id: 'a' })]);
    const userDataDir = path.join(root, 'ud');
    // A first session creates the history; then it is damaged while the console is closed.
    const first = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
    const dir = first.context.workspaces.current.cacheDir;
    await first.dispose();
    for (const suffix of ['-wal', '-shm']) fs.rmSync(path.join(dir, HISTORY_FILE_NAME + suffix), { force: true });
    fs.writeFileSync(path.join(dir, HISTORY_FILE_NAME), Buffer.alloc(8192, 0x41));
    const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
    cleanups.push(() => core.dispose());
    const moments = await callOk(core, 'history.moments');
    expect(moments.store.setAside).toMatchObject({ message: expect.stringMatching(/^The history database could not be read \(.+\); it was set aside as .*history\.db\.corrupt-.* and history restarted\.$/) });
    await waitFor(async () => (await callOk(core, 'history.asOf', { moment: 'now' })).total === 1, 15_000, 'recording after the restart');
    expect((await callOk(core, 'stores.entries', { limit: 10 })).items.map((e: any) => e.id)).toEqual(['a']);
  });
});

describe('a history database from an earlier console', () => {
  it('gains the unfinished-pass columns, and takes the marks it kept as passes that finished', () => {
    const dir = tempDir('history-db-older-');
    const earlier = openHistoryDb(dir).db;
    for (const column of ['pass_origin', 'pass_at', 'pass_after']) earlier.exec(`ALTER TABLE file_marks DROP COLUMN ${column}`);
    earlier.prepare('INSERT INTO file_marks(path, index_ingested_at) VALUES (?, ?)').run('/p/.swarm/knowledge.jsonl', 1_750_000_000_000);
    closeHistoryDb(earlier);
    const { db } = openHistoryDb(dir);
    const marks = new FileMarks(db);
    expect(marks.upToDate('/p/.swarm/knowledge.jsonl', 1_750_000_000_000)).toBe(true);
    expect(marks.upToDate('/p/.swarm/knowledge.jsonl', 1_750_000_000_001)).toBe(false);
    closeHistoryDb(db);
  });
});
