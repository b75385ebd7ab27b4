import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { hiveEntry, swarmEntryV2 } from '../../testing/stores/sample-records';
import { appendStore, rewriteStore, waitFor } from '../../testing/history/plugin-writes';
import { Workspace } from '../core/workspace/workspace';
import { resolveWorkspacePaths } from '../core/platform/paths/workspace-paths';

/**
 * Two `swarm-console record` processes (the built CLI, `npm run build` first) on one workspace while
 * the plugin appends and rewrites its stores: one holds the history lease and records, the other
 * says so once and records nothing; killed with SIGKILL, the first's lease goes stale and the second
 * takes over, catching up on what changed meanwhile. The history is whole — every change made while
 * a recorder was live is there, nothing is recorded gone and back, one open sighting per entry and
 * file matching the files' final lines, no overlapping versions, every version readable.
 */
const repo = path.resolve(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'swarm-console.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'record-two-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

const project = path.join(root, 'project');
const hive = path.join(root, 'hive');
const userData = path.join(root, 'ud');
const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
const hiveStore = path.join(hive, 'shared-learnings.jsonl');

function recorder(name: string, dirs = { project, hive, userData }) {
  const child = spawn(process.execPath, [bin, 'record', '--project', dirs.project, '--hive', dirs.hive, '--user-data', dirs.userData], { cwd: repo });
  children.push(child);
  const output = { name, stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => (output.stdout += chunk));
  child.stderr!.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const linesOf = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

const LEASE_LINE = /another process is recording this workspace's history \(pid (\d+)\); this one waits and takes over if it stops/;

describe('two recorders on one workspace', () => {
  it('one records at a time; the other takes over when the first is killed', async () => {
    let swarm = Array.from({ length: 30 }, (_, i) => swarmEntryV2({ id: `s${i}`, lesson: `Swarm lesson ${i}.` }));
    let shared = Array.from({ length: 10 }, (_, i) => hiveEntry({ id: `h${i}`, lesson: `Hive lesson ${i}.` }));
    rewriteStore(knowledge, swarm);
    rewriteStore(hiveStore, shared);

    const a = recorder('a');
    await waitFor(() => a.output.stderr.includes('recording history'), 30_000, 'recorder a');
    const b = recorder('b');
    await waitFor(() => LEASE_LINE.test(b.output.stderr), 30_000, 'recorder b to find the lease taken');
    expect(Number(LEASE_LINE.exec(b.output.stderr)![1])).toBe(a.child.pid);

    const dbFile = path.join(Workspace.cacheDirPath(userData, resolveWorkspacePaths(project, hive, 'flag', false)), 'history.db');
    const db = new Database(dbFile, { readonly: true });
    const openShas = (file: string) => new Map((db.prepare('SELECT entry_id, sha FROM sightings WHERE path = ? AND gone_at IS NULL').all(file) as { entry_id: string; sha: string }[]).map((r) => [r.entry_id, r.sha]));
    const expected = (file: string) => new Map(linesOf(file).map((l) => [JSON.parse(l).id as string, sha(l)]));
    const matches = () => JSON.stringify([...openShas(knowledge)].sort()) === JSON.stringify([...expected(knowledge)].sort()) && JSON.stringify([...openShas(hiveStore)].sort()) === JSON.stringify([...expected(hiveStore)].sort());
    await waitFor(matches, 20_000, 'the baseline');

    const h1Live: number[] = [];
    const gapAppended: string[] = [];
    const write = (step: number, live: boolean) => {
      if (step % 3 === 0) {
        const added = swarmEntryV2({ id: `new${step}`, lesson: `Appended lesson ${step}.` });
        swarm = [...swarm, added];
        appendStore(knowledge, added);
        if (!live) gapAppended.push(added.id as string);
      } else if (step % 3 === 1) {
        swarm = swarm.map((e, i) => (i === step % swarm.length ? { ...e, confidence: Math.round(100 * (0.3 + step / 100)) / 100 } : e)).filter((e) => e.id !== `s${step}`);
        rewriteStore(knowledge, swarm);
      } else {
        shared = shared.map((e) => (e.id === 'h1' ? { ...e, encounter_score: step } : e)).filter((e) => e.id !== `h${step % 10}` || e.id === 'h1');
        rewriteStore(hiveStore, shared);
        if (live) h1Live.push(step);
      }
    };
    // Live, recorded by a: each change is waited for, so every one of them must be in history.
    for (let step = 0; step < 9; step++) {
      write(step, true);
      await waitFor(matches, 20_000, `a to record step ${step}`);
    }
    expect(b.output.stdout).toBe('');
    expect(b.output.stderr).not.toContain('recording history');
    expect(b.output.stderr.match(new RegExp(LEASE_LINE.source, 'g'))).toHaveLength(1);

    // a is killed: nobody records until its lease is stale and b takes it, catching up on these.
    a.child.kill('SIGKILL');
    await a.exited;
    for (let step = 9; step < 12; step++) {
      write(step, false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await waitFor(() => b.output.stderr.includes('recording history'), 40_000, 'recorder b to take over');
    await waitFor(matches, 20_000, 'b to catch up');
    for (let step = 12; step < 24; step++) {
      write(step, true);
      await waitFor(matches, 20_000, `b to record step ${step}`);
    }

    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(b.output.stderr).toContain('recorder stopped');
    expect(fs.existsSync(`${dbFile}.lock`)).toBe(false);
    for (const r of [a, b]) {
      expect(r.output.stderr).not.toMatch(/Error|could not record/);
      for (const line of r.output.stdout.trim().split('\n').filter(Boolean)) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}(\S.*)?(\.swarm\/knowledge\.jsonl|shared-learnings\.jsonl)/);
    }
    expect(a.output.stdout.length).toBeGreaterThan(0);
    expect(b.output.stdout.length).toBeGreaterThan(0);

    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(openShas(knowledge)).toEqual(expected(knowledge));
    expect(openShas(hiveStore)).toEqual(expected(hiveStore));
    const duplicates = db.prepare('SELECT path, entry_id, count(*) AS n FROM sightings WHERE gone_at IS NULL GROUP BY path, entry_id HAVING n > 1').all();
    expect(duplicates).toEqual([]);
    // Versions of one entry in one file follow each other without overlap, and none is recorded twice in a row.
    const rows = db.prepare('SELECT path, entry_id, sha, first_seen, gone_at, gone_reason FROM sightings ORDER BY path, entry_id, first_seen, id').all() as { path: string; entry_id: string; sha: string; first_seen: number; gone_at: number | null; gone_reason: string | null }[];
    for (let i = 1; i < rows.length; i++) {
      const [prev, next] = [rows[i - 1]!, rows[i]!];
      if (prev.path !== next.path || prev.entry_id !== next.entry_id) continue;
      expect(prev.gone_at).not.toBeNull();
      expect(prev.gone_at!).toBeLessThanOrEqual(next.first_seen);
      expect(next.sha).not.toBe(prev.sha);
      // No gone-then-back: nothing here was removed and added again, so only a change ends a sighting that has a successor.
      expect(prev.gone_reason).toBe('changed');
    }
    // What was recorded gone is really gone from its file.
    for (const row of rows.filter((r) => r.gone_at !== null && r.gone_reason !== 'changed')) expect(expected(row.path).has(row.entry_id)).toBe(false);
    const missing = db.prepare('SELECT count(*) AS n FROM sightings s WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.sha = s.sha)').get() as { n: number };
    expect(missing.n).toBe(0);
    // What changed while nobody recorded came in as catch-up.
    for (const id of gapAppended) expect((db.prepare('SELECT origin FROM sightings WHERE entry_id = ?').get(id) as { origin: string }).origin).toBe('catch-up');
    const observations = db.prepare('SELECT role, pid FROM observations ORDER BY id').all() as { role: string; pid: number }[];
    expect(observations).toEqual([
      { role: 'recorder', pid: a.child.pid },
      { role: 'recorder', pid: b.child.pid },
    ]);
    db.close();

    // The read-only history command agrees: every live change of h1 is there, in order.
    const history = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'history', '--project', project, '--hive', hive, '--user-data', userData, '--entry', 'h1', '--json'], { cwd: repo });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.on('exit', (code) => resolve({ code, stdout }));
    });
    expect(history.code).toBe(0);
    const timeline = JSON.parse(history.stdout);
    const scores = timeline.versions.map((v: any) => v.record.encounter_score) as (number | undefined)[];
    for (const step of h1Live) expect(scores).toContain(step);
    expect(scores.at(-1)).toBe(23);
    const numeric = scores.filter((x): x is number => typeof x === 'number');
    expect([...numeric].sort((x, y) => x - y)).toEqual(numeric);
  }, 180_000);

  it('a recorder killed part-way through a first recording: the next records the rest of the file as the baseline', async () => {
    const dirs = { project: path.join(root, 'big'), hive: path.join(root, 'big-hive'), userData: path.join(root, 'big-ud') };
    const file = path.join(dirs.project, '.swarm', 'knowledge.jsonl');
    rewriteStore(file, Array.from({ length: 20_000 }, (_, i) => swarmEntryV2({ id: `k${i}`, lesson: `Lesson ${i}: pin the lockfile before the release build.` })));
    const dbFile = path.join(Workspace.cacheDirPath(dirs.userData, resolveWorkspacePaths(dirs.project, dirs.hive, 'flag', false)), 'history.db');
    const count = (sql: string) => {
      if (!fs.existsSync(dbFile)) return 0;
      const db = new Database(dbFile, { readonly: true });
      try {
        return (db.prepare(sql).get() as { n: number }).n;
      } catch {
        return 0; // the schema is not there yet
      } finally {
        db.close();
      }
    };
    const a = recorder('a', dirs);
    await waitFor(() => count('SELECT count(*) AS n FROM sightings') > 0, 60_000, 'the first recording to begin');
    a.child.kill('SIGKILL');
    await a.exited;
    const recorded = count('SELECT count(*) AS n FROM sightings');
    expect(recorded).toBeLessThan(20_000);

    const b = recorder('b', dirs);
    await waitFor(() => b.output.stderr.includes('recording history'), 60_000, 'recorder b to take over');
    await waitFor(() => count('SELECT count(*) AS n FROM sightings') === 20_000, 30_000, 'b to record the rest');
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    const db = new Database(dbFile, { readonly: true });
    // All of it as it was when history began (a's pass), none as found on b's opening.
    const groups = db.prepare('SELECT origin, first_seen, first_after, count(*) AS n FROM sightings GROUP BY 1, 2, 3').all() as { origin: string; first_seen: number; first_after: number | null; n: number }[];
    const began = (db.prepare('SELECT min(started_at) AS n FROM observations').get() as { n: number }).n;
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ origin: 'baseline', first_after: null, n: 20_000 });
    expect(groups[0]!.first_seen).toBeGreaterThanOrEqual(began);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  }, 180_000);
});
