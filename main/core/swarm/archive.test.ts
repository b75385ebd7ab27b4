import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { swarmEntryV1 } from '../../../testing/stores/sample-records';
import type { CallerContext } from '../human/confirmation';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { hiveLine } from '../../../testing/human/hive-fixture';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

const entryLine = (i: number, overrides: Record<string, unknown> = {}) =>
  JSON.stringify(swarmEntryV1({ id: `swarm-${i}`, lesson: `Swarm lesson ${i}: distinct text so each line hashes differently.`, ...overrides }));
const EARLIER_EVENT = JSON.stringify({ schema_version: 1, type: 'retrieved', event_id: 'e0', timestamp: '2026-06-30T00:00:00.000Z', result_ids: ['swarm-1'] });

/** A project (optionally linked to `links/shared-ws`) with entries, a torn line kept byte for byte, a hive and a curator summary. */
function workspace(linked = false) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'swarm-archive-'));
  const project = path.join(root, 'billing-api');
  const hive = path.join(root, 'data', 'opencode-swarm');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), `${hiveLine(1)}\n`);
  const lines = [entryLine(1), entryLine(2, { status: 'established' }), '{"id":"torn', entryLine(3), entryLine(4, { status: 'archived' })];
  let dir = swarm;
  if (linked) {
    dir = path.join(hive, 'links', 'shared-ws');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'shared-ws', createdAt: '2026-06-01T00:00:00.000Z', source: 'manual' }, null, 2));
  }
  fs.writeFileSync(path.join(dir, 'knowledge.jsonl'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'knowledge-events.jsonl'), `${EARLIER_EVENT}\n`);
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return { root, project, hive, swarm, dir, lines, knowledge: path.join(dir, 'knowledge.jsonl'), events: path.join(dir, 'knowledge-events.jsonl') };
}

async function open(w: ReturnType<typeof workspace>): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: path.join(w.root, 'user-data'), host: 'electron', version: 'test', human: { lockWaitMs: 3_000 } }, { project: w.project, hive: w.hive });
  cleanups.push(() => core.dispose());
  return core;
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown): Promise<T> {
  const result = await core.dispatcher.forCaller(caller).call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}
const confirm = (token: string, reason = 'curator: superseded') => ({ token, reason, confirmation: {} });
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

describe('swarm archive: what the plugin’s knowledge_archive (mode archive) does, human-only', () => {
  it.each([false, true])('archives in place with the plugin’s archived event; nothing quarantined or rejected; Restore brings the prior status back (linked %s)', async (linked) => {
    const w = workspace(linked);
    const core = await open(w);
    const preview = await call(core, 'swarm.archive.preview', { ids: ['swarm-2'] });
    expect(preview).toMatchObject({ action: 'archive', tier: linked ? 'link' : 'swarm', entries: [{ id: 'swarm-2', from: 'active', status: 'established', restoreTo: 'established' }] });
    expect(preview.effects.join(' ')).toMatch(/Nothing is quarantined and no rejected fingerprint is written/);

    const result = await call(core, 'swarm.archive.commit', confirm(preview.token));
    expect(result).toMatchObject({ state: 'committed', ids: ['swarm-2'] });
    const after = read(w.knowledge).split('\n');
    expect(after).toHaveLength(w.lines.length + 1);
    after.forEach((line, i) => i !== 1 && expect(line).toBe(w.lines[i] ?? ''));
    const archived = JSON.parse(after[1] as string);
    expect(archived).toEqual({ ...JSON.parse(w.lines[1] as string), status: 'archived', updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const events = read(w.events).trim().split('\n');
    expect(events[0]).toBe(EARLIER_EVENT);
    expect(JSON.parse(events[1] as string)).toEqual({ schema_version: 1, type: 'archived', entry_id: 'swarm-2', tier: 'swarm', actor: 'human:console', reason: 'curator: superseded', mode: 'archive', previous_status: 'established', event_id: expect.stringMatching(/^[0-9a-f-]{36}$/), timestamp: archived.updated_at });
    expect(fs.existsSync(path.join(w.dir, 'knowledge-quarantined.jsonl'))).toBe(false);
    expect(fs.existsSync(path.join(w.dir, 'knowledge-rejected.jsonl'))).toBe(false);
    expect(fs.existsSync(`${w.dir}.lock`)).toBe(false);
    const audit = await call(core, 'audit.list', {});
    expect(audit.records.map((r: any) => `${r.event}:${r.op}:${r.outcome}`)).toEqual(['preview:swarm.archive.commit:ok', 'commit:swarm.archive.commit:ok']);

    const restore = await call(core, 'swarm.restore.preview', { ids: ['swarm-2'] });
    expect(restore.entries).toMatchObject([{ id: 'swarm-2', from: 'archived', restoreTo: 'established' }]);
    await call(core, 'swarm.restore.commit', confirm(restore.token, 'archived by mistake'));
    expect(JSON.parse(read(w.knowledge).split('\n')[1] as string)).toMatchObject({ id: 'swarm-2', status: 'established' });
  });

  it('refuses an entry that is already archived, an unknown id, and a commit after the entry changed', async () => {
    const w = workspace();
    const core = await open(w);
    const api = core.dispatcher.forCaller(caller);
    expect(await api.call('swarm.archive.preview', { ids: ['swarm-4'] })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/already archived/) } });
    expect(await api.call('swarm.archive.preview', { ids: ['nope'] })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const preview = await call(core, 'swarm.archive.preview', { ids: ['swarm-3'] });
    const before = read(w.knowledge).replace(w.lines[3] as string, entryLine(3, { confidence: 0.9 }));
    fs.writeFileSync(w.knowledge, before);
    expect(await api.call('swarm.archive.commit', confirm(preview.token))).toMatchObject({ ok: false });
    expect(read(w.knowledge)).toBe(before);
    expect(read(w.events)).toBe(`${EARLIER_EVENT}\n`);
  });

  it('the review queue offers archive (not quarantine) for a curator archive recommendation on a project entry, and nothing for a hive entry', async () => {
    const w = workspace();
    const hiveId = JSON.parse(hiveLine(1)).id as string;
    const summary = {
      schema_version: 1,
      session_id: 's1',
      last_updated: '2026-07-01T00:00:00.000Z',
      last_phase_covered: 3,
      digest: '',
      phase_digests: [],
      compliance_observations: [],
      knowledge_recommendations: [
        { action: 'archive', entry_id: 'swarm-2', lesson: 'x', reason: 'superseded by a skill' },
        { action: 'archive', entry_id: hiveId, lesson: 'y', reason: 'stale' },
      ],
    };
    fs.writeFileSync(path.join(w.swarm, 'curator-summary.json'), JSON.stringify(summary));
    const core = await open(w);
    const queue = await call(core, 'review.queue', {});
    const recs = queue.items.filter((i: any) => i.kind === 'curator_recommendation');
    expect(recs.find((i: any) => i.title.includes('swarm-2'))).toMatchObject({ actions: ['approve'], command: { preview: 'swarm.archive.preview', id: 'swarm-2', label: expect.stringMatching(/^Archive/) } });
    expect(recs.find((i: any) => i.title.includes(hiveId))).toMatchObject({ actions: [], command: null });
  });
});
