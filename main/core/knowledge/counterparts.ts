import type { SourceEntry } from './model-types';
import type { ReadList } from './chunked-list';
import { NO_SLICING, type TimeSlicer } from '../platform/util/time-slicer';
import { PostingTable } from './posting-table';
import { leastShared } from '../rules/similarity';
import { forEachPacked, idJaccard, ONE_UNIT, packNumbers, sharedCount, unpackIds, unpackNumbers, type BigramIds } from './bigram-ids';

type TierGroup = 'hive' | 'project';
const tierGroup = (tier: SourceEntry['tier']): TierGroup => (tier === 'hive' ? 'hive' : 'project');

export interface Counterpart {
  entry: SourceEntry;
  similarity: number;
  exact: boolean;
}

interface Features {
  bigrams(entry: SourceEntry): BigramIds;
  /** The same ids in the order the lesson's words give them (a search meets candidates in that order). */
  bigramsInTextOrder(entry: SourceEntry): number[];
  normalized(entry: SourceEntry): string;
}

/**
 * A bigram's lessons in file order, as their numbers among the index's members: one alone kept
 * bare, more packed in the code units of a string (2 or 4 bytes a lesson, where an array of
 * lessons costs 8 and a header: the postings were the largest part of the model's heap).
 */
type PostingList = number | string;
type Postings = Map<TierGroup, PostingTable<PostingList>>;
/** Lists being built or changed: member numbers in file order. */
type PostingMaps = Map<TierGroup, Map<number, number[]>>;
/**
 * The lessons by number: a fresh build numbers them in file order, so its members are its
 * lessons' own list (not a copy: 8 bytes a lesson); the first update copies them and appends its
 * new lessons. Append-only from then on, so an index and those updated from it share it (an
 * index only reads the numbers its lists hold). Gone lessons stay until the next fresh build (see `update`).
 */
type Members = ReadList<SourceEntry>;

const numbersOf = (list: PostingList | undefined): readonly number[] => (list === undefined ? [] : typeof list === 'number' ? [list] : unpackNumbers(list));
/** A built list as kept: bare when alone, else packed. */
const compact = (list: readonly number[]): PostingList => (list.length === 1 ? list[0]! : packNumbers(list));
/** Each lesson number of a list in turn. */
function forEachNumber(list: PostingList | undefined, visit: (n: number) => void): void {
  if (list === undefined) return;
  if (typeof list === 'number') visit(list);
  else forEachPacked(list, visit);
}

/**
 * The |lists| − minShared + 1 shortest lists of `tokens`: a lesson sharing minShared of them is on
 * one of these (prefix filtering). Bigrams no lesson of the group has count among the probed (their lists are empty).
 */
function shortestLists(tokens: readonly number[], postings: PostingTable<PostingList>, minShared: number): PostingList[] {
  const lists = tokens.map((token) => postings.get(token)).filter((list) => list !== undefined);
  return lists
    .sort((a, b) => (typeof a === 'number' ? 1 : a.length) - (typeof b === 'number' ? 1 : b.length))
    .slice(0, Math.max(0, lists.length - minShared + 1));
}

const compactAll = (lists: Map<number, number[]>): Map<number, PostingList> => new Map([...lists].map(([token, list]) => [token, compact(list)]));

/** Above this share of new lessons a fresh build is cheaper than inserting them one by one. */
const INCREMENTAL_MAX_SHARE = 0.2;

/**
 * Bigram postings of every lesson per tier group (each list in file order), to find an entry's
 * counterparts in the other group (the same or a near-duplicate lesson) without comparing it
 * with every lesson. At 100k lessons that is millions of postings: built in time slices, and
 * after appends updated rather than rebuilt (new lessons inserted at their place in file order,
 * so lookups give exactly what a fresh build gives). An index is never changed once built: an
 * update returns a new one sharing the untouched lists, the changed ones in a small overlay
 * (posting-table.ts), so an append costs work in proportion to its lessons' bigrams.
 */
export class CounterpartIndex {
  private constructor(
    private readonly features: Features,
    private readonly postings: Postings,
    /** The lessons indexed, in file order. */
    readonly lessons: ReadList<SourceEntry>,
    private readonly members: Members,
    /** False while `members` is the lessons' own list, which an update must not append to. */
    private readonly ownsMembers: boolean,
  ) {}

  /** Lessons a search of this index compared with its entry (tests read it). */
  compared = 0;

  /** Lessons the postings can name: those indexed, and gone ones not let go yet (tests read it). */
  get memberCount(): number {
    return this.members.length;
  }

  static async build(lessons: ReadList<SourceEntry>, features: Features, slicer: TimeSlicer = NO_SLICING): Promise<CounterpartIndex> {
    const maps: PostingMaps = new Map([['hive', new Map()], ['project', new Map()]]);
    await slicer.forEach(lessons, (lesson, number) => CounterpartIndex.append(maps, features, lesson, number));
    const built = new Map([...maps].map(([group]) => [group, new Map<number, PostingList>()]));
    for (const [group, map] of maps) await slicer.forEach([...map], ([token, list]) => built.get(group)!.set(token, compact(list)));
    return CounterpartIndex.of(built, features, lessons);
  }

  static buildNow(lessons: ReadList<SourceEntry>, features: Features): CounterpartIndex {
    const maps: PostingMaps = new Map([['hive', new Map()], ['project', new Map()]]);
    lessons.forEach((lesson, number) => CounterpartIndex.append(maps, features, lesson, number));
    const built = new Map([...maps].map(([group, map]) => [group, compactAll(map)]));
    return CounterpartIndex.of(built, features, lessons);
  }

  /** A fresh build's index: its members are its lessons, numbered in file order. */
  private static of(maps: Map<TierGroup, Map<number, PostingList>>, features: Features, lessons: ReadList<SourceEntry>): CounterpartIndex {
    return new CounterpartIndex(features, new Map([...maps].map(([group, map]) => [group, PostingTable.of<PostingList>(map)])), lessons, lessons, false);
  }

  private static append(maps: PostingMaps, features: Features, lesson: SourceEntry, number: number): void {
    const postings = maps.get(tierGroup(lesson.tier))!;
    for (const token of unpackIds(features.bigrams(lesson))) {
      const list = postings.get(token);
      if (list) list.push(number);
      else postings.set(token, [number]);
    }
  }

  /**
   * The index of `lessons` (file order): this one updated with the new lessons, or a fresh build
   * when some are gone. `appended` (the lessons added since this index's lessons, and their file
   * order) spares finding that out by comparing both lists.
   */
  async update(
    lessons: ReadList<SourceEntry>,
    slicer: TimeSlicer = NO_SLICING,
    appended?: { from: ReadList<SourceEntry>; added: readonly SourceEntry[]; removed?: readonly SourceEntry[]; compare: (a: SourceEntry, b: SourceEntry) => number },
  ): Promise<CounterpartIndex> {
    if (lessons === this.lessons) return this;
    let added: readonly SourceEntry[];
    let removed: readonly SourceEntry[] = [];
    let before: (a: SourceEntry, b: SourceEntry) => boolean;
    if (appended && appended.from === this.lessons) {
      added = appended.added;
      removed = appended.removed ?? [];
      if (this.lessons.length + added.length - removed.length !== lessons.length) return CounterpartIndex.build(lessons, this.features, slicer);
      before = (a, b) => appended.compare(a, b) < 0;
    } else {
      const position = new Map<SourceEntry, number>();
      await slicer.forEach(lessons, (lesson, i) => position.set(lesson, i));
      let gone = false;
      await slicer.forEach(this.lessons, (lesson) => {
        if (!position.has(lesson)) gone = true;
      });
      if (gone) return CounterpartIndex.build(lessons, this.features, slicer);
      const known = new Set<SourceEntry>();
      await slicer.forEach(this.lessons, (lesson) => known.add(lesson));
      added = await slicer.filter(lessons, (lesson) => !known.has(lesson));
      before = (a, b) => position.get(a)! < position.get(b)!;
    }
    // Members of gone lessons (and of lessons already renumbered) count as changes: a fresh build lets them go.
    const stale = this.members.length - this.lessons.length;
    if (added.length + removed.length + stale > lessons.length * INCREMENTAL_MAX_SHARE) return CounterpartIndex.build(lessons, this.features, slicer);
    const members = this.ownsMembers ? (this.members as SourceEntry[]) : this.members.slice();

    // The changed lists go to an overlay; the untouched ones stay shared with this index.
    const changes: PostingMaps = new Map([['hive', new Map()], ['project', new Map()]]);
    for (const lesson of removed) {
      const group = tierGroup(lesson.tier);
      const changed = changes.get(group)!;
      for (const token of unpackIds(this.features.bigrams(lesson))) {
        let list = changed.get(token);
        if (!list) changed.set(token, (list = [...numbersOf(this.postings.get(group)!.get(token))]));
        const at = list.findIndex((number) => members[number] === lesson);
        if (at >= 0) list.splice(at, 1);
      }
      await slicer.yield();
    }
    for (const lesson of added) {
      const group = tierGroup(lesson.tier);
      const changed = changes.get(group)!;
      const number = members.push(lesson) - 1;
      for (const token of unpackIds(this.features.bigrams(lesson))) {
        let list = changed.get(token);
        if (!list) changed.set(token, (list = [...numbersOf(this.postings.get(group)!.get(token))]));
        let low = 0;
        let high = list.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (before(members[list[mid]!]!, lesson)) low = mid + 1;
          else high = mid;
        }
        list.splice(low, 0, number);
      }
      await slicer.yield();
    }
    const postings: Postings = new Map([...this.postings].map(([group, lookup]) => [group, lookup.with(compactAll(changes.get(group)!))]));
    return new CounterpartIndex(this.features, postings, lessons, members, true);
  }

  /** The same or a near-duplicate lesson (≥ threshold) in the other tier group, best first, at most 10. */
  find(entry: SourceEntry, threshold: number): Counterpart[] {
    const search = this.search(entry, threshold);
    for (;;) {
      const step = search.next();
      if (step.done) return step.value;
    }
  }

  /** find() in time slices: a lesson made from a common template shares bigrams with thousands. */
  async findSliced(entry: SourceEntry, threshold: number, slicer: TimeSlicer): Promise<Counterpart[]> {
    const search = this.search(entry, threshold);
    for (;;) {
      const step = search.next();
      if (step.done) return step.value;
      await slicer.yield();
    }
  }

  /**
   * The lessons of `entry`'s own tier group that could be at similarity ≥ `threshold` to it, with
   * how many bigrams each shares with it (`entry` itself too when indexed): what the grown clusters
   * and tier merge compare an appended lesson with (their threshold, the plugin's Jaccard).
   */
  sameGroup(entry: SourceEntry, threshold: number): Map<SourceEntry, number> {
    return this.near(entry, tierGroup(entry.tier), threshold);
  }

  /** The same for the lessons of the other tier group. */
  otherGroup(entry: SourceEntry, threshold: number): Map<SourceEntry, number> {
    return this.near(entry, tierGroup(entry.tier) === 'hive' ? 'project' : 'hive', threshold);
  }

  /**
   * A lesson at Jaccard ≥ t shares at least ⌈t·|bigrams|⌉ of the entry's bigrams (the union is at
   * least the entry's own): only the lessons on the shortest lists can (probed, as in search), and
   * of those only the ones sharing that many are returned, with their count. A lesson left out is
   * below the threshold whatever its own bigrams, so callers find what a scan of every list found.
   */
  private near(entry: SourceEntry, group: TierGroup, threshold: number): Map<SourceEntry, number> {
    const postings = this.postings.get(group)!;
    const mine = this.features.bigrams(entry);
    const tokens = unpackIds(mine);
    const out = new Map<SourceEntry, number>();
    if (tokens.length === 0) return out;
    const minShared = leastShared(tokens.length, threshold);
    const candidates = new Set<number>();
    for (const list of shortestLists(tokens, postings, minShared)) forEachNumber(list, (number) => candidates.add(number));
    this.compared += candidates.size;
    for (const number of candidates) {
      const candidate = this.members.at(number)!;
      const shared = sharedCount(mine, this.features.bigrams(candidate));
      if (shared >= minShared) out.set(candidate, shared);
    }
    return out;
  }

  /**
   * The search, pausing (a `yield`) every few hundred candidates. A lesson at similarity ≥ t
   * shares at least ⌈t·|bigrams|⌉ of the entry's bigrams, so it is on the list of one of any
   * |bigrams| − ⌈t·|bigrams|⌉ + 1 of them (prefix filtering): only the shortest lists are read, not
   * those of the common words every templated lesson shares. Ties keep the order a scan of every
   * list meets candidates in: by the entry's first bigram (text order) a candidate has, then
   * file order (its place on that bigram's list).
   */
  private *search(entry: SourceEntry, threshold: number): Generator<void, Counterpart[]> {
    const other: TierGroup = tierGroup(entry.tier) === 'hive' ? 'project' : 'hive';
    const postings = this.postings.get(other)!;
    const mine = this.features.bigrams(entry);
    const inTextOrder = this.features.bigramsInTextOrder(entry);
    if (inTextOrder.length === 0) return [];
    const minShared = leastShared(inTextOrder.length, threshold);
    const candidates = new Set<number>();
    for (const list of shortestLists(inTextOrder, postings, minShared)) {
      forEachNumber(list, (number) => candidates.add(number));
      yield;
    }
    const normal = this.features.normalized(entry);
    const found: (Counterpart & { number: number; first: number; place: number })[] = [];
    let visited = 0;
    this.compared += candidates.size;
    for (const number of candidates) {
      const candidate = this.members.at(number)!;
      const theirs = this.features.bigrams(candidate);
      const similarity = idJaccard(mine, theirs);
      const exact = this.features.normalized(candidate) === normal;
      if (exact || similarity >= threshold) {
        const ids = new Set(unpackIds(theirs));
        found.push({ entry: candidate, similarity: exact ? 1 : similarity, exact, number, first: inTextOrder.findIndex((token) => ids.has(token)), place: 0 });
      }
      if ((++visited & 255) === 0) yield;
    }
    if (found.length > 1) yield* this.placeOnFirstLists(found, inTextOrder, postings);
    return found
      .sort((a, b) => a.first - b.first || a.place - b.place)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 10)
      .map(({ entry: e, similarity, exact }) => ({ entry: e, similarity, exact }));
  }

  /** Each found lesson's place on the list of its first bigram (file order among those sharing it): read until all are placed. */
  private *placeOnFirstLists(found: { number: number; first: number; place: number }[], inTextOrder: readonly number[], postings: PostingTable<PostingList>): Generator<void, void> {
    const byFirst = new Map<number, Map<number, { place: number }>>();
    for (const item of found) {
      let onList = byFirst.get(item.first);
      if (!onList) byFirst.set(item.first, (onList = new Map()));
      onList.set(item.number, item);
    }
    for (const [first, onList] of byFirst) {
      if (onList.size < 2) continue;
      const list = postings.get(inTextOrder[first]!);
      if (typeof list !== 'string') continue;
      let left = onList.size;
      for (let i = 0, place = 0; i < list.length && left > 0; i++, place++) {
        const unit = list.charCodeAt(i);
        const item = onList.get(unit < ONE_UNIT ? unit : ((unit & (ONE_UNIT - 1)) << 15) | list.charCodeAt(++i));
        if (item) {
          item.place = place;
          left--;
        }
        if ((place & 4095) === 4095) yield;
      }
    }
  }
}
