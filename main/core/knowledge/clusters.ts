import { jaccard, nearDuplicateComponents, wordBigrams } from '../rules/similarity';

interface ClusterInput {
  id: string;
  lesson: string;
}

export interface DuplicateCluster {
  /** How many lessons the cluster holds. */
  size: number;
  /** Members in input order, at most `maxMembers`; the first is the cluster's anchor. */
  ids: string[];
  /** Similarity of each listed member to the anchor (1 for the anchor itself). */
  similarityToAnchor: number[];
  /** Highest and lowest similarity among the links that joined the cluster. */
  maxSimilarity: number;
  minLinkSimilarity: number;
}

/** A cluster before its members are listed: its root (smallest member index), members ascending, link statistics. */
export interface ClusterSummary {
  root: number;
  members: readonly number[];
  max: number;
  min: number;
}

/**
 * The clusters as listed: largest first, then by highest link similarity, then by first member;
 * only the first `maxClusters`, each with at most `maxMembers` members. `similarityOf` gives a
 * member's similarity to the anchor (the plugin's Jaccard over their bigrams).
 */
export function listClusters(
  summaries: ClusterSummary[],
  idOf: (i: number) => string,
  similarityOf: (anchor: number, i: number) => number,
  maxMembers: number,
  maxClusters = Number.POSITIVE_INFINITY,
  /** Clusters listed before with these very summaries (same members and statistics), reused. */
  memo?: WeakMap<ClusterSummary, DuplicateCluster>,
): DuplicateCluster[] {
  summaries.sort((a, b) => b.members.length - a.members.length || b.max - a.max || a.root - b.root);
  return summaries.slice(0, maxClusters).map((summary) => {
    const known = memo?.get(summary);
    if (known) return known;
    const { members, max, min } = summary;
    const shown = members.slice(0, maxMembers);
    const cluster = {
      size: members.length,
      ids: shown.map(idOf),
      similarityToAnchor: shown.map((i, k) => (k === 0 ? 1 : similarityOf(shown[0]!, i))),
      maxSimilarity: max,
      minLinkSimilarity: min,
    };
    memo?.set(summary, cluster);
    return cluster;
  });
}

/** Clusters of two or more from components (`root` of each record and the links that joined them). */
export function summarizeComponents(root: ArrayLike<number>, linkA: ArrayLike<number>, linkSimilarity: ArrayLike<number>): ClusterSummary[] {
  const members = new Map<number, number[]>();
  for (let i = 0; i < root.length; i++) {
    const r = root[i]!;
    if (r === i) continue;
    const list = members.get(r);
    if (list) list.push(i);
    else members.set(r, [r, i]);
  }
  const stats = new Map<number, { max: number; min: number }>();
  for (let k = 0; k < linkA.length; k++) {
    const r = root[linkA[k]!]!;
    const s = stats.get(r) ?? { max: 0, min: 1 };
    s.max = Math.max(s.max, linkSimilarity[k]!);
    s.min = Math.min(s.min, linkSimilarity[k]!);
    stats.set(r, s);
  }
  return [...members].map(([r, list]) => ({ root: r, members: list, ...(stats.get(r) ?? { max: 1, min: 1 }) }));
}

/**
 * Near-duplicate clusters with the plugin's rule (word-bigram Jaccard ≥ dedup_threshold):
 * connected components of the "is a near-duplicate of" relation, so A~B and B~C put A, B and C
 * in one cluster even when A and C are further apart. Only clusters of two or more, largest
 * first; a cluster lists at most `maxMembers` lessons (its size says how many it holds).
 */
export function nearDuplicateClusters(items: readonly ClusterInput[], threshold: number, maxMembers = 50): DuplicateCluster[] {
  return nearDuplicateClustersWithComponents(items, threshold, maxMembers).clusters;
}

/** nearDuplicateClusters (the first `maxClusters`, and how many there are) with the components they come from. */
export function nearDuplicateClustersWithComponents(items: readonly ClusterInput[], threshold: number, maxMembers: number, maxClusters = Number.POSITIVE_INFINITY) {
  const { root, links } = nearDuplicateComponents(
    items.map((item) => item.lesson),
    threshold,
  );
  const components = {
    root: Int32Array.from(root),
    linkA: Int32Array.from(links, (l) => l.a),
    linkSimilarity: Float64Array.from(links, (l) => l.similarity),
  };
  const summaries = summarizeComponents(components.root, components.linkA, components.linkSimilarity);
  const sets = new Map<number, Set<string>>();
  const bigramsOf = (i: number) => {
    let set = sets.get(i);
    if (!set) sets.set(i, (set = wordBigrams(items[i]!.lesson)));
    return set;
  };
  const total = summaries.length;
  return { total, clusters: listClusters(summaries, (i) => items[i]!.id, (a, i) => jaccard(bigramsOf(a), bigramsOf(i)), maxMembers, maxClusters), components };
}
