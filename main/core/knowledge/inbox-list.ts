import type { Inboxes } from '../../../shared/contract/knowledge';
import { nearDuplicateClusters } from './clusters';
import { entryConfidence, entryId, entryLesson, entryStatus } from './entry-fields';
import { groupRejected, unactionableQueue } from './inboxes';
import type { KnowledgeModel } from './knowledge-model';

/** Clusters returned per tier group (the total says how many exist), and lessons listed per cluster. */
export const MAX_CLUSTERS = 100;
export const MAX_CLUSTER_MEMBERS = 20;

export function buildInboxes(model: KnowledgeModel): Inboxes {
  const entries = model.inputs.entries;
  const known = new Set(entries.filter((e) => e.collection !== 'rejected').map((e) => entryId(e.value)));
  const rejected = groupRejected(
    entries.filter((e) => e.collection === 'rejected').map((e) => ({ record: e.value, store: e.tier === 'hive' ? ('hive' as const) : ('swarm' as const) })),
    known,
  );
  const unactionable = unactionableQueue(entries.filter((e) => e.collection === 'unactionable').map((e) => e.value));
  const threshold = model.thresholds.dedup_threshold;
  const duplicates = model.clusterGroups().map(({ group, entries: members }) => {
    const byId = new Map(members.map((m) => [entryId(m.value), m]));
    const clusters = nearDuplicateClusters(
      members.map((m) => ({ id: entryId(m.value), lesson: entryLesson(m.value) })),
      threshold,
      MAX_CLUSTER_MEMBERS,
    );
    return {
      group,
      threshold,
      total: clusters.length,
      clusters: clusters.slice(0, MAX_CLUSTERS).map((cluster) => ({
        size: cluster.size,
        maxSimilarity: cluster.maxSimilarity,
        minLinkSimilarity: cluster.minLinkSimilarity,
        members: cluster.ids.map((id, i) => {
          const member = byId.get(id)!;
          return {
            id,
            tier: member.tier,
            lesson: entryLesson(member.value),
            status: entryStatus(member.value),
            confidence: entryConfidence(member.value),
            similarity: cluster.similarityToAnchor[i] ?? 0,
          };
        }),
      })),
    };
  });
  return { rejected, unactionable, duplicates };
}
