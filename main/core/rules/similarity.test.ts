import { describe, expect, it } from 'vitest';
import { BigramCorpus, jaccard, lessonSimilarity, nearDuplicateComponents, NearDuplicateIndex, normalizeLesson, wordBigrams } from './similarity';

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Lessons with real near-duplicates: random word runs and one-word mutations of them. */
function corpus(seed: number): string[] {
  const random = seeded(seed);
  const vocabulary = ['run', 'the', 'tests', 'before', 'review', 'scope', 'declare', 'coder', 'always', 'never', 'cache', 'lock'];
  const base = Array.from({ length: 40 }, () => Array.from({ length: 4 + Math.floor(random() * 8) }, () => vocabulary[Math.floor(random() * vocabulary.length)]!));
  const texts = base.flatMap((words) => [words.join(' '), [...words.slice(0, -1), 'lock'].join(' '), ['case', ...words].join(' ')]);
  texts.push('single', 'lonely', 'word');
  return texts;
}

function bruteComponents(texts: string[], t: number): number[] {
  const parent = texts.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let a = 0; a < texts.length; a++) {
    for (let b = a + 1; b < texts.length; b++) {
      if (jaccard(wordBigrams(texts[a]!), wordBigrams(texts[b]!)) >= t) {
        const [ra, rb] = [find(a), find(b)];
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
  }
  return texts.map((_, i) => find(i));
}

describe('the plugin near-duplicate rule', () => {
  it('normalises case, punctuation and whitespace before taking word bigrams', () => {
    expect(normalizeLesson('  Run  bun-test, THEN review!  ')).toBe('run bun test then review');
    expect([...wordBigrams('Run bun test.')]).toEqual(['run bun', 'bun test']);
  });

  it('computes Jaccard over bigram sets, two bigram-less texts being identical', () => {
    expect(lessonSimilarity('always run the tests first', 'always run the tests first!')).toBe(1);
    expect(jaccard(wordBigrams('a b c d'), wordBigrams('a b c e'))).toBe(0.5);
    expect(jaccard(new Set(), new Set())).toBe(1);
    expect(jaccard(new Set(), wordBigrams('x y'))).toBe(0);
  });

  it('forms exactly the components a brute-force comparison forms', () => {
    for (const [seed, t] of [
      [7, 0.3],
      [7, 0.6],
      [11, 0.6],
      [13, 0.8],
      [13, 1],
    ] as const) {
      const texts = corpus(seed);
      const expected = bruteComponents(texts, t);
      expect(nearDuplicateComponents(texts, t).root).toEqual(expected);
      expect(new Set(expected).size).toBeLessThan(texts.length);
    }
  });

  it('finds in an index the earliest near-duplicate a brute-force scan finds', () => {
    const texts = corpus(5);
    const c = new BigramCorpus(texts, 0.6);
    const index = new NearDuplicateIndex(c);
    for (let i = 0; i < texts.length; i++) {
      const found = index.findFirst(i);
      const brute = [...Array(i).keys()].filter((j) => (c.sets[i]!.size === 0 && c.sets[j]!.size === 0) || (c.sets[i]!.size > 0 && c.similarity(i, j) >= 0.6));
      if (brute.length === 0) expect(found).toBeNull();
      else expect(found?.index).toBe(brute[0]);
      index.add(i);
    }
  });

  it('gives the earliest near-duplicate even when a later one shares the rarest prefix token', () => {
    // Record 3 repeats record 1, which alone shares its rarest bigram ("a a"); record 0 comes first.
    const c = new BigramCorpus(['c d a j a i', 'c d a j a a', 'c g g c a a', 'c d a j a a'], 0.6);
    const index = new NearDuplicateIndex(c);
    for (const i of [0, 1, 2]) index.add(i);
    expect(c.similarity(3, 0)).toBeGreaterThanOrEqual(0.6);
    expect(index.findFirst(3)).toEqual({ index: 0, similarity: c.similarity(3, 0) });
  });

  it('stays fast when thousands of lessons are variations of one template', () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => `When a snapshot test fails right after a fixture edit case ${i} run the single affected test file first`);
    const { root } = nearDuplicateComponents(texts, 0.6);
    expect(new Set(root).size).toBe(1);
  });
});
