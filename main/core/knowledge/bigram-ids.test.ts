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
  it('ids of a lesson text are those of its word bigrams, past the small-number word ids and in long lessons too', () => {
    const long = Array.from({ length: 150 }, (_, i) => text(i, 3)).join(' ');
    const texts = [text(1, 12), 'Run bun test. Run bun test!', '  a  b a b  ', 'x', '', text(2, 40), long];
    for (const words of [0, 50_000]) {
      const vocabulary = new BigramVocabulary();
      // What the ids must be: one per distinct bigram string, in the order first met.
      const reference = new Map<string, number>();
      const referenceIds = (bigrams: Iterable<string>) => [...bigrams].map((b) => reference.get(b) ?? (reference.set(b, reference.size), reference.size - 1));
      // Words past PAIR_BASE (46,340): their bigrams are keyed by strings.
      for (let i = 0; i < words; i += 2) expect(vocabulary.textIds(`w${i} w${i + 1}`)).toEqual(referenceIds(wordBigrams(`w${i} w${i + 1}`)));
      // Pairs of any two known words, far apart and close, each its own bigram.
      // (5, 46,345) and (6, 5) would make one number: the key must tell them apart.
      const apart = words > 0 ? ['w5 w46345', 'w6 w5', 'w46345 w5', 'w5 w6'] : [];
      for (const t of apart) expect(vocabulary.textIds(t)).toEqual(referenceIds(wordBigrams(t)));
      for (let i = 0; words > 0 && i < 3000; i++) {
        const t = `w${(i * 23) % words} w${(i * 7919 + 1) % words} w${(i * 104_729) % words}`;
        expect(vocabulary.textIds(t)).toEqual(referenceIds(wordBigrams(t)));
      }
      for (const t of [...texts, ...texts.map((t) => `w${words - 1} ${t} w${words - 2} w3`)]) {
        const expected = referenceIds(wordBigrams(t));
        expect(vocabulary.textIds(t)).toEqual(expected);
        expect(vocabulary.encodeText(t)).toBe(packIds([...expected].sort((a, b) => a - b)));
        expect(vocabulary.idsOf(wordBigrams(t))).toEqual(expected);
      }
      expect(vocabulary.size).toBe(reference.size);
      // Strings not of two words are bigrams of their own, never one of two words.
      expect(new Set(vocabulary.idsOf(['ab', 'a b', 'a b c', 'a', 'a ', ' a'])).size).toBe(6);
    }
  });

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
