import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import {
  gateDenyEvent,
  gateWarnEvent,
  hiveEntry,
  knowledgeEvent,
  line,
  lines,
  quarantinedEntry,
  rejectedLesson,
  swarmEntryV1,
  swarmEntryV2,
  unactionableEntry,
} from '../../../testing/stores/sample-records';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'store-handlers-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function write(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

async function open(project: string, hive: string): Promise<ConsoleCore> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-handlers-ud-'));
  const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
  cleanups.push(async () => {
    await core.dispose();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });
  return core;
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message} ${JSON.stringify(result.error.issues ?? [])}`);
  return result.value as T;
}

function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out[path.relative(root, full)] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return out;
}

function goodWorkspace() {
  const root = tempRoot();
  const project = path.join(root, 'billing-api');
  const hive = path.join(root, 'hive');
  const swarm = path.join(project, '.swarm');
  write(path.join(swarm, 'knowledge.jsonl'), lines([swarmEntryV1(), swarmEntryV2()]));
  write(path.join(swarm, 'knowledge-rejected.jsonl'), lines([rejectedLesson()]));
  write(path.join(swarm, 'knowledge-quarantined.jsonl'), lines([quarantinedEntry()]));
  write(path.join(swarm, 'knowledge-unactionable.jsonl'), lines([unactionableEntry()]));
  write(path.join(swarm, 'knowledge-events.jsonl'), lines([knowledgeEvent('retrieved'), knowledgeEvent('applied', { event_id: 'e2', timestamp: '2026-07-01T10:05:00.000Z' })]));
  write(path.join(swarm, 'events.jsonl'), lines([gateWarnEvent(), gateDenyEvent()]));
  write(path.join(swarm, 'skill-improver-quota.json'), JSON.stringify({ date: '2026-07-01', calls_used: 3, max_calls: 10, window: 'utc' }, null, 2) + '\n');
  write(
    path.join(swarm, 'skills', 'proposals', 'scope-discipline.md'),
    '---\nname: scope-discipline\ndescription: "Declare scope: before coder delegation"\ntriggers:\n  - coder delegation\nsource_knowledge_ids:\n  - 9b1d7e52-0c3a-4e8f-a6b2-71d4c9e0f385\ngenerated_at: 2026-07-01T14:00:00.000Z\nconfidence: 0.88\nstatus: draft\nversion: 1\n---\n\n# Declare scope\n',
  );
  write(path.join(hive, 'shared-learnings.jsonl'), lines([hiveEntry()]));
  return { root, project, hive, swarm };
}

describe('stores contract', () => {
  it('reads a healthy workspace: summary, entries with facets, entry detail, events, records, config', async () => {
    const ws = goodWorkspace();
    const before = hashTree(ws.root);
    const core = await open(ws.project, ws.hive);

    const summary = await call(core, 'stores.summary');
    const byKey = Object.fromEntries(summary.stores.map((s: any) => [s.key, s]));
    expect(byKey.knowledge).toMatchObject({ tier: 'swarm', pattern: '.swarm/knowledge.jsonl', exists: true, lines: 2, records: 2, defects: 0, status: 'ok' });
    expect(byKey.hive).toMatchObject({ tier: 'hive', pattern: 'shared-learnings.jsonl', records: 1, status: 'ok' });
    expect(byKey['knowledge-retractions']).toMatchObject({ exists: false, status: 'missing' });
    expect(byKey['skill-proposals']).toMatchObject({ records: 1, defects: 0 });

    const page = await call(core, 'stores.entries', { sort: { field: 'updated_at', dir: 'desc' } });
    expect(page.total).toBe(6);
    expect(page.facets.tier).toEqual(expect.arrayContaining([{ value: 'swarm', count: 5 }, { value: 'hive', count: 1 }]));
    expect(page.facets.collection).toEqual(expect.arrayContaining([{ value: 'rejected', count: 1 }, { value: 'quarantined', count: 1 }]));
    expect(page.items[0].updatedAt >= page.items[1].updatedAt).toBe(true);

    const active = await call(core, 'stores.entries', { filter: { collection: ['active'], tier: ['swarm'] } });
    expect(active.items.map((i: any) => i.id).sort()).toEqual([swarmEntryV1().id, swarmEntryV2().id].sort());
    expect(active.facets.tier).toEqual(expect.arrayContaining([{ value: 'hive', count: 1 }]));

    const search = await call(core, 'stores.entries', { filter: { text: 'declare_scop' }, sort: { field: 'relevance', dir: 'desc' } });
    expect(search.total).toBe(1);
    const lesson: string = search.items[0].lesson;
    const [start, end] = search.items[0].match.lesson[0];
    expect(lesson.slice(start, end).toLowerCase()).toBe('declare_scope');

    const entry = await call(core, 'stores.entry', { id: swarmEntryV1().id });
    expect(entry).toMatchObject({ store: 'knowledge', tier: 'swarm', file: '.swarm/knowledge.jsonl', line: 1, offset: 0 });
    expect(entry.raw.retrieval_outcomes).toEqual({ applied_count: 4, succeeded_after_count: 1, failed_after_count: 0 });
    expect(entry.normalised.retrieval_outcomes.shown_count).toBe(4);
    expect(entry.notes.map((n: any) => n.note)).toContain('legacy applied_count 4 shown as shown_count');

    const events = await call(core, 'stores.events', { filter: { store: ['events'] }, facets: true });
    expect(events.total).toBe(2);
    expect(events.items[0]).toMatchObject({ kind: 'knowledge_application_gate_deny', sessionId: 'ses_4Fq9xk2', file: '.swarm/events.jsonl' });
    const applied = await call(core, 'stores.events', { filter: { kind: ['applied'] } });
    expect(applied.items.map((e: any) => e.knowledgeId)).toEqual([swarmEntryV2().id]);

    const records = await call(core, 'stores.records', { store: 'skill-proposals' });
    expect(records.items[0].record.frontmatter).toMatchObject({ name: 'scope-discipline', description: 'Declare scope: before coder delegation', status: 'draft', triggers: ['coder delegation'] });

    const config = await call(core, 'stores.config');
    expect(config.settings).toEqual(expect.arrayContaining([expect.objectContaining({ section: 'knowledge', key: 'swarm_max_entries', value: 100, origin: 'default' })]));

    expect(hashTree(ws.root)).toEqual(before);
  });

  it('loads a workspace of hostile files: each defect reported with file:line:offset, the rest loads, nothing written', async () => {
    const ws = goodWorkspace();
    const k = path.join(ws.swarm, 'knowledge.jsonl');
    const big = JSON.stringify(swarmEntryV2({ id: 'big', lesson: 'x'.repeat(5 * 1024 * 1024) }));
    const content = [
      '\uFEFF' + JSON.stringify(swarmEntryV1({ id: 'a1' })) + '\r\n', // BOM + CRLF
      '{"id": "broken"\n', // invalid JSON in the middle
      big + '\n', // 5 MB line
      '["not", "an", "object"]\n',
      line(swarmEntryV1({ id: 'typed', confidence: 'high' })),
      line(swarmEntryV1({ id: 'weird', status: 'foo' })),
      line(swarmEntryV1({ id: 'a1', lesson: 'A second record with the same id as the first one.' })),
      JSON.stringify(swarmEntryV1({ id: 'tail' })).slice(0, 40), // truncated last line
    ].join('');
    write(k, content);
    write(path.join(ws.swarm, 'knowledge-retractions.jsonl'), '');
    fs.mkdirSync(path.join(ws.swarm, 'knowledge-application.jsonl')); // a directory where a file should be
    const before = hashTree(ws.root);
    const core = await open(ws.project, ws.hive);

    const defects = await call(core, 'stores.defects', { store: 'knowledge' });
    const offsetOf = (marker: string) => Buffer.byteLength(content.slice(0, content.indexOf(marker)));
    expect(defects.items.map((d: any) => [d.line, d.kind])).toEqual([
      [2, 'invalid_json'],
      [3, 'line_too_long'],
      [4, 'not_object'],
      [5, 'schema'],
      [6, 'unknown_enum'],
      [7, 'duplicate_id'],
      [8, 'incomplete_tail'],
    ]);
    expect(defects.items[0]).toMatchObject({ file: '.swarm/knowledge.jsonl', offset: offsetOf('{"id": "broken"') });
    expect(defects.items[3].reason).toBe('confidence: expected number, got string');
    expect(defects.items[4].reason).toMatch(/^unknown status "foo"/);
    expect(defects.items[5].reason).toBe('duplicate id "a1" (first on line 1)');

    const entries = await call(core, 'stores.entries', { filter: { store: ['knowledge'] }, sort: { field: 'updated_at', dir: 'asc' } });
    expect(entries.items.map((e: any) => e.id).sort()).toEqual(['a1', 'a1', 'typed', 'weird']);
    const typed = entries.items.find((e: any) => e.id === 'typed');
    expect(typed).toMatchObject({ confidence: null, flagged: true });
    expect(entries.items.find((e: any) => e.id === 'weird')).toMatchObject({ status: 'foo', flagged: true });

    const summary = await call(core, 'stores.summary');
    const byKey = Object.fromEntries(summary.stores.map((s: any) => [s.key, s]));
    expect(byKey.knowledge).toMatchObject({ status: 'defects', lines: 7, records: 4, defects: 7 });
    expect(byKey.knowledge.files[0].pendingTail).toBe(true);
    expect(byKey['knowledge-retractions']).toMatchObject({ exists: true, status: 'ok', lines: 0, records: 0 });
    expect(byKey['knowledge-application'].status).toBe('not_a_file');
    expect(byKey['knowledge-application'].message).toContain('is a directory where the store file should be');
    // Everything else still loaded.
    expect(byKey.hive).toMatchObject({ status: 'ok', records: 1 });

    expect(hashTree(ws.root)).toEqual(before);
  });

  it('reports a missing .swarm/ and a missing hive clearly', async () => {
    const root = tempRoot();
    const project = path.join(root, 'empty-project');
    fs.mkdirSync(project);
    const core = await open(project, path.join(root, 'no-hive'));
    const summary = await call(core, 'stores.summary');
    expect(summary.swarmDirExists).toBe(false);
    const byKey = Object.fromEntries(summary.stores.map((s: any) => [s.key, s]));
    expect(byKey.knowledge).toMatchObject({ exists: false, status: 'missing', message: '.swarm/ does not exist in this project' });
    expect(byKey.hive).toMatchObject({ exists: false, status: 'missing', message: 'shared-learnings.jsonl does not exist (nothing written yet)' });
    expect((await call(core, 'stores.entries')).total).toBe(0);
  });

  it('reads the knowledge family through link.json, reports orphaned local files, and follows a symlinked link store', async () => {
    const ws = goodWorkspace();
    const elsewhere = path.join(ws.root, 'team-store');
    write(path.join(elsewhere, 'knowledge.jsonl'), lines([swarmEntryV2({ id: 'linked-1' }), swarmEntryV2({ id: 'linked-2' })]));
    fs.mkdirSync(path.join(ws.hive, 'links'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(ws.hive, 'links', 'payments-cohort'));
    write(path.join(ws.swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'Payments Cohort', createdAt: '2026-06-30T08:12:00.000Z', source: 'manual' }, null, 2));
    const core = await open(ws.project, ws.hive);

    const summary = await call(core, 'stores.summary');
    expect(summary.link).toMatchObject({ linkId: 'payments-cohort', problem: null });
    const byKey = Object.fromEntries(summary.stores.map((s: any) => [s.key, s]));
    expect(byKey.knowledge).toMatchObject({ tier: 'link', pattern: 'links/payments-cohort/knowledge.jsonl', records: 2, status: 'ok' });
    expect(byKey['orphaned:knowledge.jsonl']).toMatchObject({ status: 'orphaned', records: 2 });
    expect(byKey['orphaned:knowledge.jsonl'].message).toContain('ignores this local file');

    const linked = await call(core, 'stores.entries', { filter: { tier: ['link'] } });
    expect(linked.items.map((e: any) => e.id).sort()).toEqual(['linked-1', 'linked-2']);
    // The ignored local entries are not shown as knowledge.
    expect((await call(core, 'stores.entries', { filter: { id: swarmEntryV1().id } })).total).toBe(0);
  });

  it('pushes a change event through the contract when another process appends, and the new event is queryable', async () => {
    const ws = goodWorkspace();
    const core = await open(ws.project, ws.hive);
    await call(core, 'stores.summary'); // starts the index and its watcher
    const received: any[] = [];
    const arrived = new Promise<void>((resolve) => {
      const sub = core.dispatcher.subscribe('stores.changes', {}, (event) => {
        received.push(event);
        if ((event as any).storeKey === 'events' && (event as any).kind === 'appended') resolve();
      });
      if (!sub.ok) throw new Error(sub.error.message);
      cleanups.push(sub.value);
    });
    const eventsFile = path.join(ws.swarm, 'events.jsonl');
    const appended = line(gateDenyEvent({ timestamp: '2026-07-02T09:00:00.000Z', sessionID: 'ses_from_child' }));
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['-e', `require('fs').appendFileSync(${JSON.stringify(eventsFile)}, ${JSON.stringify(appended)})`], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await arrived;
    expect(received.find((e) => e.storeKey === 'events')).toEqual({ storeKey: 'events', file: '.swarm/events.jsonl', path: eventsFile, kind: 'appended', count: 1 });
    const page = await call(core, 'stores.events', { filter: { session: 'ses_from_child' } });
    expect(page.items).toEqual([expect.objectContaining({ kind: 'knowledge_application_gate_deny', line: 3 })]);
  });

  it('reads a store file symlinked elsewhere inside the project through the link and says so', async () => {
    const ws = goodWorkspace();
    // (A symlink out of the project and the plugin's data folder is not read: symlink-outside.test.ts.)
    const shared = path.join(ws.project, 'shared', 'knowledge.jsonl');
    write(shared, lines([swarmEntryV2({ id: 'via-symlink' })]));
    fs.rmSync(path.join(ws.swarm, 'knowledge.jsonl'));
    fs.symlinkSync(shared, path.join(ws.swarm, 'knowledge.jsonl'));
    const core = await open(ws.project, ws.hive);
    const summary = await call(core, 'stores.summary');
    const knowledge = summary.stores.find((s: any) => s.key === 'knowledge');
    expect(knowledge).toMatchObject({ status: 'ok', records: 1 });
    expect(knowledge.files[0].symlinkTarget).toBe(shared);
    expect(knowledge.message).toContain(`symlink to ${shared}`);
    expect((await call(core, 'stores.entry', { id: 'via-symlink' })).file).toBe('.swarm/knowledge.jsonl');
  });

  it('switches the knowledge family to the link dir when link.json appears while open', async () => {
    const ws = goodWorkspace();
    write(path.join(ws.hive, 'links', 'team', 'knowledge.jsonl'), lines([swarmEntryV2({ id: 'team-entry' })]));
    const core = await open(ws.project, ws.hive);
    expect((await call(core, 'stores.entries', { filter: { tier: ['link'] } })).total).toBe(0);
    const switched = new Promise<void>((resolve) => {
      const seen = new Set<string>();
      const sub = core.dispatcher.subscribe('stores.changes', {}, (event: any) => {
        if (event.storeKey === 'knowledge' && event.file === 'links/team/knowledge.jsonl') seen.add('link');
        if (event.storeKey === 'orphaned:knowledge.jsonl') seen.add('orphan');
        if (seen.size === 2) resolve();
      });
      if (sub.ok) cleanups.push(sub.value);
    });
    write(path.join(ws.swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'team', createdAt: '2026-06-30T08:12:00.000Z', source: 'manual' }, null, 2) + '\n');
    await switched;
    const linked = await call(core, 'stores.entries', { filter: { tier: ['link'] } });
    expect(linked.items.map((e: any) => e.id)).toEqual(['team-entry']);
    const summary = await call(core, 'stores.summary');
    expect(summary.stores.find((s: any) => s.key === 'orphaned:knowledge.jsonl')).toMatchObject({ status: 'orphaned' });
    // The local entries are no longer shown as the swarm tier.
    expect((await call(core, 'stores.entries', { filter: { id: swarmEntryV1().id } })).total).toBe(0);
  });
});
