import { normalizeLesson } from '../rules/similarity';
import { IntMap } from './int-map';
import { StringIds } from './string-ids';

/**
 * A lesson's word bigrams as ids of one shared vocabulary, for the counterpart postings. At 100k
 * lessons the bigram strings and per-lesson Sets were the largest part of the model's heap (over
 * a kilobyte per lesson); the ids of one lesson are packed, sorted, in the code units of a string
 * instead: the most compact heap object V8 has for a short list of small integers (16 bytes and
 * 2 per id, where a Set or a typed array costs ~100 bytes before its first element).
 *
 * An id below 2^15 takes one code unit; a larger one two (the first with the top bit set), so
 * the ids of a large vocabulary still fit. Lists compare by decoding both in step.
 */

/** Sorted distinct bigram ids, packed (see above). */
export type BigramIds = string & { readonly __bigramIds: unique symbol };

/** A code unit at or above this one starts a number of two units (exported for loops that decode in place). */
export const ONE_UNIT = 0x8000;
/** Ids beyond this would not fit two code units. */
const MAX_ID = 2 ** 30 - 1;

/**
 * Pairs of word ids up to this one make one small integer (under 2^31: V8 keeps it unboxed), so
 * the vocabulary keys a bigram by a number rather than by a string of its two words: the
 * bigram strings were most of its heap (a workspace's lessons have tens of thousands).
 */
const PAIR_BASE = 46_340;

/** Assigns each distinct bigram an id for the life of the vocabulary (ids are never reused). */
export class BigramVocabulary {
  private readonly words = new StringIds();
  /** Bigram → id, keyed by its word ids: a number in a typed table (int-map.ts), or for very large word ids a string of both. */
  private readonly pairs = new IntMap();
  private readonly widePairs = new Map<string, number>();

  get size(): number {
    return this.pairs.size + this.widePairs.size;
  }

  /** The ids of `bigrams` (distinct), packed. */
  encode(bigrams: Iterable<string>): BigramIds {
    return packIds(this.idsOf(bigrams).sort((a, b) => a - b));
  }

  /** encode(wordBigrams(text)), without making the bigram strings. */
  encodeText(text: string): BigramIds {
    return packIds(this.textIds(text).sort((a, b) => a - b));
  }

  /** The ids of `bigrams`, in their order (new bigrams get the next ids). */
  idsOf(bigrams: Iterable<string>): number[] {
    const ids: number[] = [];
    for (const bigram of bigrams) {
      const space = bigram.indexOf(' ');
      // A string of one word (never a word bigram) keeps a key of its own.
      ids.push(space < 0 ? this.idOf(`\u0000${bigram}`) : this.idOf(this.pairKey(this.wordId(bigram.slice(0, space)), this.wordId(bigram.slice(space + 1)))));
    }
    return ids;
  }

  /** idsOf(wordBigrams(text)): the distinct bigrams of the lesson's words, in text order. */
  textIds(text: string): number[] {
    const words = normalizeLesson(text).split(' ');
    const ids: number[] = [];
    // A long lesson checks repeats in a set; a usual one (a few dozen words) in the list itself.
    const seen = words.length > 64 ? new Set<number>() : null;
    let previous = -1;
    for (const word of words) {
      if (!word) continue;
      const id = this.wordId(word);
      if (previous >= 0) {
        const pair = this.idOf(this.pairKey(previous, id));
        if (seen ? !seen.has(pair) && seen.add(pair) : !ids.includes(pair)) ids.push(pair);
      }
      previous = id;
    }
    return ids;
  }

  private wordId(word: string): number {
    return this.words.idOf(word);
  }

  private pairKey(first: number, second: number): number | string {
    return first < PAIR_BASE && second < PAIR_BASE ? first * PAIR_BASE + second : `${first},${second}`;
  }

  private idOf(key: number | string): number {
    let id = typeof key === 'number' ? this.pairs.get(key) : this.widePairs.get(key);
    if (id === undefined) {
      id = this.size;
      if (id > MAX_ID) throw new Error('bigram vocabulary full');
      if (typeof key === 'number') this.pairs.set(key, id);
      else this.widePairs.set(key, id);
    }
    return id;
  }
}

/** Packs ids given in ascending order. */
export function packIds(sorted: readonly number[]): BigramIds {
  const units: number[] = [];
  for (const id of sorted) {
    if (id < ONE_UNIT) units.push(id);
    else units.push(ONE_UNIT | (id >>> 15), id & (ONE_UNIT - 1));
  }
  let out = '';
  // fromCharCode takes its arguments on the stack: chunks keep a long lesson within bounds.
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
  return out as BigramIds;
}

/**
 * The same packing for whole numbers below 2^30 in any order (the counterpart postings keep their
 * lessons' numbers so, in file order): 2 or 4 bytes a number where an array element costs 8.
 */
export const packNumbers = (numbers: readonly number[]): string => packIds(numbers);
export const unpackNumbers = (packed: string): number[] => unpackIds(packed as BigramIds);

/** Each number of a packed list in turn, without making the list (long posting lists are read often). */
export function forEachPacked(packed: string, visit: (n: number) => void): void {
  for (let i = 0; i < packed.length; i++) {
    const unit = packed.charCodeAt(i);
    visit(unit < ONE_UNIT ? unit : ((unit & (ONE_UNIT - 1)) << 15) | packed.charCodeAt(++i));
  }
}

/** The ids of a packed list, ascending. */
export function unpackIds(ids: BigramIds): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const unit = ids.charCodeAt(i);
    out.push(unit < ONE_UNIT ? unit : ((unit & (ONE_UNIT - 1)) << 15) | ids.charCodeAt(++i));
  }
  return out;
}

/** How many ids a packed list holds. */
export function idCount(ids: BigramIds): number {
  let count = 0;
  for (let i = 0; i < ids.length; i++) {
    if (ids.charCodeAt(i) >= ONE_UNIT) i++;
    count++;
  }
  return count;
}

/** Ids both lists hold (one pass over both, in step). */
export function sharedCount(a: BigramIds, b: BigramIds): number {
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ua = a.charCodeAt(i);
    const ub = b.charCodeAt(j);
    const x = ua < ONE_UNIT ? ua : ((ua & (ONE_UNIT - 1)) << 15) | a.charCodeAt(i + 1);
    const y = ub < ONE_UNIT ? ub : ((ub & (ONE_UNIT - 1)) << 15) | b.charCodeAt(j + 1);
    if (x <= y) i += ua < ONE_UNIT ? 1 : 2;
    if (y <= x) j += ub < ONE_UNIT ? 1 : 2;
    if (x === y) shared++;
  }
  return shared;
}

/** The plugin's Jaccard over the bigram sets (`rules/similarity.ts` jaccard), on packed ids: the same number for the same sets. */
export function idJaccard(a: BigramIds, b: BigramIds): number {
  const [sizeA, sizeB] = [idCount(a), idCount(b)];
  if (sizeA === 0 && sizeB === 0) return 1;
  const shared = sharedCount(a, b);
  return shared / (sizeA + sizeB - shared);
}
