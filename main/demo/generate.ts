import path from 'node:path';
import { DAY, DEFAULT_DEMO_NOW, HOUR, iso } from './clock';
import { writeCuratorAndState, complianceObservations, DEMO_SWARM_MAX_ENTRIES } from './curator';
import { type EntryDraft, entryLine, isActiveStatus } from './entry-model';
import { buildSwarmEvents } from './gate-events';
import { buildHiveEntries, writeHive } from './hive';
import { DEMO_IDS as ID, DEMO_PROJECT, DEMO_SECOND_PROJECT } from './ids';
import { type Tombstone, buildKnowledgeLogs } from './knowledge-logs';
import { LessonDealer } from './lesson-corpus';
import { LineWriter, writeJsonLines, writePrettyJson } from './line-writer';
import { writeLinkTier } from './link';
import { notableSwarmEntries } from './notable-entries';
import { demoProjectId, fillerPool } from './receipt-filler';
import { writeDemoReceipts } from './receipts-demo';
import { type Rng, createRng } from './rng';
import { type CounterRollup, computeRollups } from './rollup';
import { type DemoScale, scaleReceiptPool, scaleShares, writeScaleApplication, writeScaleEntries, writeScaleKnowledgeEvents, writeScaleSwarmEvents } from './scale';
import { buildSideStores } from './side-stores';
import { writeSkills } from './skills';
import { notableStory } from './story';
import { addFillerTraces } from './story-filler';
import { fillerSwarmEntries } from './swarm-entries';

export type { DemoScale } from './scale';
export { DEFAULT_DEMO_NOW } from './clock';
export { DEMO_IDS, DEMO_SESSIONS, DEMO_TRACES, DEMO_LINK_ID } from './ids';
export { writeReceiptJournal } from './receipt-filler';

/** Bump when the generated content changes, so existing demo folders are regenerated. */
export const DEMO_GENERATOR_VERSION = 3;

export interface DemoOptions {
  projectDir: string;
  hiveDir: string;
  seed: number;
  /** Epoch-ms anchor every timestamp is relative to (default: 2026-07-02T12:00:00Z, for tests). */
  now?: number;
  /** Benchmark volumes added on top of the curated content. */
  scale?: DemoScale;
  /** The linked second project (default: `<projectDir>/../payments-worker`). */
  secondProjectDir?: string;
}

/** At the project's cap (curator.ts). */
const SWARM_ENTRY_COUNT = DEMO_SWARM_MAX_ENTRIES;
const HIVE_ENTRY_COUNT = 150;
const LINK_ENTRY_COUNT = 36;

/** The CounterRollup field order the plugin writes (`violation_timestamps` last). */
function orderedRollup(r: CounterRollup): Record<string, unknown> {
  const { last_applied_at, last_acknowledged_at, violation_timestamps, ...counts } = r;
  return { ...counts, ...(last_applied_at ? { last_applied_at } : {}), ...(last_acknowledged_at ? { last_acknowledged_at } : {}), violation_timestamps };
}

function tombstonesFor(swarm: EntryDraft[], rng: Rng, now: number): Tombstone[] {
  const tombs: Tombstone[] = [
    { entryId: ID.archivedRetiredSkill, atMs: now - 11 * DAY, actor: 'architect', reason: 'superseded by the recorded-fixture policy', mode: 'archive', previousStatus: 'established', evidence: 'contradicted twice in Phase 2', skill: { slug: 'legacy-fixture-mocks', retired: true } },
    { entryId: ID.archivedStaleSkill, atMs: now - 7 * DAY - 2 * HOUR, actor: 'architect', reason: 'retracted by user (BAD RULE)', mode: 'archive', previousStatus: 'established', skill: { slug: 'webhook-retry-backoff', retired: false } },
    { entryId: ID.quarantinedInPlace, atMs: now - 5 * DAY, actor: 'reviewer', reason: 'unsafe: encourages skipping review', mode: 'quarantine', previousStatus: 'candidate' },
  ];
  const notable = new Set(tombs.map((t) => t.entryId));
  for (const e of swarm) {
    if (e.status !== 'archived' || notable.has(e.id) || !rng.chance(0.5)) continue;
    tombs.push({ entryId: e.id, atMs: Date.parse(e.updated_at), actor: rng.pick(['architect', 'curator']), reason: rng.pick(['low utility after 10 phases', 'superseded by a newer lesson', 'no longer matches the codebase']), mode: 'archive', previousStatus: rng.pick(['candidate', 'established']) });
  }
  return tombs;
}

/**
 * The TTL sweep at the last phase completion archived one lesson in place (docs/plugin-formats.md#caps-and-ttl-archive):
 * an archived filler lesson without a tombstone gets the `max_phases` it outlived and that sweep's `updated_at`, so
 * the scripted week (week-script.ts) replays a true TTL archive. No randomness: the seeded content is unchanged.
 */
function archiveOneByTtl(swarm: EntryDraft[], tombstoned: ReadonlySet<string>, events: readonly Record<string, unknown>[]): void {
  const closes = events.filter((e) => e.type === 'outcome').map((e) => String(e.timestamp)).sort();
  const lastClose = closes[closes.length - 1];
  if (!lastClose) return;
  const notable = new Set<string>(Object.values(ID));
  const swept = swarm
    .filter((e) => e.status === 'archived' && e.shape === 'v2' && !tombstoned.has(e.id) && !notable.has(e.id) && e.max_phases === undefined && (e.phases_alive ?? 0) >= 2 && e.created_at < lastClose)
    .sort((a, b) => a.id.localeCompare(b.id))[0];
  if (!swept) return;
  swept.max_phases = (swept.phases_alive as number) - 1;
  swept.updated_at = lastClose;
}

/**
 * Writes a deterministic (seed + now), schema-valid demo workspace in the plugin's exact
 * on-disk formats: the project `.swarm/` (knowledge family, logs, V2 receipts, skills,
 * curator state), `.opencode/`, the hive `<dataDir>` with a link tier, and a second project
 * linked to it. Returns the generated project folders (demo project first).
 */
export function generateDemoWorkspace(options: DemoOptions): string[] {
  const now = options.now ?? DEFAULT_DEMO_NOW;
  const projectDir = path.resolve(options.projectDir);
  const hiveDir = path.resolve(options.hiveDir);
  const secondProjectDir = path.resolve(options.secondProjectDir ?? path.join(path.dirname(projectDir), DEMO_SECOND_PROJECT));
  const swarmDir = path.join(projectDir, '.swarm');
  const root = createRng(options.seed, 'demo');
  const dealer = new LessonDealer(root.fork('lessons'));
  const shares = scaleShares(options.scale);

  const notable = notableSwarmEntries(now);
  const swarm = [...notable, ...fillerSwarmEntries(root.fork('swarm'), dealer, { count: SWARM_ENTRY_COUNT - notable.length, project: DEMO_PROJECT, now, maxAgeDays: 150 })];
  const side = buildSideStores(root.fork('side'), dealer, now);

  const counterpartRng = root.fork('counterparts');
  const counterparts = swarm.filter((e) => [ID.promotedWithCounterpart, ID.focusedTests, ID.evergreen, ID.panReleased].includes(e.id as never) || (e.status === 'promoted' && e.shape === 'v2' && counterpartRng.chance(0.3)));
  const hive = buildHiveEntries(root.fork('hive'), dealer, now, counterparts, HIVE_ENTRY_COUNT);

  const story = notableStory(now);
  const critical = (e: EntryDraft) => e.directive_priority === 'critical';
  addFillerTraces(story, root.fork('story'), {
    swarm: swarm.filter((e) => e.shape === 'v2' && isActiveStatus(e.status) && !critical(e) && e.category !== 'todo' && !Object.values(ID).includes(e.id as never)),
    hive: hive.store.filter((e) => isActiveStatus(e.status) && !critical(e)),
  }, now);

  const tombstones = tombstonesFor(swarm, root.fork('tombstones'), now);
  const logs = buildKnowledgeLogs(story, root.fork('events'), swarm, tombstones, now);
  archiveOneByTtl(swarm, new Set(tombstones.map((t) => t.entryId)), logs.events);
  const rollups = computeRollups(logs.baseline, logs.events, logs.application);
  for (const entry of swarm) {
    const r = entry.shape === 'v2' ? rollups.get(entry.id) : undefined;
    if (!r) continue;
    entry.counters = {
      shown_count: r.shown_count, acknowledged_count: r.acknowledged_count, applied_explicit_count: r.applied_explicit_count, ignored_count: r.ignored_count,
      violated_count: r.violated_count, contradicted_count: r.contradicted_count, succeeded_after_shown_count: r.succeeded_after_shown_count, failed_after_shown_count: r.failed_after_shown_count,
    };
    if (entry.directive_priority !== undefined) {
      if (r.last_applied_at) entry.last_applied_at = r.last_applied_at;
      if (r.last_acknowledged_at) entry.last_acknowledged_at = r.last_acknowledged_at;
    }
  }

  // Project knowledge family (benchmark history first: older lines come first).
  const scaleRng = root.fork('scale');
  const knowledge = new LineWriter(path.join(swarmDir, 'knowledge.jsonl'));
  const scaleIds = writeScaleEntries(knowledge, scaleRng, shares.swarmEntries, now, 'swarm', DEMO_PROJECT);
  const entryLines = new Map<string, string>();
  for (const entry of swarm.sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const line = entryLine(entry);
    entryLines.set(entry.id, line);
    knowledge.line(line);
  }
  knowledge.close();
  for (const entry of hive.store) entryLines.set(entry.id, entryLine(entry));

  writeJsonLines(path.join(swarmDir, 'knowledge-rejected.jsonl'), side.rejected);
  writeJsonLines(path.join(swarmDir, 'knowledge-quarantined.jsonl'), side.quarantined);
  writeJsonLines(path.join(swarmDir, 'knowledge-unactionable.jsonl'), side.unactionable);
  writeJsonLines(path.join(swarmDir, 'knowledge-retractions.jsonl'), side.retractions);
  const events = new LineWriter(path.join(swarmDir, 'knowledge-events.jsonl'));
  writeScaleKnowledgeEvents(events, scaleRng, shares.knowledgeEvents, scaleIds, now, 'swarm');
  for (const e of logs.events) events.json(e);
  events.close();
  const application = new LineWriter(path.join(swarmDir, 'knowledge-application.jsonl'));
  writeScaleApplication(application, scaleRng, shares.applicationLines, scaleIds, now);
  for (const line of logs.application) application.json(line);
  application.close();
  writePrettyJson(path.join(swarmDir, 'knowledge-counter-baseline.json'), Object.fromEntries(Object.keys(logs.baseline).sort().map((id) => [id, orderedRollup(logs.baseline[id] as CounterRollup)])));
  writePrettyJson(path.join(swarmDir, '.knowledge-shown.json'), logs.shown);
  writeJsonLines(path.join(swarmDir, 'unacknowledged-criticals.jsonl'), logs.unackCriticals);

  const receipts = writeDemoReceipts({
    swarmDir, story, entryLines, projectId: demoProjectId(), rng: root.fork('receipts'),
    filler: shares.receiptRecords > 0
      ? { records: shares.receiptRecords, pool: scaleIds.length ? scaleReceiptPool(scaleIds, 5000) : fillerPool(root.fork('receipt-pool'), 4000), startMs: now - 400 * DAY, endMs: now - 25 * DAY }
      : undefined,
  });

  const swarmEvents = new LineWriter(path.join(swarmDir, 'events.jsonl'));
  writeScaleSwarmEvents(swarmEvents, scaleRng, shares.swarmEvents, scaleIds, now);
  for (const line of buildSwarmEvents(story, receipts.releaseSeqs, side.curatorSkipped, complianceObservations(story), now)) swarmEvents.json(line);
  swarmEvents.close();

  const lessons = new Map(swarm.map((e) => [e.id, e.lesson]));
  writeSkills(projectDir, root.fork('skills'), now, lessons);
  const lastProcessed = logs.events.filter((e) => Date.parse(e.timestamp as string) <= now - 2 * DAY).pop() ?? { event_id: 'none', timestamp: iso(now) };
  writeCuratorAndState(projectDir, story, now, { id: lastProcessed.event_id as string, timestamp: lastProcessed.timestamp as string });

  writeHive(hiveDir, projectDir, root.fork('hive-files'), now, hive, shares.hiveEntries || shares.hiveEvents ? { entries: shares.hiveEntries, events: shares.hiveEvents, rng: scaleRng.fork('hive') } : undefined);
  writeLinkTier(hiveDir, secondProjectDir, root.fork('link'), dealer, now, LINK_ENTRY_COUNT, shares.linkEntries || shares.linkEvents ? { entries: shares.linkEntries, events: shares.linkEvents, rng: scaleRng.fork('link') } : undefined);
  return [projectDir, secondProjectDir];
}
