import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hiveEntry, knowledgeEvent, quarantinedEntry, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { callOk, openCore } from '../../../testing/stores/core-calls';
import { appendStore, rewriteStore, waitFor } from '../../../testing/history/plugin-writes';
import type { ConsoleCore } from '../console-core';

/**
 * History through the contract, on real files rewritten as the plugin's rules rewrite them: cap
 * eviction, a curator rewrite with changed confidences, the TTL archive, a quarantine to the sidecar,
 * an archived tombstone in the hive, and a removal the stores do not explain.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'history-contract-'));
cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
const project = path.join(root, 'project');
const hive = path.join(root, 'hive');
const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
const quarantine = path.join(project, '.swarm', 'knowledge-quarantined.jsonl');
const knowledgeEvents = path.join(project, '.swarm', 'knowledge-events.jsonl');
const hiveStore = path.join(hive, 'shared-learnings.jsonl');
const hiveEvents = path.join(hive, 'shared-knowledge-events.jsonl');

const id = (n: number) => `e${String(n).padStart(3, '0')}`;
const entry = (n: number, extra: Record<string, unknown> = {}) => swarmEntryV2({ id: id(n), lesson: `Lesson number ${n} about retries.`, confidence: 0.9, created_at: new Date(Date.UTC(2026, 5, 1, 0, n)).toISOString(), ...extra });
const hiveOne = (name: string) => hiveEntry({ id: name, lesson: `Hive lesson ${name}.` });

let swarm = Array.from({ length: 100 }, (_, i) => entry(i + 1));
let core: ConsoleCore;

const changes = (since: string, until = 'now') => callOk(core, 'history.changes', { since, until });
const row = (result: any, change: string, entryId: string) => result.rows.find((r: any) => r.change === change && r.id === entryId);
/** Waits until history shows `entryId` with `change` since `since`. */
const recorded = (since: string, change: string, entryId: string) => waitFor(async () => row(await changes(since), change, entryId), 15_000, `${change} ${entryId}`);

describe('knowledge history through the contract', () => {
  let began: string;
  let beforeRules: string;

  it('records every entry store on open, as history\'s baseline', async () => {
    rewriteStore(knowledge, swarm);
    rewriteStore(hiveStore, [hiveOne('h1'), hiveOne('h2'), hiveOne('h3')]);
    core = await openCore(project, hive, cleanups, 'history-contract-ud-');
    const asOf = await waitFor(async () => {
      const now = await callOk(core, 'history.asOf', { moment: 'now', limit: 5000 });
      return now.total === 103 ? now : null;
    }, 15_000, 'the baseline');
    expect(asOf.entries.filter((e: any) => e.kind === 'active')).toHaveLength(100);
    expect(asOf.entries.filter((e: any) => e.kind === 'hive').map((e: any) => e.id)).toEqual(['h1', 'h2', 'h3']);
    const moments = await callOk(core, 'history.moments');
    began = moments.historyBegan;
    expect(began).toBeTruthy();
    expect(moments.lastLooked).toBeNull();
    // Present when history began is not "added".
    expect((await changes(began)).counts).toEqual({ added: 0, removed: 0, changed: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    beforeRules = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('cap eviction: the oldest entry leaves a store at its 100-entry cap, said as an inference', async () => {
    swarm = [...swarm.slice(1), entry(101)];
    rewriteStore(knowledge, swarm);
    const removed = await recorded(beforeRules, 'removed', id(1));
    expect(removed.reason).toEqual({ code: 'cap', text: 'no longer in the store (likely evicted by the 100-entry cap)', inference: true });
    expect(removed.place).toEqual({ tier: 'swarm', kind: 'active', storeKey: 'knowledge', file: '.swarm/knowledge.jsonl' });
    expect(row(await changes(beforeRules), 'added', id(101))).toMatchObject({ lesson: 'Lesson number 101 about retries.', unobserved: null });
  });

  it('curator rewrite: a changed confidence is a field diff', async () => {
    swarm = swarm.map((e) => (e.id === id(2) ? { ...e, confidence: 0.42, updated_at: '2026-07-02T00:00:00.000Z' } : e));
    rewriteStore(knowledge, swarm);
    const changed = await recorded(beforeRules, 'changed', id(2));
    expect(changed.fields).toEqual([
      { field: 'confidence', before: '0.9', after: '0.42' },
      { field: 'updated_at', before: '2026-06-22T16:40:10.003Z', after: '2026-07-02T00:00:00.000Z' },
    ]);
    expect(changed.reason).toBeNull();
  });

  it('TTL archive: status set to archived in place, with the sweep inferred from phases_alive', async () => {
    swarm = swarm.map((e) => (e.id === id(3) ? { ...e, status: 'archived', phases_alive: 11, max_phases: 10 } : e));
    rewriteStore(knowledge, swarm);
    const changed = await recorded(beforeRules, 'changed', id(3));
    expect(changed.fields).toEqual(expect.arrayContaining([{ field: 'status', before: 'established', after: 'archived' }]));
    expect(changed.reason).toEqual({ code: 'archived-status', text: 'status set to archived (likely the TTL sweep: it had lived 11 phases, past its 10)', inference: true });
  });

  it('quarantine to the sidecar: the plugin moved it, and the stores say so', async () => {
    const leaving = swarm.find((e) => e.id === id(4))!;
    swarm = swarm.filter((e) => e.id !== id(4));
    rewriteStore(knowledge, swarm);
    appendStore(quarantine, quarantinedEntry({ ...leaving, status: 'quarantined', original_status: 'established', quarantine_reason: 'wrong', quarantined_at: '2026-07-03T00:00:00.000Z', reported_by: 'architect' }));
    await waitFor(async () => (await changes(beforeRules)).rows.some((r: any) => r.id === id(4) && r.reason?.code === 'moved'), 15_000, 'the move');
    const removed = row(await changes(beforeRules), 'removed', id(4));
    expect(removed.reason).toEqual({ code: 'moved', text: 'moved to the quarantine file (.swarm/knowledge-quarantined.jsonl)', inference: false });
  });

  it('hive: an archived tombstone explains a purge; an unexplained removal is just "removed"', async () => {
    rewriteStore(hiveStore, [hiveOne('h3')]);
    appendStore(hiveEvents, { type: 'archived', event_id: 'ev-h1', timestamp: new Date().toISOString(), schema_version: 1, entry_id: 'h1', tier: 'hive', actor: 'curator', reason: 'duplicate of h3', mode: 'purge' });
    await waitFor(async () => row(await changes(beforeRules), 'removed', 'h1')?.reason?.code === 'archived-event', 15_000, 'the tombstone');
    const result = await changes(beforeRules);
    expect(row(result, 'removed', 'h1').reason).toEqual({ code: 'archived-event', text: 'purged by curator (an archived event in the events log): duplicate of h3', inference: false });
    expect(row(result, 'removed', 'h2').reason).toEqual({ code: 'removed', text: 'removed (the stores do not say why)', inference: false });
    expect(result.counts).toEqual({ added: 1, removed: 4, changed: 2 });
    expect(result.gaps).toEqual([]);
  });

  it('as of a moment: the stores as they were, and as they are', async () => {
    const then = await callOk(core, 'history.asOf', { moment: beforeRules, limit: 5000 });
    expect(then.total).toBe(103);
    expect(then.note).toBeNull();
    const e2Then = then.entries.find((e: any) => e.id === id(2));
    expect(e2Then.record.confidence).toBe(0.9);
    const now = await callOk(core, 'history.asOf', { moment: 'now', limit: 5000 });
    const ids = now.entries.map((e: any) => `${e.kind}:${e.id}`);
    expect(ids).not.toContain(`active:${id(1)}`);
    expect(ids).toContain(`quarantined:${id(4)}`);
    expect(ids).toContain(`active:${id(101)}`);
    expect(now.entries.find((e: any) => e.id === id(2)).record.confidence).toBe(0.42);
    expect(now.entries.filter((e: any) => e.kind === 'hive').map((e: any) => e.id)).toEqual(['h3']);
    // As of the moment history began: the baseline, though its rows were written a moment later.
    const atStart = await callOk(core, 'history.asOf', { moment: then.historyBegan, limit: 5000 });
    expect(atStart).toMatchObject({ total: 103, note: null });
    const before = await callOk(core, 'history.asOf', { moment: '2020-01-01T00:00:00Z' });
    expect(before).toMatchObject({ total: 0, note: expect.stringContaining('before history began') });
  });

  it('timeline: every version of an entry, what changed and why each ended', async () => {
    const timeline = await callOk(core, 'history.timeline', { id: id(2) });
    expect(timeline.versions).toHaveLength(2);
    expect(timeline.versions[0]).toMatchObject({ origin: 'baseline', end: { code: 'changed' }, fields: [] });
    expect(timeline.versions[1]).toMatchObject({ origin: 'live', to: null, end: null, fields: expect.arrayContaining([{ field: 'confidence', before: '0.9', after: '0.42' }]) });
    const moved = await callOk(core, 'history.timeline', { id: id(4) });
    expect(moved.versions.map((v: any) => v.kind)).toEqual(['active', 'quarantined']);
    expect(moved.versions[0].end.code).toBe('moved');
  });

  it('forgotten: what left the active stores without a person, with its last version and reason', async () => {
    const { entries } = await callOk(core, 'history.forgotten');
    const byId = Object.fromEntries(entries.map((e: any) => [e.id, e]));
    expect(Object.keys(byId).sort()).toEqual([id(1), id(3), id(4), 'h1', 'h2']);
    expect(byId[id(1)]).toMatchObject({ reason: { code: 'cap' }, now: null, record: { lesson: 'Lesson number 1 about retries.' } });
    expect(byId[id(3)]).toMatchObject({ reason: { code: 'archived-status' }, now: 'archived in place in .swarm/knowledge.jsonl' });
    expect(byId[id(4)]).toMatchObject({ reason: { code: 'moved' }, now: 'in .swarm/knowledge-quarantined.jsonl' });
  });

  it('moments: phase completions from outcome events; as of phase:N resolves; a bad moment is refused', async () => {
    appendStore(knowledgeEvents, knowledgeEvent('outcome', { phase: 'Phase 4', outcome: 'success', evidence_summary: 'ok', timestamp: beforeRules, event_id: 'ev-out-4' }));
    const moments = await waitFor(async () => {
      const m = await callOk(core, 'history.moments');
      return m.phases.length ? m : null;
    }, 15_000, 'phase 4');
    expect(moments.phases).toEqual([{ moment: 'phase:4', phase: 4, at: beforeRules, source: 'knowledge-events outcome' }]);
    expect((await callOk(core, 'history.asOf', { moment: 'phase:4', limit: 5000 })).total).toBe(103);
    const bad = await core.dispatcher.call('history.asOf', { moment: 'yesterday-ish' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const unknownPhase = await core.dispatcher.call('history.asOf', { moment: 'phase:9' });
    expect(unknownPhase).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('a query asked as soon as a change is announced already sees it (a view refetching on the change)', async () => {
    const seen = new Promise<any>((resolve, reject) => {
      const sub = core.dispatcher.subscribe('stores.changes', {}, (event: any) => {
        if (event.storeKey === 'knowledge') callOk(core, 'history.timeline', { id: id(5) }).then(resolve, reject);
      });
      if (!sub.ok) throw new Error(sub.error.message);
      cleanups.push(sub.value);
    });
    swarm = swarm.map((e) => (e.id === id(5) ? { ...e, confidence: 0.33 } : e));
    rewriteStore(knowledge, swarm);
    const timeline = await seen;
    expect(timeline.versions.at(-1).fields).toContainEqual({ field: 'confidence', before: '0.9', after: '0.33' });
  });
});
