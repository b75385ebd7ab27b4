import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EntryDetail } from '../../../shared/contract/knowledge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoWorkspace } from '../../demo/generate';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import Database from 'better-sqlite3';
import { StoreIndexService } from '../store-index/store-index-service';
import { INDEX_FILE_NAME } from '../store-index/schema';
import { entryId } from '../rules/entry-fields';
import { isFiltered, listDirectives } from './directive-list';
import { entryDetail } from './entry-detail';
import { KnowledgeService } from './knowledge-service';
import type { KnowledgeModel } from './knowledge-model';
import type { EntryTier } from './model-types';
import { hiveEntry, lines, swarmEntryV2 } from '../../../testing/stores/sample-records';

/**
 * A re-open of an unchanged workspace answers detail, Directives and Inboxes from the state the
 * previous session kept in the index, exactly as a freshly built model answers; once a store file
 * changed, the kept state is never served.
 */

const NOW = Date.parse('2026-08-01T00:00:00.000Z');
let root: string;
let project: string;
let hive: string;
const cacheDir = () => path.join(root, 'cache');

function open() {
  const index = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), cacheDir(), { watch: false });
  const service = new KnowledgeService(index, project, () => NOW);
  return {
    index,
    service,
    close: async () => {
      await service.dispose();
      await index.close();
    },
  };
}

type Probe = { id: string; tier?: EntryTier };
const QUERIES = [
  {},
  { sort: 'expiry' },
  { sort: 'violations', limit: 500 },
  { sort: 'signal', offset: 50 },
  { sort: 'updated', includeInactive: true },
  { sort: 'shown', priority: ['high', 'critical'] },
  { q: 'test', eligibility: 'not_eligible' },
  { expiringWithin: 2, tier: ['hive'] },
  { violatedInWindow: true },
  { sort: 'shown', offset: 100_000 },
  { includeInactive: true, sort: 'priority', limit: 7, offset: 3 },
  { eligibility: 'eligible', includeInactive: true, sort: 'expiry', offset: 2, limit: 9 },
  { priority: ['critical', 'low'], tier: ['swarm', 'link'], sort: 'signal' },
  { expiringWithin: 8, includeInactive: true, sort: 'updated' },
  { expiringWithin: 6, sort: 'expiry' },
  { violatedInWindow: true, sort: 'violations', offset: 1 },
  { q: '  Before ', sort: 'signal', offset: 5 },
  { q: 'run the', includeInactive: true, priority: ['high', 'medium'], sort: 'updated' },
  { q: '"THE exact' },
  { q: 'c:\\work' },
  // Words the kept rows hold outside the searched fields too, and text between two of a row's strings.
  { q: 'swarm', tier: ['swarm', 'hive'] },
  { q: 'critical', sort: 'violations' },
  { q: ', ', includeInactive: true },
  { q: 'the', expiringWithin: 8, eligibility: 'eligible' },
].map((q) => ({ q: '', priority: [], tier: [], includeInactive: false, expiringWithin: null, violatedInWindow: false, eligibility: 'any', sort: 'priority', limit: 100, offset: 0, ...q }) as Parameters<typeof listDirectives>[1]);

/** Ids worth comparing: lessons with counterparts (ties included), without, other collections, a tier asked for. */
function probesOf(model: KnowledgeModel): Probe[] {
  const withCounterparts = model.lessons().filter((e) => model.counterparts(e).length > 0);
  const hiveWith = withCounterparts.filter((e) => e.tier === 'hive');
  const others = model.lessons().filter((_, i) => i % 97 === 0);
  const { rejected, unactionable } = model.triageEntries();
  const collections = [...rejected.slice(0, 3), ...unactionable.slice(0, 3)];
  const probes: Probe[] = [...withCounterparts.slice(0, 30), ...hiveWith.slice(0, 10), ...others, ...collections].map((e) => ({ id: entryId(e.value) }));
  probes.push(...hiveWith.slice(0, 3).map((e) => ({ id: entryId(e.value), tier: e.tier })));
  return probes;
}

const modelDetail = (model: KnowledgeModel, { id, tier }: Probe) => entryDetail(model, model.find(id, tier)!);
const modelInboxes = async (service: KnowledgeService) => {
  const { duplicatesFreshness: _f, ...rest } = await service.inboxes();
  return rest;
};

let probes: Probe[] = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'persisted-knowledge-'));
  project = path.join(root, 'project');
  hive = path.join(root, 'hive');
  generateDemoWorkspace({ projectDir: project, hiveDir: hive, seed: 11, scale: { knowledgeEntries: 3000 } });
  // A directive whose text JSON escapes (quotes, a backslash): a text search must find it through the kept rows too.
  const quoting = swarmEntryV2({ id: '7a1c0f7e-1111-4222-8333-444455556666', lesson: 'Quote "the exact path" as C:\\work\\tmp in the handoff note.' });
  fs.appendFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), `${JSON.stringify(quoting)}\n`);
  const first = open();
  await first.index.ready;
  await first.service.settled();
  probes = probesOf(await first.service.model());
  await first.close();
}, 120_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('derived knowledge state kept in the index', () => {
  it('serves detail, Directives and Inboxes on a re-open before any model is built, as the built model answers them', async () => {
    expect(probes.filter((p) => p.tier).length).toBeGreaterThan(0);
    const t = open();
    try {
      await t.index.ready;
      expect(t.index.index.rebuilt).toBe(false);
      // Only microtasks between these calls: the background build (a timer) has not started.
      const details: (EntryDetail | null)[] = [];
      for (const probe of probes) details.push(await t.service.detailFromDisk(probe.id, probe.tier));
      const pages: (ReturnType<typeof listDirectives> | null)[] = [];
      for (const query of QUERIES) pages.push(await t.service.directivesFromDisk(query));
      const inboxes = await t.service.inboxes();
      expect(t.service.builds).toBe(0);
      expect(details.every((d) => d !== null)).toBe(true);
      expect(pages.every((p) => p !== null)).toBe(true);
      expect(details.some((d) => d!.counterparts.length > 1)).toBe(true);

      const model = await t.service.model();
      expect(t.service.builds).toBe(1);
      probes.forEach((probe, i) => expect(details[i], probe.id).toEqual(modelDetail(model, probe)));
      QUERIES.forEach((query, i) => expect(pages[i]).toEqual(listDirectives(model, query)));
      expect(pages.some((p) => p!.total > 0 && p!.rows.length > 0)).toBe(true);
      // Quick filters are answered from the kept facts without reading every row: most of them must select something.
      const quick = QUERIES.map((query, i) => [query, pages[i]!] as const).filter(([query]) => isFiltered(query) && query.q === '');
      expect(quick.filter(([, page]) => page.total > 0).length).toBeGreaterThanOrEqual(6);
      // Searches for text JSON escapes in the kept rows find the directive that holds it.
      const escaping = QUERIES.map((query, i) => [query, pages[i]!] as const).filter(([query]) => /["\\]/.test(query.q));
      expect(escaping.map(([, page]) => page.rows.map((row) => row.id))).toEqual([['7a1c0f7e-1111-4222-8333-444455556666'], ['7a1c0f7e-1111-4222-8333-444455556666']]);
      const { duplicatesFreshness, ...kept } = inboxes;
      expect(duplicatesFreshness.stale).toBe(false);
      expect(kept.duplicates.some((g) => g.clusters.length > 0)).toBe(true);
      await t.service.settled();
      expect(kept).toEqual(await modelInboxes(t.service));
    } finally {
      await t.close();
    }
  }, 120_000);

  it('never serves kept state once a store file changed; a counter change still gives model-equal details', async () => {
    // A counter store changes: kept Directives and Inboxes are of other stores, a detail reads counters live.
    const events = path.join(project, '.swarm', 'knowledge-events.jsonl');
    const target = probes[0]!.id;
    fs.appendFileSync(events, `${JSON.stringify({ schema_version: 1, type: 'violated', trace_id: 't', session_id: 's', agent: 'coder', knowledge_id: target, reason: 'kept-state test', event_id: 'kept-1', timestamp: '2026-07-31T00:00:00.000Z' })}\n`);
    let t = open();
    try {
      await t.index.ready;
      const detail = await t.service.detailFromDisk(target, undefined);
      expect(await t.service.directivesFromDisk(QUERIES[0]!)).toBeNull();
      expect(detail).not.toBeNull();
      const model = await t.service.model();
      expect(detail).toEqual(modelDetail(model, { id: target }));
      expect(detail!.receipts.recent.some((r) => r.reason === 'kept-state test')).toBe(true);
      await t.service.settled();
    } finally {
      await t.close();
    }

    // A lesson file changes (same length, so only its content and mtime tell).
    const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
    const text = fs.readFileSync(knowledge, 'utf8');
    const lessonOf = (id: string) => text.split('\n').find((l) => l.includes(`"id":"${id}"`))!;
    const changed = text.replace(lessonOf(target), lessonOf(target).replace(/"lesson":"./, '"lesson":"#'));
    expect(changed).not.toBe(text);
    fs.writeFileSync(knowledge, changed);
    fs.utimesSync(knowledge, new Date(NOW), new Date(NOW));
    t = open();
    try {
      await t.index.ready;
      expect(await t.service.detailFromDisk(target, undefined)).toBeNull();
      expect(await t.service.directivesFromDisk(QUERIES[0]!)).toBeNull();
      const inboxes = await t.service.inboxes();
      expect(t.service.builds).toBe(1);
      await t.service.settled();
      const { duplicatesFreshness: _f, ...served } = inboxes;
      expect(served).toEqual(await modelInboxes(t.service));

      // Within the session the file is rewritten again (a directive line dropped, so rows go and
      // rids change): what is kept then is updated from what this session kept before.
      const lines = fs.readFileSync(knowledge, 'utf8').split('\n');
      const directive = lines.findIndex((l) => l.includes('"required_actions":["'));
      expect(directive).toBeGreaterThanOrEqual(0);
      fs.writeFileSync(knowledge, lines.filter((_, i) => i !== directive).join('\n'));
      await t.index.schedule({ storeKey: 'knowledge', tier: 'swarm', path: knowledge, name: '.swarm/knowledge.jsonl', orphaned: false, symlinkTarget: null });
      await t.index.idle();
      await t.service.settled();
      expect(t.service.builds).toBe(2);
      // And a counter change: the same rids, some rows changed.
      const violated = lines.filter((l, i) => i !== directive && l.includes('"required_actions":["')).map((l) => JSON.parse(l).id as string).slice(0, 5);
      for (const [n, id] of violated.entries()) fs.appendFileSync(events, `${JSON.stringify({ schema_version: 1, type: 'violated', trace_id: 't', session_id: 's', agent: 'coder', knowledge_id: id, reason: 'kept-state test', event_id: `kept-v${n}`, timestamp: '2026-07-31T01:00:00.000Z' })}\n`);
      await t.index.schedule({ storeKey: 'knowledge-events', tier: 'swarm', path: events, name: '.swarm/knowledge-events.jsonl', orphaned: false, symlinkTarget: null });
      await t.index.idle();
      await t.service.settled();
      expect(t.service.builds).toBe(3);
    } finally {
      await t.close();
    }

    t = open();
    try {
      await t.index.ready;
      const pages: (ReturnType<typeof listDirectives> | null)[] = [];
      for (const query of QUERIES) pages.push(await t.service.directivesFromDisk(query));
      const details: (EntryDetail | null)[] = [];
      for (const probe of probes.slice(0, 20)) details.push(await t.service.detailFromDisk(probe.id, probe.tier));
      expect(t.service.builds).toBe(0);
      const model = await t.service.model();
      QUERIES.forEach((query, i) => expect(pages[i]).toEqual(listDirectives(model, query)));
      probes.slice(0, 20).forEach((probe, i) => expect(details[i], probe.id).toEqual(model.find(probe.id, probe.tier) ? modelDetail(model, probe) : null));
      expect(details.filter(Boolean).length).toBeGreaterThan(10);
    } finally {
      await t.close();
    }
  }, 120_000);
});

/** Runs `fn` on a workspace of its own (root, project and hive swapped in, then back). */
async function inOwnWorkspace(prefix: string, fn: () => Promise<void>): Promise<void> {
  const saved = { root, project, hive };
  root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  project = path.join(root, 'project');
  hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  try {
    await fn();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    ({ root, project, hive } = saved);
  }
}

/** Lessons of a few words from a tiny vocabulary (seeded): many near-duplicates at equal similarity. */
function shortLessons(seed: number, words: readonly string[]): () => string {
  let state = seed;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  return () => Array.from({ length: 3 + Math.floor(random() * 5) }, () => words[Math.floor(random() * words.length)]).join(' ');
}

/**
 * Writes the project's and the hive's lessons, lets a first session keep its state, then asks a
 * second one for each probe's detail from the kept state (no model built) and checks them, and
 * that each equals the model's once it is built.
 */
async function keptDetailsAsTheModel(swarm: Record<string, unknown>[], hives: Record<string, unknown>[], asked: Probe[], check: (details: (EntryDetail | null)[], model: KnowledgeModel) => void): Promise<void> {
  fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), lines(swarm));
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), lines(hives));
  const first = open();
  await first.index.ready;
  await first.service.settled();
  await first.close();

  const t = open();
  try {
    await t.index.ready;
    const details: (EntryDetail | null)[] = [];
    for (const probe of asked) details.push(await t.service.detailFromDisk(probe.id, probe.tier));
    expect(t.service.builds).toBe(0);
    const model = await t.service.model();
    check(details, model);
    asked.forEach((probe, i) => expect(details[i], probe.id).toEqual(modelDetail(model, probe)));
  } finally {
    await t.close();
  }
}

describe('counterparts from the kept postings', () => {
  it('finds what the model finds, in its order, among lessons full of ties', async () => {
    await inOwnWorkspace('persisted-counterparts-', async () => {
      const lesson = shortLessons(5, ['pin', 'the', 'lockfile', 'run', 'tests', 'first']);
      const swarm = Array.from({ length: 150 }, (_, i) => swarmEntryV2({ id: `s-${i}`, lesson: lesson() }));
      const hives = Array.from({ length: 150 }, (_, i) => hiveEntry({ id: i % 25 === 0 ? `s-${i}` : `h-${i}`, lesson: lesson() }));
      const asked: Probe[] = [...swarm.map((e) => ({ id: e.id as string })), ...hives.map((e) => ({ id: e.id as string, tier: 'hive' as const }))];
      await keptDetailsAsTheModel(swarm, hives, asked, (details) => {
        const tied = details.filter((d) => d && d.counterparts.some((c, i) => i > 0 && c.similarity === d.counterparts[i - 1]!.similarity && !c.exact));
        expect(tied.length).toBeGreaterThan(10);
      });
    });
  }, 120_000);

  it('finds the same lessons under a configured threshold above 1 (no similarity reaches it; the same lesson still does)', async () => {
    await inOwnWorkspace('persisted-counterparts-over-1-', async () => {
      fs.mkdirSync(path.join(project, '.opencode'), { recursive: true });
      fs.writeFileSync(path.join(project, '.opencode', 'opencode-swarm.json'), JSON.stringify({ knowledge: { dedup_threshold: 1.5 } }));
      const lesson = shortLessons(5, ['pin', 'the', 'lockfile', 'run', 'tests', 'first']);
      const swarm = Array.from({ length: 60 }, (_, i) => swarmEntryV2({ id: `s-${i}`, lesson: lesson() }));
      const hives = Array.from({ length: 60 }, (_, i) => hiveEntry({ id: `h-${i}`, lesson: i % 3 === 0 ? (swarm[i]!.lesson as string) : lesson() }));
      await keptDetailsAsTheModel(swarm, hives, swarm.map((e) => ({ id: e.id as string })), (details, model) => {
        expect(model.thresholds.dedup_threshold).toBe(1.5);
        // Every third project lesson has its text in the hive: found as the same lesson, and nothing else is.
        expect(details.filter((d) => d && d.counterparts.length > 0).length).toBeGreaterThanOrEqual(20);
        expect(details.every((d) => d!.counterparts.every((c) => c.exact))).toBe(true);
      });
    });
  }, 120_000);

  it('leaves removed lessons in the token lists until they would pass a quarter of the live ones, and answers as the model does meanwhile', async () => {
    await inOwnWorkspace('persisted-dead-', async () => {
      const lesson = shortLessons(9, ['pin', 'the', 'lockfile', 'run', 'tests', 'first', 'cache']);
      const swarm = Array.from({ length: 150 }, (_, i) => swarmEntryV2({ id: `s-${i}`, lesson: lesson() }));
      const hives = Array.from({ length: 600 }, (_, i) => hiveEntry({ id: `h-${i}`, lesson: lesson() }));
      const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
      fs.writeFileSync(knowledge, lines(swarm));
      fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), lines(hives));
      const deadLessons = () => {
        const db = new Database(path.join(cacheDir(), INDEX_FILE_NAME), { readonly: true });
        try {
          return [Number(db.prepare("SELECT value FROM derived_values WHERE name = 'bigrams-dead'").pluck().get() ?? 0), db.prepare('SELECT count(*) FROM derived_lessons').pluck().get()];
        } finally {
          db.close();
        }
      };
      const settle = async () => {
        const t = open();
        await t.index.ready;
        await t.service.settled();
        await t.close();
      };
      const answersAsTheModel = async (left: readonly Record<string, unknown>[]) => {
        const t = open();
        try {
          await t.index.ready;
          const asked: Probe[] = [...left.map((e) => ({ id: e.id as string })), ...hives.slice(0, 120).map((e) => ({ id: e.id as string, tier: 'hive' as const }))];
          const details: (EntryDetail | null)[] = [];
          for (const probe of asked) details.push(await t.service.detailFromDisk(probe.id, probe.tier));
          expect(t.service.builds).toBe(0);
          const model = await t.service.model();
          expect(details.filter((d) => d && d.counterparts.length > 0).length).toBeGreaterThan(50);
          asked.forEach((probe, i) => expect(details[i], probe.id).toEqual(modelDetail(model, probe)));
        } finally {
          await t.close();
        }
      };
      await settle();
      expect(deadLessons()).toEqual([0, 750]);

      // The project file is written again without one lesson: its 150 rids leave, 149 new ones come.
      // 150 removed against 749 live: they stay in the lists.
      let left = swarm.slice(1);
      fs.writeFileSync(knowledge, lines(left));
      await settle();
      expect(deadLessons()).toEqual([150, 749]);
      await answersAsTheModel(left);

      // Again: 299 removed would pass a quarter of 748, so every list is written anew.
      left = left.slice(1);
      fs.writeFileSync(knowledge, lines(left));
      await settle();
      expect(deadLessons()).toEqual([0, 748]);
      await answersAsTheModel(left);
    });
  }, 120_000);

  it("answers quick filters from the model on an index kept before the rows' facts were, and keeps them once", async () => {
    let t = open();
    try {
      await t.index.ready;
      await t.service.settled();
    } finally {
      await t.close();
    }
    // What an index kept by the code before the facts looks like: the orders without their last part.
    const db = new Database(path.join(cacheDir(), INDEX_FILE_NAME));
    const dropped = db.prepare("DELETE FROM derived_values WHERE name = 'directive-orders' AND part = (SELECT max(part) FROM derived_values WHERE name = 'directive-orders')").run();
    // …and its rows one per part, before they were kept in blocks: dropped when the blocks are written.
    const insertOld = db.prepare("INSERT INTO derived_values(name, part, value) VALUES ('directive-rows', ?, ?)");
    for (const part of [-1, 3, 4]) insertOld.run(part, part < 0 ? '{"stamp":"old","parts":null}' : '["an old row"]');
    const oldRows = (index: Database.Database) => index.prepare("SELECT count(*) FROM derived_values WHERE name = 'directive-rows'").pluck().get() as number;
    expect(oldRows(db)).toBe(3);
    db.close();
    expect(dropped.changes).toBe(1);
    const quick = QUERIES.find((query) => isFiltered(query) && query.q === '' && query.priority.length > 0)!;
    const searched = QUERIES.find((query) => query.q.trim() !== '')!;

    t = open();
    try {
      await t.index.ready;
      expect(await t.service.directivesFromDisk(quick)).toBeNull();
      expect(await t.service.directivesFromDisk(QUERIES[0]!)).not.toBeNull();
      expect(await t.service.directivesFromDisk(searched)).not.toBeNull();
      await t.service.model();
      await t.service.settled();
    } finally {
      await t.close();
    }
    const reopened = new Database(path.join(cacheDir(), INDEX_FILE_NAME));
    expect(oldRows(reopened)).toBe(0);
    reopened.close();

    t = open();
    try {
      await t.index.ready;
      const fromDisk = await t.service.directivesFromDisk(quick);
      expect(fromDisk).not.toBeNull();
      expect(fromDisk).toEqual(listDirectives(await t.service.model(), quick));
    } finally {
      await t.close();
    }
  }, 120_000);
});
