import { sharedJaccard } from '../rules/similarity';
import { entryId } from '../rules/entry-fields';
import type { TimeSlicer } from '../platform/util/time-slicer';
import { listClusters, type ClusterSummary, type DuplicateCluster } from './clusters';
import type { GroupComponents } from './similarity-tasks';
import type { SourceEntry } from './model-types';
import type { ReadList } from './chunked-list';

/** What the state needs per lesson: how many bigrams it has, its similarity to another (cached per entry), and the lessons sharing a bigram with it in its tier group. */
export interface ClusterFeatures {
  bigramCount(entry: SourceEntry): number;
  /** The plugin's Jaccard over the two lessons' bigrams. */
  similarity(a: SourceEntry, b: SourceEntry): number;
  /** The lessons of its tier group that could be at similarity ≥ threshold to it (every other is below), with how many bigrams they share. */
  sameGroup(entry: SourceEntry, threshold: number): ReadonlyMap<SourceEntry, number>;
}

/**
 * The near-duplicate components of one cluster group, kept so that lessons appended to the group
 * cost work in proportion to them rather than a pass over every pair: an appended lesson finds
 * its near-duplicates through the tier group's bigram postings (counterparts.ts), links to its
 * newest near-duplicate in each component it reaches and joins them — the same links
 * nearDuplicateComponents makes when that lesson comes last, so the clusters listed are the ones
 * a computation from scratch lists (exactly so up to EXACT_COMPONENTS_UP_TO lessons; above it
 * the computation from scratch bounds its probes and may miss a link an append finds).
 */
export class ClusterGroupState {
  private readonly position = new Map<SourceEntry, number>();
  private readonly parent: number[];
  /** Members (ascending) and link statistics of every component of two or more, by root. */
  private readonly clusters = new Map<number, ClusterSummary & { members: number[] }>();
  private firstBigramless = -1;
  /** The last lesson of each id in the group. */
  private readonly lastById = new Map<string, SourceEntry>();
  /** Clusters as listed, by their summary (a join makes a new summary). */
  private readonly listed = new WeakMap<ClusterSummary, DuplicateCluster>();

  private constructor(
    /** The group's lessons covered, in order (grows with appends). */
    readonly entries: SourceEntry[],
    readonly threshold: number,
    root: ArrayLike<number>,
    /** The group's list as the model last gave it, once every lesson of it is covered (appends to it are found by the chunks it shares). */
    public covered: ReadList<SourceEntry>,
  ) {
    this.parent = Array.from(root);
  }

  /** The state of `entries` from the components a full computation returned for them. */
  static async of(entries: ReadList<SourceEntry>, threshold: number, components: GroupComponents, features: ClusterFeatures, slicer: TimeSlicer): Promise<ClusterGroupState> {
    const state = new ClusterGroupState([...entries], threshold, components.root, entries);
    const { root, linkA, linkSimilarity } = components;
    await slicer.forEach(entries, (entry, i) => {
      state.position.set(entry, i);
      state.lastById.set(entryId(entry.value), entry);
      if (state.firstBigramless < 0 && features.bigramCount(entry) === 0) state.firstBigramless = i;
      const r = root[i]!;
      if (r === i) return;
      const cluster = state.clusters.get(r);
      if (cluster) cluster.members.push(i);
      else state.clusters.set(r, { root: r, members: [r, i], max: 0, min: 1 });
    });
    for (let k = 0; k < linkA.length; k++) {
      const cluster = state.clusters.get(root[linkA[k]!]!)!;
      cluster.max = Math.max(cluster.max, linkSimilarity[k]!);
      cluster.min = Math.min(cluster.min, linkSimilarity[k]!);
    }
    return state;
  }

  private find(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  }

  /** Adds a lesson that comes after every lesson covered (file order). */
  append(entry: SourceEntry, features: ClusterFeatures): void {
    const i = this.entries.length;
    this.entries.push(entry);
    this.parent.push(i);
    const mine = features.bigramCount(entry);
    // The newest near-duplicate in each component, by root, as nearDuplicateComponents links them.
    const newest = new Map<number, { j: number; similarity: number }>();
    if (mine === 0) {
      if (this.firstBigramless < 0) this.firstBigramless = i;
      else newest.set(this.find(this.firstBigramless), { j: this.firstBigramless, similarity: 1 });
    } else {
      for (const [other, shared] of features.sameGroup(entry, this.threshold)) {
        // The other lesson has at least `shared` bigrams, so the similarity is at most shared / mine:
        // below the threshold that bound rules it out without looking the other one up.
        if (shared / mine < this.threshold) continue;
        const j = this.position.get(other);
        if (j === undefined) continue;
        // jaccard() of the two sets, from the count of shared bigrams the postings gave.
        const similarity = sharedJaccard(shared, mine, features.bigramCount(other));
        if (similarity < this.threshold) continue;
        const root = this.find(j);
        if ((newest.get(root)?.j ?? -1) < j) newest.set(root, { j, similarity });
      }
    }
    this.position.set(entry, i);
    this.lastById.set(entryId(entry.value), entry);
    for (const [root, { similarity }] of newest) this.join(i, root, similarity);
  }

  private join(i: number, other: number, similarity: number): void {
    const [a, b] = [this.find(i), this.find(other)];
    if (a === b) return;
    const [keep, gone] = [Math.min(a, b), Math.max(a, b)];
    this.parent[gone] = keep;
    const single = (r: number) => ({ root: r, members: [r], max: 0, min: 1 });
    const into = this.clusters.get(keep) ?? single(keep);
    const from = this.clusters.get(gone) ?? single(gone);
    this.clusters.delete(gone);
    this.clusters.set(keep, {
      root: keep,
      members: mergeAscending(into.members, from.members),
      max: Math.max(into.max, from.max, similarity),
      min: Math.min(into.min, from.min, similarity),
    });
  }

  /** The group's clusters as the duplicates task lists them (a cluster no append reached is listed as it was). */
  list(features: ClusterFeatures, maxMembers: number, maxClusters: number): { total: number; clusters: DuplicateCluster[] } {
    const summaries = [...this.clusters.values()];
    const at = (i: number) => this.entries[i]!;
    return { total: summaries.length, clusters: listClusters(summaries, (i) => entryId(at(i).value), (a, i) => features.similarity(at(a), at(i)), maxMembers, maxClusters, this.listed) };
  }

  /** The group's last lesson (file order) with this id: the member the inbox shows for it. */
  member(id: string): SourceEntry | undefined {
    return this.lastById.get(id);
  }
}

function mergeAscending(a: readonly number[], b: readonly number[]): number[] {
  if (a.length > 0 && b.length > 0 && a[a.length - 1]! < b[0]!) return [...a, ...b];
  const out: number[] = [];
  let [i, j] = [0, 0];
  while (i < a.length && j < b.length) out.push(a[i]! < b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

