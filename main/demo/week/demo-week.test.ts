import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeHash } from '../../../testing/demo/demo-workspace';
import { idsThenAndNow, rowsChanging } from '../../../testing/demo/history-week';
import { callOk } from '../../../testing/stores/core-calls';
import { createConsoleCore, type ConsoleCore } from '../../core/console-core';
import { DAY, HOUR } from '../clock';
import { demoLocation, generateDemo, markDemoGenerated } from '../ensure-demo';
import type { WeekFacts } from '../week-script';
import { demoWorkspaces } from './demo-workspaces';
import { demoWeekOf, ensureDemoWithWeek } from './ensure-demo-week';
import { Workspace } from '../../core/workspace/workspace';
import { resolveWorkspacePaths } from '../../core/platform/paths/workspace-paths';

/**
 * The demo's scripted week, replayed through the real store index and history recorder, answers the issue's
 * three questions through the contract: what changed since I last looked, what the stores looked like at a
 * phase, and what the plugin forgot. The stores it leaves are the generator's, byte for byte.
 */
const roots: string[] = [];
const scratch = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  roots.push(dir);
  return dir;
};

// The console's own ensure (Date.now()) must find this demo current: anchor it on the test's start.
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
let userData: string;
let facts: WeekFacts;
let core: ConsoleCore;
/** A second generation with the same anchor (its stores are regenerated plainly once compared). */
let again: string;

const changes = (since = 'last-looked', until = 'now') => callOk(core, 'history.changes', { since, until });
const rowOf = (result: any, change: string, id: string) => result.rows.find((r: any) => r.change === change && r.id === id);

beforeAll(async () => {
  userData = scratch('demo-week-ud-');
  const { location, replay } = await ensureDemoWithWeek(userData, now);
  expect(replay).not.toBeNull();
  facts = demoWeekOf(location, now).facts;
  core = await createConsoleCore({ userDataDir: userData, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the demo project after its scripted week', () => {
  it('ends with exactly the stores the generator writes', async () => {
    again = scratch('demo-week-again-');
    await ensureDemoWithWeek(again, now);
    const replayed = treeHash(path.join(again, 'demo'));
    generateDemo(again, now);
    // The generator alone writes everything but the marker saying the demo (and its week) is complete.
    markDemoGenerated(again, now);
    expect(treeHash(path.join(again, 'demo'))).toBe(replayed);
  }, 120_000);

  it('remembers "when I last looked" mid-week, and the phases completed', async () => {
    const moments = await callOk(core, 'history.moments');
    expect(moments.lastLooked).toBe(iso(now - 2 * DAY - 3 * HOUR));
    expect(moments.historyBegan).toBe(iso(now - 7 * DAY));
    expect(moments.phases.map((p: any) => p.moment)).toEqual(expect.arrayContaining(['phase:3', 'phase:4']));
    // Watched all week: the person until they last looked, then the headless recorder.
    expect(moments.observations.map((o: any) => o.role).slice(0, 2)).toEqual(['app', 'recorder']);
  });

  it('answers "what changed since I last looked?" with added, removed and changed rows and their reasons', async () => {
    const result = await changes();
    expect(result.gaps).toEqual([]);
    expect(result.counts.added).toBeGreaterThan(0);
    expect(result.counts.changed).toBeGreaterThan(0);
    // The cap: knowledge_add at 280 lines dropped the oldest lesson (an inference, said as one).
    const evicted = facts.evicted.filter((e) => e.at > now - 2 * DAY - 3 * HOUR);
    expect(evicted.length).toBeGreaterThan(0);
    for (const lesson of evicted) {
      expect(rowOf(result, 'removed', lesson.id)).toMatchObject({ lesson: lesson.lesson, reason: { code: 'cap', text: 'no longer in the store (likely evicted by the 280-entry cap)', inference: true } });
    }
    // Phase 4's sweep deleted a TODO past 3 phases, and archived a lesson past its max_phases.
    expect(rowOf(result, 'removed', facts.todoSwept as string).reason.code).toBe('todo-sweep');
    const ttl = facts.ttlArchived[0] as string;
    expect(rowOf(result, 'changed', ttl).fields).toEqual(expect.arrayContaining([{ field: 'status', before: 'established', after: 'archived' }]));
    expect(rowOf(result, 'changed', ttl).reason.text).toMatch(/likely the TTL sweep/);
    // A lesson moved to the quarantine sidecar after the last look.
    const moved = result.rows.filter((r: any) => r.change === 'removed' && r.reason?.code === 'moved');
    expect(moved.length).toBeGreaterThan(0);
    // Verdict feedback at Phase 4 moved confidences; counters moved with the events.
    expect(rowsChanging(result, 'confidence').length).toBeGreaterThan(0);
    expect(rowsChanging(result, 'retrieval_outcomes').length).toBeGreaterThan(0);
  });

  it('answers "what did the stores look like at phase 4?" differently from now', async () => {
    const { at, then, now: nowIds, asOf } = await idsThenAndNow(core, 'phase:4', 'active');
    for (const lesson of facts.evicted.filter((e) => e.at > at)) {
      expect(then.has(lesson.id)).toBe(true);
      expect(nowIds.has(lesson.id)).toBe(false);
    }
    expect(nowIds.size).toBe(280);
    const [atPhase4, current] = [asOf.then, asOf.now];
    const hiveThen = atPhase4.entries.filter((e: any) => e.kind === 'hive').map((e: any) => `${e.id}:${e.sha256}`);
    const hiveNow = current.entries.filter((e: any) => e.kind === 'hive').map((e: any) => `${e.id}:${e.sha256}`);
    expect(hiveThen).not.toEqual(hiveNow);
  });

  it('answers "what did the plugin forget?" with the evicted lessons, the swept TODO and the quarantined', async () => {
    const { entries } = await callOk(core, 'history.forgotten');
    const byId = new Map(entries.map((e: any) => [e.id, e]));
    for (const lesson of facts.evicted) expect(byId.get(lesson.id)).toMatchObject({ reason: { code: 'cap' }, now: null, record: { lesson: lesson.lesson } });
    expect((byId.get(facts.todoSwept as string) as any).reason.code).toBe('todo-sweep');
    expect(facts.quarantined.some((id) => (byId.get(id) as any)?.reason.code === 'moved')).toBe(true);
  });

  it('keeps each version at its scripted time (a timeline of a lesson changed during the week)', async () => {
    const ttl = await callOk(core, 'history.timeline', { id: facts.ttlArchived[0] });
    expect(ttl.versions.length).toBeGreaterThan(1);
    for (const version of ttl.versions) {
      expect(Date.parse(version.from)).toBeGreaterThanOrEqual(now - 7 * DAY);
      expect(Date.parse(version.from)).toBeLessThanOrEqual(now);
    }
  });
});

describe('the scripted week', () => {
  it('is recorded identically by two generations with the same anchor', () => {
    const dump = (dir: string) => {
      const db = new Database(path.join(dir, 'history.db'), { readonly: true });
      try {
        return {
          sightings: db.prepare('SELECT entry_id, tier, kind, store_key, file, sha, status, origin, first_seen, gone_at, gone_reason, gone_detail FROM sightings ORDER BY id').all(),
          moments: db.prepare('SELECT name, at, source FROM moments ORDER BY name').all(),
          tombstones: db.prepare('SELECT * FROM tombstones ORDER BY event_key').all(),
        };
      } finally {
        db.close();
      }
    };
    // billing-api's and the released pair's: each demo project records its week into its own workspace.
    const workspaceDirs = (ud: string) => {
      const { projectDir, hiveDir, released } = demoLocation(ud);
      return [[projectDir, hiveDir], [released.projectDir, released.hiveDir]].map(([project, hive]) => Workspace.cacheDirPath(ud, resolveWorkspacePaths(project as string, hive as string, 'demo', true)));
    };
    const first = workspaceDirs(userData).map(dump);
    expect(first[0]?.sightings.length).toBeGreaterThan(500);
    expect(first[1]?.sightings.length).toBeGreaterThan(50);
    expect(workspaceDirs(again).map(dump)).toEqual(first);
  }, 120_000);

  it("leaves another process's history alone: with its lease held, the demo is generated without a week", async () => {
    const busy = scratch('demo-week-busy-');
    const location = demoLocation(busy);
    const dir = Workspace.cacheDirPath(busy, resolveWorkspacePaths(location.projectDir, location.hiveDir, 'demo', true));
    fs.mkdirSync(path.join(dir, 'history.db.lock'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'history.db'), 'theirs');
    const { replay } = await ensureDemoWithWeek(busy, now);
    expect(replay).toBeNull();
    expect(fs.readFileSync(path.join(dir, 'history.db'), 'utf8')).toBe('theirs');
    const replayed = treeHash(path.join(busy, 'demo'));
    generateDemo(busy, now);
    markDemoGenerated(busy, now);
    expect(treeHash(path.join(busy, 'demo'))).toBe(replayed);
  }, 120_000);
});
