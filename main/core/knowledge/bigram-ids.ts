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

const ONE_UNIT = 0x8000;
/** Ids beyond this would not fit two code units. */
const MAX_ID = 2 ** 30 - 1;

/** Assigns each distinct bigram an id for the life of the vocabulary (ids are never reused). */
export class BigramVocabulary {
  private readonly ids = new Map<string, number>();

  get size(): number {
    return this.ids.size;
  }

  /** The ids of `bigrams` (distinct), packed. */
  encode(bigrams: Iterable<string>): BigramIds {
    return packIds(this.idsOf(bigrams).sort((a, b) => a - b));
  }

  /** The ids of `bigrams`, in their order (new bigrams get the next ids). */
  idsOf(bigrams: Iterable<string>): number[] {
    const ids: number[] = [];
    for (const bigram of bigrams) {
      let id = this.ids.get(bigram);
      if (id === undefined) {
        id = this.ids.size;
        if (id > MAX_ID) throw new Error('bigram vocabulary full');
        this.ids.set(bigram, id);
      }
      ids.push(id);
    }
    return ids;
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
