import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { generateDemoWorkspace } from '../../demo/generate';
import { KnowledgeSource } from '../store-index/knowledge-source';
import { toCsv, toJsonl } from '../knowledge/export-entries';
import { storeIndexOf } from './store-handlers';

let core: ConsoleCore;
let root: string;

async function call<T = any>(name: string, input: unknown): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-export-'));
  const project = path.join(root, 'project');
  generateDemoWorkspace({ projectDir: project, hiveDir: path.join(root, 'hive'), seed: 3, scale: { knowledgeEntries: 1500 } });
  core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'test' }, { project, hive: path.join(root, 'hive') });
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every item of the table's own query, page by page: what an export must hold, in the same order. */
async function allPages(filter: unknown, sort: unknown) {
  const items = [];
  for (let offset = 0; ; offset += 500) {
    const page = await call('stores.entries', { offset, limit: 500, filter, sort, facets: false });
    items.push(...page.items);
    if (items.length >= page.total || page.items.length === 0) return items;
  }
}

const CASES = [
  { filter: {}, sort: { field: 'updated_at', dir: 'desc' } },
  { filter: { tier: ['hive'] }, sort: { field: 'lesson', dir: 'asc' } },
  { filter: { status: ['established', 'candidate'] }, sort: { field: 'priority', dir: 'desc' } },
  { filter: { text: 'test' }, sort: { field: 'relevance', dir: 'desc' } },
  { filter: { collection: ['rejected', 'quarantined'] }, sort: { field: 'category', dir: 'asc' } },
];

describe('export of the filtered set in one query', () => {
  it.each(CASES)('holds exactly the rows the table pages through ($filter, $sort.field)', async ({ filter, sort }) => {
    const items = await allPages(filter, sort);
    expect(items.length).toBeGreaterThan(0);
    const csv = await call('knowledge.export', { format: 'csv', filter, sort });
    // The table's items carry search highlights; the CSV columns do not include them.
    expect(csv).toMatchObject({ count: items.length, total: items.length, truncated: false });
    expect(csv.content).toBe(toCsv(items));
    const jsonl = await call('knowledge.export', { format: 'jsonl', filter, sort });
    const source = new KnowledgeSource(storeIndexOf(core.context.workspaces.current).db);
    expect(jsonl.content).toBe(toJsonl(source.rawEntryLines(items.map((i: { rid: number }) => i.rid))));
  });
});
