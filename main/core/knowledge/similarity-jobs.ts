import { idCount, idJaccard } from './bigram-ids';
import type { Inboxes } from '../../../shared/contract/knowledge';
import { SliceCancelled, type TimeSlicer } from '../platform/util/time-slicer';
import type { DerivedCache } from './derived-cache';
import { duplicateGroups, listedIds, MAX_CLUSTER_MEMBERS, MAX_CLUSTERS } from './inbox-list';
import type { DuplicatesInput, DuplicatesOutput } from './similarity-tasks';
import { ClusterGroupState, type ClusterFeatures } from './cluster-state';
import {
  applyTierMergeSliced,
  eligibility,
  eligibleSourcesSliced,
  keptTimesSliced,
  rankByBaseSliced,
  rankingKey,
  type RankingBasis,
  type BaseRanking,
  type EligibleSources,
  type MergedDuplicate,
} from './injection-preview';
import { TierMergeState, type MergeFeatures } from './tier-merge-state';
import { entryId, entryLesson, type RawEntry } from '../rules/entry-fields';
import type { KnowledgeModel } from './knowledge-model';
import type { SourceEntry } from './model-types';
import { SimilarityRunner } from './similarity-runner';
import { PHASE_CATEGORY_SETS } from '../rules/injection-scoring';
import type { ChunkedList } from './chunked-list';

/** The project a preview assumes when none is given: the first project lesson's own project. */
export const defaultProject = (model: KnowledgeModel): string | undefined =>
  model.lessons().find((e) => e.tier !== 'hive' && typeof e.value.project_name === 'string')?.value.project_name as string | undefined;

export interface PreparedMerge extends EligibleSources {
  kept: RawEntry[];
  merged: MergedDuplicate[];
  /** Creation times of `kept`, for the ranking's tie-break. */
  times: Float64Array;
  /** Base rankings by rankingKey (a handful of phase kinds × projects). */
  rankings: Map<string, Promise<BaseRanking>>;
  /** Base scores of `kept` by rankingKey, once ranked (a merge grown from this one scores only its new lessons). */
  bases: Map<string, Float64Array>;
  /** The base scores of the merge this one grew from: those of its first kept lessons. */
  knownBases?: Map<string, Float64Array>;
  /** The rankings previews asked for, of this merge and those it grew from (warmed when it grows again). */
  asked: Map<string, RankingBasis>;
}

/** Above this share of appended lessons the similarity work is done again from scratch rather than grown. */
const INCREMENTAL_MAX_SHARE = 0.2;

/** Base rankings kept per tier merge (each is an order over every kept lesson). */
const MAX_RANKINGS = 16;

/**
 * The whole-corpus similarity work of a workspace: near-duplicate clusters, the preview's tier
 * merge and its base rankings. The first computation of each runs in a worker thread (one per
 * kind of job, so a quick ranking never queues behind seconds of clustering); after lessons are
 * appended, the last result is grown by them on this thread (cluster-state.ts,
 * tier-merge-state.ts) in work proportional to them, and gives what a full computation gives.
 */
export class SimilarityJobs {
  private readonly clusterRunner = new SimilarityRunner();
  private readonly mergeRunner = new SimilarityRunner();
  private readonly rankRunner = new SimilarityRunner();
  /** The components behind the last clusters computed, grown by appended lessons (cluster-state.ts). */
  private clusterStates: ClusterGroupState[] | null = null;
  /** The last tier merge with what growing it needs (tier-merge-state.ts). */
  private mergeState: { state: TierMergeState; basis: string; swarm: ChunkedList<RawEntry>; hive: ChunkedList<RawEntry>; prepared: PreparedMerge } | null = null;
  /** Results grown from the previous one by appended lessons rather than computed again (tests and the benchmark read it). */
  readonly grown = { clusters: 0, merges: 0 };

  constructor(
    private readonly derived: DerivedCache,
    private readonly slicer: () => TimeSlicer,
    private readonly closed: () => boolean,
  ) {}

  /** The near-duplicate clusters of a model: grown from the last ones after appends, else computed in the worker. */
  async duplicates(model: KnowledgeModel): Promise<Inboxes['duplicates']> {
    const slicer = this.slicer();
    const groups = model.clusterGroups();
    const threshold = model.thresholds.dedup_threshold;
    const features = this.clusterFeatures(model);
    const grown = await this.growClusters(model, features, slicer);
    if (grown) {
      // Each listed id's member: the last copy in the group wins, as in the full pass below.
      const states = this.clusterStates!;
      const members = listedIds(grown).map((ids, g) => new Map([...ids].map((id) => [id, states[g]!.member(id)!])));
      return duplicateGroups(groups, grown, threshold, members);
    }
    this.clusterStates = null;
    const input: DuplicatesInput = { groups: [], threshold, maxMembers: MAX_CLUSTER_MEMBERS, maxClusters: MAX_CLUSTERS };
    for (const { entries } of groups) input.groups.push({ ids: await slicer.map(entries, (m) => entryId(m.value)), lessons: await slicer.map(entries, (m) => entryLesson(m.value)) });
    const output = await this.clusterRunner.run('duplicates', input, slicer);
    const states: ClusterGroupState[] = [];
    for (let g = 0; g < groups.length; g++) {
      const components = output.groups[g]?.components;
      if (components) states.push(await ClusterGroupState.of(groups[g]!.entries, threshold, components, features, slicer));
    }
    if (states.length === groups.length) this.clusterStates = states;
    return this.duplicatesOf(groups, output, threshold, slicer);
  }

  private clusterFeatures(model: KnowledgeModel): ClusterFeatures {
    const postings = model.counterpartPostings();
    return {
      bigramCount: (entry) => idCount(this.derived.bigrams(entry)),
      similarity: (a, b) => idJaccard(this.derived.bigrams(a), this.derived.bigrams(b)),
      sameGroup: (entry, threshold) => postings.sameGroup(entry, threshold),
    };
  }

  /**
   * The clusters of `model` from the kept components when its groups only grew by appended
   * lessons since (and not by too many: then the full computation is cheaper); null otherwise.
   */
  private async growClusters(model: KnowledgeModel, features: ClusterFeatures, slicer: TimeSlicer): Promise<DuplicatesOutput | null> {
    const states = this.clusterStates;
    const groups = model.clusterGroups();
    const threshold = model.thresholds.dedup_threshold;
    if (!states || states.length !== groups.length || states.some((s) => s.threshold !== threshold)) return null;
    const appended = groups.map((g, k) => g.entries.appendedTo(states[k]!.covered));
    const count = appended.reduce((n, list) => n + (list?.length ?? Number.POSITIVE_INFINITY), 0);
    const total = groups.reduce((n, g) => n + g.entries.length, 0);
    if (count > Math.max(64, total * INCREMENTAL_MAX_SHARE)) return null;
    // A state half-updated by a failed step is dropped, never reused.
    this.clusterStates = null;
    for (let k = 0; k < groups.length; k++) {
      for (const entry of appended[k]!) {
        states[k]!.append(entry, features);
        await slicer.yield();
      }
      states[k]!.covered = groups[k]!.entries;
    }
    this.clusterStates = states;
    this.grown.clusters++;
    return { groups: states.map((state) => state.list(features, MAX_CLUSTER_MEMBERS, MAX_CLUSTERS)) };
  }

  /** The duplicates inbox of the clusters found: each listed member's fields. */
  private async duplicatesOf(groups: ReturnType<KnowledgeModel['clusterGroups']>, output: DuplicatesOutput, threshold: number, slicer: TimeSlicer): Promise<Inboxes['duplicates']> {
    const listed = listedIds(output);
    const members = groups.map(() => new Map<string, SourceEntry>());
    for (let g = 0; g < groups.length; g++) {
      await slicer.forEach(groups[g]!.entries, (member) => {
        const id = entryId(member.value);
        if (listed[g]?.has(id)) members[g]!.set(id, member);
      });
    }
    return duplicateGroups(groups, output, threshold, members);
  }

  /** The tier merge of a model (`sideKey` names its retractions): grown from the last one after appends, else computed in the worker. */
  async merge(model: KnowledgeModel, sideKey: string): Promise<PreparedMerge> {
    const slicer = this.slicer();
    const features = this.mergeFeatures(model);
    const basis = JSON.stringify([sideKey, model.thresholds.scope_filter, model.thresholds.hive_enabled]);
    const prepared = (await this.growMerge(model, basis, features, slicer)) ?? (await this.fullMerge(model, basis, features, slicer));
    this.warmRankings(prepared, model).catch((error) => {
      if (!this.closed() && !(error instanceof SliceCancelled)) console.warn('[knowledge] ranking warm-up failed:', (error as Error).message);
    });
    return prepared;
  }

  private mergeFeatures(model: KnowledgeModel): MergeFeatures {
    const postings = model.counterpartPostings();
    return {
      bigramCount: (value) => idCount(this.derived.bigramIdsOf(value)),
      normalized: (value) => this.derived.normalizedLesson(value),
      hiveSharing: (entry, threshold) => postings.otherGroup(entry, threshold),
      swarmSharing: (entry, threshold) => postings.sameGroup(entry, threshold),
    };
  }

  private async fullMerge(model: KnowledgeModel, basis: string, features: MergeFeatures, slicer: TimeSlicer): Promise<PreparedMerge> {
    this.mergeState = null;
    const sources = model.injectionSources();
    const eligible = await eligibleSourcesSliced(sources, model.thresholds, slicer, (value) => this.derived.normalizedLesson(value));
    const lessons = { hive: await slicer.map(eligible.hive, entryLesson), swarm: await slicer.map(eligible.swarm, entryLesson) };
    const merge = await this.mergeRunner.run('tierMerge', lessons, slicer);
    const { kept, merged } = await applyTierMergeSliced(eligible, merge, slicer);
    const state = await TierMergeState.of(eligible, merge, { ...eligible, kept, merged }, features, slicer);
    const prepared: PreparedMerge = { ...eligible, kept, merged, times: await keptTimesSliced(kept, slicer), rankings: new Map(), bases: new Map(), asked: new Map() };
    this.mergeState = { state, basis, swarm: sources.swarm, hive: sources.hive, prepared };
    return prepared;
  }

  /**
   * The merge of `model` grown from the last one when the only change to the injection sources is
   * swarm lessons appended after every other (not too many), under the same retractions and
   * filters; null otherwise.
   */
  private async growMerge(model: KnowledgeModel, basis: string, features: MergeFeatures, slicer: TimeSlicer): Promise<PreparedMerge | null> {
    const kept = this.mergeState;
    const sources = model.injectionSources();
    if (!kept || kept.basis !== basis) return null;
    const sameHive = kept.hive === sources.hive || sources.hive.appendedTo(kept.hive)?.length === 0;
    if (!sameHive || sources.swarm.appendedTo(kept.swarm) === null) return null;
    const appended = model.injectionSourceEntries().swarm.slice(kept.swarm.length);
    if (appended.length > Math.max(64, sources.swarm.length * INCREMENTAL_MAX_SHARE)) return null;
    // A state half-grown by a failed step is dropped, never reused.
    this.mergeState = null;
    await slicer.yield();
    const state = kept.state.grow(appended, (excluded) => eligibility(sources, model.thresholds, (value) => this.derived.normalizedLesson(value), excluded).eligible, features);
    const tiers = state.current;
    const prepared: PreparedMerge = {
      ...tiers,
      times: await keptTimesSliced(tiers.kept, slicer, kept.prepared.times),
      rankings: new Map(),
      bases: new Map(),
      knownBases: kept.prepared.bases,
      asked: new Map(kept.prepared.asked),
    };
    this.mergeState = { state, basis, swarm: sources.swarm, hive: sources.hive, prepared };
    this.grown.merges++;
    return prepared;
  }

  /** The base ranking of a merge for a phase kind and project, computed once (in slices, sorted in a worker); `asked` by a preview. */
  ranking(merge: PreparedMerge, basis: RankingBasis, asked = false): Promise<BaseRanking> {
    const key = rankingKey(basis);
    if (asked) merge.asked.set(key, basis);
    let ranking = merge.rankings.get(key);
    if (!ranking) {
      if (merge.rankings.size >= MAX_RANKINGS) merge.rankings.delete(merge.rankings.keys().next().value!);
      ranking = rankByBaseSliced(merge.kept, basis, merge.times, this.slicer(), (base, times) => this.rankRunner.run('rankOrder', { base, times }), merge.knownBases?.get(key));
      ranking.then(
        ({ base }) => base && merge.bases.set(key, base),
        () => merge.rankings.delete(key),
      );
      merge.rankings.set(key, ranking);
    }
    return ranking;
  }

  /**
   * Rankings for every phase kind (and none) under the default project, so a first preview finds
   * its ranking ready; a merge grown by appended lessons warms only the rankings previews asked
   * for (each is a sort of every kept lesson: ten of them after every append would cost more
   * than growing the merge did).
   */
  private async warmRankings(merge: PreparedMerge, model: KnowledgeModel): Promise<void> {
    if (merge.knownBases) {
      for (const basis of [...merge.asked.values()]) await this.ranking(merge, basis);
      return;
    }
    const projectName = defaultProject(model);
    for (const categories of [null, ...PHASE_CATEGORY_SETS]) await this.ranking(merge, { categories, projectName });
  }

  async dispose(): Promise<void> {
    await Promise.all([this.clusterRunner.dispose(), this.mergeRunner.dispose(), this.rankRunner.dispose()]);
  }
}
