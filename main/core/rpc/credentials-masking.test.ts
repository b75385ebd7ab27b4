import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { lines, swarmEntryV2 } from '../../../testing/stores/sample-records';
import { exportEntries } from '../store-index/entry-export';
import { storeIndexOf } from './store-handlers';

const SECRET_LESSON = 'Staging runs on postgres://billing:Zq9longsecret@db.staging/billing; CI used GITHUB_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 and API_KEY="k-123-xyz9"';
const MASKED_LESSON = 'Staging runs on postgres://billing:•••@db.staging/billing; CI used GITHUB_TOKEN=••• and API_KEY="•••"';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openProject(): Promise<{ core: ConsoleCore; project: string; userDataDir: string }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'credentials-rpc-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(
    path.join(project, '.swarm', 'knowledge.jsonl'),
    lines([swarmEntryV2({ id: 'secret-entry', lesson: SECRET_LESSON }), swarmEntryV2({ id: 'plain-entry', lesson: 'Visit https://example.com/path before sk and a3f9c2e1b7d4 hashes.' })]),
  );
  const userDataDir = path.join(root, 'user-data');
  const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
  cleanups.push(async () => {
    await core.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });
  return { core, project, userDataDir };
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message}`);
  return result.value as T;
}

describe('credentials leave the core masked', () => {
  it('masks entries and details, still finds them by the secret, and reveals one entry with an audit record that holds no secret', async () => {
    const { core, project } = await openProject();
    const before = fs.readFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), 'utf8');

    const page = await call(core, 'stores.entries', {});
    const lessons = Object.fromEntries(page.items.map((i: { id: string; lesson: string }) => [i.id, i.lesson]));
    expect(lessons['secret-entry']).toBe(MASKED_LESSON);
    expect(lessons['plain-entry']).toBe('Visit https://example.com/path before sk and a3f9c2e1b7d4 hashes.');

    // Full-text search runs on the stored (unmasked) text.
    const found = await call(core, 'stores.entries', { filter: { text: 'Zq9longsecret' } });
    expect(found.items.map((i: { id: string }) => i.id)).toEqual(['secret-entry']);
    expect(found.items[0].lesson).toBe(MASKED_LESSON);

    const rid = page.items.find((i: { id: string }) => i.id === 'secret-entry').rid as number;
    const detail = await call(core, 'stores.entry', { rid });
    expect(detail.raw.lesson).toBe(MASKED_LESSON);
    expect(detail.normalised.lesson).toBe(MASKED_LESSON);
    expect(JSON.stringify(detail)).not.toContain('Zq9longsecret');

    const revealed = await call(core, 'stores.reveal', { rid });
    expect(revealed.lesson).toBe(SECRET_LESSON);
    expect(revealed.raw.lesson).toBe(SECRET_LESSON);
    expect(revealed.kinds).toContain('url_userinfo');

    const audit = fs.readFileSync(core.human.audit.file, 'utf8');
    const reveal = audit.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((r) => r.event === 'reveal');
    expect(reveal).toMatchObject({ op: 'stores.reveal', outcome: 'ok', ids: ['secret-entry'] });
    expect(audit).not.toContain('Zq9longsecret');
    expect(audit).not.toContain('ghp_A1b2');

    // The store is never changed.
    expect(fs.readFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), 'utf8')).toBe(before);
  });
});

describe('exports carry masked text', () => {
  const SECRETS = ['Zq9longsecret', 'ghp_A1b2', 'k-123-xyz9'];

  it('masks every row of the entry export itself (CSV items and JSON Lines), before any quoting', async () => {
    const { core } = await openProject();
    const service = storeIndexOf(core.context.workspaces.current);
    await service.ready;
    const query = { filter: {}, sort: { field: 'updated_at' as const, dir: 'desc' as const } };
    const clock = { due: false };
    const items = [];
    for await (const batch of exportEntries(service.index, query, 'items', clock)) items.push(...batch);
    const raws: string[] = [];
    for await (const batch of exportEntries(service.index, query, 'raw', clock)) raws.push(...batch);
    expect(items.map((i) => i.lesson)).toContain(MASKED_LESSON);
    expect(raws.map((r) => (JSON.parse(r) as { lesson: string }).lesson)).toContain(MASKED_LESSON);
    for (const secret of SECRETS) expect(JSON.stringify([items, raws])).not.toContain(secret);
  });

  it.each(['csv', 'jsonl'])('knowledge.export %s holds no secret', async (format) => {
    const { core } = await openProject();
    const result = await call(core, 'knowledge.export', { format, filter: {}, sort: { field: 'updated_at', dir: 'desc' } });
    expect(result.count).toBe(2);
    for (const secret of SECRETS) expect(result.content).not.toContain(secret);
    expect(result.content).toContain('postgres://billing:•••@db.staging/billing');
  });
});
