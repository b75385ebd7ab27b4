import { DerivedCache } from './derived-cache';
import { idCount, idJaccard } from './bigram-ids';
import { describe, expect, it } from 'vitest';
import { NO_SLICING } from '../platform/util/time-slicer';
import { nearDuplicateClustersWithComponents } from './clusters';
import { ClusterGroupState, type ClusterFeatures } from './cluster-state';
import { CounterpartIndex } from './counterparts';
import type { SourceEntry } from './model-types';

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Lessons with near-duplicates in chains (A~B, B~C, A≁C), at varied similarities, and a few without bigrams. */
function corpus(seed: number): string[] {
  const random = seeded(seed);
  const vocabulary = ['run', 'the', 'tests', 'before', 'review', 'scope', 'declare', 'coder', 'always', 'never', 'cache', 'lock', 'merge', 'rebase'];
  const texts: string[] = [];
  for (let b = 0; b < 30; b++) {
    let words = Array.from({ length: 5 + Math.floor(random() * 8) }, () => vocabulary[Math.floor(random() * vocabulary.length)]!);
    for (let step = 0; step < 1 + Math.floor(random() * 4); step++) {
      texts.push(words.join(' '));
      words = words.map((w) => (random() < 0.15 ? vocabulary[Math.floor(random() * vocabulary.length)]! : w));
    }
  }
  texts.push('single', 'lonely', 'word');
  // Shuffled, so members of a chain come at any point of the order.
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [texts[i], texts[j]] = [texts[j]!, texts[i]!];
  }
  return texts;
}

const entry = (lesson: string, k: number): SourceEntry => ({
  rid: k,
  value: { id: `id-${k}`, lesson },
  text: '',
  tier: 'swarm',
  collection: 'active',
  storeKey: 'swarm',
  file: 'knowledge.jsonl',
  line: k,
  notes: [],
});

function featuresOf(entries: readonly SourceEntry[]): ClusterFeatures {
  const derived = new DerivedCache();
  const postings = CounterpartIndex.buildNow(entries, derived);
  return { bigramCount: (e) => idCount(derived.bigrams(e)), similarity: (a, b) => idJaccard(derived.bigrams(a), derived.bigrams(b)), sameGroup: (e, threshold) => postings.sameGroup(e, threshold) };
}

const fromScratch = (entries: readonly SourceEntry[], threshold: number) =>
  nearDuplicateClustersWithComponents(
    entries.map((e) => ({ id: e.value.id as string, lesson: e.value.lesson as string })),
    threshold,
    4,
    12,
  );

describe('cluster state grown by appended lessons', () => {
  it('lists exactly the clusters a computation from scratch lists, link statistics included', async () => {
    let compared = 0;
    for (const [seed, threshold] of [
      [3, 0.6],
      [5, 0.5],
      [9, 0.4],
      [21, 0.5],
      [22, 0.4],
      [23, 0.6],
    ] as const) {
      const entries = corpus(seed).map(entry);
      const features = featuresOf(entries);
      for (const start of [0, 1, Math.floor(entries.length / 2), entries.length - 5]) {
        const first = fromScratch(entries.slice(0, start), threshold);
        const state = await ClusterGroupState.of(entries.slice(0, start), threshold, first.components, features, NO_SLICING);
        for (let k = start; k < entries.length; k++) {
          state.append(entries[k]!, features);
          const { total, clusters } = fromScratch(entries.slice(0, k + 1), threshold);
          expect(state.list(features, 4, 12)).toEqual({ total, clusters });
          compared += clusters.length;
        }
      }
      // Chains whose weakest link differs from their strongest: the statistics are put to the test.
      const { clusters } = fromScratch(entries, threshold);
      expect(clusters.some((c) => c.minLinkSimilarity < c.maxSimilarity && c.size > 2)).toBe(true);
    }
    expect(compared).toBeGreaterThan(100);
  });
});
