import { nearDuplicateClustersWithComponents, type DuplicateCluster } from './clusters';
import { baseOrder } from '../rules/base-order';
import { mergeTierLessons, type TierMerge } from '../rules/tier-merge';

/**
 * The whole-corpus similarity computations (seconds at 100k lessons), as pure functions of plain
 * data so they can run in a worker thread (similarity-worker.ts) — or in-thread when no worker
 * can be started. Each task also says how its input splits into string columns (sent to the
 * worker in small chunks, so no single structured clone holds the main thread) and scalar
 * parameters, and which buffers of its output can be transferred rather than copied.
 */

export interface DuplicateGroupInput {
  ids: string[];
  lessons: string[];
}

export interface DuplicatesInput {
  groups: DuplicateGroupInput[];
  threshold: number;
  maxMembers: number;
  /** Clusters returned per group (largest first); `total` says how many exist. */
  maxClusters: number;
}

/** A group's components: the root of each record and the links that joined them (see nearDuplicateComponents). */
export interface GroupComponents {
  root: Int32Array;
  linkA: Int32Array;
  linkSimilarity: Float64Array;
}

export interface DuplicatesOutput {
  /** `components` lets the caller keep the clusters current by the lessons appended later (cluster-state.ts). */
  groups: { total: number; clusters: DuplicateCluster[]; components?: GroupComponents }[];
}

export interface TierMergeInput {
  hive: string[];
  swarm: string[];
}

export interface RankOrderInput {
  base: Float64Array;
  times: Float64Array;
}

export interface SimilarityTasks {
  duplicates: { input: DuplicatesInput; output: DuplicatesOutput };
  tierMerge: { input: TierMergeInput; output: TierMerge };
  rankOrder: { input: RankOrderInput; output: Int32Array };
}

export type SimilarityTaskKind = keyof SimilarityTasks;

interface TaskDef<I, O> {
  run(input: I): O;
  /** The input as string columns plus the rest. */
  split(input: I): { columns: string[][]; params: unknown };
  join(columns: string[][], params: unknown): I;
  transfer(output: O): ArrayBuffer[];
}

const duplicates: TaskDef<DuplicatesInput, DuplicatesOutput> = {
  run: (input) => ({
    groups: input.groups.map((group) => {
      const items = group.ids.map((id, i) => ({ id, lesson: group.lessons[i]! }));
      return nearDuplicateClustersWithComponents(items, input.threshold, input.maxMembers, input.maxClusters);
    }),
  }),
  split: ({ groups, ...params }) => ({ columns: groups.flatMap((g) => [g.ids, g.lessons]), params }),
  join: (columns, params) => {
    const groups: DuplicateGroupInput[] = [];
    for (let c = 0; c + 1 < columns.length; c += 2) groups.push({ ids: columns[c]!, lessons: columns[c + 1]! });
    return { ...(params as Omit<DuplicatesInput, 'groups'>), groups };
  },
  transfer: (output) => output.groups.flatMap((g) => (g.components ? Object.values(g.components).map((array) => array.buffer as ArrayBuffer) : [])),
};

const tierMerge: TaskDef<TierMergeInput, TierMerge> = {
  run: ({ hive, swarm }) => mergeTierLessons(hive, swarm),
  split: ({ hive, swarm }) => ({ columns: [hive, swarm], params: null }),
  join: ([hive = [], swarm = []]) => ({ hive, swarm }),
  transfer: (output) => [output.keptSwarm, ...Object.values(output.merged)].map((array) => array.buffer as ArrayBuffer),
};

const rankOrder: TaskDef<RankOrderInput, Int32Array> = {
  run: ({ base, times }) => Int32Array.from(baseOrder(base, times)),
  split: (input) => ({ columns: [], params: input }),
  join: (_columns, params) => params as RankOrderInput,
  transfer: (output) => [output.buffer as ArrayBuffer],
};

export const SIMILARITY_TASKS: { [K in SimilarityTaskKind]: TaskDef<SimilarityTasks[K]['input'], SimilarityTasks[K]['output']> } = { duplicates, tierMerge, rankOrder };

export function runSimilarityTask<K extends SimilarityTaskKind>(kind: K, input: SimilarityTasks[K]['input']): SimilarityTasks[K]['output'] {
  const task = SIMILARITY_TASKS[kind] as TaskDef<SimilarityTasks[K]['input'], SimilarityTasks[K]['output']> | undefined;
  if (!task) throw new Error(`unknown similarity task ${String(kind)}`);
  return task.run(input);
}
