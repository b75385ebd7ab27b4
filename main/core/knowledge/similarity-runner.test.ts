import { afterEach, describe, expect, it } from 'vitest';
import { SliceCancelled, TimeSlicer } from '../platform/util/time-slicer';
import { SimilarityRunner } from './similarity-runner';
import { runSimilarityTask } from './similarity-tasks';
import { MERGE_KINDS } from '../rules/tier-merge';
import { sourceWorkerSpec } from '../../../testing/workers/source-worker';
import { unhandledRejectionsDuring } from '../../../testing/process/unhandled-rejections';

const lessons = [
  'Run the focused test file after editing a fixture to catch snapshot drift.',
  'Run the focused test file after editing a fixture to catch any snapshot drift.',
  'Call declare_scope before any coder delegation that modifies source files.',
];

let runner: SimilarityRunner | null = null;
afterEach(async () => {
  await runner?.dispose();
  runner = null;
});

describe('similarity runner', () => {
  it('runs tasks in a worker thread with the same results as in-thread', async () => {
    runner = new SimilarityRunner(sourceWorkerSpec);
    const input = { groups: [{ ids: ['a', 'b', 'c'], lessons }], threshold: 0.6, maxMembers: 20, maxClusters: 100 };
    const [clusters, merge] = await Promise.all([runner.run('duplicates', input), runner.run('tierMerge', { hive: [lessons[2]!], swarm: lessons })]);
    expect(runner.counts).toEqual({ worker: 2, inline: 0 });
    expect(clusters).toEqual(runSimilarityTask('duplicates', input));
    expect(clusters.groups[0]!.clusters[0]!.ids).toEqual(['a', 'b']);
    expect(merge).toEqual(runSimilarityTask('tierMerge', { hive: [lessons[2]!], swarm: lessons }));
    expect([...merge.merged.dropped]).toEqual([1, 2]);
    expect([...merge.merged.keptAt]).toEqual([1, 0]);
    expect([...merge.merged.kind].map((k) => MERGE_KINDS[k])).toEqual(['swarm_near_duplicate', 'exact']);
  });

  it('computes in-thread from the TypeScript sources, where there is no compiled worker beside it', async () => {
    runner = new SimilarityRunner();
    const output = await runner.run('tierMerge', { hive: [], swarm: lessons });
    expect(runner.counts).toEqual({ worker: 0, inline: 1 });
    expect([...output.keptSwarm]).toEqual([0, 2]);
  });

  it('computes in-thread when no worker can be started', async () => {
    runner = new SimilarityRunner(() => null);
    const output = await runner.run('tierMerge', { hive: [], swarm: lessons });
    expect(runner.counts).toEqual({ worker: 0, inline: 1 });
    expect([...output.keptSwarm]).toEqual([0, 2]);
    expect([...output.merged.dropped]).toEqual([1]);
  });

  it('a task cancelled between its chunks leaves nothing pending: disposing later rejects no orphaned promise', async () => {
    runner = new SimilarityRunner(sourceWorkerSpec);
    const orphans = await unhandledRejectionsDuring(async () => {
      // Budget 0: every chunk yields, and the first yield finds the work cancelled (the service closing).
      const closing = new TimeSlicer(0, () => 'knowledge service closed');
      const input = { groups: [{ ids: ['a', 'b', 'c'], lessons }], threshold: 0.6, maxMembers: 20, maxClusters: 100 };
      await expect(runner!.run('duplicates', input, closing)).rejects.toBeInstanceOf(SliceCancelled);
      expect(runner!.busy).toBe(false);
      // The worker forgot the dropped chunks: the next task under the same runner answers as in-thread.
      expect(await runner!.run('duplicates', input)).toEqual(runSimilarityTask('duplicates', input));
      await runner!.dispose();
      runner = null;
    });
    expect(orphans).toEqual([]);
  });

  it('disposing while a task is still sending its chunks rejects that task to its caller, and nothing else', async () => {
    runner = new SimilarityRunner(sourceWorkerSpec);
    let settled: Promise<string> | null = null;
    // Let the chunk loop's pending yield run and the process report what nobody handled.
    const orphans = await unhandledRejectionsDuring(async () => {
      // Three chunks, each followed by a real yield (budget 0) that is never cancelled: the close
      // comes from dispose() alone, between two chunks — the window CI's console close hit.
      const many = Array.from({ length: 9000 }, (_, i) => `${lessons[i % 3]} (${i})`);
      const input = { groups: [{ ids: many.map((_, i) => `L${i}`), lessons: many }], threshold: 0.6, maxMembers: 20, maxClusters: 100 };
      const task = runner!.run('duplicates', input, new TimeSlicer(0));
      settled = task.then(() => 'resolved', (error: Error) => error.message);
      while (!runner!.busy) await new Promise((resolve) => setImmediate(resolve));
      await runner!.dispose();
      runner = null;
    });
    expect(orphans).toEqual([]);
    expect(await settled).toBe('similarity runner disposed');
  });

  it('a worker that exits while a task is still sending its chunks fails that task instead of leaving it unanswered', async () => {
    runner = new SimilarityRunner(sourceWorkerSpec);
    // The chunk loop waits at its first yield until the worker is gone.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = new (class extends TimeSlicer {
      override async yield(): Promise<void> {
        await gate;
      }
    })();
    const many = Array.from({ length: 9000 }, (_, i) => `${lessons[i % 3]} (${i})`);
    const input = { groups: [{ ids: many.map((_, i) => `L${i}`), lessons: many }], threshold: 0.6, maxMembers: 20, maxClusters: 100 };
    const task = runner.run('duplicates', input, held);
    const settled = task.then(() => 'answered', (error: Error) => error.message);
    while (!runner.busy) await new Promise((resolve) => setImmediate(resolve));
    await (runner as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the runner sees the exit
    open();
    const unanswered = new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2000));
    expect(await Promise.race([settled, unanswered])).toBe('similarity worker stopped while the task was being sent');
    expect(runner.busy).toBe(false);
  });
});
