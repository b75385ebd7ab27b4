import { entryId, type RawEntry } from '../rules/entry-fields';
import { sharedJaccard } from '../rules/similarity';
import { READER_DEDUP_THRESHOLD, MERGE_KINDS, type TierMerge } from '../rules/tier-merge';
import type { TimeSlicer } from '../platform/util/time-slicer';
import type { EligibleSources, MergedDuplicate } from './injection-preview';
import type { SourceEntry } from './model-types';

/** What the state needs per lesson: bigrams and normalised text (cached per entry), and the lessons that could be near-duplicates of a project lesson. */
export interface MergeFeatures {
  bigramCount(value: RawEntry): number;
  normalized(value: RawEntry): string;
  /** Hive lessons that could be at similarity ≥ threshold to a project lesson (every other is below), with how many bigrams they share. */
  hiveSharing(entry: SourceEntry, threshold: number): ReadonlyMap<SourceEntry, number>;
  /** The same among project lessons. */
  swarmSharing(entry: SourceEntry, threshold: number): ReadonlyMap<SourceEntry, number>;
}

/** The merge as the preview uses it: eligible tiers, what is kept (hive, then kept swarm) and each merge. */
export interface MergedTiers extends EligibleSources {
  kept: RawEntry[];
  merged: MergedDuplicate[];
}

/**
 * The reader's tier merge (rules/tier-merge.ts), kept so that swarm lessons appended after every
 * other cost work in proportion to them: an appended lesson is dropped as an exact repeat, or for
 * the earliest hive lesson, or the earliest kept swarm lesson, it is a near-duplicate of (found
 * through the bigram postings of counterparts.ts), else kept — what mergeTierLessons decides for
 * a lesson that comes last, since a decision depends on the lessons before it only.
 */
export class TierMergeState {
  private readonly hivePosition = new Map<RawEntry, number>();
  /** Kept swarm lessons by their place in the merge's numbering (hive lessons first). */
  private readonly keptPosition = new Map<RawEntry, number>();
  private readonly seen = new Map<string, number>();
  private firstBigramlessHive = -1;
  private firstBigramlessKept = -1;

  private constructor(private readonly tiers: MergedTiers) {}

  /** The merge of `eligible` computed by mergeTierLessons, with what growing it needs. */
  static async of(eligible: EligibleSources, merge: TierMerge, merged: MergedTiers, features: MergeFeatures, slicer: TimeSlicer): Promise<TierMergeState> {
    const state = new TierMergeState({ ...merged, hive: eligible.hive, swarm: eligible.swarm, excluded: eligible.excluded });
    await slicer.forEach(eligible.hive, (value, i) => {
      state.hivePosition.set(value, i);
      state.seen.set(features.normalized(value), i);
      if (state.firstBigramlessHive < 0 && features.bigramCount(value) === 0) state.firstBigramlessHive = i;
    });
    await slicer.forEach(merge.keptSwarm, (s) => state.keep(eligible.swarm[s]!, eligible.hive.length + s, features));
    return state;
  }

  private keep(value: RawEntry, index: number, features: MergeFeatures): void {
    this.keptPosition.set(value, index);
    this.seen.set(features.normalized(value), index);
    if (this.firstBigramlessKept < 0 && features.bigramCount(value) === 0) this.firstBigramlessKept = index;
  }

  /** The merge as it stands (lists shared with the state: copy before the state grows again). */
  get current(): MergedTiers {
    return this.tiers;
  }

  /**
   * The state with eligible swarm lessons appended after every other: a new state (the lists
   * copied, so a merge handed out earlier stays as it was); this one is not to be used after.
   */
  grow(
    appended: readonly SourceEntry[],
    /** The reader's filters, recording what they leave out in the given map. */
    eligibleInto: (excluded: EligibleSources['excluded']) => (value: RawEntry) => boolean,
    features: MergeFeatures,
  ): TierMergeState {
    const tiers = this.tiers;
    const next = new TierMergeState({ ...tiers, swarm: tiers.swarm.slice(), kept: tiers.kept.slice(), merged: tiers.merged.slice(), excluded: copyExcluded(tiers.excluded) });
    for (const key of ['hivePosition', 'keptPosition', 'seen', 'firstBigramlessHive', 'firstBigramlessKept'] as const) (next as unknown as Record<string, unknown>)[key] = this[key];
    const eligible = eligibleInto(next.tiers.excluded);
    for (const entry of appended) if (eligible(entry.value)) next.append(entry, features);
    return next;
  }

  private append(entry: SourceEntry, features: MergeFeatures): void {
    const { hive, swarm, kept, merged } = this.tiers;
    const value = entry.value;
    const s = swarm.length;
    const index = hive.length + s;
    swarm.push(value);
    const drop = (keptAt: number, kind: (typeof MERGE_KINDS)[number], similarity: number) => {
      const keptValue = keptAt < hive.length ? hive[keptAt]! : swarm[keptAt - hive.length]!;
      merged.push({ keptId: entryId(keptValue), droppedId: entryId(value), kind, similarity });
    };
    const exact = this.seen.get(features.normalized(value));
    if (exact !== undefined) return drop(exact, 'exact', 1);
    const mine = features.bigramCount(value);
    const earliest = (bigramless: number, candidates: () => ReadonlyMap<SourceEntry, number>, position: Map<RawEntry, number>) => {
      if (mine === 0) return bigramless < 0 ? null : { at: bigramless, similarity: 1 };
      let best: { at: number; similarity: number } | null = null;
      for (const [candidate, shared] of candidates()) {
        const at = position.get(candidate.value);
        if (at === undefined || (best && at >= best.at)) continue;
        // jaccard() of the two sets, from the count of shared bigrams the postings gave.
        const similarity = sharedJaccard(shared, mine, features.bigramCount(candidate.value));
        if (similarity >= READER_DEDUP_THRESHOLD) best = { at, similarity };
      }
      return best;
    };
    const hiveMatch = earliest(this.firstBigramlessHive, () => features.hiveSharing(entry, READER_DEDUP_THRESHOLD), this.hivePosition);
    if (hiveMatch) return drop(hiveMatch.at, 'hive_near_duplicate', hiveMatch.similarity);
    const swarmMatch = earliest(this.firstBigramlessKept, () => features.swarmSharing(entry, READER_DEDUP_THRESHOLD), this.keptPosition);
    if (swarmMatch) return drop(swarmMatch.at, 'swarm_near_duplicate', swarmMatch.similarity);
    this.keep(value, index, features);
    kept.push(value);
  }
}

function copyExcluded(excluded: EligibleSources['excluded']): EligibleSources['excluded'] {
  return new Map([...excluded].map(([reason, bucket]) => [reason, { count: bucket.count, examples: bucket.examples.slice() }]));
}
