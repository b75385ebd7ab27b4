import { giveWayToOperator } from '../platform/util/foreground';
import { BigramCorpus, NearDuplicateIndex, normalizeLesson } from './similarity';

/** The reader merges tiers with a fixed 0.6 (it does not read `dedup_threshold`). */
export const READER_DEDUP_THRESHOLD = 0.6;

export const MERGE_KINDS = ['exact', 'hive_near_duplicate', 'swarm_near_duplicate'] as const;
export type MergeKind = (typeof MERGE_KINDS)[number];

/**
 * The reader's tier merge over lesson texts alone (indices, no entries), so it can run in a
 * worker. Columns of typed arrays: tens of thousands of merges cross threads without a copy.
 */
export interface TierMerge {
  /** Swarm positions kept, in order (every hive lesson is kept). */
  keptSwarm: Int32Array;
  /** Each dropped swarm lesson (`dropped`, a swarm position) with what it repeats: `keptAt` indexes hive lessons then swarm lessons. */
  merged: { keptAt: Int32Array; dropped: Int32Array; kind: Uint8Array; similarity: Float64Array };
}

/**
 * Hive first; a swarm lesson is dropped when it repeats a kept lesson exactly or is a
 * near-duplicate of a hive or earlier kept swarm lesson (`readMergedKnowledge`).
 */
export function mergeTierLessons(hive: readonly string[], swarm: readonly string[]): TierMerge {
  const corpus = new BigramCorpus([...hive, ...swarm], READER_DEDUP_THRESHOLD);
  const hiveIndex = new NearDuplicateIndex(corpus);
  // giveWayToOperator(): in the similarity worker, these loops wait while the operator scrolls (a no-op elsewhere).
  hive.forEach((_, i) => {
    giveWayToOperator();
    hiveIndex.add(i);
  });
  const keptSwarmIndex = new NearDuplicateIndex(corpus);
  const seen = new Map<string, number>();
  hive.forEach((lesson, i) => seen.set(normalizeLesson(lesson), i));
  const keptSwarm: number[] = [];
  const merged: { keptAt: number; dropped: number; kind: MergeKind; similarity: number }[] = [];
  for (let s = 0; s < swarm.length; s++) {
    giveWayToOperator();
    const index = hive.length + s;
    const normal = normalizeLesson(swarm[s]!);
    const exact = seen.get(normal);
    if (exact !== undefined) {
      merged.push({ keptAt: exact, dropped: s, kind: 'exact', similarity: 1 });
      continue;
    }
    const hiveMatch = hiveIndex.findFirst(index);
    if (hiveMatch) {
      merged.push({ keptAt: hiveMatch.index, dropped: s, kind: 'hive_near_duplicate', similarity: hiveMatch.similarity });
      continue;
    }
    const swarmMatch = keptSwarmIndex.findFirst(index);
    if (swarmMatch) {
      merged.push({ keptAt: swarmMatch.index, dropped: s, kind: 'swarm_near_duplicate', similarity: swarmMatch.similarity });
      continue;
    }
    seen.set(normal, index);
    keptSwarmIndex.add(index);
    keptSwarm.push(s);
  }
  return {
    keptSwarm: Int32Array.from(keptSwarm),
    merged: {
      keptAt: Int32Array.from(merged, (m) => m.keptAt),
      dropped: Int32Array.from(merged, (m) => m.dropped),
      kind: Uint8Array.from(merged, (m) => MERGE_KINDS.indexOf(m.kind)),
      similarity: Float64Array.from(merged, (m) => m.similarity),
    },
  };
}
