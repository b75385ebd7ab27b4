import type { z } from 'zod';
import type { DirectivesQuery, EntryDetail, Inboxes, PreviewInput, ThresholdsInForce } from '../../../shared/contract/knowledge';
import { KnowledgeSource } from '../store-index/knowledge-source';
import type { IndexDb } from '../store-index/open-index';
import { StaleLineError } from '../store-index/stored-lines';
import { SliceCancelled, TimeSlicer } from '../platform/util/time-slicer';
import { CounterState } from './counter-state';
import { DerivedCache } from './derived-cache';
import { EntryCache } from './entry-cache';
import { COUNTER_STORES, MODEL_STORES, SIDE_STORES, loadCounterInputs, loadEntriesByRid, loadSideInputs } from './from-index';
import { triageInboxesSliced } from './inbox-list';
import { listDirectives, warmDirectives } from './directive-list';
import { rankingBasis, rankPreview } from './injection-preview';
import { PersistedKnowledge, type LiveInputs, type Stamps } from './persisted-knowledge';
import { QuietJob } from './quiet-job';
import { CounterpartIndex } from './counterparts';
import { defaultProject, SimilarityJobs, type PreparedMerge } from './similarity-jobs';
import { KnowledgeModel } from './knowledge-model';
import type { EntryMarkers, EntryTier, KnowledgeInputs, SourceEntry } from './model-types';
import { LatestResult } from './latest-result';
import { KeptAnswer } from './kept-answer';
import { thresholdsInForce } from '../rules/thresholds-in-force';
import type { KnowledgeThresholds } from '../rules/thresholds';

/** What the service needs of the store index: its readiness, its connection and its changes. */
interface KnowledgeIndex {
  readonly ready: Promise<void>;
  readonly db: IndexDb;
  onChange(listener: (change: { storeKey: string }) => void): () => void;
}

/** Quiet time after a store change before the model is rebuilt in the background. */
const WARM_DEBOUNCE_MS = 150;
/** Quiet time after a rebuild before what it derived is kept in the index (settled() does it at once). */
const KEEP_QUIET_MS = 1000;

type Input<T extends z.ZodType> = z.output<T>;

/**
 * Per-workspace knowledge model, kept current off the request path. Parsed entries are cached
 * by rid (a rebuild parses only new lines), per-model indexes are built in time slices, and the
 * whole-corpus similarity work (near-duplicate clusters, the preview's tier merge) runs in a
 * worker thread and is then grown by appended lessons (similarity-jobs.ts), its last complete
 * result served — marked stale — while a newer one is computed. After the index is ready and after every change (debounced) the model is rebuilt
 * in the background, so requests find it warm.
 */
export class KnowledgeService {
  private readonly entries = new EntryCache();
  private readonly derived = new DerivedCache();
  private readonly jobs = new SimilarityJobs(this.derived, () => this.slicer(), () => this.closed);
  private readonly duplicates = new LatestResult<Inboxes['duplicates']>();
  private readonly merges = new LatestResult<PreparedMerge>();
  private readonly inboxesAnswer = new KeptAnswer<Inboxes>();
  private source: KnowledgeSource | null = null;
  private counterCache: { key: string; inputs: ReturnType<typeof loadCounterInputs>; state: CounterState } | null = null;
  private sideCache: { key: string; inputs: Pick<KnowledgeInputs, 'retractions' | 'skills'> } | null = null;
  /**
   * The current model with versions of what the similarity jobs read: the cluster groups and the
   * injection sources. A version moves only when those lists changed (an updated model keeps the
   * very same list when a change did not reach it), so an appended rejected line or a counter
   * change leaves the clusters and the tier merge current.
   */
  private current: { key: string; model: KnowledgeModel; groupsVersion: number; sourcesVersion: number; sideKey: string; stamps: Stamps | null } | null = null;
  /** What the last models derived, kept in the index for the next open (persisted-knowledge.ts). */
  private persisted: PersistedKnowledge | null = null;
  private readonly keeping = new QuietJob(KEEP_QUIET_MS);
  private building: Promise<void> | null = null;
  private counterparts: CounterpartIndex | null = null;
  private warmTimer: NodeJS.Timeout | null = null;
  private warming: Promise<void> | null = null;
  private readonly stopListening: () => void;
  private closed = false;
  /** Model builds so far (tests and the benchmark read it). */
  builds = 0;
  /** Of those, the builds that went over every entry rather than updating the previous model. */
  fullBuilds = 0;

  constructor(
    private readonly index: KnowledgeIndex,
    private readonly projectDir: string,
    private readonly now: () => number = Date.now,
    private readonly sliceMs = 12,
  ) {
    const modelStores = new Set(MODEL_STORES);
    this.stopListening = index.onChange((change) => {
      if (modelStores.has(change.storeKey)) this.warmSoon(WARM_DEBOUNCE_MS);
    });
    void index.ready.then(
      () => this.warmSoon(0),
      () => undefined,
    );
  }

  thresholds(): z.output<typeof ThresholdsInForce> {
    return thresholdsInForce(this.projectDir);
  }

  /** An entry's line from its store file; a row gone since the model was built means the file changed (callers retry through the index's `fresh`). */
  private readonly readLine = (entry: SourceEntry): string => {
    const line = this.sourceOf().entryLine(entry.rid);
    if (line === undefined) throw new StaleLineError(entry.file);
    return line;
  };

  private sourceOf(): KnowledgeSource {
    return (this.source ??= new KnowledgeSource(this.index.db));
  }

  private persistedOf(): PersistedKnowledge {
    return (this.persisted ??= new PersistedKnowledge(this.index.db, this.derived));
  }

  private keyOf(thresholds: KnowledgeThresholds): string {
    return `${this.sourceOf().fingerprint(MODEL_STORES)}#${JSON.stringify(thresholds)}`;
  }

  /** Counter rollups, recomputed only when a counter store changed. */
  private counters() {
    const source = this.sourceOf();
    const key = source.fingerprint(COUNTER_STORES);
    if (this.counterCache?.key !== key) {
      const inputs = loadCounterInputs(source);
      this.counterCache = { key, inputs, state: new CounterState(inputs, this.now()) };
    }
    return this.counterCache;
  }

  private side() {
    const source = this.sourceOf();
    const key = source.fingerprint(SIDE_STORES);
    if (this.sideCache?.key !== key) this.sideCache = { key, inputs: loadSideInputs(source) };
    return this.sideCache;
  }

  /** The model of the stores as they are now: cached, else rebuilt incrementally (in slices). */
  async model(): Promise<KnowledgeModel> {
    await this.index.ready;
    // A change landing during a build is picked up by one more (cheap, incremental) pass.
    for (let attempt = 0; ; attempt++) {
      const thresholds = this.thresholds().values;
      const key = this.keyOf(thresholds);
      if (this.current?.key === key || (this.current && attempt >= 3)) return this.current.model;
      this.building ??= this.build(thresholds, key).finally(() => (this.building = null));
      await this.building;
    }
  }

  /** Builds the model of the stores under `key` (their fingerprint and the thresholds, read before the build). */
  private async build(thresholds: KnowledgeThresholds, key: string): Promise<void> {
    const stamps = this.persistedOf().stamps(thresholds);
    const slicer = this.slicer();
    await this.entries.refresh(this.sourceOf(), slicer);
    const counters = this.counters();
    const side = this.side();
    const inputs: KnowledgeInputs = { entries: this.entries.entries, ...counters.inputs, ...side.inputs, readLine: this.readLine };
    const model = new KnowledgeModel(inputs, thresholds, this.now(), counters.state, this.derived);
    const previous = this.current?.model;
    const delta = this.entries.lastDelta;
    if (previous) model.adopt(previous, delta);
    await model.prepare(slicer);
    const lessonsOf = (list: readonly SourceEntry[]) => list.filter((e) => e.collection === 'active');
    const appended =
      previous && delta.from === previous.inputs.entries
        ? { from: previous.lessons(), added: lessonsOf(delta.added), removed: lessonsOf(delta.removed), compare: delta.compare }
        : undefined;
    this.counterparts = await (this.counterparts ? this.counterparts.update(model.lessons(), slicer, appended) : CounterpartIndex.build(model.lessons(), this.derived, slicer));
    model.useCounterparts(this.counterparts);
    // What the first Directives page and Inboxes call would otherwise compute on the spot.
    await this.triage(model);
    await warmDirectives(model, slicer);
    const before = this.current;
    const sameLists = <T>(a: readonly T[] | undefined, b: readonly T[]) => a === b || (a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));
    const groups = model.clusterGroups().map((g) => g.entries);
    const sources = [model.injectionSources().swarm, model.injectionSources().hive];
    const groupsVersion = before && sameLists(before.model.clusterGroups().map((g) => g.entries), groups) ? before.groupsVersion : (before?.groupsVersion ?? 0) + 1;
    const sourcesVersion = before && sameLists([before.model.injectionSources().swarm, before.model.injectionSources().hive], sources) ? before.sourcesVersion : (before?.sourcesVersion ?? 0) + 1;
    // Kept only when the stores did not move during the build (the model is then exactly theirs).
    const unmoved = JSON.stringify(this.persistedOf().stamps(thresholds)) === JSON.stringify(stamps);
    this.current = { key, model, groupsVersion, sourcesVersion, sideKey: side.key, stamps: unmoved ? stamps : null };
    this.builds++;
    if (model.viewsMadeBy === 'full') this.fullBuilds++;
  }

  /** Rebuilds the model and starts the similarity jobs after `delayMs` of quiet. */
  warmSoon(delayMs: number): void {
    if (this.closed) return;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = setTimeout(() => {
      this.warmTimer = null;
      this.warming = this.warm().finally(() => (this.warming = null));
    }, delayMs);
    this.warmTimer.unref();
  }

  private async warm(): Promise<void> {
    try {
      const model = await this.model();
      if (this.closed) return;
      this.requestDuplicates(model);
      this.requestMerge(model);
      this.persist(model);
    } catch (error) {
      if (!this.closed && !(error instanceof SliceCancelled)) console.warn('[knowledge] background rebuild failed:', (error as Error).message);
    }
  }

  /** Resolves once the model is current and no background job is running (tests, benchmark). */
  async settled(): Promise<void> {
    for (;;) {
      while (this.warmTimer || this.warming) await (this.warming ?? new Promise((resolve) => setTimeout(resolve, WARM_DEBOUNCE_MS)));
      await this.model();
      // Keeping what the model derived overlaps the similarity jobs (they run in workers).
      await Promise.all([this.duplicates.settled(), this.merges.settled(), this.keeping.flush()]);
      if (!this.warmTimer && !this.warming && !this.duplicates.computing && !this.merges.computing && !this.keeping.busy) return;
    }
  }

  /** Whether a similarity job is running or queued (tests read it). */
  get computing(): boolean {
    return this.duplicates.computing || this.merges.computing;
  }

  /** Whether near-duplicate clustering is running or queued. */
  get clustering(): boolean {
    return this.duplicates.computing;
  }

  /** Similarity results grown from the previous one by appended lessons rather than computed again (tests and the benchmark read it). */
  get grown(): { readonly clusters: number; readonly merges: number } {
    return this.jobs.grown;
  }

  /** Parsing statistics of the last model refresh (tests read it). */
  get lastRefresh() {
    return this.entries.lastRefresh;
  }

  /** Clusters depend on the entries and the dedup threshold only. */
  private duplicatesKey(model: KnowledgeModel): string {
    const current = this.current?.model === model ? this.current : null;
    return JSON.stringify([current?.groupsVersion ?? model.builtAt, model.thresholds.dedup_threshold]);
  }

  private requestDuplicates(model: KnowledgeModel): void {
    this.duplicates.request(this.duplicatesKey(model), model.builtAt, () => this.jobs.duplicates(model));
  }


  /** Slices of the model's builds and similarity jobs: background work, which gives way while the operator scrolls (foreground.ts). */
  private slicer(): TimeSlicer {
    return new TimeSlicer(this.sliceMs, () => (this.closed ? 'knowledge service closed' : null), true);
  }

  private mergeKey(model: KnowledgeModel): string {
    const current = this.current?.model === model ? this.current : null;
    return JSON.stringify([current?.sourcesVersion ?? model.builtAt, current?.sideKey ?? '', model.thresholds.scope_filter, model.thresholds.hive_enabled]);
  }

  /** The side stores (retractions, skills) a model was built with. */
  private sideKeyOf(model: KnowledgeModel): string {
    return this.current?.model === model ? this.current.sideKey : String(model.builtAt);
  }

  private requestMerge(model: KnowledgeModel): void {
    this.merges.request(this.mergeKey(model), model.builtAt, () => this.jobs.merge(model, this.sideKeyOf(model)));
  }


  /** The rejected and unactionable inboxes of a model, computed once in time slices. */
  private triage(model: KnowledgeModel): Promise<Pick<Inboxes, 'rejected' | 'unactionable'>> {
    return model.cached('triage', () => triageInboxesSliced(model, this.slicer()));
  }

  /** Keeps what `model` derived in the index once quiet and its clusters are done (a newer model cancels it). */
  private persist(model: KnowledgeModel): void {
    const current = this.current;
    if (current?.model !== model || !current.stamps) return;
    const superseded = () => this.closed || this.current !== current;
    const inboxes = async () => {
      await this.duplicates.settled();
      return superseded() || this.duplicates.completedKey !== this.duplicatesKey(model) ? null : this.modelInboxes(model);
    };
    const slicer = new TimeSlicer(this.sliceMs, () => (superseded() ? 'a newer model or closed' : null), true);
    this.keeping.schedule(() => this.persistedOf().keep(model, current.stamps!, slicer, inboxes));
  }

  /** Whether the model of the stores as they are now is built. */
  private isCurrent(thresholds: KnowledgeThresholds): boolean {
    return this.current?.key === this.keyOf(thresholds);
  }

  private live(thresholds: KnowledgeThresholds): LiveInputs {
    const counters = this.counters();
    return { counters: counters.state, counterInputs: counters.inputs, skills: this.side().inputs.skills, thresholds, readLine: this.readLine };
  }

  /** An entry's detail from the state kept in the index, before the model is built; null when the model must answer. */
  async detailFromDisk(id: string, tier: EntryTier | undefined): Promise<EntryDetail | null> {
    await this.index.ready;
    const thresholds = this.thresholds().values;
    return this.isCurrent(thresholds) ? null : this.persistedOf().detailFor(id, tier, () => this.live(thresholds));
  }

  /** A Directives page from the rows kept in the index, before the model is built; null when the model must answer. */
  async directivesFromDisk(query: Input<typeof DirectivesQuery>): Promise<ReturnType<typeof listDirectives> | null> {
    await this.index.ready;
    const thresholds = this.thresholds().values;
    return this.isCurrent(thresholds) ? null : this.persistedOf().directivesFor(query, () => this.live(thresholds));
  }

  async inboxes(): Promise<Inboxes> {
    await this.index.ready;
    const current = this.current;
    const thresholds = this.thresholds().values;
    // Until the model and its clusters are current, the inboxes kept for these very stores.
    if (!(current && this.isCurrent(thresholds) && this.duplicates.completedKey === this.duplicatesKey(current.model))) {
      const stored = this.persistedOf().inboxesFor(thresholds);
      if (stored) return { ...stored.inboxes, duplicatesFreshness: { stale: false, computing: this.computing || this.building !== null, asOf: stored.asOf } };
    }
    return this.modelInboxes(await this.model());
  }

  private async modelInboxes(model: KnowledgeModel): Promise<Inboxes> {
    // Together, so a failure of either never leaves the other's rejection without a handler.
    const [triage, { value, freshness }] = await Promise.all([this.triage(model), this.duplicates.get(this.duplicatesKey(model), model.builtAt, () => this.jobs.duplicates(model))]);
    // Polled while clusters grow: the same answer until one of its parts changes (checked and masked once).
    return this.inboxesAnswer.of([triage, value, freshness.stale, freshness.computing, freshness.asOf], () => ({ ...triage, duplicates: value, duplicatesFreshness: freshness }));
  }

  async previewInjection({ headroomPercent, phase, agent, tool, filePaths, taskText, projectName }: Input<typeof PreviewInput>) {
    const model = await this.model();
    const { value, freshness } = await this.merges.get(this.mergeKey(model), model.builtAt, () => this.jobs.merge(model, this.sideKeyOf(model)));
    const ctx = { phase, agent, tool, filePaths, taskText, headroomPercent, projectName: projectName ?? defaultProject(model) };
    return { ...rankPreview(value, value, ctx, model.thresholds, await this.jobs.ranking(value, rankingBasis(ctx), true)), freshness };
  }

  /** Markers for table rows, by index row id (parsed entries come from the cache when it has them). */
  async markers(rids: readonly number[]): Promise<{ markers: Record<string, EntryMarkers>; asOf: string }> {
    await this.index.ready;
    const thresholds = this.thresholds().values;
    const counters = this.counters().state;
    const missing = rids.filter((rid) => !this.entries.get(rid));
    const loaded = new Map(loadEntriesByRid(this.sourceOf(), missing).map((entry) => [entry.rid, entry]));
    const markers: Record<string, EntryMarkers> = {};
    for (const rid of rids) {
      const entry = this.entries.get(rid) ?? loaded.get(rid);
      if (entry) markers[String(rid)] = counters.markers(entry, thresholds);
    }
    return { markers, asOf: new Date(counters.asOf).toISOString() };
  }

  async dispose(): Promise<void> {
    this.closed = true;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.stopListening();
    await this.jobs.dispose();
    await this.warming?.catch(() => undefined);
    await this.building?.catch(() => undefined);
    await this.keeping.dispose();
  }
}
