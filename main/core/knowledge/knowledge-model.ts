import type { DirectiveRow } from '../../../shared/contract/knowledge';
import type { EffectiveOutcomes } from '../rules/counters';
import { CounterState } from './counter-state';
import { CounterpartIndex, type Counterpart } from './counterparts';
import { DerivedCache } from './derived-cache';
import { directiveRow, isDirective } from './directive-rows';
import { entryId, entryStatus, type RawEntry } from '../rules/entry-fields';
import { EventIndex } from './event-index';
import type { EntryDelta } from './entry-cache';
import type { ExpiryMarker, QualityMarkers } from '../rules/lifecycle';
import { isActiveStatus, type KnowledgeThresholds } from '../rules/thresholds';
import { NO_SLICING, type TimeSlicer } from '../platform/util/time-slicer';

export { VIOLATION_WINDOW_DAYS } from './counter-state';

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
  /** File order (file, then line). */
  entries: readonly SourceEntry[];
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

export class KnowledgeModel {
  private lessonList?: SourceEntry[];
  private byIdCache?: Map<string, SourceEntry[]>;
  private eventsById?: Map<string, EventRef[]>;
  private counterpartIndex?: CounterpartIndex;
  private directiveList?: DirectiveRow[];
  private groups?: { group: 'project' | 'hive'; entries: SourceEntry[] }[];
  /** The previous model's id lookup and the lines appended since, when that is all that changed. */
  private grownFrom?: { byId: Map<string, SourceEntry[]>; delta: EntryDelta };
  private sources?: { swarm: RawEntry[]; hive: RawEntry[]; retractions: RawEntry[] };
  private readonly memo = new Map<string, unknown>();
  readonly counters: CounterState;
  /** When the stores were read for this model (epoch ms). */
  readonly builtAt: number;

  constructor(
    readonly inputs: KnowledgeInputs,
    readonly thresholds: KnowledgeThresholds,
    now: number = Date.now(),
    counters?: CounterState,
    /** Per-entry results shared with earlier and later models of the same stores. */
    readonly derived: DerivedCache = new DerivedCache(),
  ) {
    this.counters = counters ?? new CounterState(inputs, now);
    this.builtAt = Date.now();
  }

  get asOf(): number {
    return this.counters.asOf;
  }

  /**
   * Builds the per-model views (lessons, ids, directive rows, cluster groups, injection
   * sources) in time slices, so no request finds them missing and pays for them on the spot.
   * Counterpart postings are large and kept incrementally by the service (`useCounterparts`).
   */
  async prepare(slicer: TimeSlicer = NO_SLICING): Promise<void> {
    const lessons = (this.lessonList ??= await slicer.filter(this.inputs.entries, (e) => e.collection === 'active'));
    if (!this.byIdCache && this.grownFrom) {
      const { byId: base, delta } = this.grownFrom;
      const byId = new Map<string, SourceEntry[]>();
      await slicer.forEach(base, ([id, list]) => byId.set(id, list));
      for (const entry of delta.added) {
        const id = entryId(entry.value);
        const list = [...(byId.get(id) ?? [])];
        let at = list.length;
        while (at > 0 && delta.compare(list[at - 1]!, entry) > 0) at--;
        list.splice(at, 0, entry);
        byId.set(id, list);
      }
      this.byIdCache = byId;
    }
    if (!this.byIdCache) {
      const byId = new Map<string, SourceEntry[]>();
      await slicer.forEach(this.inputs.entries, (entry) => {
        const key = entryId(entry.value);
        const list = byId.get(key);
        if (list) list.push(entry);
        else byId.set(key, [entry]);
      });
      this.byIdCache ??= byId;
    }
    if (!this.directiveList) {
      const rows = this.derived.directiveRows(this.counters, this.thresholds);
      const list: DirectiveRow[] = [];
      await slicer.forEach(lessons, (source) => {
        if (isDirective(source.value)) list.push(this.directiveRowOf(source, rows));
      });
      this.directiveList ??= list;
    }
    if (!this.groups) {
      const active = await slicer.filter(lessons, (e) => isActiveStatus(entryStatus(e.value)));
      const project = await slicer.filter(active, (e) => e.tier !== 'hive');
      const hive = await slicer.filter(active, (e) => e.tier === 'hive');
      this.groups ??= [
        { group: 'project', entries: project },
        { group: 'hive', entries: hive },
      ];
    }
    if (!this.eventsById) {
      const index = new EventIndex();
      await slicer.forEach(this.inputs.knowledgeEvents, (event) => index.addKnowledgeEvent(event));
      await slicer.forEach(this.inputs.applicationLog, (event) => index.addLegacyLine(event));
      this.eventsById ??= index.finish();
    }
    if (!this.sources) {
      const swarm = await slicer.map(await slicer.filter(lessons, (e) => e.tier !== 'hive'), (e) => e.value);
      const hive = await slicer.map(await slicer.filter(lessons, (e) => e.tier === 'hive'), (e) => e.value);
      this.sources ??= { swarm, hive, retractions: this.inputs.retractions };
    }
  }

  /**
   * Takes over what depends on unchanged inputs from the previous model of the same stores: a
   * change to counters or skills alone then costs no pass over 100k entries.
   */
  adopt(previous: KnowledgeModel, delta?: EntryDelta): void {
    if (previous.inputs.entries !== this.inputs.entries) {
      // Lines only appended: the id lookup is extended rather than rebuilt (see prepare).
      if (delta && delta.dropped === 0 && delta.from === previous.inputs.entries && previous.byIdCache) this.grownFrom = { byId: previous.byIdCache, delta };
      return;
    }
    this.lessonList ??= previous.lessonList;
    this.byIdCache ??= previous.byIdCache;
    this.groups ??= previous.groups;
    this.counterpartIndex ??= previous.counterpartIndex;
    if (previous.sources) this.sources ??= { ...previous.sources, retractions: this.inputs.retractions };
    if (previous.memo.has('triage')) this.memo.set('triage', previous.memo.get('triage'));
    if (previous.inputs.knowledgeEvents === this.inputs.knowledgeEvents && previous.inputs.applicationLog === this.inputs.applicationLog) this.eventsById ??= previous.eventsById;
    if (previous.counters === this.counters && JSON.stringify(previous.thresholds) === JSON.stringify(this.thresholds)) {
      this.directiveList ??= previous.directiveList;
      for (const [key, value] of previous.memo) if (key.startsWith('directives:')) this.memo.set(key, value);
    }
  }

  /** Counterpart postings over exactly this model's lessons (kept incrementally across models). */
  useCounterparts(index: CounterpartIndex): void {
    if (index.lessons !== this.lessons()) throw new Error('counterpart index of other lessons');
    this.counterpartIndex = index;
  }

  /** Computes a derived view once per state of the stores (the model is rebuilt when they change). */
  cached<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }

  /** Lessons of the main stores (swarm, link and hive files), any status. */
  lessons(): SourceEntry[] {
    return (this.lessonList ??= this.inputs.entries.filter((e) => e.collection === 'active'));
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
      const index = new EventIndex();
      for (const event of this.inputs.knowledgeEvents) index.addKnowledgeEvent(event);
      for (const event of this.inputs.applicationLog) index.addLegacyLine(event);
      this.eventsById = index.finish();
    }
    return this.eventsById.get(id) ?? [];
  }

  citingSkills(id: string): SkillRef[] {
    return this.inputs.skills.filter((skill) => skill.sourceIds.includes(id));
  }

  /** The same or a near-duplicate lesson (≥ dedup_threshold) in the other tier group. */
  counterparts(entry: SourceEntry): Counterpart[] {
    this.counterpartIndex ??= CounterpartIndex.buildNow(this.lessons(), this.derived);
    return this.counterpartIndex.find(entry, this.thresholds.dedup_threshold);
  }

  /** counterparts() in time slices. */
  counterpartsSliced(entry: SourceEntry, slicer: TimeSlicer): Promise<Counterpart[]> {
    this.counterpartIndex ??= CounterpartIndex.buildNow(this.lessons(), this.derived);
    return this.counterpartIndex.findSliced(entry, this.thresholds.dedup_threshold, slicer);
  }

  private directiveRowOf(source: SourceEntry, rows: WeakMap<SourceEntry, DirectiveRow>): DirectiveRow {
    let row = rows.get(source);
    if (!row) rows.set(source, (row = directiveRow(this, source)));
    return row;
  }

  /** Lessons with v2 directive fields as directive rows (file order); rows are reused while counters and thresholds stay. */
  directiveRows(): DirectiveRow[] {
    if (!this.directiveList) {
      const rows = this.derived.directiveRows(this.counters, this.thresholds);
      this.directiveList = this.lessons()
        .filter((source) => isDirective(source.value))
        .map((source) => this.directiveRowOf(source, rows));
    }
    return this.directiveList;
  }

  /** Lessons eligible for the injection preview, tiers split as the reader sees them. */
  injectionSources(): { swarm: RawEntry[]; hive: RawEntry[]; retractions: RawEntry[] } {
    const lessons = this.lessons();
    return (this.sources ??= {
      swarm: lessons.filter((e) => e.tier !== 'hive').map((e) => e.value),
      hive: lessons.filter((e) => e.tier === 'hive').map((e) => e.value),
      retractions: this.inputs.retractions,
    });
  }

  /** Active lessons per tier group, for near-duplicate clustering. */
  clusterGroups(): { group: 'project' | 'hive'; entries: SourceEntry[] }[] {
    if (!this.groups) {
      const active = this.lessons().filter((e) => isActiveStatus(entryStatus(e.value)));
      this.groups = [
        { group: 'project', entries: active.filter((e) => e.tier !== 'hive') },
        { group: 'hive', entries: active.filter((e) => e.tier === 'hive') },
      ];
    }
    return this.groups;
  }
}
