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

/**
 * Near-duplicate clusters with the plugin's rule (word-bigram Jaccard ≥ dedup_threshold):
 * connected components of the "is a near-duplicate of" relation, so A~B and B~C put A, B and C
 * in one cluster even when A and C are further apart. Only clusters of two or more, largest
 * first; a cluster lists at most `maxMembers` lessons (its size says how many it holds).
 */
export function nearDuplicateClusters(items: readonly ClusterInput[], threshold: number, maxMembers = 50): DuplicateCluster[] {
  const { root, links } = nearDuplicateComponents(
    items.map((item) => item.lesson),
    threshold,
  );
  const members = new Map<number, number[]>();
  root.forEach((r, i) => {
    const list = members.get(r);
    if (list) list.push(i);
    else members.set(r, [i]);
  });
  const linkStats = new Map<number, { max: number; min: number }>();
  for (const link of links) {
    const r = root[link.a]!;
    const stats = linkStats.get(r) ?? { max: 0, min: 1 };
    stats.max = Math.max(stats.max, link.similarity);
    stats.min = Math.min(stats.min, link.similarity);
    linkStats.set(r, stats);
  }
  const clusters: DuplicateCluster[] = [];
  for (const [r, indexes] of members) {
    if (indexes.length < 2) continue;
    const shown = indexes.slice(0, maxMembers);
    const anchor = wordBigrams(items[shown[0]!]!.lesson);
    const stats = linkStats.get(r) ?? { max: 1, min: 1 };
    clusters.push({
      size: indexes.length,
      ids: shown.map((i) => items[i]!.id),
      similarityToAnchor: shown.map((i, k) => (k === 0 ? 1 : jaccard(anchor, wordBigrams(items[i]!.lesson)))),
      maxSimilarity: stats.max,
      minLinkSimilarity: stats.min,
    });
  }
  return clusters.sort((a, b) => b.size - a.size || b.maxSimilarity - a.maxSimilarity);
}
