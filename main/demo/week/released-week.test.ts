import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeHash } from '../../../testing/demo/demo-workspace';
import { idsThenAndNow, rowsChanging } from '../../../testing/demo/history-week';
import { callOk } from '../../../testing/stores/core-calls';
import { createConsoleCore, type ConsoleCore } from '../../core/console-core';
import { RELEASED_LAST_LOOKED_BEFORE_ANCHOR } from '../released/released-week';
import { generateDemo, markDemoGenerated } from '../ensure-demo';
import { RELEASED_HIVE, RELEASED_IDS, RELEASED_PROJECT, RELEASED_WORKTREE } from '../released/ids';
import type { WeekFacts } from '../week-script';
import { demoWorkspaces } from './demo-workspaces';
import { ensureDemoWithWeek, releasedWeekOf } from './ensure-demo-week';

/**
 * The released pair's scripted week (inventory-api, 7.103.2 shapes, its store in the link dir), replayed through the
 * real store index and history recorder, answers the three questions through the contract on that project.
 * Its stores end as the generator's, byte for byte.
 */
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
let userData: string;
let facts: WeekFacts;
let core: ConsoleCore;

const rowOf = (result: any, change: string, id: string) => result.rows.find((r: any) => r.change === change && r.id === id);

beforeAll(async () => {
  userData = fs.mkdtempSync(path.join(os.tmpdir(), 'released-week-ud-'));
  const { location, releasedReplay } = await ensureDemoWithWeek(userData, now);
  expect(releasedReplay).not.toBeNull();
  facts = releasedWeekOf(location, now).facts;
  core = await createConsoleCore({ userDataDir: userData, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: location.released.projectDir });
}, 180_000);

afterAll(async () => {
  await core?.dispose();
  fs.rmSync(userData, { recursive: true, force: true });
});

describe('the released pair (inventory-api) after its scripted week', () => {
  it('ends with exactly the files the released generator writes', async () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'released-week-again-'));
    try {
      const { releasedReplay } = await ensureDemoWithWeek(again, now);
      expect(releasedReplay?.writes).toBeGreaterThan(0);
      const pair = () => [RELEASED_PROJECT, RELEASED_WORKTREE, RELEASED_HIVE].map((name) => treeHash(path.join(again, 'demo', name)));
      const replayed = pair();
      generateDemo(again, now);
      markDemoGenerated(again, now);
      expect(pair()).toEqual(replayed);
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  }, 180_000);

  it('remembers "when I last looked" mid-week, and Phases 3 and 4 completed', async () => {
    const moments = await callOk(core, 'history.moments');
    expect(moments.lastLooked).toBe(iso(now - RELEASED_LAST_LOOKED_BEFORE_ANCHOR));
    expect(moments.historyBegan).toBe(iso(now - 7 * 86_400_000));
    expect(moments.phases.map((p: any) => p.moment)).toEqual(expect.arrayContaining(['phase:3', 'phase:4']));
  });

  it('answers "what changed since I last looked?" with lessons the cap evicted, Phase 3 and 4 feedback and the added lessons', async () => {
    const result = await callOk(core, 'history.changes', { since: 'last-looked', until: 'now' });
    expect(result.gaps).toEqual([]);
    const evicted = facts.evicted.filter((e) => e.at > now - RELEASED_LAST_LOOKED_BEFORE_ANCHOR);
    expect(evicted.length).toBeGreaterThan(0);
    const cap = JSON.parse(fs.readFileSync(path.join(userData, 'demo', 'inventory-api', '.opencode', 'opencode-swarm.json'), 'utf8')).knowledge.swarm_max_entries;
    for (const lesson of evicted) {
      expect(rowOf(result, 'removed', lesson.id)).toMatchObject({ lesson: lesson.lesson, reason: { code: 'cap', text: `no longer in the store (likely evicted by the ${cap}-entry cap)`, inference: true } });
    }
    expect(rowOf(result, 'added', RELEASED_IDS.addedInPhase5)).toBeDefined();
    expect(rowsChanging(result, 'confidence').length).toBeGreaterThan(0);
    expect(rowsChanging(result, 'retrieval_outcomes').length).toBeGreaterThan(0);
  });

  it('answers "what did the store look like at phase 4?" differently from now', async () => {
    // A linked project's lessons are the link store's (kind `link`).
    const { at, then, now: nowIds } = await idsThenAndNow(core, 'phase:4', 'link');
    const afterPhase4 = facts.evicted.filter((e) => e.at > at);
    expect(afterPhase4.length).toBeGreaterThan(0);
    for (const lesson of afterPhase4) {
      expect(then.has(lesson.id)).toBe(true);
      expect(nowIds.has(lesson.id)).toBe(false);
    }
    expect(then.has(RELEASED_IDS.addedInPhase5)).toBe(false);
    expect(nowIds.has(RELEASED_IDS.addedInPhase5)).toBe(true);
  });

  it('answers "what did the plugin forget?" with every evicted lesson, and the lesson moved to the unactionable sidecar', async () => {
    const { entries } = await callOk(core, 'history.forgotten');
    const byId = new Map(entries.map((e: any) => [e.id, e]));
    expect(facts.evicted).toHaveLength(4);
    for (const lesson of facts.evicted) expect(byId.get(lesson.id)).toMatchObject({ reason: { code: 'cap' }, now: null, record: { lesson: lesson.lesson } });
    expect(facts.quarantined).toHaveLength(1);
    expect((byId.get(facts.quarantined[0] as string) as any)?.reason.code).toBe('moved');
  });
});
