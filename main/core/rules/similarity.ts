import { giveWayToOperator } from '../platform/util/foreground';

/**
 * The plugin's near-duplicate rule (`normalize`, `wordBigrams`, `jaccardBigram` in
 * `src/hooks/knowledge-store.ts`): lower-case, punctuation to spaces, collapse whitespace,
 * word bigrams, Jaccard over the bigram sets. Two texts without any bigram count as equal
 * (similarity 1), exactly as the plugin computes it.
 */
export function normalizeLesson(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\w\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function wordBigrams(text: string): Set<string> {
  const words = normalizeLesson(text).split(' ').filter(Boolean);
  const bigrams = new Set<string>();
  for (let i = 0; i < words.length - 1; i++) bigrams.add(`${words[i]} ${words[i + 1]}`);
  return bigrams;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const token of small) if (large.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

/** jaccard() of two non-empty sets of these sizes sharing `shared` tokens (the same division, so the same number). */
export const sharedJaccard = (shared: number, a: number, b: number): number => shared / (a + b - shared);

/**
 * The fewest of a set's `size` tokens another set shares at jaccard() ≥ `threshold` (the union is
 * at least the set itself), at least one; the same set shares them all, whatever the threshold (a
 * configured one above 1 included). What the near-duplicate searches read their shortest lists by.
 */
export const leastShared = (size: number, threshold: number): number => Math.min(size, Math.max(1, Math.ceil(threshold * size - 1e-6)));

export const lessonSimilarity = (a: string, b: string): number => jaccard(wordBigrams(a), wordBigrams(b));

/**
 * Finding near-duplicates without comparing every pair. Tokens are ordered rarest first over
 * the whole corpus; two sets can reach Jaccard ≥ t only if their first `size − ⌈t·size⌉ + 1`
 * tokens (their prefixes) share one (prefix filtering), so only records sharing a prefix token
 * are compared, and each comparison is exact. Sets without bigrams are handled apart: by the
 * plugin's rule they are all equal to each other and different from everything else.
 */
export class BigramCorpus {
  readonly sets: Set<string>[];
  private readonly order: Map<string, number>;

  constructor(texts: readonly string[], readonly threshold: number) {
    // giveWayToOperator(): in the similarity worker, these loops wait while the operator scrolls (a no-op elsewhere).
    this.sets = texts.map((text) => {
      giveWayToOperator();
      return wordBigrams(text);
    });
    const frequency = new Map<string, number>();
    for (const set of this.sets) {
      giveWayToOperator();
      for (const token of set) frequency.set(token, (frequency.get(token) ?? 0) + 1);
    }
    const ranked = [...frequency.keys()].sort((x, y) => {
      giveWayToOperator();
      return frequency.get(x)! - frequency.get(y)! || (x < y ? -1 : x > y ? 1 : 0);
    });
    this.order = new Map(ranked.map((token, rank) => [token, rank]));
  }

  /** The tokens of record `i` that must be indexed/probed (its prefix, rarest first). */
  prefix(i: number): string[] {
    const tokens = [...this.sets[i]!].sort((x, y) => this.order.get(x)! - this.order.get(y)!);
    const t = Math.max(0, Math.min(1, this.threshold));
    const length = t === 0 ? tokens.length : tokens.length - Math.ceil(t * tokens.length - 1e-9) + 1;
    return tokens.slice(0, Math.max(0, Math.min(tokens.length, length)));
  }

  similarity(i: number, j: number): number {
    return jaccard(this.sets[i]!, this.sets[j]!);
  }

  /** Could `j` reach the threshold against `i` at all, judging by sizes? */
  sizeCompatible(i: number, j: number): boolean {
    const [a, b] = [this.sets[i]!.size, this.sets[j]!.size];
    return Math.min(a, b) >= this.threshold * Math.max(a, b) - 1e-9;
  }
}

/**
 * An incremental index over records of a corpus: add records (in ascending index order), then
 * ask for the earliest indexed record at or above the threshold (optionally among those
 * `accept` admits).
 */
export class NearDuplicateIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly bigramless: number[] = [];

  constructor(private readonly corpus: BigramCorpus) {}

  add(i: number): void {
    if (this.corpus.sets[i]!.size === 0) {
      this.bigramless.push(i);
      return;
    }
    for (const token of this.corpus.prefix(i)) {
      const list = this.postings.get(token);
      if (list) list.push(i);
      else this.postings.set(token, [i]);
    }
  }

  /**
   * The earliest indexed record (lowest index) at or above the threshold, as the reader finds it
   * scanning in file order; which one does not depend on the token order, so a record added
   * later finds the same one by any other exact search (knowledge/tier-merge-state.ts).
   */
  findFirst(i: number, accept: (j: number) => boolean = () => true): { index: number; similarity: number } | null {
    if (this.corpus.sets[i]!.size === 0) {
      const j = this.bigramless.find((k) => k !== i && accept(k));
      return j === undefined ? null : { index: j, similarity: 1 };
    }
    let best: { index: number; similarity: number } | null = null;
    for (const token of this.corpus.prefix(i)) {
      for (const j of this.postings.get(token) ?? []) {
        // Lists are ascending: nothing further on in this one comes before the best found.
        if (best && j >= best.index) break;
        if (j === i || !accept(j) || !this.corpus.sizeCompatible(i, j)) continue;
        const similarity = this.corpus.similarity(i, j);
        if (similarity >= this.corpus.threshold) {
          best = { index: j, similarity };
          break;
        }
      }
    }
    return best;
  }
}

interface Components {
  /** Component id (smallest member index) of each record. */
  root: number[];
  /**
   * The links that joined components (a spanning forest), with their similarity: when record `b`
   * comes, one link per earlier component it has a near-duplicate in, to its newest near-duplicate
   * there. That choice does not depend on the token order (which moves with every record added),
   * so records appended later can be linked the same way without redoing the rest
   * (knowledge/cluster-state.ts), and the link statistics of a cluster come out the same.
   */
  links: { a: number; b: number; similarity: number }[];
}

/**
 * Up to this many lessons the components are exact (the plugin caps its stores at 100 swarm /
 * 200 hive entries, far below). Above it — synthetic benchmark workspaces — a probe compares
 * against only the newest PROBES_PER_GROUP members of each other component sharing a prefix
 * token, so a lesson similar only to an old member of a huge cluster can be missed.
 */
export const EXACT_COMPONENTS_UP_TO = 5_000;
const PROBES_PER_GROUP = 4;

/** Two ascending lists of record indexes as one ascending list. */
function mergeAscending(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = new Array(a.length + b.length);
  let [i, j, k] = [0, 0, 0];
  while (i < a.length && j < b.length) out[k++] = a[i]! < b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/**
 * Connected components of "is a near-duplicate of" (Jaccard ≥ threshold) in time close to
 * linear even when thousands of lessons are variations of one template: postings are grouped
 * by component (members ascending), and a probe of a group stops at its newest near-duplicate
 * or at a member no newer than one already found in that component.
 */
export function nearDuplicateComponents(texts: readonly string[], threshold: number): Components {
  const corpus = new BigramCorpus(texts, threshold);
  const probesPerGroup = texts.length <= EXACT_COMPONENTS_UP_TO ? Number.POSITIVE_INFINITY : PROBES_PER_GROUP;
  const parent = texts.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const links: Components['links'] = [];
  const union = (a: number, b: number, similarity: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb) return;
    parent[Math.max(ra, rb)] = Math.min(ra, rb);
    links.push({ a: Math.min(a, b), b: Math.max(a, b), similarity });
  };
  // token → component root (as last seen) → members indexed under that token, ascending
  const postings = new Map<string, Map<number, number[]>>();
  let firstBigramless = -1;
  for (let i = 0; i < texts.length; i++) {
    giveWayToOperator();
    if (corpus.sets[i]!.size === 0) {
      if (firstBigramless < 0) firstBigramless = i;
      else union(firstBigramless, i, 1);
      continue;
    }
    const prefix = corpus.prefix(i);
    // The newest near-duplicate of `i` in each earlier component, by that component's root.
    const newest = new Map<number, { j: number; similarity: number }>();
    for (const token of prefix) {
      const groups = postings.get(token);
      if (!groups) continue;
      // Re-key groups whose components merged since they were filed.
      for (const [key, members] of [...groups]) {
        const root = find(key);
        if (root === key) continue;
        groups.delete(key);
        const into = groups.get(root);
        groups.set(root, into ? mergeAscending(into, members) : members);
      }
      for (const [root, members] of groups) {
        const found = newest.get(root)?.j ?? -1;
        // Newest members first (bounded only above EXACT_COMPONENTS_UP_TO lessons).
        for (let k = members.length - 1, probes = 0; k >= 0 && probes < probesPerGroup; k--, probes++) {
          const j = members[k]!;
          if (j <= found) break;
          if (!corpus.sizeCompatible(i, j)) continue;
          const similarity = corpus.similarity(i, j);
          if (similarity >= threshold) {
            newest.set(root, { j, similarity });
            break;
          }
        }
      }
    }
    for (const { j, similarity } of newest.values()) union(i, j, similarity);
    const root = find(i);
    for (const token of prefix) {
      let groups = postings.get(token);
      if (!groups) postings.set(token, (groups = new Map()));
      const members = groups.get(root);
      if (members) members.push(i);
      else groups.set(root, [i]);
    }
  }
  return { root: texts.map((_, i) => find(i)), links };
}
