import { afterEach, describe, expect, it } from 'vitest';
import { backgroundWorkPending, noteInteraction } from '../platform/util/foreground';
import { SimilarityRunner } from './similarity-runner';
import { runSimilarityTask, type DuplicatesInput } from './similarity-tasks';
import { sourceWorkerSpec } from '../../../testing/workers/source-worker';

/** `n` lessons, some near-duplicates of each other (a few hundred ms of clustering at 3,000). */
function clusteringInput(n: number): DuplicatesInput {
  const lessons = Array.from({ length: n }, (_, i) => `Lesson ${i % 97} about module ${i % 89} says run check ${i % 83} before step ${i % 79} of task ${i % 1500}`);
  return { groups: [{ ids: lessons.map((_, i) => `L${i}`), lessons }], threshold: 0.6, maxMembers: 20, maxClusters: 100 };
}

/** The page's notices while the operator scrolls: one every 100 ms until stopped. */
function scrolling(): () => void {
  noteInteraction();
  const timer = setInterval(noteInteraction, 100);
  return () => clearInterval(timer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let runner: SimilarityRunner | null = null;
let stopScrolling: (() => void) | null = null;
afterEach(async () => {
  stopScrolling?.();
  stopScrolling = null;
  await runner?.dispose();
  runner = null;
});

describe('the similarity worker gives way to the operator', () => {
  it('holds a task while the operator scrolls and finishes it, with the same result, once they stop', async () => {
    runner = new SimilarityRunner(sourceWorkerSpec);
    const input = clusteringInput(3000);
    // Start the worker first, so the hold below covers the task and not the worker's start.
    await runner.run('rankOrder', { base: new Float64Array(1), times: new Float64Array(1) });
    stopScrolling = scrolling();
    let done = false;
    const task = runner.run('duplicates', input).finally(() => (done = true));
    // Held 2.5 s the task gets at most a 12 ms slice a second (the duty-cycle floor): far less than it needs.
    await sleep(2500);
    expect(done).toBe(false);
    // What the page is told while it scrolls (ui.interacting): the held task is work its notices hold back.
    expect(backgroundWorkPending()).toBe(true);
    stopScrolling();
    stopScrolling = null;
    const unanswered = sleep(60_000).then(() => 'still held a minute after the operator stopped');
    const output = await Promise.race([task, unanswered]);
    expect(output).toEqual(runSimilarityTask('duplicates', input));
    // Its input was sent more than BACKGROUND_RECENT_MS ago: once it has ended, nothing is left.
    expect(backgroundWorkPending()).toBe(false);
  }, 90_000);

  it('still finishes a task while the operator never stops scrolling (one slice after each second held)', async () => {
    runner = new SimilarityRunner(sourceWorkerSpec);
    const input = clusteringInput(400);
    await runner.run('rankOrder', { base: new Float64Array(1), times: new Float64Array(1) });
    stopScrolling = scrolling();
    const unanswered = sleep(60_000).then(() => 'never finished under continuous scrolling');
    expect(await Promise.race([runner.run('duplicates', input), unanswered])).toEqual(runSimilarityTask('duplicates', input));
  }, 90_000);
});
