import { entryId, entryLesson, entryStatus, str, strList, type RawEntry } from './entry-fields';
import { buildCounterRollups, effectiveOutcomes, instant, outcomeSignal, violationsSince, type CounterRollup, type EffectiveOutcomes } from './counters';
import { expiryMarker, qualityMarkers, type ExpiryMarker, type QualityMarkers } from './lifecycle';
import { normalizeLesson, jaccard, wordBigrams } from './similarity';
import { isActiveStatus, type KnowledgeThresholds } from './thresholds';

/**
 * Everything the knowledge views derive, computed once per state of the stores: effective
 * counters, markers, counterparts across tiers, receipts per entry and citing skills. Inputs
 * are plain records (the index adapter fills them), so this stays testable without SQLite.
 */
export type EntryTier = 'swarm' | 'hive' | 'link';
export type EntryCollection = 'active' | 'rejected' | 'quarantined' | 'unactionable';

export interface SourceEntry {
  /** The index row id (stable while the file is not rewritten). */
  rid: number;
  /** The entry as the plugin reads it (v1→v2 normalisation applied). */
  value: RawEntry;
  /** The line exactly as written. */
  text: string;
  tier: EntryTier;
  collection: EntryCollection;
  storeKey: string;
  file: string;
  line: number;
  notes: { field: string; note: string }[];
}

export interface SourceEvent {
  value: Record<string, unknown>;
  storeKey: string;
  file: string;
  line: number;
}

export interface SkillRef {
  slug: string;
  path: string;
  kind: 'active' | 'proposal';
  status: string | null;
  retired: boolean;
  stale: boolean;
  sourceIds: string[];
}

export interface KnowledgeInputs {
  entries: SourceEntry[];
  /** `knowledge-events.jsonl` lines (file order). */
  knowledgeEvents: SourceEvent[];
  /** Legacy `knowledge-application.jsonl` lines (file order). */
  applicationLog: SourceEvent[];
  /** Parsed `knowledge-counter-baseline.json`, or null. */
  baseline: unknown;
  retractions: RawEntry[];
  skills: SkillRef[];
}

export interface EntryMarkers {
  expiry: ExpiryMarker | null;
  quality: QualityMarkers;
  signal: number;
  shown: number;
  violationsInWindow: number;
  lastViolationAt: string | null;
}

export interface EventRef {
  kind: string;
  at: string | null;
  traceId: string | null;
  sessionId: string | null;
  phase: string | null;
  agent: string | null;
  reason: string | null;
  source: string | null;
  storeKey: string;
  file: string;
  line: number;
}

export const VIOLATION_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

const tierGroup = (tier: EntryTier) => (tier === 'hive' ? 'hive' : 'project');

/** Effective-counter rollups and the "this week" anchor, from the counter sources alone. */
export class CounterState {
  readonly rollups: Map<string, CounterRollup>;
  /** Reference time for "this week": the latest recorded activity, never later than now. */
  readonly asOf: number;

  constructor(inputs: Pick<KnowledgeInputs, 'knowledgeEvents' | 'applicationLog' | 'baseline'>, now: number = Date.now()) {
    this.rollups = buildCounterRollups({
      baseline: inputs.baseline,
      events: inputs.knowledgeEvents.map((e) => e.value),
      applicationLog: inputs.applicationLog.map((e) => e.value),
    });
    let latest = Number.NEGATIVE_INFINITY;
    for (const event of [...inputs.knowledgeEvents, ...inputs.applicationLog]) {
      const t = instant(str(event.value.timestamp));
      if (t > latest) latest = t;
    }
    this.asOf = Number.isFinite(latest) ? Math.min(latest, now) : now;
  }

  get windowStart(): number {
    return this.asOf - VIOLATION_WINDOW_DAYS * DAY_MS;
  }

  outcomes(entry: SourceEntry): EffectiveOutcomes {
    return effectiveOutcomes(entry.value, this.rollups.get(entryId(entry.value)));
  }

  markers(entry: SourceEntry, thresholds: KnowledgeThresholds): EntryMarkers {
    const outcomes = this.outcomes(entry);
    const inWindow = violationsSince(outcomes, this.windowStart).filter((t) => instant(t) <= this.asOf);
    return {
      expiry: entry.collection === 'active' ? expiryMarker(entry.value, thresholds) : null,
      quality: qualityMarkers(entry.value, outcomes, thresholds),
      signal: outcomeSignal(outcomes),
      shown: outcomes.shown_count,
      violationsInWindow: inWindow.length,
      lastViolationAt: outcomes.violation_timestamps[0] ?? null,
    };
  }
}

export class KnowledgeModel {
  private byIdCache?: Map<string, SourceEntry[]>;
  private eventsById?: Map<string, EventRef[]>;
  private bigramIndex?: Map<string, Map<string, number[]>>;
  private bigramSets?: Map<SourceEntry, Set<string>>;
  private readonly memo = new Map<string, unknown>();
  readonly counters: CounterState;

  constructor(
    readonly inputs: KnowledgeInputs,
    readonly thresholds: KnowledgeThresholds,
    now: number = Date.now(),
    counters?: CounterState,
  ) {
    this.counters = counters ?? new CounterState(inputs, now);
  }

  get asOf(): number {
    return this.counters.asOf;
  }

  /** Computes a derived view once per state of the stores (the model is rebuilt when they change). */
  cached<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }

  /** Lessons of the main stores (swarm, link and hive files), any status. */
  lessons(): SourceEntry[] {
    return this.inputs.entries.filter((e) => e.collection === 'active');
  }

  byId(id: string): SourceEntry[] {
    if (!this.byIdCache) {
      this.byIdCache = new Map();
      for (const entry of this.inputs.entries) {
        const key = entryId(entry.value);
        const list = this.byIdCache.get(key);
        if (list) list.push(entry);
        else this.byIdCache.set(key, [entry]);
      }
    }
    return this.byIdCache.get(id) ?? [];
  }

  /** The main copy of an id: the active store first, then quarantine and the queue, rejected fingerprints last. */
  find(id: string, tier?: EntryTier): SourceEntry | undefined {
    const order: EntryCollection[] = ['active', 'quarantined', 'unactionable', 'rejected'];
    const copies = this.byId(id).filter((e) => !tier || e.tier === tier);
    return [...copies].sort((a, b) => order.indexOf(a.collection) - order.indexOf(b.collection))[0];
  }

  outcomes(entry: SourceEntry): EffectiveOutcomes {
    return this.counters.outcomes(entry);
  }

  markers(entry: SourceEntry): EntryMarkers {
    return this.counters.markers(entry, this.thresholds);
  }

  /** Knowledge events and legacy log lines naming this id, newest first. */
  events(id: string): EventRef[] {
    if (!this.eventsById) {
      this.eventsById = new Map();
      const add = (key: string, ref: EventRef) => {
        const list = this.eventsById!.get(key);
        if (list) list.push(ref);
        else this.eventsById!.set(key, [ref]);
      };
      const refOf = (event: SourceEvent, kind: string): EventRef => ({
        kind,
        at: str(event.value.timestamp) ?? null,
        traceId: str(event.value.trace_id) ?? null,
        sessionId: str(event.value.session_id) ?? str(event.value.sessionId) ?? null,
        phase: str(event.value.phase) ?? null,
        agent: str(event.value.agent) ?? str(event.value.targetAgent) ?? null,
        reason: str(event.value.reason) ?? null,
        source: str(event.value.source) ?? null,
        storeKey: event.storeKey,
        file: event.file,
        line: event.line,
      });
      for (const event of this.inputs.knowledgeEvents) {
        const kind = str(event.value.type) ?? 'unknown';
        if (kind === 'retrieved') for (const id of strList(event.value.result_ids)) add(id, refOf(event, kind));
        const target = str(event.value.knowledge_id) ?? str(event.value.entry_id);
        if (target) add(target, refOf(event, kind));
      }
      for (const event of this.inputs.applicationLog) {
        const target = str(event.value.knowledgeId);
        if (target) add(target, refOf(event, `legacy:${str(event.value.result) ?? 'unknown'}`));
      }
      for (const list of this.eventsById.values()) list.sort((a, b) => (instant(b.at) || 0) - (instant(a.at) || 0));
    }
    return this.eventsById.get(id) ?? [];
  }

  citingSkills(id: string): SkillRef[] {
    return this.inputs.skills.filter((skill) => skill.sourceIds.includes(id));
  }

  private bigramsOf(entry: SourceEntry): Set<string> {
    this.bigramSets ??= new Map();
    let set = this.bigramSets.get(entry);
    if (!set) this.bigramSets.set(entry, (set = wordBigrams(entryLesson(entry.value))));
    return set;
  }

  /** The same or a near-duplicate lesson (≥ dedup_threshold) in the other tier group. */
  counterparts(entry: SourceEntry): { entry: SourceEntry; similarity: number; exact: boolean }[] {
    if (!this.bigramIndex) {
      this.bigramIndex = new Map([
        ['hive', new Map()],
        ['project', new Map()],
      ]);
      this.lessons().forEach((candidate, index) => {
        const postings = this.bigramIndex!.get(tierGroup(candidate.tier))!;
        for (const token of this.bigramsOf(candidate)) {
          const list = postings.get(token);
          if (list) list.push(index);
          else postings.set(token, [index]);
        }
      });
    }
    const lessons = this.lessons();
    const other = tierGroup(entry.tier) === 'hive' ? 'project' : 'hive';
    const postings = this.bigramIndex.get(other)!;
    const mine = this.bigramsOf(entry);
    const normal = normalizeLesson(entryLesson(entry.value));
    const candidates = new Set<number>();
    for (const token of mine) for (const index of postings.get(token) ?? []) candidates.add(index);
    const out: { entry: SourceEntry; similarity: number; exact: boolean }[] = [];
    for (const index of candidates) {
      const candidate = lessons[index]!;
      const similarity = jaccard(mine, this.bigramsOf(candidate));
      const exact = normalizeLesson(entryLesson(candidate.value)) === normal;
      if (exact || similarity >= this.thresholds.dedup_threshold) out.push({ entry: candidate, similarity: exact ? 1 : similarity, exact });
    }
    return out.sort((a, b) => b.similarity - a.similarity).slice(0, 10);
  }

  /** Lessons eligible for the injection preview, tiers split as the reader sees them. */
  injectionSources() {
    const lessons = this.lessons();
    return {
      swarm: lessons.filter((e) => e.tier !== 'hive').map((e) => e.value),
      hive: lessons.filter((e) => e.tier === 'hive').map((e) => e.value),
      retractions: this.inputs.retractions,
    };
  }

  /** Active lessons per tier group, for near-duplicate clustering. */
  clusterGroups(): { group: 'project' | 'hive'; entries: SourceEntry[] }[] {
    const active = this.lessons().filter((e) => isActiveStatus(entryStatus(e.value)));
    return [
      { group: 'project', entries: active.filter((e) => e.tier !== 'hive') },
      { group: 'hive', entries: active.filter((e) => e.tier === 'hive') },
    ];
  }
}
