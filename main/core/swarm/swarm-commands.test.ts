import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { swarmEntryV1 } from '../../../testing/stores/sample-records';
import type { CallerContext } from '../human/confirmation';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { hiveLine } from '../../../testing/human/hive-fixture';
import { checkForRevert } from '../hive/revert-check';
import { SWARM_QUARANTINE_OP } from './swarm-store';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

const entryLine = (i: number, overrides: Record<string, unknown> = {}) =>
  JSON.stringify(swarmEntryV1({ id: `swarm-${i}`, lesson: `Swarm lesson ${i}: distinct text so each line hashes differently.`, ...overrides }));

/** A project (optionally linked to `links/shared-ws`) with five entries, a torn line kept byte for byte, and a hive. */
function workspace(linked = false) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'swarm-write-'));
  const project = path.join(root, 'billing-api');
  const hive = path.join(root, 'data', 'opencode-swarm');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), `${hiveLine(1)}\n`);
  const lines = [entryLine(1), entryLine(2, { status: 'established' }), '{"id":"torn', entryLine(3), entryLine(4, { status: 'archived' }), entryLine(5)];
  let dir = swarm;
  if (linked) {
    dir = path.join(hive, 'links', 'shared-ws');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'shared-ws', createdAt: '2026-06-01T00:00:00.000Z', source: 'manual' }, null, 2));
    fs.writeFileSync(path.join(swarm, 'knowledge.jsonl'), `${entryLine(9)}\n`);
  }
  fs.writeFileSync(path.join(dir, 'knowledge.jsonl'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'knowledge-events.jsonl'), `${JSON.stringify({ schema_version: 1, type: 'archived', entry_id: 'swarm-4', tier: 'swarm', previous_status: 'established', event_id: 'e1', timestamp: '2026-06-30T00:00:00.000Z' })}\n`);
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return { root, project, hive, swarm, dir, knowledge: path.join(dir, 'knowledge.jsonl') };
}

async function open(w: ReturnType<typeof workspace>, lockWaitMs = 3_000): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: path.join(w.root, 'user-data'), host: 'electron', version: 'test', human: { lockWaitMs } }, { project: w.project, hive: w.hive });
  cleanups.push(() => core.dispose());
  return core;
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown): Promise<T> {
  const result = await core.dispatcher.forCaller(caller).call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}
const confirm = (token: string) => ({ token, reason: 'operator test', confirmation: {} });
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
const records = (file: string) => read(file).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('swarm tier: quarantine, restore and restore of archived entries', () => {
  it('quarantines like /swarm knowledge quarantine and restores to the original status, keeping other lines byte for byte', async () => {
    const w = workspace();
    const core = await open(w);
    const original = read(w.knowledge);
    const preview = await call(core, 'swarm.quarantine.preview', { ids: ['swarm-2', 'swarm-5'] });
    expect(preview).toMatchObject({ action: 'quarantine', tier: 'swarm', linkId: null, storeDir: fs.realpathSync(w.swarm) });
    const done = await call(core, 'swarm.quarantine.commit', confirm(preview.token));
    expect(done).toMatchObject({ state: 'committed', before: { entryCount: 5 }, after: { entryCount: 3 } });
    expect(read(w.knowledge)).toBe(original.split('\n').filter((l) => !l.includes('"swarm-2"') && !l.includes('"swarm-5"')).join('\n'));
    expect(records(path.join(w.dir, 'knowledge-quarantined.jsonl')).map((r) => [r.id, r.status, r.original_status, r.reported_by, r.quarantine_reason])).toEqual([
      ['swarm-2', 'quarantined', 'established', 'user', 'operator test'],
      ['swarm-5', 'quarantined', 'candidate', 'user', 'operator test'],
    ]);
    expect(records(path.join(w.dir, 'knowledge-rejected.jsonl')).map((r) => [r.id, r.rejection_layer])).toEqual([['swarm-2', 3], ['swarm-5', 3]]);

    const restore = await call(core, 'swarm.restore.preview', { ids: ['swarm-2', 'swarm-5'] });
    expect(restore.entries.map((e: any) => [e.id, e.from, e.restoreTo])).toEqual([['swarm-2', 'quarantined', 'established'], ['swarm-5', 'quarantined', 'candidate']]);
    await call(core, 'swarm.restore.commit', confirm(restore.token));
    expect(done.after.entryCount + 2).toBe(5);
    expect(read(w.knowledge).split('\n').filter((l) => /"id":"swarm-\d"/.test(l))).toHaveLength(5);
    const back = read(w.knowledge).split('\n').filter((l) => l.includes('"swarm-2"') || l.includes('"swarm-5"')).map((l) => JSON.parse(l));
    expect(back.map((e) => [e.id, e.status, 'quarantine_reason' in e, 'original_status' in e])).toEqual([['swarm-2', 'established', false, false], ['swarm-5', 'candidate', false, false]]);
    expect(read(path.join(w.dir, 'knowledge-quarantined.jsonl'))).toBe('');
    expect(read(path.join(w.dir, 'knowledge-rejected.jsonl'))).toBe('');
    expect(read(w.knowledge)).toContain('{"id":"torn\n');
  });

  it('restores an archived entry in place to the status its tombstone recorded', async () => {
    const w = workspace();
    const core = await open(w);
    const before = read(w.knowledge).split('\n');
    const preview = await call(core, 'swarm.restore.preview', { ids: ['swarm-4'] });
    expect(preview.entries).toMatchObject([{ id: 'swarm-4', from: 'archived', status: 'archived', restoreTo: 'established' }]);
    await call(core, 'swarm.restore.commit', confirm(preview.token));
    const after = read(w.knowledge).split('\n');
    const index = before.findIndex((l) => l.includes('"swarm-4"'));
    expect(after.filter((_, i) => i !== index)).toEqual(before.filter((_, i) => i !== index));
    expect(JSON.parse(after[index] as string)).toMatchObject({ id: 'swarm-4', status: 'established' });
    expect(JSON.parse(after[index] as string).updated_at).not.toBe('2026-06-20T10:15:02.118Z');
  });

  it('takes <project>/.swarm.lock: held by another writer, the commit aborts cleanly', async () => {
    const w = workspace();
    const core = await open(w, 800);
    const preview = await call(core, 'swarm.quarantine.preview', { ids: ['swarm-1'] });
    const release = await lockfile.lock(w.swarm, { stale: 5000, update: 2500, realpath: true });
    try {
      const refused = await core.dispatcher.forCaller(caller).call('swarm.quarantine.commit', confirm(preview.token));
      expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/lock_timeout.*\.swarm\.lock/) } });
    } finally {
      await release();
    }
    expect(read(w.knowledge)).toContain('"swarm-1"');
  });

  it('warns in the audit log when a concurrent plugin rewrite puts a quarantined entry back', async () => {
    const w = workspace();
    const core = await open(w);
    const original = read(w.knowledge);
    const preview = await call(core, 'swarm.quarantine.preview', { ids: ['swarm-3'] });
    const done = await call(core, 'swarm.quarantine.commit', confirm(preview.token));
    expect(done.revertCheckAt).not.toBeNull();
    fs.writeFileSync(w.knowledge, original);
    const backupDir = path.join(w.root, 'user-data', 'human-only', 'backups', done.backup);
    expect(await checkForRevert(core.human, caller, { op: SWARM_QUARANTINE_OP, store: w.knowledge, backupDir, ids: ['swarm-3'], token12: done.token12 })).toEqual(['swarm-3']);
    expect(core.human.audit.read().records.at(-1)).toMatchObject({ event: 'warning', ids: ['swarm-3'], message: expect.stringContaining('back in knowledge.jsonl') });
  });

  it('refuses when another file the commit rewrites changed after the preview', async () => {
    const w = workspace();
    const core = await open(w);
    const preview = await call(core, 'swarm.quarantine.preview', { ids: ['swarm-1'] });
    fs.appendFileSync(path.join(w.dir, 'knowledge-rejected.jsonl'), '{"id":"x","lesson":"l","rejection_reason":"r","rejected_at":"2026-07-01T00:00:00.000Z","rejection_layer":1}\n');
    const refused = await core.dispatcher.forCaller(caller).call('swarm.quarantine.commit', confirm(preview.token));
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'Refused (binding): knowledge-rejected.jsonl changed after the preview. Nothing was changed.' } });
  });
});

describe('link tier', () => {
  it('writes the link store under links/<id>.lock and leaves the orphaned local file alone', async () => {
    const w = workspace(true);
    const core = await open(w, 800);
    const local = read(path.join(w.swarm, 'knowledge.jsonl'));
    const preview = await call(core, 'swarm.quarantine.preview', { ids: ['swarm-3'] });
    expect(preview).toMatchObject({ tier: 'link', linkId: 'shared-ws', storeDir: fs.realpathSync(w.dir) });
    const release = await lockfile.lock(w.dir, { stale: 5000, update: 2500, realpath: true });
    const held = await core.dispatcher.forCaller(caller).call('swarm.quarantine.commit', confirm(preview.token));
    expect(held).toMatchObject({ ok: false, error: { message: expect.stringMatching(/lock_timeout.*links\/shared-ws\.lock/) } });
    await release();
    const again = await call(core, 'swarm.quarantine.preview', { ids: ['swarm-3'] });
    await call(core, 'swarm.quarantine.commit', confirm(again.token));
    expect(read(w.knowledge)).not.toContain('"swarm-3"');
    expect(records(path.join(w.dir, 'knowledge-quarantined.jsonl')).map((r) => r.id)).toEqual(['swarm-3']);
    expect(read(path.join(w.swarm, 'knowledge.jsonl'))).toBe(local);
    expect(fs.existsSync(path.join(w.swarm, 'knowledge-quarantined.jsonl'))).toBe(false);
  });
});

describe('promote to the hive', () => {
  it('appends the entry /swarm promote --from-swarm writes, once', async () => {
    const w = workspace();
    const core = await open(w);
    const hiveFile = path.join(w.hive, 'shared-learnings.jsonl');
    const hiveBefore = read(hiveFile);
    const preview = await call(core, 'swarm.promote.preview', { id: 'swarm-1' });
    const done = await call(core, 'swarm.promote.commit', confirm(preview.token));
    expect(read(hiveFile).startsWith(hiveBefore)).toBe(true);
    const added = records(hiveFile).at(-1);
    expect(added).toMatchObject({ id: done.ids[0], tier: 'hive', status: 'promoted', confidence: 1, encounter_score: 1, source_project: 'billing-api', lesson: 'Swarm lesson 1: distinct text so each line hashes differently.', confirmed_by: [] });
    expect(await core.dispatcher.forCaller(caller).call('swarm.promote.preview', { id: 'swarm-1' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/already holds this lesson/) } });
    expect(await core.dispatcher.forCaller(caller).call('swarm.promote.preview', { id: 'swarm-4' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/is archived/) } });
  });
});
