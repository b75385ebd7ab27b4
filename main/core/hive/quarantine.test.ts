import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import type { CallerContext } from '../human/confirmation';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { fileSha, makeHiveFixture, type HiveFixture } from '../../../testing/human/hive-fixture';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(fixture: HiveFixture): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: fixture.userData, host: 'electron', version: 'test', human: { lockWaitMs: 2_000, revertCheckMs: 60_000 } }, { project: fixture.project, hive: fixture.hive });
  cleanups.push(fixture.cleanup, () => core.dispose()) // run in reverse: the core closes before its folder goes;
  return core;
}

function setup(count = 6) {
  const fixture = makeHiveFixture(count);
  const person = new FakeConfirmation(true);
  const caller: CallerContext = { host: 'electron', confirmation: person };
  return { fixture, person, caller };
}

async function ok<T = any>(core: ConsoleCore, caller: CallerContext | null, name: string, input: unknown = {}): Promise<T> {
  const dispatcher = caller ? core.dispatcher.forCaller(caller) : core.dispatcher;
  const result = await dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

const storeIds = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        return [JSON.parse(l).id as string];
      } catch {
        return [];
      }
    });

describe('hive quarantine, end to end through the dispatcher', () => {
  it('previews, commits with a verified backup, keeps every other byte, and rolls back to the identical store', async () => {
    const { fixture, person, caller } = setup();
    const core = await open(fixture);
    const originalSha = fileSha(fixture.store);
    const original = fs.readFileSync(fixture.store, 'utf8');

    const preview = await ok(core, caller, 'hive.quarantine.preview', { ids: ['hive-0005', 'hive-0002'] });
    expect(preview.entries.map((e: any) => e.id)).toEqual(['hive-0002', 'hive-0005']);
    expect(preview.entries[0]).toMatchObject({ status: 'established', confidence: 0.5, sourceProject: 'ingest-svc' });
    expect(preview.store).toMatchObject({ entryCount: 6, fileSha256: originalSha });
    expect(preview.blastRadius.confirmedBy).toContainEqual({ entryId: 'hive-0002', project: 'ingest-svc' });
    expect(fileSha(fixture.store)).toBe(originalSha);

    const result = await ok(core, caller, 'hive.quarantine.commit', { token: preview.token, reason: 'leaked fixture', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', ids: ['hive-0002', 'hive-0005'], before: { entryCount: 6 }, after: { entryCount: 4 } });
    expect(person.shown[0]).toMatchObject({ title: 'hive quarantine of 2 entries', ids: ['hive-0002', 'hive-0005'], reason: 'leaked fixture' });

    const expected = original
      .split('\n')
      .filter((l) => !l.includes('"hive-0002"') && !l.includes('"hive-0005"'))
      .join('\n');
    expect(fs.readFileSync(fixture.store, 'utf8')).toBe(expected);
    const sidecar = fs.readFileSync(path.join(fixture.hive, 'shared-learnings-quarantined.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(sidecar.map((s) => [s.id, s.status, s.original_status, s.quarantine_token12, s.reported_by])).toEqual([
      ['hive-0002', 'quarantined', 'established', result.token12, 'user'],
      ['hive-0005', 'quarantined', 'established', result.token12, 'user'],
    ]);
    const events = fs.readFileSync(path.join(fixture.hive, 'shared-knowledge-events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events.map((e) => [e.type, e.tier, e.entry_id, e.actor, e.op, e.backup])).toEqual([
      ['quarantined', 'hive', 'hive-0002', 'human:hive-quarantine', 'commit', result.backup],
      ['quarantined', 'hive', 'hive-0005', 'human:hive-quarantine', 'commit', result.backup],
    ]);
    expect(JSON.stringify(events)).not.toContain('Lesson number');

    const backupDir = path.join(fixture.hive, 'quarantine-backups', result.backup);
    expect(result.backup).toMatch(new RegExp(`^\\d{8}T\\d{9}Z-${result.token12}-[0-9a-f]{8}$`));
    expect(fileSha(path.join(backupDir, 'shared-learnings.jsonl'))).toBe(originalSha);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest.selected.map((s: any) => [s.id, s.line_index])).toEqual([['hive-0002', 1], ['hive-0005', 5]]);

    const status = await ok(core, null, 'hive.quarantine.status');
    expect(status.backups[0]).toMatchObject({ name: result.backup, state: 'committed', verified: true, ids: ['hive-0002', 'hive-0005'] });
    expect(status.sidecarEntries).toBe(2);

    const rollback = await ok(core, caller, 'hive.rollback.preview', { token: result.token12.slice(0, 6) });
    expect(rollback).toMatchObject({ backup: result.backup, method: 'exact', collisions: [], skippedIdentical: [] });
    const rolled = await ok(core, caller, 'hive.rollback.commit', { token: rollback.token, reason: 'false alarm', confirmation: {} });
    expect(rolled.state).toBe('rolled_back');
    expect(fileSha(fixture.store)).toBe(originalSha);
    expect(fs.readFileSync(path.join(fixture.hive, 'shared-learnings-quarantined.jsonl'), 'utf8')).toBe('');

    // Idempotent: a second rollback finds every id back with identical bytes and changes nothing.
    const again = await ok(core, caller, 'hive.rollback.preview', { token: result.token12 });
    expect(again).toMatchObject({ method: 'none', restore: [], skippedIdentical: ['hive-0002', 'hive-0005'] });
    expect(await ok(core, caller, 'hive.rollback.commit', { token: again.token, reason: 'again', confirmation: {} })).toMatchObject({ state: 'nothing_to_do' });
    expect(fileSha(fixture.store)).toBe(originalSha);

    const audit = await ok(core, null, 'audit.list');
    expect(audit.chain).toMatchObject({ ok: true, brokenAt: null });
    expect(audit.records.map((r: any) => `${r.event}:${r.outcome}`)).toEqual(['preview:ok', 'commit:ok', 'preview:ok', 'rollback:ok', 'preview:ok', 'rollback:ok']);
    expect(fs.readFileSync(audit.path, 'utf8')).not.toContain(preview.token);
    // The per-install secret stays in its 0600 file: not in a response, the audit log or a backup.
    const secret = fs.readFileSync(path.join(fixture.userData, 'human-only', 'confirmation.key'), 'utf8').trim();
    expect(fs.statSync(path.join(fixture.userData, 'human-only', 'confirmation.key')).mode & 0o777).toBe(0o600);
    for (const text of [JSON.stringify([preview, result, rollback, rolled, audit]), fs.readFileSync(audit.path, 'utf8'), fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')]) {
      expect(text).not.toContain(secret);
    }
  });

  it('refuses every human-only call from a caller no person stands behind, and a commit missing token or confirmation', async () => {
    const { fixture, caller } = setup();
    const core = await open(fixture);
    const sha = fileSha(fixture.store);
    const unbound = await core.dispatcher.call('hive.quarantine.preview', { ids: ['hive-0001'] });
    expect(unbound).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(!unbound.ok && unbound.error.message).toMatch(/human-only and disabled here: .*console window/);

    const preview = await ok(core, caller, 'hive.quarantine.preview', { ids: ['hive-0001'] });
    const noToken = await core.dispatcher.forCaller(caller).call('hive.quarantine.commit', { reason: 'x', confirmation: {} });
    expect(noToken).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/needs the confirmation token/) } });
    const noConfirmation = await core.dispatcher.forCaller(caller).call('hive.quarantine.commit', { token: preview.token, reason: 'x' });
    expect(noConfirmation).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/needs the person's confirmation/) } });
    const script = await core.dispatcher.call('hive.quarantine.commit', { token: preview.token, reason: 'x', confirmation: {} });
    expect(script).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fileSha(fixture.store)).toBe(sha);
    const audit = await ok(core, null, 'audit.list');
    expect(audit.records.filter((r: any) => r.event === 'refusal').map((r: any) => r.binding)).toEqual(['caller', 'caller', 'caller', 'caller']);
  });

  it('Cancel in the dialog commits nothing, and the token stays usable for an OK', async () => {
    const { fixture, person, caller } = setup();
    const core = await open(fixture);
    const sha = fileSha(fixture.store);
    const preview = await ok(core, caller, 'hive.quarantine.preview', { ids: ['hive-0003'] });
    person.answer = false;
    const cancelled = await core.dispatcher.forCaller(caller).call('hive.quarantine.commit', { token: preview.token, reason: 'x', confirmation: {} });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'Not confirmed: The person pressed Cancel.' } });
    expect(fileSha(fixture.store)).toBe(sha);
    expect(fs.existsSync(path.join(fixture.hive, 'quarantine-backups'))).toBe(false);
    person.answer = true;
    expect(await ok(core, caller, 'hive.quarantine.commit', { token: preview.token, reason: 'x', confirmation: {} })).toMatchObject({ state: 'committed' });
    expect(storeIds(fixture.store)).not.toContain('hive-0003');
  });

  it('refuses unknown and ambiguous ids in the preview, exact ids only', async () => {
    const { fixture, caller } = setup();
    fs.appendFileSync(fixture.store, `${fs.readFileSync(fixture.store, 'utf8').split('\n')[0]}\n`);
    const core = await open(fixture);
    expect(await core.dispatcher.forCaller(caller).call('hive.quarantine.preview', { ids: ['hive-00'] })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await core.dispatcher.forCaller(caller).call('hive.quarantine.preview', { ids: ['hive-0001'] })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/occurs 2 times/) } });
  });

  it('a rollback refuses a collision (same id, different bytes) and changes nothing', async () => {
    const { fixture, caller } = setup();
    const core = await open(fixture);
    const preview = await ok(core, caller, 'hive.quarantine.preview', { ids: ['hive-0004'] });
    const result = await ok(core, caller, 'hive.quarantine.commit', { token: preview.token, reason: 'x', confirmation: {} });
    fs.appendFileSync(fixture.store, `${JSON.stringify({ id: 'hive-0004', lesson: 'a different lesson under the same id', tier: 'hive' })}\n`);
    const sha = fileSha(fixture.store);
    const rollback = await ok(core, caller, 'hive.rollback.preview', { token: null });
    expect(rollback.backup).toBe(result.backup);
    expect(rollback.collisions).toHaveLength(1);
    const refused = await core.dispatcher.forCaller(caller).call('hive.rollback.commit', { token: rollback.token, reason: 'x', confirmation: {} });
    expect(refused).toMatchObject({ ok: false, error: { code: 'failed', message: expect.stringMatching(/rollback_collision.*hive-0004 is in the hive with different content/) } });
    expect(fileSha(fixture.store)).toBe(sha);
  });

  it('a rollback after the hive changed re-adds the exact lines at its end and keeps the newer entry', async () => {
    const { fixture, caller } = setup();
    const core = await open(fixture);
    const preview = await ok(core, caller, 'hive.quarantine.preview', { ids: ['hive-0001', 'hive-0006'] });
    await ok(core, caller, 'hive.quarantine.commit', { token: preview.token, reason: 'x', confirmation: {} });
    const newer = JSON.stringify({ id: 'promoted-later', tier: 'hive', lesson: 'promoted after the quarantine' });
    fs.appendFileSync(fixture.store, `${newer}\n`);
    const afterAppend = fs.readFileSync(fixture.store, 'utf8');
    const rollback = await ok(core, caller, 'hive.rollback.preview', { token: null });
    expect(rollback).toMatchObject({ method: 'reinsert', restore: [{ id: 'hive-0001' }, { id: 'hive-0006' }] });
    expect(await ok(core, caller, 'hive.rollback.commit', { token: rollback.token, reason: 'undo', confirmation: {} })).toMatchObject({ state: 'rolled_back' });
    const backupSelected = fs.readFileSync(path.join(fixture.hive, 'quarantine-backups', rollback.backup, 'selected.jsonl'), 'utf8');
    expect(fs.readFileSync(fixture.store, 'utf8')).toBe(afterAppend + backupSelected);
  });
});
