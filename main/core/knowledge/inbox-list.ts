import type { Inboxes } from '../../../shared/contract/knowledge';
import { entryConfidence, entryId, entryLesson, entryStatus } from '../rules/entry-fields';
import { groupRejected, unactionableQueue } from './inboxes';
import type { KnowledgeModel } from './knowledge-model';
import type { SourceEntry } from './model-types';
import { runSimilarityTask, type DuplicatesInput, type DuplicatesOutput } from './similarity-tasks';
import type { TimeSlicer } from '../platform/util/time-slicer';
import type { ReadList } from './chunked-list';

/** Clusters returned per tier group (the total says how many exist), and lessons listed per cluster. */
export const MAX_CLUSTERS = 100;
export const MAX_CLUSTER_MEMBERS = 20;

/**
 * The rejected and unactionable inboxes: small collections, computed from the model's triage
 * entries. A quarantine fingerprint is told by its id having a copy outside the rejected files.
 */
function triageInboxes(model: KnowledgeModel): Pick<Inboxes, 'rejected' | 'unactionable'> {
  const { rejected, unactionable } = model.triageEntries();
  const known = new Set<string>();
  for (const entry of rejected) {
    const id = entryId(entry.value);
    if (model.byId(id).some((copy) => copy.collection !== 'rejected')) known.add(id);
  }
  return {
    rejected: groupRejected(
      rejected.map((entry) => ({ record: entry.value, store: entry.tier === 'hive' ? ('hive' as const) : ('swarm' as const) })),
      known,
    ),
    unactionable: unactionableQueue(unactionable.map((entry) => entry.value)),
  };
}

/** triageInboxes, after giving the event loop a chance (its work is in proportion to the triage collections only). */
export async function triageInboxesSliced(model: KnowledgeModel, slicer: TimeSlicer): Promise<Pick<Inboxes, 'rejected' | 'unactionable'>> {
  await slicer.yield();
  return triageInboxes(model);
}

type ClusterGroups = ReturnType<KnowledgeModel['clusterGroups']>;

/** What near-duplicate clustering needs from the model: ids and lessons per tier group, as plain data. */
function duplicatesInput(groups: ClusterGroups, threshold: number): DuplicatesInput {
  return {
    groups: groups.map(({ entries }) => ({ ids: entries.map((m) => entryId(m.value)), lessons: entries.map((m) => entryLesson(m.value)) })),
    threshold,
    maxMembers: MAX_CLUSTER_MEMBERS,
    maxClusters: MAX_CLUSTERS,
  };
}

/** The ids each group's returned clusters list. */
export const listedIds = (output: DuplicatesOutput): Set<string>[] => output.groups.map((g) => new Set(g.clusters.flatMap((c) => c.ids)));

/** The member behind each listed id (the last copy of an id wins, as it always has). */
function listedMembers(entries: ReadList<SourceEntry>, listed: ReadonlySet<string>): Map<string, SourceEntry> {
  const byId = new Map<string, SourceEntry>();
  for (const member of entries) {
    const id = entryId(member.value);
    if (listed.has(id)) byId.set(id, member);
  }
  return byId;
}

/** The clusters found (by id) as the contract's groups, with each listed member's fields. */
export function duplicateGroups(
  groups: ClusterGroups,
  output: DuplicatesOutput,
  threshold: number,
  members: Map<string, SourceEntry>[] = groups.map(({ entries }, g) => listedMembers(entries, listedIds(output)[g] ?? new Set())),
): Inboxes['duplicates'] {
  return groups.map(({ group }, g) => {
    const found = output.groups[g] ?? { total: 0, clusters: [] };
    const byId = members[g] ?? new Map<string, SourceEntry>();
    return {
      group,
      threshold,
      total: found.total,
      clusters: found.clusters.map((cluster) => ({
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
}

/** Every inbox computed now, in-thread (small workspaces and tests; the service clusters in a worker). */
export function buildInboxes(model: KnowledgeModel): Inboxes {
  const groups = model.clusterGroups();
  const threshold = model.thresholds.dedup_threshold;
  const duplicates = duplicateGroups(groups, runSimilarityTask('duplicates', duplicatesInput(groups, threshold)), threshold);
  return { ...triageInboxes(model), duplicates, duplicatesFreshness: { stale: false, computing: false, asOf: new Date(model.builtAt).toISOString() } };
}
