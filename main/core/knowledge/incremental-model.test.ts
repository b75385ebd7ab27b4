import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectivesQuery } from '../../../shared/contract/knowledge';
import { StoreIndexService } from '../store-index/store-index-service';
import { hiveEntry, knowledgeEvent, line, lines, rejectedLesson, swarmEntryV2, unactionableEntry } from '../../../testing/stores/sample-records';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { listDirectives } from './directive-list';
import { entryDetail } from './entry-detail';
import { KnowledgeService } from './knowledge-service';
import type { KnowledgeModel } from './knowledge-model';
import { entryId } from '../rules/entry-fields';

/**
 * The incremental knowledge model equals a model built from scratch on the same files: after each
 * step of appends and rewrites, one long-lived service (which grows its model by the appended
 * lines) and a fresh service (which builds everything) must give the same counters, markers,
 * copies, events, directive rows and Directives pages in every sort, injection sources, cluster
 * groups, counterparts, inboxes (clusters included) and injection previews.
 */

const NOW = Date.parse('2026-07-10T00:00:00.000Z');
const SORTS = ['priority', 'expiry', 'violations', 'signal', 'updated', 'shown'] as const;
const PHASES = ['Phase 3: implement the refunds API', 'Phase 5: review and test'];

let n = 0;
const uuid = (k: number) => `cafe0000-0000-4000-8000-${String(k).padStart(12, '0')}`;
/** A project lesson; `variant` lessons of one `theme` are near-duplicates of each other. */
function lesson(k: number, theme: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  n++;
  return swarmEntryV2({
    id: uuid(k),
    lesson: `${theme} before merging the change into the main branch of the repository (note ${k % 3}).`,
    updated_at: `2026-06-${String(10 + (k % 15)).padStart(2, '0')}T00:00:00.000Z`,
    directive_priority: (['critical', 'high', 'medium', 'low'] as const)[k % 4],
    phases_alive: k % 7,
    max_phases: 8,
    ...over,
  });
}
const plain = (k: number, theme: string, over: Record<string, unknown> = {}) => {
  const value = lesson(k, theme, over);
  for (const field of ['triggers', 'required_actions', 'forbidden_actions', 'applies_to_agents', 'applies_to_tools', 'verification_checks', 'directive_priority', 'enforcement_mode']) delete value[field];
  return value;
};
const event = (type: string, id: string, at: string, over: Record<string, unknown> = {}) =>
  knowledgeEvent(type, { knowledge_id: id, timestamp: at, event_id: `ev-${type}-${id}-${at}`, ...(type === 'retrieved' ? { result_ids: [id] } : {}), ...over });

interface Workspace {
  root: string;
  project: string;
  files: Record<'knowledge' | 'hive' | 'rejected' | 'unactionable' | 'events' | 'legacy', string>;
  index: StoreIndexService;
  service: KnowledgeService;
}

let ws: Workspace;

beforeAll(async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'incremental-model-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  const files = {
    knowledge: path.join(swarm, 'knowledge.jsonl'),
    rejected: path.join(swarm, 'knowledge-rejected.jsonl'),
    unactionable: path.join(swarm, 'knowledge-unactionable.jsonl'),
    events: path.join(swarm, 'knowledge-events.jsonl'),
    legacy: path.join(swarm, 'knowledge-application.jsonl'),
    hive: path.join(hive, 'shared-learnings.jsonl'),
  };
  fs.writeFileSync(
    files.knowledge,
    lines([
      lesson(1, 'Run the contract tests'),
      lesson(2, 'Run the contract tests'),
      plain(3, 'Pin the lockfile'),
      lesson(4, 'Declare the scope', { status: 'archived' }),
      lesson(5, 'Rebuild the client', { status: 'candidate' }),
      plain(6, 'Pin the lockfile'),
      // Unrelated lessons, so that an append is a small share of the store (as it is in practice).
      ...Array.from({ length: 80 }, (_, i) => plain(1000 + i, '', { lesson: `Note ${i}: alpha${i} beta${i} gamma${i} delta${i} epsilon${i}.` })),
    ]),
  );
  fs.writeFileSync(files.hive, lines([hiveEntry({ id: uuid(100), lesson: lesson(1, 'Run the contract tests').lesson }), hiveEntry({ id: uuid(101), lesson: 'Prefer streams for large payloads.' })]));
  fs.writeFileSync(files.rejected, lines([rejectedLesson({ id: uuid(200) }), rejectedLesson({ id: uuid(3), rejection_layer: 3, rejected_at: '2026-06-22T00:00:00.000Z' })]));
  fs.writeFileSync(files.unactionable, lines([unactionableEntry({ id: uuid(300) })]));
  fs.writeFileSync(files.events, lines([event('retrieved', uuid(1), '2026-07-01T10:00:00.000Z'), event('applied', uuid(1), '2026-07-01T10:01:00.000Z'), event('violated', uuid(2), '2026-07-02T10:00:00.000Z')]));
  fs.writeFileSync(files.legacy, lines([{ timestamp: '2026-06-30T09:00:00.000Z', knowledgeId: uuid(5), result: 'applied' }]));
  const index = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), path.join(root, 'cache'), { watch: false });
  await index.ready;
  ws = { root, project, files, index, service: new KnowledgeService(index, project, () => NOW) };
});

afterAll(async () => {
  await ws.service.dispose();
  await ws.index.close();
  fs.rmSync(ws.root, { recursive: true, force: true });
});

/** Everything the knowledge views show, as plain data (freshness stamps left out: they say when, not what). */
async function snapshot(service: KnowledgeService) {
  await service.settled();
  const model: KnowledgeModel = await service.model();
  const entries = model.inputs.entries;
  const ids = [...new Set(entries.map((e) => entryId(e.value)))];
  const where = (e: { rid: number }) => e.rid;
  const directives = SORTS.flatMap((sort) => [false, true].map((includeInactive) => listDirectives(model, DirectivesQuery.parse({ sort, includeInactive, limit: 500 }))));
  const previews = [];
  for (const phase of PHASES) previews.push(await service.previewInjection({ phase, agent: 'coder', tool: 'task', headroomPercent: 70, filePaths: [] }));
  const plainData = {
    asOf: model.asOf,
    entries: entries.map((e) => ({ rid: e.rid, outcomes: model.outcomes(e), markers: model.markers(e), detail: entryDetail(model, e) })),
    lessons: model.lessons().map(where),
    copies: ids.map((id) => [id, model.byId(id).map(where), model.find(id)?.rid, model.events(id)]),
    directiveRows: model.directiveRows(),
    directives,
    injectionSources: model.injectionSources(),
    clusterGroups: model.clusterGroups().map((g) => ({ group: g.group, rids: g.entries.map(where) })),
    counterparts: model.lessons().map((e) => model.counterparts(e).map((c) => [c.entry.rid, c.similarity, c.exact])),
    inboxes: await service.inboxes(),
    previews,
  };
  return JSON.parse(JSON.stringify(plainData, (key, value) => (key === 'freshness' || key === 'duplicatesFreshness' ? undefined : value)));
}

async function fromScratch() {
  const fresh = new KnowledgeService(ws.index, ws.project, () => NOW);
  try {
    return await snapshot(fresh);
  } finally {
    await fresh.dispose();
  }
}

async function changed(...files: string[]) {
  for (const file of files) fs.utimesSync(file, new Date(), new Date(Date.now() + ++n * 1000));
  await ws.index.rescan();
  await ws.index.idle();
}

/**
 * The incremental model after the step, checked against a fresh build; returns how many of the
 * service's builds (one or more per step: the index may report the files apart) went over every entry.
 */
async function step(): Promise<number> {
  const incremental = await snapshot(ws.service);
  const fullBuilds = ws.service.fullBuilds;
  expect(incremental).toEqual(await fromScratch());
  // The comparison has something to compare: clusters, counterparts, directives, triage and previews.
  expect(incremental.inboxes.duplicates[0].clusters.length).toBeGreaterThan(0);
  expect(incremental.counterparts.flat().length).toBeGreaterThan(0);
  expect(incremental.directives[0].rows.length).toBeGreaterThan(2);
  expect(incremental.inboxes.rejected.flatMap((g: { items: unknown[] }) => g.items).length).toBeGreaterThan(1);
  expect(incremental.previews[0].consideredCount).toBeGreaterThan(3);
  expect(incremental.previews[0].mergedCount).toBeGreaterThan(0);
  return fullBuilds;
}

describe('incremental knowledge model', () => {
  it('equals a model built from scratch after every append and rewrite', async () => {
    expect(await step()).toBe(1);

    // A directive, a near-duplicate that joins a cluster, and a hive counterpart of a project lesson.
    const grown = { ...ws.service.grown };
    fs.appendFileSync(ws.files.knowledge, lines([lesson(7, 'Run the contract tests'), plain(8, 'Rotate the signing keys'), lesson(9, 'Rebuild the client', { status: 'established' })]));
    await changed(ws.files.knowledge);
    expect(await step()).toBe(1);
    // The clusters and the tier merge were grown by the appended lessons, not computed again.
    expect(ws.service.grown.clusters).toBeGreaterThan(grown.clusters);
    expect(ws.service.grown.merges).toBeGreaterThan(grown.merges);

    // Counters only: shown, applied and violated events and a legacy line (rows, markers and the window move).
    fs.appendFileSync(ws.files.events, lines([event('retrieved', uuid(7), '2026-07-05T10:00:00.000Z'), event('violated', uuid(7), '2026-07-05T11:00:00.000Z'), event('violated', uuid(1), '2026-07-06T11:00:00.000Z')]));
    fs.appendFileSync(ws.files.legacy, line({ timestamp: '2026-07-06T12:00:00.000Z', knowledgeId: uuid(9), result: 'violated' }));
    await changed(ws.files.events, ws.files.legacy);
    expect(await step()).toBe(1);
    const afterCounters = await ws.service.model();
    // Only the rows of the ids those events name, and of rows with violations (the week's anchor moved), were computed again.
    expect(afterCounters.rowsComputed).toBeGreaterThan(0);
    expect(afterCounters.rowsComputed).toBeLessThan(afterCounters.directiveRows().length);

    // The week moves on: an event days later drops an old violation (of an id no new event names) out of the window.
    fs.appendFileSync(ws.files.events, line(event('retrieved', uuid(5), '2026-07-12T10:00:00.000Z')));
    await changed(ws.files.events);
    expect(await step()).toBe(1);

    // Lessons and events at once, a second copy of an id, a rejected fingerprint of a known id, the queue and the hive.
    fs.appendFileSync(ws.files.knowledge, lines([lesson(10, 'Declare the scope'), plain(2, 'Run the contract tests', { status: 'candidate' })]));
    fs.appendFileSync(ws.files.events, lines([event('acknowledged', uuid(10), '2026-07-07T10:00:00.000Z'), event('retrieved', uuid(2), '2026-07-07T11:00:00.000Z')]));
    fs.appendFileSync(ws.files.rejected, line(rejectedLesson({ id: uuid(10), rejection_layer: 3, rejected_at: '2026-07-07T00:00:00.000Z' })));
    fs.appendFileSync(ws.files.unactionable, line(unactionableEntry({ id: uuid(301), quarantined_at: '2026-07-07T00:00:00.000Z' })));
    fs.appendFileSync(ws.files.hive, line(hiveEntry({ id: uuid(102), lesson: lesson(10, 'Declare the scope').lesson })));
    await changed(ws.files.knowledge, ws.files.events, ws.files.rejected, ws.files.unactionable, ws.files.hive);
    expect(await step()).toBe(1);

    // A rewrite: some lessons edited, some removed, the rest as they were.
    const kept = fs
      .readFileSync(ws.files.knowledge, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .filter((value) => value.id !== uuid(6) && value.id !== uuid(9))
      .map((value) => (value.id === uuid(1) ? { ...value, lesson: 'Rotate the signing keys before merging the change into the main branch of the repository (note 1).', status: 'archived' } : value));
    fs.writeFileSync(ws.files.knowledge, lines(kept));
    await changed(ws.files.knowledge);
    expect(await step()).toBe(1);

    // Small files rewritten (a rejected lesson gone; a hive lesson with project counterparts gone) and another deleted.
    const dropFirst = (file: string) => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('\n').slice(1).join('\n'));
    dropFirst(ws.files.rejected);
    dropFirst(ws.files.hive);
    fs.unlinkSync(ws.files.unactionable);
    await changed(ws.files.rejected, ws.files.hive);
    expect(await step()).toBe(1);

    // Appends after the rewrite grow the rebuilt model again.
    fs.appendFileSync(ws.files.knowledge, line(lesson(11, 'Rotate the signing keys')));
    await changed(ws.files.knowledge);
    expect(await step()).toBe(1);

    // Lessons without a word bigram (all alike by the plugin's rule), one at a time, and a lesson joining two clusters.
    const beforeLast = { ...ws.service.grown };
    fs.appendFileSync(ws.files.knowledge, line(plain(12, '', { lesson: 'Benchmark.' })));
    await changed(ws.files.knowledge);
    expect(await step()).toBe(1);
    fs.appendFileSync(ws.files.knowledge, lines([plain(13, '', { lesson: 'Profile!' }), plain(14, '', { lesson: 'Note 3: alpha3 beta3 gamma3 delta3 epsilon3 alpha4 beta4 gamma4 delta4 epsilon4.' })]));
    await changed(ws.files.knowledge);
    expect(await step()).toBe(1);
    expect(ws.service.grown.clusters).toBeGreaterThanOrEqual(beforeLast.clusters + 2);
    expect(ws.service.grown.merges).toBeGreaterThanOrEqual(beforeLast.merges + 2);
  }, 120_000);
});
