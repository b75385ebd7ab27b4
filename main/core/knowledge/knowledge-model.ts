import type { DirectiveRow } from '../../../shared/contract/knowledge';
import type { EffectiveOutcomes } from '../rules/counters';
import { CounterState } from './counter-state';
import { CounterpartIndex, type Counterpart } from './counterparts';
import type { ChunkedList } from './chunked-list';
import { DerivedCache } from './derived-cache';
import { directiveRow } from './directive-rows';
import { StaleDirectiveMemo } from './directive-scope';
import { isDirective } from '../rules/directive-fields';
import type { RawEntry } from '../rules/entry-fields';
import type { EntryDelta } from './entry-cache';
import { buildViews, copiesOf, growViews, patchDirectiveRows, type ModelViews } from './model-views';
import type { KnowledgeThresholds } from '../rules/thresholds';
import { NO_SLICING, type TimeSlicer } from '../platform/util/time-slicer';
import type { EntryCollection, EntryMarkers, EntryTier, EventRef, KnowledgeInputs, SkillRef, SourceEntry } from './model-types';


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
  /** The previous model and the lines appended since, when that is all that changed in the entries. */
  private grownFrom?: { previous: KnowledgeModel; views: ModelViews; delta: EntryDelta; carried: ReturnType<KnowledgeModel['carriedRows']> };
  private readonly memo = new Map<string, unknown>();
  readonly counters: CounterState;
  /**
   * How the views were made: grown from the previous model by the lines that came and went,
   * taken over from it (entries unchanged: a counter or side-store change), or built over every
   * entry (tests and the benchmark read it).
   */
  viewsMadeBy: 'grown' | 'adopted' | 'full' | null = null;
  /** Directives memos taken over stale from the previous model and brought up to date when asked (tests read it). */
  memosResolved = 0;
  /** Directive rows this model computed rather than took over (tests read it). */
  rowsComputed = 0;
  /** Rows computed since the last takeComputedRows (the service warms their search text; rows taken over have theirs already). */
  private computedRows: DirectiveRow[] = [];
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

  private rowOf(source: SourceEntry): DirectiveRow {
    return this.directiveRowOf(source, this.derived.directiveRows(this.counters, this.thresholds));
  }

  /** The views: grown from the previous model's after appends (proportional to them), else the full build (sliced). */
  private *buildViews(): Generator<void, ModelViews> {
    const rowOf = (source: SourceEntry) => this.rowOf(source);
    const grown = this.grownFrom;
    if (!grown) {
      this.viewsMadeBy = this.adopted.lessons ? 'adopted' : 'full';
      return yield* buildViews(this.inputs, rowOf, this.adopted);
    }
    this.grownFrom = undefined;
    this.viewsMadeBy = 'grown';
    const { carried, delta } = grown;
    const base = carried ? { ...grown.views, directives: carried.directives } : grown.views;
    const { views, removedRows } = growViews(base, grown.previous.inputs, this.inputs, delta, rowOf, carried !== null);
    if (carried) {
      // The Directives view's scope and sort orders, without the gone rows and with the added ones in their places.
      const added = delta.added.filter((e) => e.collection === 'active' && isDirective(e.value)).map(rowOf);
      for (const [key, value] of carried.memo) {
        const next = StaleDirectiveMemo.after(key, value, { added, removed: removedRows, fileOrder: delta.compare });
        if (next !== undefined) this.memo.set(key, next);
      }
    }
    return views;
  }

  /**
   * The previous model's directive rows and Directives memos under this model's counters: as
   * they are when the counters are the same, patched where a counter change reaches (see
   * patchDirectiveRows), or null when the thresholds changed (every row is computed again).
   */
  private carriedRows(previous: KnowledgeModel, before: ModelViews, compare: EntryDelta['compare']): { directives: ChunkedList<DirectiveRow>; memo: Map<string, unknown> } | null {
    if (JSON.stringify(previous.thresholds) !== JSON.stringify(this.thresholds)) return null;
    const memo = new Map<string, unknown>();
    if (previous.counters === this.counters) {
      for (const [key, value] of previous.memo) if (key.startsWith('directives:')) memo.set(key, value);
      return { directives: before.directives, memo };
    }
    const { directives, replaced } = patchDirectiveRows(before, this.counters.changedSince(previous.counters), compare, (source) => this.rowOf(source));
    for (const [key, value] of previous.memo) {
      const next = StaleDirectiveMemo.after(key, value, { replaced, fileOrder: compare });
      if (next !== undefined) memo.set(key, next);
    }
    return { directives, memo };
  }

  /**
   * Takes over what depends on unchanged inputs from the previous model of the same stores: a
   * change to counters or skills alone then costs no pass over 100k entries, and appended lines
   * cost work in proportion to them (see buildViews).
   */
  adopt(previous: KnowledgeModel, delta?: EntryDelta): void {
    const before = previous.views;
    if (!before || !delta) return;
    if (previous.inputs.entries !== this.inputs.entries) {
      if (delta.from === previous.inputs.entries) this.grownFrom = { previous, views: before, delta, carried: this.carriedRows(previous, before, delta.compare) };
      return;
    }
    this.counterpartIndex ??= previous.counterpartIndex;
    if (previous.memo.has('triage')) this.memo.set('triage', previous.memo.get('triage'));
    Object.assign(this.adopted, {
      lessons: before.lessons,
      byId: before.byId,
      groups: before.groups,
      sourceEntries: before.sourceEntries,
      sources: { ...before.sources, retractions: this.inputs.retractions },
      triage: before.triage,
    });
    if (previous.inputs.knowledgeEvents === this.inputs.knowledgeEvents && previous.inputs.applicationLog === this.inputs.applicationLog) this.adopted.eventsById = before.eventsById;
    const carried = this.carriedRows(previous, before, delta.compare);
    if (carried) {
      Object.assign(this.adopted, { directives: carried.directives, directiveSources: before.directiveSources });
      for (const [key, value] of carried.memo) this.memo.set(key, value);
    }
  }

  /** Counterpart postings over exactly this model's lessons (kept incrementally across models). */
  useCounterparts(index: CounterpartIndex): void {
    if (index.lessons !== this.lessons()) throw new Error('counterpart index of other lessons');
    this.counterpartIndex = index;
  }

  /** Computes a derived view once per state of the stores (the model is rebuilt when they change). */
  cached<T>(key: string, compute: () => T): T {
    const kept = this.memo.get(key);
    if (kept instanceof StaleDirectiveMemo) {
      this.memo.set(key, kept.resolve() ?? compute());
      this.memosResolved++;
    } else if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }

  /** Lessons of the main stores (swarm, link and hive files), any status. */
  lessons(): ChunkedList<SourceEntry> {
    return this.built.lessons;
  }

  byId(id: string): SourceEntry[] {
    return copiesOf(this.built.byId.get(id));
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

  /** The entry's line exactly as written (read back from its store when the entry does not carry it). */
  lineOf(entry: SourceEntry): string {
    if (entry.text !== undefined) return entry.text;
    if (!this.inputs.readLine) throw new Error(`no line for entry ${entry.rid}: the model has no reader`);
    return this.inputs.readLine(entry);
  }

  citingSkills(id: string): SkillRef[] {
    return this.inputs.skills.filter((skill) => skill.sourceIds.includes(id));
  }

  /** The bigram postings of this model's lessons per tier group. */
  counterpartPostings(): CounterpartIndex {
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
    if (!row) {
      rows.set(source, (row = directiveRow(this, source)));
      this.rowsComputed++;
      this.computedRows.push(row);
    }
    return row;
  }

  /** The directive rows this model computed since the last call (not those it took over from the previous model). */
  takeComputedRows(): DirectiveRow[] {
    const rows = this.computedRows;
    this.computedRows = [];
    return rows;
  }

  /** Lessons with v2 directive fields as directive rows (file order); rows are reused while counters and thresholds stay. */
  directiveRows(): ChunkedList<DirectiveRow> {
    return this.built.directives;
  }

  /** The rejected and unactionable entries (file order), for the triage inboxes. */
  triageEntries(): { rejected: ChunkedList<SourceEntry>; unactionable: ChunkedList<SourceEntry> } {
    return this.built.triage;
  }

  /** Lessons eligible for the injection preview, tiers split as the reader sees them. */
  injectionSources(): { swarm: ChunkedList<RawEntry>; hive: ChunkedList<RawEntry>; retractions: RawEntry[] } {
    return this.built.sources;
  }

  /** The lessons behind injectionSources(), index for index. */
  injectionSourceEntries(): { swarm: ChunkedList<SourceEntry>; hive: ChunkedList<SourceEntry> } {
    return this.built.sourceEntries;
  }

  /** Active lessons per tier group, for near-duplicate clustering. */
  clusterGroups(): { group: 'project' | 'hive'; entries: ChunkedList<SourceEntry> }[] {
    return this.built.groups;
  }
}
