import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/history/plugin-writes';
import { callOk } from '../../../testing/stores/core-calls';
import { createConsoleCore } from '../../core/console-core';
import { ensureDemoWorkspace } from '../ensure-demo';
import { demoWorkspaces } from './demo-workspaces';
import { AT_WORK_ENV, startPluginAtWork } from './plugin-at-work';

const roots: string[] = [];
const scratch = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  roots.push(dir);
  return dir;
};
afterAll(() => roots.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe("the demo's plugin at work", () => {
  it('never writes a project outside the generated demo', async () => {
    const userData = scratch('at-work-ud-');
    ensureDemoWorkspace(userData);
    const real = scratch('at-work-real-');
    fs.cpSync(path.join(userData, 'demo', 'billing-api'), real, { recursive: true });
    expect(startPluginAtWork(userData, real, 10)).toBeNull();
    // Nor a demo folder whose generation never completed (no marker).
    fs.rmSync(path.join(userData, 'demo', '.generated.json'));
    expect(startPluginAtWork(userData, path.join(userData, 'demo', 'billing-api'), 10)).toBeNull();
  });

  it('bumps a counter with its retrieved event, then moves a confidence, each under the plugin lock; nothing after stop', async () => {
    const userData = scratch('at-work-ud-');
    const { projectDir } = ensureDemoWorkspace(userData);
    const store = path.join(projectDir, '.swarm', 'knowledge.jsonl');
    const events = path.join(projectDir, '.swarm', 'knowledge-events.jsonl');
    const [storeBefore, eventsBefore] = [lines(store), lines(events)];

    // While someone holds the plugin's lock on .swarm, nothing is written.
    const release = await lockfile.lock(path.join(projectDir, '.swarm'), { stale: 10_000, realpath: true });
    const work = startPluginAtWork(userData, projectDir, 10);
    expect(work).not.toBeNull();
    await sleep(200);
    expect(work!.writes).toBe(0);
    expect(lines(store)).toEqual(storeBefore);
    await release();

    await waitFor(() => (work!.writes >= 2 ? true : null), 15_000, 'two writes');
    await work!.stop();
    const after = lines(store);
    expect(after).toHaveLength(storeBefore.length);
    const changed = after.map((line, i) => [JSON.parse(storeBefore[i] as string), JSON.parse(line)]).filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
    const retrieved = lines(events).slice(eventsBefore.length).map((l) => JSON.parse(l));
    expect(retrieved.length).toBeGreaterThan(0);
    expect(retrieved.every((e) => e.type === 'retrieved' && e.result_ids.length === 1)).toBe(true);
    // Each bump has its retrieved event: an entry's shown_count rose by exactly the events naming it
    // (how many writes land before stop depends on the machine, one entry may be picked twice, and
    // which entries are picked depends on that count: the old "+1 on some entry" failed on a lesson
    // without a shown_count, undefined + 1 being NaN).
    const bumps = new Map<string, number>();
    for (const event of retrieved) bumps.set(event.result_ids[0], (bumps.get(event.result_ids[0]) ?? 0) + 1);
    // A lesson may have no shown_count yet (the plugin writes it at the first showing): that is 0.
    const shown = (entry: { retrieval_outcomes: { shown_count?: number } }) => entry.retrieval_outcomes.shown_count ?? 0;
    expect(changed.filter(([a, b]) => shown(b) !== shown(a)).length).toBeGreaterThan(0);
    for (const [a, b] of changed) expect(shown(b) - shown(a), a.id).toBe(bumps.get(a.id) ?? 0);
    expect(changed.some(([a, b]) => b.confidence !== a.confidence)).toBe(true);
    expect(fs.readdirSync(path.dirname(store)).filter((name) => name.includes('.tmp'))).toEqual([]);

    const frozen = { writes: work!.writes, store: fs.readFileSync(store, 'utf8') };
    await sleep(100);
    expect({ writes: work!.writes, store: fs.readFileSync(store, 'utf8') }).toEqual(frozen);
  });

  it('moves the console it runs under: history records its writes live, and closing the console stops it', async () => {
    const userData = scratch('at-work-core-');
    process.env[AT_WORK_ENV] = '0.5';
    try {
      const core = await createConsoleCore({ userDataDir: userData, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
      const opened = new Date().toISOString();
      const row = await waitFor(async () => {
        const result = await callOk(core, 'history.changes', { since: opened, until: 'now' });
        return result.rows.find((r: any) => r.change === 'changed' && r.fields.some((f: any) => f.field === 'retrieval_outcomes' || f.field === 'confidence')) ?? null;
      }, 60_000, 'a live change');
      expect(row.place).toMatchObject({ tier: 'swarm', file: '.swarm/knowledge.jsonl' });
      await core.dispose();
      const store = path.join(userData, 'demo', 'billing-api', '.swarm', 'knowledge.jsonl');
      const closed = fs.readFileSync(store, 'utf8');
      await sleep(200);
      expect(fs.readFileSync(store, 'utf8')).toBe(closed);
    } finally {
      delete process.env[AT_WORK_ENV];
    }
  }, 120_000);
});
