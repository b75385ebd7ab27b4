import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knowledgeEvent, quarantinedEntry, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { appendStore, rewriteStore, waitFor } from '../../../testing/history/plugin-writes';
import { restoreWorkspace, type RestoreWorkspace } from '../../../testing/history/restore-workspace';

/**
 * Issue 20's integration test, moment by moment: a project store rewritten by the plugin's rules
 * (cap eviction, a curator rewrite changing several confidences and a lesson, the TTL sweep and an
 * archive with its tombstone, a quarantine to the sidecar), each step a named moment. Checked
 * through the contract: the Changes rows between consecutive moments, the store as of each moment,
 * timelines, the forgotten list with reasons — then a forgotten lesson restored with the person's
 * confirmation and history showing it back.
 */
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const id = (n: number) => `e${String(n).padStart(3, '0')}`;
const entry = (n: number, extra: Record<string, unknown> = {}) =>
  swarmEntryV2({ id: id(n), lesson: `Lesson number ${n} about retries.`, confidence: 0.9, created_at: new Date(Date.UTC(2026, 5, 1, 0, n)).toISOString(), ...extra });

let w: RestoreWorkspace;
let swarm = Array.from({ length: 100 }, (_, i) => entry(i + 1));
const moments: Record<string, string> = {};
const pause = () => new Promise((resolve) => setTimeout(resolve, 25));

/** A moment strictly after everything recorded so far and before anything that follows. */
async function mark(name: string): Promise<void> {
  await pause();
  moments[name] = new Date().toISOString();
  await pause();
}
const changes = (since: string, until: string) => w.call('history.changes', { since, until });
const asOf = async (moment: string) => (await w.call('history.asOf', { moment, limit: 5000 })).entries as any[];
const at = (entries: any[], entryId: string) => entries.find((e) => e.id === entryId);
const ids = (rows: any[], change: string) => rows.filter((r) => r.change === change).map((r) => r.id).sort();

describe('a week of the plugin rewriting its store, moment by moment', () => {
  it('baseline: 100 entries recorded, nothing changed since history began', async () => {
    w = await restoreWorkspace({ swarm }, cleanups);
    await w.settled(100);
    await mark('baseline');
    expect((await changes((await w.call('history.moments', {})).historyBegan, moments.baseline as string)).counts).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  it('cap eviction: the 101st entry drops the oldest, an inference said as one', async () => {
    swarm = [...swarm.slice(1), entry(101)];
    rewriteStore(w.knowledge, swarm);
    await waitFor(async () => (await changes(moments.baseline as string, 'now')).counts.removed === 1, 15_000, 'the eviction');
    await mark('evicted');
    const result = await changes(moments.baseline as string, moments.evicted as string);
    expect(result.counts).toEqual({ added: 1, removed: 1, changed: 0 });
    expect(result.rows.map((r: any) => [r.change, r.id, r.reason])).toEqual(
      expect.arrayContaining([
        ['removed', id(1), { code: 'cap', text: 'no longer in the store (likely evicted by the 100-entry cap)', inference: true }],
        ['added', id(101), null],
      ]),
    );
  });

  it('curator rewrite: changed confidences and a rewritten lesson are field diffs, nothing else changes', async () => {
    const curated: Record<string, Record<string, unknown>> = {
      [id(5)]: { lesson: 'Retry uploads with exponential backoff, at most 3 times.', confidence: 0.85 },
      [id(6)]: { confidence: 0.93 },
      [id(7)]: { confidence: 0.4 },
    };
    swarm = swarm.map((e) => (curated[e.id as string] ? { ...e, ...curated[e.id as string], updated_at: '2026-07-02T00:00:00.000Z' } : e));
    rewriteStore(w.knowledge, swarm);
    await waitFor(async () => (await changes(moments.evicted as string, 'now')).counts.changed === 3, 15_000, 'the curator rewrite');
    await mark('curated');
    const result = await changes(moments.evicted as string, moments.curated as string);
    expect(result.counts).toEqual({ added: 0, removed: 0, changed: 3 });
    const fields = Object.fromEntries(result.rows.map((r: any) => [r.id, r.fields]));
    const touched = { field: 'updated_at', before: '2026-06-22T16:40:10.003Z', after: '2026-07-02T00:00:00.000Z' };
    expect(fields).toEqual({
      [id(5)]: [{ field: 'lesson', before: 'Lesson number 5 about retries.', after: 'Retry uploads with exponential backoff, at most 3 times.' }, { field: 'confidence', before: '0.9', after: '0.85' }, touched],
      [id(6)]: [{ field: 'confidence', before: '0.9', after: '0.93' }, touched],
      [id(7)]: [{ field: 'confidence', before: '0.9', after: '0.4' }, touched],
    });
  });

  it('TTL sweep and knowledge_archive: status archived in place; the tombstone in knowledge-events.jsonl explains one, the sweep is inferred for the other', async () => {
    swarm = swarm.map((e) => (e.id === id(3) ? { ...e, status: 'archived', updated_at: '2026-07-03T00:00:00.000Z' } : e.id === id(8) ? { ...e, status: 'archived', phases_alive: 11, max_phases: 10 } : e));
    rewriteStore(w.knowledge, swarm);
    appendStore(path.join(w.swarm, 'knowledge-events.jsonl'), knowledgeEvent('archived', { entry_id: id(3), tier: 'swarm', actor: 'curator', reason: 'superseded by e010', mode: 'archive', previous_status: 'established', event_id: 'ev-a3', timestamp: new Date().toISOString() }));
    await waitFor(async () => (await changes(moments.curated as string, 'now')).rows.find((r: any) => r.id === id(3))?.reason?.code === 'archived-event', 15_000, 'the tombstone');
    await mark('archived');
    const result = await changes(moments.curated as string, moments.archived as string);
    expect(result.counts).toEqual({ added: 0, removed: 0, changed: 2 });
    const byId = Object.fromEntries(result.rows.map((r: any) => [r.id, r]));
    expect(byId[id(3)].reason).toEqual({ code: 'archived-event', text: 'archived by curator (an archived event in the events log): superseded by e010', inference: false });
    expect(byId[id(3)].fields).toEqual(expect.arrayContaining([{ field: 'status', before: 'established', after: 'archived' }]));
    expect(byId[id(8)].reason).toEqual({ code: 'archived-status', text: 'status set to archived (likely the TTL sweep: it had lived 11 phases, past its 10)', inference: true });
  });

  it('quarantine to the sidecar: a move the stores record', async () => {
    const leaving = swarm.find((e) => e.id === id(4))!;
    swarm = swarm.filter((e) => e.id !== id(4));
    rewriteStore(w.knowledge, swarm);
    appendStore(path.join(w.swarm, 'knowledge-quarantined.jsonl'), quarantinedEntry({ ...leaving, status: 'quarantined', original_status: 'established', quarantine_reason: 'wrong', quarantined_at: '2026-07-04T00:00:00.000Z', reported_by: 'architect' }));
    await waitFor(async () => (await changes(moments.archived as string, 'now')).rows.find((r: any) => r.id === id(4))?.reason?.code === 'moved', 15_000, 'the move');
    await mark('quarantined');
    const result = await changes(moments.archived as string, moments.quarantined as string);
    expect(result.counts).toEqual({ added: 0, removed: 1, changed: 0 });
    expect(result.rows[0]).toMatchObject({ id: id(4), place: { kind: 'active' }, reason: { code: 'moved', text: 'moved to the quarantine file (.swarm/knowledge-quarantined.jsonl)' } });
    // From the beginning to now, every step adds up.
    const all = await changes(moments.baseline as string, moments.quarantined as string);
    expect(all.counts).toEqual({ added: 1, removed: 2, changed: 5 });
    expect(ids(all.rows, 'changed')).toEqual([id(3), id(5), id(6), id(7), id(8)]);
    expect(all.gaps).toEqual([]);
  });

  it('as of each moment: the store as it was then', async () => {
    const baseline = await asOf(moments.baseline as string);
    expect(baseline).toHaveLength(100);
    expect(at(baseline, id(1))).toMatchObject({ kind: 'active', record: { lesson: 'Lesson number 1 about retries.' } });
    expect(at(baseline, id(101))).toBeUndefined();

    const evicted = await asOf(moments.evicted as string);
    expect([evicted.length, at(evicted, id(1)), at(evicted, id(101))?.kind]).toEqual([100, undefined, 'active']);
    expect(at(evicted, id(5)).record).toMatchObject({ confidence: 0.9, lesson: 'Lesson number 5 about retries.' });

    const curated = await asOf(moments.curated as string);
    expect([at(curated, id(5)).record.confidence, at(curated, id(6)).record.confidence, at(curated, id(7)).record.confidence]).toEqual([0.85, 0.93, 0.4]);
    expect(at(curated, id(3)).record.status).toBe('established');

    const archived = await asOf(moments.archived as string);
    expect([at(archived, id(3)).record.status, at(archived, id(8)).record.status, at(archived, id(4)).kind]).toEqual(['archived', 'archived', 'active']);

    const quarantined = await asOf(moments.quarantined as string);
    expect(quarantined.filter((e) => e.kind === 'active')).toHaveLength(99);
    expect(at(quarantined, id(4))).toMatchObject({ kind: 'quarantined', file: '.swarm/knowledge-quarantined.jsonl', record: { status: 'quarantined', original_status: 'established' } });
  });

  it('timelines: every version, where it lived, what changed and why each ended', async () => {
    const evicted = await w.call('history.timeline', { id: id(1) });
    expect(evicted.versions).toHaveLength(1);
    expect(evicted.versions[0]).toMatchObject({ origin: 'baseline', kind: 'active', end: { code: 'cap', inference: true } });
    const archived = await w.call('history.timeline', { id: id(3) });
    expect(archived.versions.map((v: any) => [v.kind, v.record.status, v.end?.code ?? null])).toEqual([
      ['active', 'established', 'changed'],
      ['active', 'archived', null],
    ]);
    expect(archived.versions[1].fields).toEqual([{ field: 'status', before: 'established', after: 'archived' }, { field: 'updated_at', before: '2026-06-22T16:40:10.003Z', after: '2026-07-03T00:00:00.000Z' }]);
    const curated = await w.call('history.timeline', { id: id(5) });
    expect(curated.versions.map((v: any) => v.record.confidence)).toEqual([0.9, 0.85]);
    const moved = await w.call('history.timeline', { id: id(4) });
    expect(moved.versions.map((v: any) => [v.kind, v.end?.code ?? null])).toEqual([['active', 'moved'], ['quarantined', null]]);
  });

  it('forgotten: what left the active store without a person, with its reason and where it is now', async () => {
    const { entries } = await w.call('history.forgotten', {});
    expect(Object.fromEntries(entries.map((e: any) => [e.id, [e.reason.code, e.now]]))).toEqual({
      [id(1)]: ['cap', null],
      [id(3)]: ['archived-event', 'archived in place in .swarm/knowledge.jsonl'],
      [id(4)]: ['moved', 'in .swarm/knowledge-quarantined.jsonl'],
      [id(8)]: ['archived-status', 'archived in place in .swarm/knowledge.jsonl'],
    });
  });

  it('restore the evicted lesson: preview warns of the cap and names what the plugin evicts first; after the commit, history shows it back', async () => {
    const preview = await w.call('history.restore.preview', { id: id(1) });
    expect(preview).toMatchObject({ id: id(1), restoreStatus: 'established', reason: { code: 'cap' }, cap: { cap: 100, countAfter: 100, evictFirst: { id: id(3) } } });
    expect(preview.cap.text).toContain(`it evicts ${id(3)} first (status archived), and may evict the restored entry again later`);
    // An entry archived in place is Knowledge → Restore's, not history's.
    expect((await w.refused('history.restore.preview', { id: id(3) })).message).toContain('To bring back an entry archived in place, use Knowledge → Restore (swarm.restore).');
    const before = fs.readFileSync(w.knowledge, 'utf8');
    const done = await w.call('history.restore.commit', { token: preview.token, reason: 'still true: evicted by the cap', confirmation: {} });
    expect(done.messages).toEqual(expect.arrayContaining(["knowledge.jsonl now holds 100 entries, at or past the plugin's cap of 100: the plugin may evict the restored entry again."]));
    expect(fs.readFileSync(w.knowledge, 'utf8')).toBe(`${before}${preview.line}\n`);
    const back = await waitFor(async () => (await changes(moments.quarantined as string, 'now')).rows.find((r: any) => r.id === id(1) && r.change === 'added'), 15_000, 'the restored entry');
    expect(back).toMatchObject({ place: { kind: 'active' }, lesson: 'Lesson number 1 about retries.' });
    expect((await w.call('history.forgotten', {})).entries.map((e: any) => e.id)).not.toContain(id(1));
    expect(at(await asOf('now'), id(1)).record).toMatchObject({ status: 'established', updated_at: JSON.parse(preview.line).updated_at });
  });
});
