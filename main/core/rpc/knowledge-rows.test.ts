import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../../shared/contract';
import { createConsoleCore, type ConsoleCore } from '../console-core';

/** `knowledge.rows`: a Knowledge table page with each row's markers, assembled in the core from one read. */

const VIOLATED = '3f0c2b8e-6a1d-4c7e-9b52-0d8e7f6a5c41';
const PLAIN = '8a4e1c93-2f6b-4d0a-b7e5-c19d3a6f2e80';
const HIVE = 'd5b7e2a0-9c3f-4e18-a6d4-5f1b0c8e7a92';

const outcomes = { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0, shown_count: 0, violated_count: 0 };
const entry = (id: string, tier: 'swarm' | 'hive', lesson: string, over: Record<string, unknown> = {}) => ({
  id,
  tier,
  lesson,
  category: 'process',
  tags: [],
  scope: 'global',
  confidence: 0.7,
  status: 'established',
  confirmed_by: [],
  retrieval_outcomes: outcomes,
  schema_version: 1,
  created_at: '2026-06-01T00:00:00.000Z',
  updated_at: '2026-06-01T00:00:00.000Z',
  project_name: 'rows-project',
  ...over,
});
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

let core: ConsoleCore;
let root: string;
let knowledgeFile: string;

async function call<T = any>(name: string, input: unknown): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message} ${JSON.stringify(result.error.issues ?? [])}`);
  return result.value as T;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'knowledge-rows-'));
  const project = path.join(root, 'rows-project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  knowledgeFile = path.join(project, '.swarm', 'knowledge.jsonl');
  fs.writeFileSync(
    knowledgeFile,
    jsonl([
      entry(VIOLATED, 'swarm', 'Never skip the migration dry run before a deploy window.', { updated_at: '2026-06-03T00:00:00.000Z', phases_alive: 4 }),
      entry(PLAIN, 'swarm', 'Keep fixture names stable so snapshot diffs stay readable.', { updated_at: '2026-06-02T00:00:00.000Z' }),
    ]),
  );
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), jsonl([entry(HIVE, 'hive', 'Pin container digests in every production manifest.')]));
  // A violation receipt in the project's event log gives one row a marker the others lack.
  fs.writeFileSync(
    path.join(project, '.swarm', 'knowledge-events.jsonl'),
    jsonl([
      { schema_version: 1, type: 'retrieved', trace_id: 't1', session_id: 's1', phase: 'Phase 2', agent: 'architect', query: 'q', retrieval_mode: 'auto_injection', result_ids: [VIOLATED], ranks: {}, scores: {}, event_id: 'e1', timestamp: '2026-06-03T00:00:00.000Z' },
      { schema_version: 1, type: 'violated', trace_id: 't1', session_id: 's1', agent: 'coder', knowledge_id: VIOLATED, reason: 'skipped', event_id: 'e2', timestamp: '2026-06-03T01:00:00.000Z' },
    ]),
  );
  core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'test' }, { project, hive });
});

afterAll(async () => {
  await core?.dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('knowledge.rows', () => {
  it('is one contract query over the stores.entries input', () => {
    expect(contract['knowledge.rows'].kind).toBe('query');
    expect(contract['knowledge.rows'].input).toBe(contract['stores.entries'].input);
  });

  it('returns the same page as stores.entries, each row with the markers knowledge.markers gives its rid', async () => {
    const input = { filter: { collection: ['active'] }, sort: { field: 'updated_at', dir: 'desc' }, facets: true };
    const entries = await call('stores.entries', input);
    const rows = await call('knowledge.rows', input);
    expect(rows.total).toBe(3);
    expect(rows.facets).toEqual(entries.facets);
    expect(rows.items.map(({ markers: _markers, ...item }: { markers: unknown }) => item)).toEqual(entries.items);
    const { markers } = await call('knowledge.markers', { rids: entries.items.map((i: { rid: number }) => i.rid) });
    for (const row of rows.items) expect(row.markers).toEqual(markers[String(row.rid)]);
    const violated = rows.items.find((r: { id: string }) => r.id === VIOLATED);
    expect(violated.markers.violationsInWindow).toBe(1);
    expect(rows.items.find((r: { id: string }) => r.id === PLAIN).markers.violationsInWindow).toBe(0);
    expect(rows.items.find((r: { id: string }) => r.id === HIVE).tier).toBe('hive');
    expect(Date.parse(rows.asOf)).not.toBeNaN();
  });

  it('pages, filters and searches exactly as stores.entries does', async () => {
    const second = await call('knowledge.rows', { offset: 1, limit: 1, sort: { field: 'updated_at', dir: 'desc' }, facets: false });
    expect(second).toMatchObject({ total: 3, facets: null });
    expect(second.items.map((r: { id: string }) => r.id)).toEqual([PLAIN]);
    const searched = await call('knowledge.rows', { filter: { text: 'digests', tier: ['hive'] } });
    expect(searched.items.map((r: { id: string; markers: unknown }) => [r.id, r.markers !== null])).toEqual([[HIVE, true]]);
    expect(searched.items[0].match.lesson.length).toBeGreaterThan(0);
  });

  it('follows a rewritten store: the rows and their markers come from the same read', async () => {
    const before = await call('knowledge.rows', { filter: { tier: ['swarm'] } });
    fs.writeFileSync(knowledgeFile, jsonl([entry(PLAIN, 'swarm', 'Keep fixture names stable so snapshot diffs stay readable.', { updated_at: '2026-06-05T00:00:00.000Z' })]));
    let after = before;
    for (let i = 0; i < 200 && after.total !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await call('knowledge.rows', { filter: { tier: ['swarm'] } });
    }
    expect(after.items.map((r: { id: string }) => r.id)).toEqual([PLAIN]);
    expect(after.items[0].markers).not.toBeNull();
    const { markers } = await call('knowledge.markers', { rids: [after.items[0].rid] });
    expect(after.items[0].markers).toEqual(markers[String(after.items[0].rid)]);
  });

  it('is held to the contract both ways: bad input is refused before the core reads, the output is checked on the way out', async () => {
    const refused = await core.dispatcher.call('knowledge.rows', { limit: 0 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const unknownField = await core.dispatcher.call('knowledge.rows', { filter: { lesson: 'x' } });
    expect(unknownField).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const page = await call('knowledge.rows', {});
    expect(contract['knowledge.rows'].output.safeParse(page).success).toBe(true);
    // A row without its markers field is not a Knowledge row.
    const { markers: _markers, ...bare } = page.items[0];
    expect(contract['knowledge.rows'].output.safeParse({ ...page, items: [bare] }).success).toBe(false);
  });
});
