import fs from 'node:fs';
import path from 'node:path';
import { DAY, HOUR, iso } from './clock';
import { createRng } from './rng';
import { type CounterRollup, computeRollups, emptyRollup } from './rollup';
import { type Rec, type ScriptedFile, type TrackedEntry, appendOnly, countersMatch, entryStore, splitLines, tracked } from './week-lines';

export const WEEK_MS = 7 * DAY;
/** "When I last looked": three hours before Phase 4 closed, two days before the anchor. */
export const LAST_LOOKED_BEFORE_ANCHOR = 2 * DAY + 3 * HOUR;

/** What the week did, by entry id (for the tests and the README's walkthrough). */
export interface WeekFacts {
  /** Old lessons `knowledge_add` evicted from the store at its cap (oldest first), with when. */
  evicted: { id: string; lesson: string; at: number }[];
  /** The TODO the Phase 4 sweep deleted. */
  todoSwept: string | null;
  /** Archived in place by the TTL sweep. */
  ttlArchived: string[];
  /** Moved to the quarantine sidecar (swarm and hive). */
  quarantined: string[];
  /** Archived or quarantined in place with a tombstone in the events log. */
  tombstoned: string[];
  /** Lessons added during the week. */
  added: string[];
  /** Entries whose confidence moved at a phase completion (verdict feedback) or a hive rewrite. */
  confidence: string[];
}

/** Where a demo project's stores are, and what its week invents. */
export interface WeekInput {
  /** The knowledge store's folder (`.swarm`, or the link dir of a linked project). */
  storeDir: string;
  /** The folder of the project's `events.jsonl` (its `.swarm`). */
  eventsDir: string;
  hiveDir: string;
  now: number;
  seed: number;
  /** The project's `swarm_max_entries`: the store is at it when the week's additions evict. */
  cap: number;
  project: string;
  /** Lessons the store held before the week and lost to its cap (oldest first). */
  evictedLessons: readonly InventedLesson[];
  /** A TODO the last phase close sweeps (none: no TODO is swept). */
  sweptTodo: InventedLesson | null;
  /** Default LAST_LOOKED_BEFORE_ANCHOR. */
  lastLookedBeforeAnchor?: number;
}

export interface DemoWeek {
  start: number;
  end: number;
  lastLooked: number;
  /** The moments something is written, in order (each after `start`, the last at most `end`). */
  times: number[];
  files: ScriptedFile[];
  facts: WeekFacts;
}

const STRIP_QUARANTINE = ['unactionable_reason', 'original_status', 'quarantine_reason', 'quarantined_at', 'reported_by', 'quarantine_token12', 'quarantine_backup', 'original_line_sha256'];
/** The plugin's writes are replayed twice a day: fine enough for a week, few enough to replay in seconds. */
const BURST_MS = 12 * HOUR;
const round2 = (x: number) => Math.round(x * 100) / 100;
const ms = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : Number.NaN);

/** A lesson the week invents (it is in no generated store: nothing else names it). */
export interface InventedLesson {
  lesson: string;
  category: string;
  status: string;
  confidence: number;
  tags: string[];
}

/** billing-api's lessons the store held before the week and lost to it. */
export const BILLING_EVICTED_LESSONS: InventedLesson[] = [
  { lesson: 'Derive Stripe idempotency keys from the invoice id, never from a random value generated per retry.', category: 'integration', status: 'established', confidence: 0.85, tags: ['stripe', 'idempotency'] },
  { lesson: 'When the ledger export fails midway, rerun it from the last committed batch id, not from the start of the day.', category: 'process', status: 'candidate', confidence: 0.7, tags: ['ledger', 'export'] },
  { lesson: 'Store money as integer minor units in the billing tables; convert at the API edge and never persist floats.', category: 'architecture', status: 'established', confidence: 0.8, tags: ['money', 'schema'] },
];
export const BILLING_SWEPT_TODO: InventedLesson = { lesson: 'TODO: replace the hand-rolled retry loop in invoice-sync with the shared backoff helper.', category: 'todo', status: 'candidate', confidence: 0.5, tags: ['todo', 'retry'] };

function inventedLine(id: string, spec: InventedLesson, createdMs: number, phasesAlive: number, project: string): string {
  const zero = { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0, shown_count: 0, acknowledged_count: 0, applied_explicit_count: 0, ignored_count: 0, violated_count: 0, contradicted_count: 0, succeeded_after_shown_count: 0, failed_after_shown_count: 0 };
  return JSON.stringify({
    id, tier: 'swarm', lesson: spec.lesson, category: spec.category, tags: spec.tags, scope: 'global', confidence: spec.confidence, status: spec.status,
    confirmed_by: [], retrieval_outcomes: zero, schema_version: 1, created_at: iso(createdMs), updated_at: iso(createdMs), project_name: project,
    auto_generated: false, hive_eligible: false, phases_alive: phasesAlive, encounter_score: 0,
  });
}

/** A sidecar line as it was in the active store before the move (docs/plugin-formats.md#swarm-quarantine-and-restore). */
function beforeQuarantine(line: string): string {
  const record = JSON.parse(line) as Rec;
  const restored: Rec = { ...record, status: record.original_status ?? 'candidate' };
  for (const key of STRIP_QUARANTINE) delete restored[key];
  return JSON.stringify(restored);
}

/** The plugin's quarantine sidecars beside a store (docs/plugin-formats.md#other-swarm-family-files). */
const SIDECARS = ['knowledge-quarantined.jsonl', 'knowledge-unactionable.jsonl'];
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
const records = (text: string) => splitLines(text).map((line) => JSON.parse(line) as Rec);

/**
 * The demo's scripted week: the 7 days before the anchor, as the plugin would have written the stores to end
 * exactly where the generator left them. Read from the generated files, so nothing is written twice:
 * - the event logs, application log, rejected fingerprints and quarantine sidecars grow by their lines' times;
 * - stored counters follow the counter rollup of the events written by each moment (docs/plugin-formats.md#counters);
 * - lessons created in the week are added when created; `knowledge_add` at the cap evicts the oldest line first
 *   (three lessons of the week's start are lost so), docs/plugin-formats.md#caps-and-ttl-archive;
 * - archived tombstones set the status they name, the TTL sweep archives at the last phase close and deletes a TODO
 *   past 3 phases, verdict feedback moves confidences at each phase close (+0.03 / −0.05, docs/plugin-formats.md#lifecycle);
 * - the hive's entries updated in the week were rewritten then (+0.03 confidence), and its tombstones applied.
 */
export function scriptDemoWeek(input: WeekInput): DemoWeek {
  const end = input.now;
  const start = end - WEEK_MS;
  const inWeek = (t: number) => t > start && t <= end;
  const swarmDir = input.storeDir;
  const at = (dir: string, name: string) => path.join(dir, name);
  const facts: WeekFacts = { evicted: [], todoSwept: null, ttlArchived: [], quarantined: [], tombstoned: [], added: [], confidence: [] };

  const logs = [
    appendOnly(at(swarmDir, 'knowledge-events.jsonl'), read(at(swarmDir, 'knowledge-events.jsonl')), 'timestamp'),
    appendOnly(at(swarmDir, 'knowledge-application.jsonl'), read(at(swarmDir, 'knowledge-application.jsonl')), 'timestamp'),
    appendOnly(at(input.eventsDir, 'events.jsonl'), read(at(input.eventsDir, 'events.jsonl')), 'timestamp'),
    appendOnly(at(swarmDir, 'knowledge-rejected.jsonl'), read(at(swarmDir, 'knowledge-rejected.jsonl')), 'rejected_at'),
    ...SIDECARS.map((name) => appendOnly(at(swarmDir, name), read(at(swarmDir, name)), 'quarantined_at')),
    appendOnly(at(input.hiveDir, 'shared-knowledge-events.jsonl'), read(at(input.hiveDir, 'shared-knowledge-events.jsonl')), 'timestamp'),
    appendOnly(at(input.hiveDir, 'shared-learnings-quarantined.jsonl'), read(at(input.hiveDir, 'shared-learnings-quarantined.jsonl')), 'quarantined_at'),
  ].filter((log) => fs.existsSync(log.path));

  const events = records(read(at(swarmDir, 'knowledge-events.jsonl')));
  const application = records(read(at(swarmDir, 'knowledge-application.jsonl')));
  const baselineText = read(at(swarmDir, 'knowledge-counter-baseline.json'));
  const baseline = (baselineText ? JSON.parse(baselineText) : {}) as Record<string, CounterRollup>;
  const rollups = new Map<number, Map<string, CounterRollup>>();
  const rollupAt = (t: number) => {
    let found = rollups.get(t);
    if (!found) rollups.set(t, (found = computeRollups(baseline, events.filter((e) => ms(e.timestamp) <= t), application.filter((a) => ms(a.timestamp) <= t))));
    return found;
  };
  const finalRollups = rollupAt(Number.POSITIVE_INFINITY);
  // When each entry's counters last moved in the week (after that they are the generator's).
  const movedCounters = new Map<string, number>();
  for (const e of [...events, ...application]) {
    const t = ms(e.timestamp);
    if (!inWeek(t)) continue;
    for (const id of [e.knowledge_id, e.knowledgeId, e.entry_id, ...((e.result_ids as unknown[]) ?? [])]) if (typeof id === 'string') movedCounters.set(id, Math.max(t, movedCounters.get(id) ?? t));
  }

  // ── the project store ──
  const knowledgeFile = at(swarmDir, 'knowledge.jsonl');
  const finalLines = splitLines(read(knowledgeFile));
  const stable = (line: string) => JSON.stringify(JSON.parse(line)) === line;
  const swarm: TrackedEntry[] = finalLines.map((line) => {
    const entry = tracked(line);
    const record = JSON.parse(line) as Rec;
    if (!stable(line)) return entry;
    if (inWeek(ms(record.created_at))) {
      entry.from = ms(record.created_at);
      facts.added.push(entry.id);
    }
    const final = finalRollups.get(entry.id);
    const settled = movedCounters.get(entry.id);
    if (final && settled !== undefined && countersMatch(record, final as unknown as Rec)) entry.counters = (t) => (t >= settled ? null : ((rollupAt(t).get(entry.id) ?? emptyRollup()) as unknown as Rec));
    return entry;
  });
  const byId = new Map(swarm.map((e) => [e.id, e]));
  const recordOf = (entry: TrackedEntry) => JSON.parse(entry.line) as Rec;

  const tombstones = events.filter((e) => e.type === 'archived');
  for (const event of tombstones) {
    const t = ms(event.timestamp);
    const entry = byId.get(String(event.entry_id));
    const previous = event.previous_status;
    if (!inWeek(t) || !entry || (event.tier ?? 'swarm') !== 'swarm' || typeof previous !== 'string' || !['archived', 'quarantined'].includes(String(recordOf(entry).status))) continue;
    entry.patches.push({ at: t, undo: (r) => ({ ...r, status: previous, ...(r.updated_at === event.timestamp ? { updated_at: r.created_at } : {}) }) });
    facts.tombstoned.push(entry.id);
  }
  const tombstoned = new Set(tombstones.map((e) => String(e.entry_id)));
  for (const entry of swarm) {
    const r = recordOf(entry);
    const t = ms(r.updated_at);
    const limit = typeof r.max_phases === 'number' ? r.max_phases : 10;
    if (r.status !== 'archived' || tombstoned.has(entry.id) || !inWeek(t) || typeof r.phases_alive !== 'number' || r.phases_alive <= limit || !stable(entry.line)) continue;
    entry.patches.push({ at: t, undo: (x) => ({ ...x, status: 'established', phases_alive: (x.phases_alive as number) - 1, updated_at: x.created_at }) });
    facts.ttlArchived.push(entry.id);
  }
  const closes = events.filter((e) => e.type === 'outcome' && inWeek(ms(e.timestamp)));
  for (const event of closes) {
    const entry = byId.get(String(event.knowledge_id));
    if (!entry || !stable(entry.line)) continue;
    const delta = event.outcome === 'success' ? 0.03 : -0.05;
    entry.patches.push({
      at: ms(event.timestamp),
      undo: (r) => {
        const before = round2((r.confidence as number) - delta);
        return before >= 0.1 && before <= 1 ? { ...r, confidence: before } : r;
      },
    });
    if (!facts.confidence.includes(entry.id)) facts.confidence.push(entry.id);
  }

  // Lessons that left during the week: moved to the sidecar, the swept TODO, and the cap's evictions.
  const leaving: TrackedEntry[] = [];
  for (const line of SIDECARS.flatMap((name) => splitLines(read(at(swarmDir, name))))) {
    const r = JSON.parse(line) as Rec;
    const t = ms(r.quarantined_at);
    if (!inWeek(t) || byId.has(String(r.id))) continue;
    leaving.push(tracked(beforeQuarantine(line), Number.NEGATIVE_INFINITY, t));
    facts.quarantined.push(String(r.id));
  }
  const rng = createRng(input.seed, 'demo-week');
  const lastClose = Math.max(...closes.map((e) => ms(e.timestamp)));
  const firstCreated = finalLines.length ? Math.min(...finalLines.map((line) => ms((JSON.parse(line) as Rec).created_at))) : start - 200 * DAY;
  if (Number.isFinite(lastClose) && input.sweptTodo) {
    const todo = tracked(inventedLine(rng.uuid(), input.sweptTodo, start - 20 * DAY, 3, input.project), Number.NEGATIVE_INFINITY, lastClose);
    leaving.push(todo);
    facts.todoSwept = todo.id;
  }
  const lessons = input.evictedLessons;
  const evicted = lessons.map((spec, i) => tracked(inventedLine(rng.uuid(), spec, firstCreated - (lessons.length - i) * DAY, 4, input.project)));
  scheduleEvictions(swarm, leaving, evicted, input.cap, finalLines.length);
  facts.evicted = evicted.map((e) => ({ id: e.id, lesson: String(recordOf(e).lesson), at: e.until }));
  const projectStore = insertByCreation(swarm, [...evicted, ...leaving]);

  const hive = hiveEntries(input.hiveDir, inWeek, facts);
  const files = [...logs, entryStore(knowledgeFile, projectStore), entryStore(at(input.hiveDir, 'shared-learnings.jsonl'), hive)];
  // The plugin's writes land in bursts (a session's events, counters and lessons together): each store is
  // written at the last change of each BURST_MS, except phase completions, written at their own moment so
  // "as of phase N" falls between the states before and after the sweep and the verdict feedback. The cap's
  // evictions, and the change before each, get their own moments too: the recorder then sees the store at its cap
  // just before the eviction, which is what lets history infer the cap.
  const moments = new Set<number>(closes.map((e) => ms(e.timestamp)));
  const membership = [...projectStore.flatMap((e) => [e.from, e.until])].filter(inWeek).sort((a, b) => a - b);
  for (const { at: evictedAt } of facts.evicted) {
    if (!inWeek(evictedAt)) continue;
    moments.add(evictedAt);
    const before = membership.filter((t) => t < evictedAt).pop();
    if (before !== undefined) moments.add(before);
  }
  const bursts = new Map<number, number>();
  const changes = [...logs.flatMap((log) => log.times), ...[...projectStore, ...hive].flatMap((e) => [e.from, e.until, ...e.patches.map((p) => p.at)])];
  for (const t of changes) {
    if (!inWeek(t) || moments.has(t)) continue;
    const burst = Math.floor((t - start) / BURST_MS);
    bursts.set(burst, Math.max(t, bursts.get(burst) ?? t));
  }
  for (const t of bursts.values()) moments.add(t);
  return { start, end, lastLooked: end - (input.lastLookedBeforeAnchor ?? LAST_LOOKED_BEFORE_ANCHOR), times: [...moments].sort((a, b) => a - b), files, facts };
}

/**
 * The store's lines over the week in file order: the generated lines keep their order, and each line gone by the end
 * goes before the first line created after it (the plugin appends, so a store's lines run in creation order).
 */
function insertByCreation(stay: readonly TrackedEntry[], gone: readonly TrackedEntry[]): TrackedEntry[] {
  const createdOf = (e: TrackedEntry) => String((JSON.parse(e.line) as Rec).created_at);
  const all = [...stay];
  for (const entry of gone) {
    const index = all.findIndex((e) => createdOf(e) > createdOf(entry));
    all.splice(index === -1 ? all.length : index, 0, entry);
  }
  return all;
}

/**
 * `knowledge_add` at the cap drops the oldest line (docs/plugin-formats.md#caps-and-ttl-archive): walking the week's
 * additions and removals in order from a store of `cap`-or-fewer lines, each addition that finds the store full
 * evicts the next of `evicted` (the oldest lines). The week must end with the generated store.
 */
function scheduleEvictions(stay: TrackedEntry[], leaving: TrackedEntry[], evicted: TrackedEntry[], cap: number, finalCount: number): void {
  const changes = [
    ...stay.filter((e) => Number.isFinite(e.from)).map((e) => ({ at: e.from, add: true })),
    ...leaving.map((e) => ({ at: e.until, add: false })),
  ].sort((a, b) => a.at - b.at || Number(a.add) - Number(b.add));
  let count = finalCount - changes.filter((c) => c.add).length + leaving.length + evicted.length;
  if (count > cap) throw new Error(`the scripted week would start over the cap (${count} > ${cap})`);
  const queue = [...evicted];
  for (const change of changes) {
    if (!change.add) count--;
    else if (count >= cap) {
      const oldest = queue.shift();
      if (!oldest) throw new Error('the scripted week evicts more lessons than it has');
      oldest.until = change.at;
    } else count++;
  }
  if (queue.length > 0 || count !== finalCount) throw new Error(`the scripted week does not end at the generated store (${count} lines, ${queue.length} lessons never evicted)`);
}

/** The hive over the week: entries promoted in it, its tombstones, sidecar moves, and rewrites of entries updated in it. */
function hiveEntries(hiveDir: string, inWeek: (t: number) => boolean, facts: WeekFacts): TrackedEntry[] {
  const lines = splitLines(read(path.join(hiveDir, 'shared-learnings.jsonl')));
  const entries = lines.map((line) => tracked(line));
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const entry of entries) {
    const r = JSON.parse(entry.line) as Rec;
    if (JSON.stringify(r) !== entry.line) continue;
    if (inWeek(ms(r.created_at))) entry.from = ms(r.created_at);
    else if (inWeek(ms(r.updated_at)) && ['candidate', 'established', 'promoted'].includes(String(r.status)) && round2((r.confidence as number) - 0.03) >= 0.1) {
      entry.patches.push({ at: ms(r.updated_at), undo: (x) => ({ ...x, confidence: round2((x.confidence as number) - 0.03), updated_at: x.created_at }) });
      facts.confidence.push(entry.id);
    }
  }
  for (const event of records(read(path.join(hiveDir, 'shared-knowledge-events.jsonl')))) {
    const entry = byId.get(String(event.entry_id));
    const t = ms(event.timestamp);
    if (event.type !== 'archived' || !entry || !inWeek(t) || typeof event.previous_status !== 'string' || entry.patches.length) continue;
    const previous = event.previous_status;
    entry.patches.push({ at: t, undo: (r) => ({ ...r, status: previous }) });
    facts.tombstoned.push(entry.id);
  }
  const moved: TrackedEntry[] = [];
  for (const line of splitLines(read(path.join(hiveDir, 'shared-learnings-quarantined.jsonl')))) {
    const r = JSON.parse(line) as Rec;
    if (!inWeek(ms(r.quarantined_at)) || byId.has(String(r.id))) continue;
    moved.push(tracked(beforeQuarantine(line), Number.NEGATIVE_INFINITY, ms(r.quarantined_at)));
    facts.quarantined.push(String(r.id));
  }
  return insertByCreation(entries, moved);
}
