import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EntriesInput, EventsInput, RecordsInput } from '../../../shared/contract/stores';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { writeSyntheticStores, syntheticIds } from '../../../testing/stores/synthetic-stores';
import { gateDenyEvent, line } from '../../../testing/stores/sample-records';
import { StoreIndexService } from './store-index-service';
import { listEntries } from './entry-queries';
import { listEvents } from './event-queries';
import { listRecords } from './store-queries';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function indexed() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'queries-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  writeSyntheticStores(project, hive, { events: 3000, entries: 800, receipts: 10 }, 3);
  const service = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), path.join(root, 'cache'), { watch: false });
  cleanups.push(async () => {
    await service.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  await service.ready;
  return { service, project, db: service.db };
}

const sqlCount = (db: StoreIndexService['db'], sql: string, ...params: unknown[]) => (db.prepare(sql).pluck().get(...params) as number) ?? 0;

describe('entry and event queries', () => {
  it('gives the same totals and facets as SQL over the index, for every kind of filter', async () => {
    const { service, db } = await indexed();
    const cases: [Record<string, unknown>, string, unknown[]][] = [
      [{}, '1 = 1', []],
      [{ status: ['candidate'] }, "status = 'candidate'", []],
      [{ tier: ['hive'], priority: ['critical', 'high'] }, "tier = 'hive' AND priority IN ('critical', 'high')", []],
      [{ collection: ['rejected'] }, "collection = 'rejected'", []],
      [{ tags: ['scope'] }, "rid IN (SELECT rid FROM entry_tags WHERE tag = 'scope')", []],
      [{ minConfidence: 0.5, category: ['testing'] }, "confidence >= 0.5 AND category = 'testing'", []],
      [{ text: 'cache' }, 'rid IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH \'"cache"*\')', []],
    ];
    for (const [filter, where, params] of cases) {
      const page = listEntries(db, service.columns.entries, EntriesInput.parse({ filter, limit: 5 }));
      expect(page.total, JSON.stringify(filter)).toBe(sqlCount(db, `SELECT count(*) FROM entries WHERE ${where}`, ...params));
      expect(page.items.length).toBe(Math.min(5, page.total));
    }
    // Disjunctive facets: the status facet ignores the status filter, the others apply it.
    const page = listEntries(db, service.columns.entries, EntriesInput.parse({ filter: { status: ['candidate'] } }));
    const statusFacet = Object.fromEntries(page.facets!.status.map((f) => [f.value, f.count]));
    expect(statusFacet.established).toBe(sqlCount(db, "SELECT count(*) FROM entries WHERE status = 'established'"));
    const categoryTotal = page.facets!.category.reduce((n, f) => n + f.count, 0);
    expect(categoryTotal).toBe(page.total);
    const tagFacet = Object.fromEntries(page.facets!.tags.map((f) => [f.value, f.count]));
    expect(tagFacet.scope).toBe(sqlCount(db, "SELECT count(*) FROM entries e JOIN entry_tags t ON t.rid = e.rid WHERE e.status = 'candidate' AND t.tag = 'scope'"));
  });

  it('sorts pages as asked and pages through without overlap', async () => {
    const { service, db } = await indexed();
    const first = listEntries(db, service.columns.entries, EntriesInput.parse({ sort: { field: 'confidence', dir: 'desc' }, limit: 20, facets: false }));
    const second = listEntries(db, service.columns.entries, EntriesInput.parse({ sort: { field: 'confidence', dir: 'desc' }, limit: 20, offset: 20, facets: false }));
    const all = [...first.items, ...second.items];
    expect(new Set(all.map((i) => i.rid)).size).toBe(40);
    const confidences = all.map((i) => i.confidence ?? -1);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    const byPriority = listEntries(db, service.columns.entries, EntriesInput.parse({ filter: { collection: ['active'] }, sort: { field: 'priority', dir: 'desc' }, limit: 5 }));
    expect(byPriority.items.every((i) => i.priority === 'critical')).toBe(true);
  });

  it('filters events by kind, session, agent and knowledge id with exact totals, newest first', async () => {
    const { service, db } = await indexed();
    const kind = listEvents(db, service.columns.events, EventsInput.parse({ filter: { kind: ['applied'] }, facets: true }));
    expect(kind.total).toBe(sqlCount(db, "SELECT count(*) FROM events WHERE kind = 'applied'"));
    expect(kind.items.every((e) => e.kind === 'applied')).toBe(true);
    const times = kind.items.map((e) => Date.parse(e.ts ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(kind.facets!.kind.find((f) => f.value === 'violated')?.count).toBe(sqlCount(db, "SELECT count(*) FROM events WHERE kind = 'violated'"));

    const session = syntheticIds.session(17);
    const bySession = listEvents(db, service.columns.events, EventsInput.parse({ filter: { session, agent: 'coder' } }));
    expect(bySession.total).toBe(sqlCount(db, "SELECT count(*) FROM events WHERE session_id = ? AND agent = 'coder'", session));
    const since = listEvents(db, service.columns.events, EventsInput.parse({ filter: { since: '2026-03-01T00:00:00.000Z', store: ['events'] } }));
    expect(since.total).toBe(sqlCount(db, "SELECT count(*) FROM events WHERE store_key = 'events' AND ts_ms >= ?", Date.parse('2026-03-01T00:00:00.000Z')));
  });

  it('leaves rows without a value out of the agent, session, knowledge and trace indexes, which still serve filters on them', async () => {
    const { db } = await indexed();
    const planOf = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    const partial: [string, string, string][] = [
      ['events', 'events_agent', 'agent'],
      ['events', 'events_session', 'session_id'],
      ['events', 'events_knowledge', 'knowledge_id'],
      ['receipts', 'receipts_trace', 'trace_id'],
    ];
    for (const [table, index, column] of partial) {
      // A partial index cannot answer a query over every row (SQLite refuses to plan it).
      expect(() => db.prepare(`SELECT rid FROM ${table} INDEXED BY ${index}`).all(), index).toThrow(/no query solution/);
      expect(() => db.prepare(`SELECT rid FROM ${table} INDEXED BY ${index} WHERE ${column} IS NOT NULL`).all(), index).not.toThrow();
      const order = table === 'events' ? 'ORDER BY t.ts_ms DESC, t.rid DESC' : 'ORDER BY t.rid';
      expect(planOf(`SELECT t.rid FROM ${table} t WHERE t.${column} = ? ${order} LIMIT 100`, 'x'), index).toContain(`INDEX ${index} (${column}=?)`);
    }
  });

  it('keeps entry tags as one (tag, rid) b-tree, which tag filters search by tag', async () => {
    const { db } = await indexed();
    const planOf = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(planOf('SELECT rid FROM entry_tags WHERE tag = ?', 'x')).toContain('USING PRIMARY KEY (tag=?)');
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'entry_tags' AND sql IS NOT NULL").pluck().get()).toBe(0);
    // A pair written twice is kept once.
    const [pair] = db.prepare('SELECT tag, rid FROM entry_tags LIMIT 1').all() as { tag: string; rid: number }[];
    expect(pair).toBeDefined();
    db.prepare('INSERT INTO entry_tags(rid, tag) VALUES (?, ?)').run(pair!.rid, pair!.tag);
    expect(db.prepare('SELECT count(*) FROM entry_tags WHERE tag = ? AND rid = ?').pluck().get(pair!.tag, pair!.rid)).toBe(1);
  });

  it('finds receipts by trace id and type, each shown with its own record\'s trace, type and time', async () => {
    const { db } = await indexed();
    const all = listRecords(db, RecordsInput.parse({ store: 'receipts-journal', limit: 100 }))!;
    expect(all.total).toBe(10);
    for (const item of all.items) expect([item.id, item.kind, item.ts]).toEqual([item.record.trace_id, item.record.type, item.record.ts]);
    const terminal = all.items.find((i) => i.kind === 'terminal')!;
    const byTrace = listRecords(db, RecordsInput.parse({ store: 'receipts-journal', filter: { id: terminal.id, kind: ['terminal'] } }))!;
    expect(byTrace.items.map((i) => i.line)).toEqual(all.items.filter((i) => i.id === terminal.id && i.kind === 'terminal').map((i) => i.line));
    expect(byTrace.total).toBe(1);
  });

  it('keeps totals exact after an append and after a rewrite', async () => {
    const { service, db, project } = await indexed();
    const file = path.join(project, '.swarm', 'events.jsonl');
    const storeFile = { storeKey: 'events', tier: 'swarm' as const, path: file, name: '.swarm/events.jsonl', orphaned: false, symlinkTarget: null };
    const before = listEvents(db, service.columns.events, EventsInput.parse({ filter: { session: 'appended-session' } }));
    expect(before.total).toBe(0);
    fs.appendFileSync(file, line(gateDenyEvent({ sessionID: 'appended-session' })) + line(gateDenyEvent({ sessionID: 'appended-session' })));
    await service.schedule(storeFile);
    expect(listEvents(db, service.columns.events, EventsInput.parse({ filter: { session: 'appended-session' } })).total).toBe(2);
    fs.writeFileSync(`${file}.tmp.1`, line(gateDenyEvent({ sessionID: 'rewritten' })));
    fs.renameSync(`${file}.tmp.1`, file);
    await service.schedule(storeFile);
    expect(listEvents(db, service.columns.events, EventsInput.parse({ filter: { session: 'appended-session' } })).total).toBe(0);
    expect(listEvents(db, service.columns.events, EventsInput.parse({ filter: { store: ['events'] } })).total).toBe(1);
  });
});
