import type { DirectiveRow } from '../../../shared/contract/knowledge';
import type { EffectiveOutcomes } from '../rules/counters';
import { CounterState } from './counter-state';
import { CounterpartIndex, type Counterpart } from './counterparts';
import { DerivedCache } from './derived-cache';
import { directiveRow } from './directive-rows';
import { isDirective } from '../rules/directive-fields';
import { entryId, entryStatus, type RawEntry } from '../rules/entry-fields';
import { EventIndex } from './event-index';
import type { EntryDelta } from './entry-cache';
import { isActiveStatus, type KnowledgeThresholds } from '../rules/thresholds';
import { NO_SLICING, type TimeSlicer } from '../platform/util/time-slicer';
import type { EntryCollection, EntryMarkers, EntryTier, EventRef, KnowledgeInputs, SkillRef, SourceEntry } from './model-types';


/** The per-model views every knowledge request reads; built once per model by `buildViews`. */
interface ModelViews {
  /** Lessons of the main stores (swarm, link and hive files), any status. */
  lessons: SourceEntry[];
  byId: Map<string, SourceEntry[]>;
  eventsById: Map<string, EventRef[]>;
  directives: DirectiveRow[];
  groups: { group: 'project' | 'hive'; entries: SourceEntry[] }[];
  sources: { swarm: RawEntry[]; hive: RawEntry[]; retractions: RawEntry[] };
}

/** Items between two chances to give the event loop back (as in TimeSlicer). */
const STEP = 64;

/**
 * Everything the knowledge views derive, computed once per state of the stores: effective
 * counters, markers, counterparts across tiers, receipts per entry and citing skills. Inputs
 * are plain records (the index adapter fills them), so this stays testable without SQLite.
 *
 * Construction is explicit: `prepare()` (time-sliced, what the service calls) or `prepareNow()`
 * build every view in one pass of `buildViews`; the accessors only read them. A model first used
 * without either (a test, a small input) runs `prepareNow()` once, on that first use.
 */
export class KnowledgeModel {
  private views?: ModelViews;
  /** Views taken over from the previous model of the same stores (see adopt). */
  private readonly adopted: Partial<ModelViews> = {};
  private counterpartIndex?: CounterpartIndex;
  /** The previous model's id lookup and the lines appended since, when that is all that changed. */
  private grownFrom?: { byId: Map<string, SourceEntry[]>; delta: EntryDelta };
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
    if (this.views) return;
    const build = this.buildViews();
    let step = build.next();
    while (!step.done) {
      await slicer.yield();
      step = build.next();
    }
    this.views ??= step.value;
  }

  /** The same build as prepare(), in one go (and the counterpart postings, which the service otherwise supplies). */
  prepareNow(): this {
    if (!this.views) {
      const build = this.buildViews();
      let step = build.next();
      while (!step.done) step = build.next();
      this.views = step.value;
    }
    this.counterpartIndex ??= CounterpartIndex.buildNow(this.views.lessons, this.derived);
    return this;
  }

  private get built(): ModelViews {
    return this.views ?? (this.prepareNow().views as ModelViews);
  }

  /** The one build of the views; yields every STEP items so prepare() can slice it. */
  private *buildViews(): Generator<void, ModelViews> {
    const { inputs, adopted } = this;
    const each = function* <T>(items: Iterable<T>, fn: (item: T) => void): Generator<void> {
      let n = 0;
      for (const item of items) {
        fn(item);
        if (++n % STEP === 0) yield;
      }
    };
    let lessons = adopted.lessons;
    if (!lessons) {
      const list: SourceEntry[] = [];
      yield* each(inputs.entries, (e) => e.collection === 'active' && list.push(e));
      lessons = list;
    }
    let byId = adopted.byId;
    if (!byId && this.grownFrom) {
      // Lines only appended: the previous lookup is extended rather than rebuilt.
      const { byId: base, delta } = this.grownFrom;
      const grown = new Map<string, SourceEntry[]>();
      yield* each(base, ([id, list]) => grown.set(id, list));
      for (const entry of delta.added) {
        const id = entryId(entry.value);
        const list = [...(grown.get(id) ?? [])];
        let at = list.length;
        while (at > 0 && delta.compare(list[at - 1]!, entry) > 0) at--;
        list.splice(at, 0, entry);
        grown.set(id, list);
      }
      byId = grown;
    }
    if (!byId) {
      const fresh = new Map<string, SourceEntry[]>();
      yield* each(inputs.entries, (entry) => {
        const key = entryId(entry.value);
        const list = fresh.get(key);
        if (list) list.push(entry);
        else fresh.set(key, [entry]);
      });
      byId = fresh;
    }
    let directives = adopted.directives;
    if (!directives) {
      const rows = this.derived.directiveRows(this.counters, this.thresholds);
      const list: DirectiveRow[] = [];
      yield* each(lessons, (source) => {
        if (isDirective(source.value)) list.push(this.directiveRowOf(source, rows));
      });
      directives = list;
    }
    let groups = adopted.groups;
    if (!groups) {
      const project: SourceEntry[] = [];
      const hive: SourceEntry[] = [];
      yield* each(lessons, (e) => {
        if (isActiveStatus(entryStatus(e.value))) (e.tier === 'hive' ? hive : project).push(e);
      });
      groups = [
        { group: 'project', entries: project },
        { group: 'hive', entries: hive },
      ];
    }
    let eventsById = adopted.eventsById;
    if (!eventsById) {
      const index = new EventIndex();
      yield* each(inputs.knowledgeEvents, (event) => index.addKnowledgeEvent(event));
      yield* each(inputs.applicationLog, (event) => index.addLegacyLine(event));
      eventsById = index.finish();
    }
    let sources = adopted.sources;
    if (!sources) {
      const swarm: RawEntry[] = [];
      const hive: RawEntry[] = [];
      yield* each(lessons, (e) => (e.tier === 'hive' ? hive : swarm).push(e.value));
      sources = { swarm, hive, retractions: inputs.retractions };
    }
    return { lessons, byId, eventsById, directives, groups, sources };
  }

  /**
   * Takes over what depends on unchanged inputs from the previous model of the same stores: a
   * change to counters or skills alone then costs no pass over 100k entries.
   */
  adopt(previous: KnowledgeModel, delta?: EntryDelta): void {
    const before = previous.views;
    if (previous.inputs.entries !== this.inputs.entries) {
      // Lines only appended: the id lookup is extended rather than rebuilt (see buildViews).
      if (delta && delta.dropped === 0 && delta.from === previous.inputs.entries && before) this.grownFrom = { byId: before.byId, delta };
      return;
    }
    this.counterpartIndex ??= previous.counterpartIndex;
    if (previous.memo.has('triage')) this.memo.set('triage', previous.memo.get('triage'));
    if (!before) return;
    Object.assign(this.adopted, { lessons: before.lessons, byId: before.byId, groups: before.groups, sources: { ...before.sources, retractions: this.inputs.retractions } });
    if (previous.inputs.knowledgeEvents === this.inputs.knowledgeEvents && previous.inputs.applicationLog === this.inputs.applicationLog) this.adopted.eventsById = before.eventsById;
    if (previous.counters === this.counters && JSON.stringify(previous.thresholds) === JSON.stringify(this.thresholds)) {
      this.adopted.directives = before.directives;
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
    return this.built.lessons;
  }

  byId(id: string): SourceEntry[] {
    return this.built.byId.get(id) ?? [];
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
    return this.built.eventsById.get(id) ?? [];
  }

  citingSkills(id: string): SkillRef[] {
    return this.inputs.skills.filter((skill) => skill.sourceIds.includes(id));
  }

  private counterpartPostings(): CounterpartIndex {
    return this.counterpartIndex ?? (this.prepareNow().counterpartIndex as CounterpartIndex);
  }

  /** The same or a near-duplicate lesson (≥ dedup_threshold) in the other tier group. */
  counterparts(entry: SourceEntry): Counterpart[] {
    return this.counterpartPostings().find(entry, this.thresholds.dedup_threshold);
  }

  /** counterparts() in time slices. */
  counterpartsSliced(entry: SourceEntry, slicer: TimeSlicer): Promise<Counterpart[]> {
    return this.counterpartPostings().findSliced(entry, this.thresholds.dedup_threshold, slicer);
  }

  private directiveRowOf(source: SourceEntry, rows: WeakMap<SourceEntry, DirectiveRow>): DirectiveRow {
    let row = rows.get(source);
    if (!row) rows.set(source, (row = directiveRow(this, source)));
    return row;
  }

  /** Lessons with v2 directive fields as directive rows (file order); rows are reused while counters and thresholds stay. */
  directiveRows(): DirectiveRow[] {
    return this.built.directives;
  }

  /** Lessons eligible for the injection preview, tiers split as the reader sees them. */
  injectionSources(): { swarm: RawEntry[]; hive: RawEntry[]; retractions: RawEntry[] } {
    return this.built.sources;
  }

  /** Active lessons per tier group, for near-duplicate clustering. */
  clusterGroups(): { group: 'project' | 'hive'; entries: SourceEntry[] }[] {
    return this.built.groups;
  }
}
