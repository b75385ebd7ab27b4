import { describe, expect, it } from 'vitest';
import { jaccard, wordBigrams } from '../rules/similarity';
import { BigramVocabulary, idCount, idJaccard, packIds, sharedCount, unpackIds } from './bigram-ids';

const WORDS = ['run', 'the', 'tests', 'before', 'merging', 'pin', 'lockfile', 'scope', 'coder', 'a', 'b', 'c'];

/** A deterministic pseudo-random lesson of `n` words. */
function text(seed: number, n: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

describe('bigram ids', () => {
  it('packs ids of any size and reads them back, one and two code units alike', () => {
    const ids = [0, 1, 0x7fff, 0x8000, 0x8001, 123_456, 2 ** 30 - 1];
    const packed = packIds(ids);
    expect(unpackIds(packed)).toEqual(ids);
    expect(idCount(packed)).toBe(ids.length);
    expect(sharedCount(packed, packIds([1, 0x8000, 2 ** 30 - 1]))).toBe(3);
    expect(sharedCount(packed, packIds([2, 0x8002]))).toBe(0);
  });

  it('gives the same Jaccard as the plugin rule over bigram sets, on small and large vocabularies', () => {
    for (const offset of [0, 40_000]) {
      const vocabulary = new BigramVocabulary();
      // Past 2^15 bigrams, ids take two code units: fill the vocabulary first to reach them.
      for (let i = 0; i < offset; i++) vocabulary.encode([`filler ${i}`]);
      const texts = Array.from({ length: 60 }, (_, i) => text(i + 1, i % 9));
      const packed = texts.map((t) => vocabulary.encode(wordBigrams(t)));
      for (let i = 0; i < texts.length; i++) {
        expect(idCount(packed[i]!)).toBe(wordBigrams(texts[i]!).size);
        for (let j = 0; j < texts.length; j++) expect(idJaccard(packed[i]!, packed[j]!)).toBe(jaccard(wordBigrams(texts[i]!), wordBigrams(texts[j]!)));
      }
    }
  });

  it('keeps the order the words give for lookups', () => {
    const vocabulary = new BigramVocabulary();
    vocabulary.encode(wordBigrams('c d e'));
    const ids = vocabulary.idsOf(wordBigrams('a b c d'));
    expect(ids).toEqual([2, 3, 0]);
    expect(unpackIds(vocabulary.encode(wordBigrams('a b c d')))).toEqual([0, 2, 3]);
  });
});
