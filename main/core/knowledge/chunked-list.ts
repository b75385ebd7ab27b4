/**
 * An immutable list whose changed copies share their unchanged chunks.
 *
 * The knowledge model keeps its previous views intact while it grows the next ones (an answer
 * being computed still reads them, and identity checks tell an unchanged view from a changed
 * one). With plain arrays each one-line append copied every changed view whole: at 100k entries
 * about 3.9 MB of copies per append, 3 ms of copying and a young-generation collection every few
 * appends. Here an insertion or removal copies one chunk (≤ 2 × CHUNK items) and the chunk spine
 * (length / CHUNK references), so the cost of a change no longer grows with the list.
 *
 * Reads are those of a read-only array: `length`, `at`, iteration, `forEach`, `map`, `filter`,
 * `some`, `find`, `slice` (which return plain arrays). Positional reads find their chunk by binary
 * search over the chunks' end positions.
 */

/**
 * What readers of a list need, met by ChunkedList and by a plain read-only array alike (so a
 * reader takes either: tests and small callers pass arrays).
 */
export interface ReadList<T> extends Iterable<T> {
  readonly length: number;
  at(index: number): T | undefined;
  forEach(fn: (item: T, index: number) => void): void;
  map<U>(fn: (item: T, index: number) => U): U[];
  filter(fn: (item: T, index: number) => boolean): T[];
  some(fn: (item: T) => boolean): boolean;
  find(fn: (item: T) => boolean): T | undefined;
  slice(start?: number, end?: number): T[];
}

/** Items per chunk when a list is made whole; a chunk grown past twice this is split. */
const CHUNK = 512;

export class ChunkedList<T> implements ReadList<T> {
  private constructor(
    private readonly chunks: readonly (readonly T[])[],
    /** ends[c]: the position just past chunk c (so ends[last] is the length). */
    private readonly ends: readonly number[],
  ) {}

  static readonly EMPTY = new ChunkedList<never>([], []);

  static empty<T>(): ChunkedList<T> {
    return ChunkedList.EMPTY as ChunkedList<T>;
  }

  /** A list of `items` (copied: later changes to the array do not reach the list). */
  static from<T>(items: Iterable<T>): ChunkedList<T> {
    const array = Array.isArray(items) ? (items as readonly T[]) : [...items];
    const chunks: T[][] = [];
    const ends: number[] = [];
    for (let start = 0; start < array.length; start += CHUNK) {
      chunks.push(array.slice(start, start + CHUNK));
      ends.push(Math.min(start + CHUNK, array.length));
    }
    return new ChunkedList(chunks, ends);
  }

  get length(): number {
    return this.ends.length === 0 ? 0 : this.ends[this.ends.length - 1]!;
  }

  /** The item at `index` (negative counts from the end, as Array.prototype.at), or undefined. */
  at(index: number): T | undefined {
    const length = this.length;
    if (index < 0) index += length;
    if (index < 0 || index >= length) return undefined;
    const c = this.chunkOf(index);
    return this.chunks[c]![index - this.startOf(c)];
  }

  /** The list with `item` at `index` (0 ≤ index ≤ length): one chunk and the spine copied. */
  insertAt(index: number, item: T): ChunkedList<T> {
    const length = this.length;
    if (index < 0 || index > length) throw new RangeError(`insertAt ${index} in a list of ${length}`);
    if (length === 0) return new ChunkedList([[item]], [1]);
    // At a boundary, the end of the previous chunk takes it (an append grows the last chunk).
    const c = index === length ? this.chunks.length - 1 : this.chunkOf(index);
    const start = this.startOf(c);
    const grown = this.chunks[c]!.toSpliced(index - start, 0, item);
    const chunks = this.chunks.slice();
    const ends = this.ends.slice();
    for (let k = c; k < ends.length; k++) ends[k] = ends[k]! + 1;
    if (grown.length <= 2 * CHUNK) chunks[c] = grown;
    else {
      const half = grown.length >> 1;
      chunks.splice(c, 1, grown.slice(0, half), grown.slice(half));
      ends.splice(c, 0, start + half);
    }
    return new ChunkedList(chunks, ends);
  }

  /** The list without the item at `index` (0 ≤ index < length): one chunk and the spine copied. */
  removeAt(index: number): ChunkedList<T> {
    const length = this.length;
    if (index < 0 || index >= length) throw new RangeError(`removeAt ${index} in a list of ${length}`);
    const c = this.chunkOf(index);
    const shrunk = this.chunks[c]!.toSpliced(index - this.startOf(c), 1);
    const chunks = this.chunks.slice();
    const ends = this.ends.slice();
    for (let k = c; k < ends.length; k++) ends[k] = ends[k]! - 1;
    if (shrunk.length > 0) chunks[c] = shrunk;
    else {
      chunks.splice(c, 1);
      ends.splice(c, 1);
    }
    return new ChunkedList(chunks, ends);
  }

  /** The list with the item at each position replaced (as Array.prototype.with, for many at once): each touched chunk copied once. */
  withItems(replacements: Iterable<readonly [number, T]>): ChunkedList<T> {
    let chunks: (readonly T[])[] | null = null;
    const copied = new Set<number>();
    for (const [index, item] of replacements) {
      if (index < 0 || index >= this.length) throw new RangeError(`withItems ${index} in a list of ${this.length}`);
      chunks ??= this.chunks.slice();
      const c = this.chunkOf(index);
      if (!copied.has(c)) {
        chunks[c] = chunks[c]!.slice();
        copied.add(c);
      }
      (chunks[c] as T[])[index - this.startOf(c)] = item;
    }
    return chunks ? new ChunkedList(chunks, this.ends) : this;
  }

  /** The first position whose item is not before `probe` by `compare` (≤ 0 goes left: a lower bound), as a binary search over the items. */
  lowerBound<P>(probe: P, compare: (item: T, probe: P) => number): number {
    return this.search((item) => compare(item, probe) < 0);
  }

  /** The first position whose item is after `probe` by `compare` (an upper bound). */
  upperBound<P>(probe: P, compare: (item: T, probe: P) => number): number {
    return this.search((item) => compare(item, probe) <= 0);
  }

  [Symbol.iterator](): Iterator<T> {
    const chunks = this.chunks;
    let c = 0;
    let i = 0;
    return {
      next(): IteratorResult<T> {
        while (c < chunks.length) {
          const chunk = chunks[c]!;
          if (i < chunk.length) return { done: false, value: chunk[i++]! };
          c++;
          i = 0;
        }
        return { done: true, value: undefined };
      },
    };
  }

  forEach(fn: (item: T, index: number) => void): void {
    let index = 0;
    for (const chunk of this.chunks) for (const item of chunk) fn(item, index++);
  }

  map<U>(fn: (item: T, index: number) => U): U[] {
    const out: U[] = new Array(this.length);
    let index = 0;
    for (const chunk of this.chunks) for (const item of chunk) out[index] = fn(item, index++);
    return out;
  }

  filter(fn: (item: T, index: number) => boolean): T[] {
    const out: T[] = [];
    let index = 0;
    for (const chunk of this.chunks) for (const item of chunk) if (fn(item, index++)) out.push(item);
    return out;
  }

  some(fn: (item: T) => boolean): boolean {
    for (const chunk of this.chunks) for (const item of chunk) if (fn(item)) return true;
    return false;
  }

  find(fn: (item: T) => boolean): T | undefined {
    for (const chunk of this.chunks) for (const item of chunk) if (fn(item)) return item;
    return undefined;
  }

  /** Items from `start` up to `end` (as Array.prototype.slice, negative positions included) in a plain array. */
  slice(start = 0, end = this.length): T[] {
    const length = this.length;
    const from = Math.max(0, start < 0 ? start + length : Math.min(start, length));
    const to = Math.max(from, end < 0 ? end + length : Math.min(end, length));
    const out: T[] = new Array(to - from);
    if (from === to) return out;
    let at = 0;
    for (let c = this.chunkOf(from); at < out.length; c++) {
      const chunk = this.chunks[c]!;
      const chunkStart = this.startOf(c);
      const end = Math.min(chunk.length, to - chunkStart);
      for (let i = Math.max(0, from - chunkStart); i < end; i++) out[at++] = chunk[i]!;
    }
    return out;
  }

  /** Every item in a plain array. */
  toArray(): T[] {
    return this.slice();
  }

  /**
   * The items of this list after `prefix` when `prefix` is its beginning (item for item, by
   * identity), else null. Chunks the two lists share are passed over whole, so a list grown by
   * appends is checked in work proportional to its chunks, not its items.
   */
  appendedTo(prefix: ReadList<T>): T[] | null {
    if (prefix.length > this.length) return null;
    if (prefix instanceof ChunkedList) {
      let at = 0;
      let c = 0;
      const other = prefix as ChunkedList<T>;
      // Whole chunks at the same place in both lists, by reference.
      while (c < other.chunks.length && c < this.chunks.length && other.chunks[c] === this.chunks[c]) at = other.ends[c++]!;
      for (; at < prefix.length; at++) if (other.at(at) !== this.at(at)) return null;
    } else {
      for (let i = prefix.length - 1; i >= 0; i--) if (prefix.at(i) !== this.at(i)) return null;
    }
    return this.slice(prefix.length);
  }

  private startOf(c: number): number {
    return c === 0 ? 0 : this.ends[c - 1]!;
  }

  /** The chunk holding position `index` (0 ≤ index < length). */
  private chunkOf(index: number): number {
    let low = 0;
    let high = this.ends.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.ends[mid]! <= index) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The first position where `before` turns false (it must be true on a prefix of the list and false after). */
  private search(before: (item: T) => boolean): number {
    // The chunk first: the last item of each chunk decides; then inside that chunk.
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const chunk = this.chunks[mid]!;
      if (before(chunk[chunk.length - 1]!)) low = mid + 1;
      else high = mid;
    }
    if (low === this.chunks.length) return this.length;
    const chunk = this.chunks[low]!;
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(chunk[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    return this.startOf(low) + lo;
  }
}
