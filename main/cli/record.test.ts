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
 * the plugin appends and rewrites its stores: both exit cleanly on SIGTERM, and the history they
 * share is whole — one open sighting per entry and file, matching the files' final lines exactly,
 * no overlapping versions, every version readable.
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

function recorder(name: string) {
  const child = spawn(process.execPath, [bin, 'record', '--project', project, '--hive', hive, '--user-data', userData], { cwd: repo });
  children.push(child);
  const output = { name, stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => (output.stdout += chunk));
  child.stderr!.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const linesOf = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('two recorders on one workspace', () => {
  it('share one uncorrupted history', async () => {
    let swarm = Array.from({ length: 30 }, (_, i) => swarmEntryV2({ id: `s${i}`, lesson: `Swarm lesson ${i}.` }));
    let shared = Array.from({ length: 10 }, (_, i) => hiveEntry({ id: `h${i}`, lesson: `Hive lesson ${i}.` }));
    rewriteStore(knowledge, swarm);
    rewriteStore(hiveStore, shared);

    const a = recorder('a');
    await waitFor(() => a.output.stderr.includes('recording history'), 30_000, 'recorder a');
    const b = recorder('b');
    await waitFor(() => b.output.stderr.includes('recording history'), 30_000, 'recorder b');

    for (let step = 0; step < 24; step++) {
      if (step % 3 === 0) {
        const added = swarmEntryV2({ id: `new${step}`, lesson: `Appended lesson ${step}.` });
        swarm = [...swarm, added];
        appendStore(knowledge, added);
      } else if (step % 3 === 1) {
        swarm = swarm.map((e, i) => (i === step % swarm.length ? { ...e, confidence: Math.round(100 * (0.3 + step / 100)) / 100 } : e)).filter((e) => e.id !== `s${step}`);
        rewriteStore(knowledge, swarm);
      } else {
        shared = shared.map((e) => (e.id === 'h1' ? { ...e, encounter_score: step } : e)).filter((e) => e.id !== `h${step % 10}` || e.id === 'h1');
        rewriteStore(hiveStore, shared);
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    // Both have followed the last write (each prints one line per batch it recorded, or finds it recorded).
    const db = new Database(path.join(Workspace.cacheDirPath(userData, resolveWorkspacePaths(project, hive, 'flag', false)), 'history.db'), { readonly: true });
    const openShas = (file: string) => new Map((db.prepare('SELECT entry_id, sha FROM sightings WHERE path = ? AND gone_at IS NULL').all(file) as { entry_id: string; sha: string }[]).map((r) => [r.entry_id, r.sha]));
    const expected = (file: string) => new Map(linesOf(file).map((l) => [JSON.parse(l).id as string, sha(l)]));
    await waitFor(() => JSON.stringify([...openShas(knowledge)].sort()) === JSON.stringify([...expected(knowledge)].sort()) && JSON.stringify([...openShas(hiveStore)].sort()) === JSON.stringify([...expected(hiveStore)].sort()), 20_000, 'history to match the stores');
    await new Promise((resolve) => setTimeout(resolve, 500));

    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    for (const r of [a, b]) {
      expect(r.output.stderr).toContain('recorder stopped');
      expect(r.output.stderr).not.toMatch(/Error|could not record/);
      for (const line of r.output.stdout.trim().split('\n').filter(Boolean)) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}(\S.*)?(\.swarm\/knowledge\.jsonl|shared-learnings\.jsonl)/);
    }
    // Between them, every batch was printed by one of the two.
    expect((a.output.stdout + b.output.stdout).length).toBeGreaterThan(0);

    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(openShas(knowledge)).toEqual(expected(knowledge));
    expect(openShas(hiveStore)).toEqual(expected(hiveStore));
    const duplicates = db.prepare('SELECT path, entry_id, count(*) AS n FROM sightings WHERE gone_at IS NULL GROUP BY path, entry_id HAVING n > 1').all();
    expect(duplicates).toEqual([]);
    // Versions of one entry in one file follow each other without overlap, and none is recorded twice in a row.
    const rows = db.prepare('SELECT path, entry_id, sha, first_seen, gone_at FROM sightings ORDER BY path, entry_id, first_seen, id').all() as { path: string; entry_id: string; sha: string; first_seen: number; gone_at: number | null }[];
    for (let i = 1; i < rows.length; i++) {
      const [prev, next] = [rows[i - 1]!, rows[i]!];
      if (prev.path !== next.path || prev.entry_id !== next.entry_id) continue;
      expect(prev.gone_at).not.toBeNull();
      expect(prev.gone_at!).toBeLessThanOrEqual(next.first_seen);
      expect(next.sha).not.toBe(prev.sha);
    }
    const missing = db.prepare('SELECT count(*) AS n FROM sightings s WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.sha = s.sha)').get() as { n: number };
    expect(missing.n).toBe(0);
    const observations = db.prepare('SELECT role, started_at, ended_at FROM observations').all() as { role: string; started_at: number; ended_at: number }[];
    expect(observations.map((o) => o.role)).toEqual(['recorder', 'recorder']);
    db.close();

    // The read-only history command agrees: h1 changed many times, s1 gone, appended entries there.
    const history = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'history', '--project', project, '--hive', hive, '--user-data', userData, '--entry', 'h1', '--json'], { cwd: repo });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.on('exit', (code) => resolve({ code, stdout }));
    });
    expect(history.code).toBe(0);
    const timeline = JSON.parse(history.stdout);
    // Writes 60 ms apart may share a batch, so not every intermediate version need be there; those that are keep their order.
    const scores = timeline.versions.map((v: any) => v.record.encounter_score);
    expect(scores.length).toBeGreaterThanOrEqual(2);
    expect(scores.at(-1)).toBe(23);
    expect([...scores].sort((x: number, y: number) => x - y)).toEqual(scores);
  }, 120_000);
});
