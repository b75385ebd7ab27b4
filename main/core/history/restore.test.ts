import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { hiveEntry, knowledgeEvent, lines, quarantinedEntry, rejectedLesson, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { restoreWorkspace } from '../../../testing/history/restore-workspace';
import { waitFor } from '../../../testing/history/plugin-writes';
import { capEntries, firstEvicted } from './eviction-order';
import { checkRestoreKept } from './restore-check';
import { sha256 } from './version-codec';

/** The workspace's history database, opened beside the console (WAL) to age it as its size budget would. */
function historyDb(userData: string): Database.Database {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else if (name === 'history.db') found.push(file);
    }
  };
  walk(path.join(userData, 'workspaces'));
  expect(found).toHaveLength(1);
  const db = new Database(found[0] as string);
  db.pragma('busy_timeout = 5000');
  return db;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const id = (n: number) => `e${String(n).padStart(3, '0')}`;
const entry = (n: number, extra: Record<string, unknown> = {}) =>
  swarmEntryV2({ id: id(n), lesson: `Lesson ${n}: retry the flaky upload with backoff.`, created_at: new Date(Date.UTC(2026, 5, 1, 0, n)).toISOString(), ...extra });
const confirm = (token: string, reason = 'evicted by mistake') => ({ token, reason, confirmation: {} });
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

describe('history.restore: a forgotten entry back in its active store', () => {
  it('round trip: preview → the person confirms → commit appends the exact line with its status, backed up, audited; history shows it back', async () => {
    const rejected = [rejectedLesson({ id: id(2), rejection_layer: 3 }), rejectedLesson({ id: 'other-lesson' })];
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2, { status: 'established' }), entry(3)], files: { 'knowledge-rejected.jsonl': lines(rejected) } }, cleanups);
    // Three active entries and two rejected fingerprints; the one of e002 was there before e002 left, so it is no move.
    await w.settled(5);
    await w.forget(w.knowledge, [id(2)]);
    fs.chmodSync(w.knowledge, 0o640);
    const before = read(w.knowledge);

    const preview = await w.call('history.restore.preview', { id: id(2) });
    const restored = JSON.parse(preview.line);
    expect(restored).toEqual({ ...entry(2, { status: 'established' }), updated_at: restored.updated_at });
    expect(Date.parse(restored.updated_at)).toBeGreaterThan(Date.parse('2026-06-22T16:40:10.003Z'));
    expect(preview).toMatchObject({ id: id(2), tier: 'swarm', restoreStatus: 'established', reason: { code: 'removed', text: 'removed (the stores do not say why)', inference: false }, cap: null, storeFile: fs.realpathSync(w.knowledge), lesson: 'Lesson 2: retry the flaky upload with backoff.' });
    expect(preview.effects).toEqual([expect.stringMatching(/^knowledge\.jsonl: append 1 line .* with status established/), `knowledge-rejected.jsonl: remove 1 fingerprint with the id ${id(2)}, as the plugin's restore does; every other line kept byte for byte`]);
    expect(read(w.knowledge)).toBe(before);

    const done = await w.call('history.restore.commit', confirm(preview.token));
    expect(w.person.shown.at(-1)).toMatchObject({ op: 'history.restore.commit', ids: [id(2)], title: `restore of ${id(2)} from history to the project's knowledge, with status established` });
    expect(done).toMatchObject({ state: 'committed', ids: [id(2)], before: { entryCount: 2 }, after: { entryCount: 3 }, revertCheckAt: expect.any(String) });
    expect(done.messages).toEqual(expect.arrayContaining([`Removed 1 rejected fingerprint with this id from knowledge-rejected.jsonl.`]));
    expect(read(w.knowledge)).toBe(`${before}${preview.line}\n`);
    expect(fs.statSync(w.knowledge).mode & 0o777).toBe(0o640);
    expect(read(path.join(w.swarm, 'knowledge-rejected.jsonl'))).toBe(lines([rejected[1]]));
    const backup = path.join(w.userData, 'human-only', 'backups', done.backup);
    expect(fs.readFileSync(path.join(backup, 'knowledge.jsonl'), 'utf8')).toBe(before);
    expect(JSON.parse(fs.readFileSync(path.join(backup, 'manifest.json'), 'utf8'))).toMatchObject({ op: 'history-restore', ids: [id(2)], version_sha256: preview.versionSha256 });
    expect(w.core.human.audit.read().records.at(-1)).toMatchObject({ event: 'commit', op: 'history.restore.commit', outcome: 'ok', ids: [id(2)], reason: 'evicted by mistake', backup: done.backup });

    // History follows: the entry is active again, and no longer forgotten.
    const back = await waitFor(async () => (await w.call('history.timeline', { id: id(2) })).versions.find((v: any) => v.kind === 'active' && v.to === null), 15_000, 'the restored version');
    expect(back).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), record: { status: 'established', updated_at: restored.updated_at } });
    expect(back.sha256).not.toBe(preview.versionSha256);
    expect((await w.call('history.forgotten', {})).entries.map((e: any) => e.id)).not.toContain(id(2));
    // A plugin pass that read the store before the commit drops the line again: the re-read says so.
    const check = { op: 'history.restore.commit', store: w.knowledge, backupDir: backup, id: id(2), token12: done.token12 };
    expect(await checkRestoreKept(w.core.human, w.caller, check)).toBe(true);
    fs.writeFileSync(w.knowledge, before);
    expect(await checkRestoreKept(w.core.human, w.caller, check)).toBe(false);
    expect(w.core.human.audit.read().records.at(-1)).toMatchObject({ event: 'warning', ids: [id(2)], message: expect.stringContaining(`The restored entry ${id(2)} is no longer in knowledge.jsonl`) });
    expect(JSON.parse(fs.readFileSync(path.join(backup, 'result.json'), 'utf8'))).toMatchObject({ state: 'committed', post_check: { dropped_ids: [id(2)] } });
    // The token commits once.
    expect(await w.refused('history.restore.commit', confirm(preview.token))).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/^Refused \(single use\)/) });
  }, 60_000);

  it('an archived version comes back with the status its tombstone recorded; without a tombstone, candidate', async () => {
    const events = lines([knowledgeEvent('archived', { entry_id: id(2), tier: 'swarm', actor: 'curator', reason: 'stale', mode: 'archive', previous_status: 'promoted', event_id: 'ev-2', timestamp: '2026-07-01T00:00:00.000Z' })]);
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2, { status: 'archived' }), entry(3, { status: 'quarantined' })], files: { 'knowledge-events.jsonl': events } }, cleanups);
    await w.settled(3);
    await w.forget(w.knowledge, [id(2), id(3)]);
    const two = await w.call('history.restore.preview', { id: id(2) });
    expect(two).toMatchObject({ restoreStatus: 'promoted', restoreStatusWhy: expect.stringContaining('the most recent archived tombstone of 2026-07-01T00:00:00.000Z says it was promoted before') });
    expect(JSON.parse(two.line).status).toBe('promoted');
    const three = await w.call('history.restore.preview', { id: id(3) });
    expect(three).toMatchObject({ restoreStatus: 'candidate', effects: [expect.any(String), 'knowledge-rejected.jsonl: not changed (it holds no fingerprint with the id e003)'] });
  }, 60_000);

  it('refuses when the store changed after the preview: nothing written, the backup removed', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2), entry(3)] }, cleanups);
    await w.settled(3);
    await w.forget(w.knowledge, [id(2)]);
    const preview = await w.call('history.restore.preview', { id: id(2) });
    fs.appendFileSync(w.knowledge, lines([entry(9)]));
    const changed = read(w.knowledge);
    expect(await w.refused('history.restore.commit', confirm(preview.token))).toEqual({
      code: 'forbidden',
      message: 'Refused (store fingerprint): The store now holds 3 entries, not the 2 of the preview (something was appended or removed). Nothing was changed.',
    });
    expect(read(w.knowledge)).toBe(changed);
    expect(w.backups()).toEqual([]);
    expect(w.core.human.audit.read().records.at(-1)).toMatchObject({ event: 'refusal', op: 'history.restore.commit', binding: 'store fingerprint' });
  }, 60_000);

  it('re-verifies under the plugin lock: a line appended while the commit waited for .swarm.lock refuses it, the append survives', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2), entry(3)] }, cleanups, { lockWaitMs: 20_000 });
    await w.settled(3);
    await w.forget(w.knowledge, [id(2)]);
    const preview = await w.call('history.restore.preview', { id: id(2) });
    const release = await lockfile.lock(w.swarm, { stale: 5_000, update: 1_000, realpath: true });
    let released = false;
    try {
      const commit = w.core.dispatcher.forCaller(w.caller).call('history.restore.commit', confirm(preview.token));
      // The backup is written before the lock is taken: once it exists the commit is waiting.
      await waitFor(() => w.backups().length === 1, 15_000, 'the backup');
      const appended = JSON.stringify(entry(9));
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', `require('node:fs').appendFileSync(${JSON.stringify(w.knowledge)}, ${JSON.stringify(`${appended}\n`)})`], { stdio: 'inherit' });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`append child exited ${code}`))));
      });
      const expected = read(w.knowledge);
      await release();
      released = true;
      const result = await commit;
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/^Refused \(store fingerprint\): The store now holds 3 entries, not the 2 of the preview/) } });
      expect(read(w.knowledge)).toBe(expected);
      expect(w.backups()).toEqual([]);
    } finally {
      if (!released) await release();
    }
  }, 60_000);

  it('refuses an id already in the store, one in the quarantine sidecar, an id or version history does not have', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2), entry(3)] }, cleanups);
    await w.settled(3);
    expect(await w.refused('history.restore.preview', { id: id(1) })).toEqual({ code: 'failed', message: `${id(1)} is already in knowledge.jsonl (status established); a restore from history appends, and would write the id twice.` });
    expect(await w.refused('history.restore.preview', { id: 'never-seen' })).toEqual({ code: 'not_found', message: 'History has no entry with the exact id never-seen; it can restore only what it recorded.' });
    expect(await w.refused('history.restore.preview', { id: id(1), sha256: 'a'.repeat(64) })).toEqual({ code: 'not_found', message: `History has no version aaaaaaaaaaaa… of ${id(1)} (it holds 1 version of that entry).` });

    // The plugin quarantined e003 to the sidecar: that is Knowledge → Restore's job.
    fs.writeFileSync(path.join(w.swarm, 'knowledge-quarantined.jsonl'), lines([quarantinedEntry({ ...entry(3), status: 'quarantined', original_status: 'established' })]));
    await w.forget(w.knowledge, [id(3)]);
    const sidecar = await w.refused('history.restore.preview', { id: id(3) });
    expect(sidecar).toEqual({ code: 'failed', message: `${id(3)} is in knowledge-quarantined.jsonl now; to restore it, use Knowledge → Restore (swarm.restore), which moves it back from the quarantine file as /swarm knowledge restore does.` });
    expect(w.core.human.audit.read().records.filter((r) => r?.op === 'history.restore.commit')).toEqual([]);
  }, 60_000);

  it('refuses a version that is not a JSON object, and a commit whose version history thinned after the preview', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2), entry(3)] }, cleanups);
    await w.settled(3);
    await w.forget(w.knowledge, [id(2)]);
    const preview = await w.call('history.restore.preview', { id: id(2) });
    const db = historyDb(w.userData);
    cleanups.push(() => db.close());
    // A version recorded under an id whose line is a JSON array (history keeps what the store held).
    const odd = '["id","odd"]';
    const now = Date.now();
    db.prepare('INSERT INTO versions(sha, entry_id, base_sha, depth, size, data, first_at) VALUES (?, ?, NULL, 0, ?, ?, ?)').run(sha256(odd), 'odd', odd.length, zlib.deflateRawSync(Buffer.from(odd)), now);
    db.prepare("INSERT INTO sightings(entry_id, tier, kind, store_key, path, file, sha, status, origin, first_seen, gone_at, gone_reason) VALUES ('odd', 'swarm', 'active', 'knowledge', ?, '.swarm/knowledge.jsonl', ?, NULL, 'live', ?, ?, 'removed')").run(w.knowledge, sha256(odd), now - 2000, now - 1000);
    expect(await w.refused('history.restore.preview', { id: 'odd' })).toEqual({ code: 'failed', message: `Version ${sha256(odd).slice(0, 12)}… of odd is not a JSON object; restoring it would append a line the plugin drops. Nothing can be previewed or written.` });

    const before = read(w.knowledge);
    db.prepare('DELETE FROM versions WHERE sha = ?').run(preview.versionSha256);
    expect(await w.refused('history.restore.commit', confirm(preview.token))).toEqual({ code: 'forbidden', message: `Refused (binding): History no longer holds version ${preview.versionSha256.slice(0, 12)}… of ${id(2)} (thinned after the preview); run the preview again. Nothing was changed.` });
    expect(read(w.knowledge)).toBe(before);
    expect(w.backups()).toEqual([]);
  }, 60_000);

  it('at the cap: names the entry the plugin would evict first (inactive, then lowest signal, then oldest) and says it may evict the restored one again', async () => {
    const bad = { retrieval_outcomes: { shown_count: 9, applied_explicit_count: 0, violated_count: 4, ignored_count: 2 } };
    const store = Array.from({ length: 100 }, (_, i) => entry(i + 1, i === 0 ? { status: 'promoted' } : i === 49 ? { status: 'candidate', ...bad } : i === 69 ? { status: 'archived' } : { status: 'candidate' }));
    const w = await restoreWorkspace({ swarm: store }, cleanups);
    await w.settled(100);
    await w.forget(w.knowledge, [id(100)]);
    const forgotten = (await w.call('history.forgotten', {})).entries.find((e: any) => e.id === id(100));
    expect(forgotten.reason).toEqual({ code: 'cap', text: 'no longer in the store (likely evicted by the 100-entry cap)', inference: true });
    const preview = await w.call('history.restore.preview', { id: id(100) });
    expect(preview.cap).toEqual({
      cap: 100,
      countAfter: 100,
      evictFirst: { id: id(70), lesson: 'Lesson 70: retry the flaky upload with backoff.' },
      text: `After the restore knowledge.jsonl holds 100 entries, at the plugin's cap of 100 (swarm_max_entries): the restore itself does not evict, but the plugin's next cap enforcement will; by its order (inactive first, then the lowest outcome signal, then the oldest) it evicts ${id(70)} first (status archived), and may evict the restored entry again later. knowledge_add alone evicts the oldest line first: ${id(2)}.`,
    });
  }, 60_000);

  it('refuses a store symlinked out of the workspace, at the preview and at a commit previewed before', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2), entry(3)] }, cleanups);
    await w.settled(3);
    await w.forget(w.knowledge, [id(2)]);
    const preview = await w.call('history.restore.preview', { id: id(2) });
    const outside = path.join(w.root, 'elsewhere', 'knowledge.jsonl');
    fs.mkdirSync(path.dirname(outside));
    fs.writeFileSync(outside, read(w.knowledge));
    fs.rmSync(w.knowledge);
    fs.symlinkSync(outside, w.knowledge);
    const commit = await w.refused('history.restore.commit', confirm(preview.token));
    expect(commit.message).toMatch(/^Aborted \(outside_store\): .*knowledge\.jsonl is a symlink outside the workspace/);
    expect(commit.message).toContain(`it leads to ${fs.realpathSync(outside)}`);
    expect((await w.refused('history.restore.preview', { id: id(2) })).message).toContain('knowledge.jsonl is a symlink outside the workspace');
    expect(read(outside)).toBe(lines([entry(1), entry(3)]));
    expect(fs.lstatSync(w.knowledge).isSymbolicLink()).toBe(true);
  }, 60_000);

  it('refuses a store the plugin imported into swarm.db, at the preview and at a commit previewed before', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2), entry(3)] }, cleanups);
    await w.settled(3);
    await w.forget(w.knowledge, [id(2)]);
    const preview = await w.call('history.restore.preview', { id: id(2) });
    fs.renameSync(w.knowledge, `${w.knowledge}.imported`);
    const archived = read(`${w.knowledge}.imported`);
    for (const refusal of [await w.refused('history.restore.commit', confirm(preview.token)), await w.refused('history.restore.preview', { id: id(2) })]) {
      expect(refusal.message).toContain("knowledge.jsonl has been imported into the plugin's swarm.db");
    }
    expect([fs.existsSync(w.knowledge), read(`${w.knowledge}.imported`), w.backups()]).toEqual([false, archived, []]);
  }, 60_000);

  it('link tier: appends to the link store under links/shared-ws.lock and removes its fingerprints; the project\'s own folder untouched', async () => {
    const w = await restoreWorkspace({ swarm: [entry(1), entry(2)], files: { 'knowledge-rejected.jsonl': lines([rejectedLesson({ id: id(2) })]) } }, cleanups, { linked: true, lockWaitMs: 800 });
    await w.settled(3);
    await w.forget(w.knowledge, [id(2)]);
    const preview = await w.call('history.restore.preview', { id: id(2) });
    expect(preview).toMatchObject({ tier: 'link', storeFile: fs.realpathSync(w.knowledge) });
    const release = await lockfile.lock(w.dir, { stale: 5_000, update: 1_000, realpath: true });
    const held = await w.refused('history.restore.commit', confirm(preview.token));
    await release();
    expect(held.message).toMatch(/lock_timeout.*links\/shared-ws\.lock/);
    const again = await w.call('history.restore.preview', { id: id(2) });
    const before = read(w.knowledge);
    await w.call('history.restore.commit', confirm(again.token));
    expect(read(w.knowledge)).toBe(`${before}${again.line}\n`);
    expect(read(path.join(w.dir, 'knowledge-rejected.jsonl'))).toBe('');
    expect(fs.readdirSync(w.swarm)).toEqual(['link.json']);
  }, 60_000);

  it('hive: appends to shared-learnings.jsonl under the hive lock, and touches no rejected file', async () => {
    const hive = [hiveEntry({ id: 'h1', lesson: 'Hive lesson one.' }), hiveEntry({ id: 'h2', lesson: 'Hive lesson two.', status: 'established' })];
    const w = await restoreWorkspace({ swarm: [entry(1)], hive }, cleanups);
    await w.settled(3);
    await w.forget(w.hiveStore, ['h2']);
    const before = read(w.hiveStore);
    const preview = await w.call('history.restore.preview', { id: 'h2' });
    expect(preview).toMatchObject({ tier: 'hive', restoreStatus: 'established', storeFile: fs.realpathSync(w.hiveStore) });
    expect(preview.warnings).toContain('shared-learnings-rejected.jsonl is not touched: its fingerprints have their own ids, not the entry id.');
    await w.call('history.restore.commit', confirm(preview.token));
    expect(read(w.hiveStore)).toBe(`${before}${preview.line}\n`);
    expect(fs.existsSync(path.join(w.hive, 'shared-learnings-rejected.jsonl'))).toBe(false);
  }, 60_000);
});

describe("the plugin's cap eviction order", () => {
  const ranked = (records: Record<string, unknown>[]) => firstEvicted(capEntries(records, new Map()))?.id;
  const r = (entryId: string, status: string, outcomes: Record<string, number> = {}) => ({ id: entryId, status, lesson: entryId, retrieval_outcomes: outcomes });
  it('spares promoted entries unless all are; inactive first; then the lowest outcome signal; then the oldest', () => {
    expect(ranked([r('a', 'promoted'), r('b', 'candidate'), r('c', 'candidate')])).toBe('b');
    expect(ranked([r('a', 'promoted'), r('b', 'promoted')])).toBe('a');
    expect(ranked([r('a', 'candidate'), r('b', 'established', { violated_count: 3 }), r('c', 'quarantined')])).toBe('c');
    expect(ranked([r('a', 'candidate'), r('b', 'established', { violated_count: 3 }), r('c', 'candidate', { applied_explicit_count: 2 })])).toBe('b');
    expect(ranked([])).toBeUndefined();
  });
});
