import { DerivedCache } from './derived-cache';
import { idCount } from './bigram-ids';
import { describe, expect, it } from 'vitest';
import { normalizeLesson } from '../rules/similarity';
import { entryLesson, type RawEntry } from '../rules/entry-fields';
import { mergeTierLessons } from '../rules/tier-merge';
import { NO_SLICING } from '../platform/util/time-slicer';
import { CounterpartIndex } from './counterparts';
import { eligibility, applyTierMergeSliced, eligibleSourcesSliced } from './injection-preview';
import { TierMergeState, type MergeFeatures } from './tier-merge-state';
import type { SourceEntry } from './model-types';

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Lessons in families of near-duplicates (a word changed here and there), repeats and lessons without bigrams, shuffled. */
function corpus(seed: number, families: number): string[] {
  const random = seeded(seed);
  const vocabulary = ['run', 'the', 'tests', 'before', 'review', 'scope', 'declare', 'coder', 'always', 'never', 'cache', 'lock', 'merge', 'rebase'];
  const texts: string[] = [];
  for (let b = 0; b < families; b++) {
    let words = Array.from({ length: 5 + Math.floor(random() * 8) }, () => vocabulary[Math.floor(random() * vocabulary.length)]!);
    for (let step = 0; step < 1 + Math.floor(random() * 4); step++) {
      texts.push(random() < 0.1 ? words.join(' ').toUpperCase() : words.join(' '));
      words = words.map((w) => (random() < 0.12 ? vocabulary[Math.floor(random() * vocabulary.length)]! : w));
    }
  }
  texts.push('single', 'lonely');
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [texts[i], texts[j]] = [texts[j]!, texts[i]!];
  }
  return texts;
}

let rid = 0;
const entry = (lesson: string, tier: 'hive' | 'swarm', over: Record<string, unknown> = {}): SourceEntry => {
  const k = ++rid;
  return { rid: k, value: { id: `id-${k}`, lesson, status: 'established', scope: 'global', ...over }, text: '', tier, collection: 'active', storeKey: tier, file: tier, line: k, notes: [] };
};

const T = { scope_filter: ['global'], hive_enabled: true };

function featuresOf(entries: readonly SourceEntry[]): MergeFeatures {
  const derived = new DerivedCache();
  const postings = CounterpartIndex.buildNow(entries, derived);
  return {
    bigramCount: (value: RawEntry) => idCount(derived.bigramIdsOf(value)),
    normalized: (value: RawEntry) => derived.normalizedLesson(value),
    hiveSharing: (e, threshold) => postings.otherGroup(e, threshold),
    swarmSharing: (e, threshold) => postings.sameGroup(e, threshold),
  };
}

/** The merge of hive and swarm lessons from scratch, as the preview holds it. */
async function fromScratch(hive: SourceEntry[], swarm: SourceEntry[]) {
  const eligible = await eligibleSourcesSliced({ hive: hive.map((e) => e.value), swarm: swarm.map((e) => e.value) }, T, NO_SLICING);
  const merge = mergeTierLessons(eligible.hive.map(entryLesson), eligible.swarm.map(entryLesson));
  return { eligible, merge, tiers: { ...eligible, ...(await applyTierMergeSliced(eligible, merge, NO_SLICING)) } };
}

describe('tier merge grown by appended swarm lessons', () => {
  it('keeps and drops exactly what a merge from scratch keeps and drops, for the same hive or swarm lesson', async () => {
    let merges = 0;
    for (const seed of [2, 4, 8, 16, 32, 64]) {
      const texts = corpus(seed, 40);
      const hive = texts.slice(0, 25).map((lesson) => entry(lesson, 'hive'));
      // Some swarm lessons the reader leaves out (an inactive status, a scope outside the filter).
      const swarm = texts.slice(25).map((lesson, i) => entry(lesson, 'swarm', i % 11 === 5 ? { status: 'archived' } : i % 13 === 7 ? { scope: 'stack:go' } : {}));
      const features = featuresOf([...hive, ...swarm]);
      for (const start of [0, Math.floor(swarm.length / 2), swarm.length - 3]) {
        const first = await fromScratch(hive, swarm.slice(0, start));
        let state = await TierMergeState.of(first.eligible, first.merge, first.tiers, features, NO_SLICING);
        for (let k = start; k < swarm.length; k++) {
          const before = state.current;
          const handedOut = JSON.stringify(before);
          const sources = { retractions: [] };
          state = state.grow([swarm[k]!], (excluded) => eligibility(sources, T, (v) => normalizeLesson(entryLesson(v)), excluded).eligible, features);
          const expected = (await fromScratch(hive, swarm.slice(0, k + 1))).tiers;
          expect(state.current).toEqual(expected);
          merges += expected.merged.length;
          // What was handed out before stays as it was.
          expect(JSON.stringify(before)).toBe(handedOut);
        }
      }
    }
    expect(merges).toBeGreaterThan(100);
  });
});
