import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { generateDemoWorkspace } from '../../demo/generate';
import { knowledgeOf } from './knowledge-handlers';

// Enough lessons that near-duplicate clustering takes a while (seconds), off the request path.
const LESSONS = 20_000;

let core: ConsoleCore;
let root: string;
let project: string;

async function call<T = any>(name: string, input: unknown): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-background-'));
  project = path.join(root, 'project');
  generateDemoWorkspace({ projectDir: project, hiveDir: path.join(root, 'hive'), seed: 7, scale: { knowledgeEntries: LESSONS } });
  core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'test' }, { project, hive: path.join(root, 'hive') });
  await call('stores.summary', {});
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('knowledge work stays off the request path', () => {
  it('answers a table page query while near-duplicate clustering runs, then serves the clusters', async () => {
    const service = knowledgeOf(core.context.workspaces.current);
    let answered = false;
    const inboxes = call('knowledge.inboxes', {}).finally(() => (answered = true));
    await until(() => service.clustering, 'clustering to start');

    const page = await call('stores.entries', { limit: 50, sort: { field: 'confidence', dir: 'desc' } });
    expect(page.items).toHaveLength(50);
    expect(service.clustering).toBe(true);
    expect(answered).toBe(false);

    const first = await inboxes;
    expect(first.duplicatesFreshness).toMatchObject({ stale: false });
    expect(first.duplicates.find((g: { group: string }) => g.group === 'project').total).toBeGreaterThan(0);
  }, 120_000);

  it('serves the last clusters marked stale while newer ones are computed after a change', async () => {
    const service = knowledgeOf(core.context.workspaces.current);
    await service.settled();
    const before = await call('knowledge.inboxes', {});
    expect(before.duplicatesFreshness).toMatchObject({ stale: false, computing: false });

    const id = 'f0e1d2c3-b4a5-4697-8877-665544332211';
    const lesson = { id, tier: 'swarm', lesson: 'Rotate the staging webhook secret after every incident review.', category: 'security', tags: [], scope: 'global', confidence: 0.9, status: 'established', confirmed_by: [], retrieval_outcomes: {}, schema_version: 1, created_at: '2026-07-01T00:00:00.000Z', updated_at: '2026-07-01T00:00:00.000Z' };
    fs.appendFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), `${JSON.stringify(lesson)}\n`);
    await until(async () => (await call('stores.entries', { limit: 1, filter: { id } })).total === 1, 'the index to see the appended lesson');

    const during = await call('knowledge.inboxes', {});
    expect(during.duplicatesFreshness).toMatchObject({ stale: true, computing: true, asOf: before.duplicatesFreshness.asOf });
    expect(during.duplicates).toEqual(before.duplicates);
    expect((await call('knowledge.detail', { id })).id).toBe(id);

    await service.settled();
    const after = await call('knowledge.inboxes', {});
    expect(after.duplicatesFreshness).toMatchObject({ stale: false, computing: false });
    expect(Date.parse(after.duplicatesFreshness.asOf)).toBeGreaterThan(Date.parse(before.duplicatesFreshness.asOf));
  }, 120_000);
});
