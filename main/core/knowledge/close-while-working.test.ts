import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreIndexService } from '../store-index/store-index-service';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { startWorkersFromSources } from '../platform/util/built-worker';
import { writeSyntheticStores } from '../../../testing/stores/synthetic-stores';
import { sourceWorkerByName } from '../../../testing/workers/source-worker';
import { unhandledRejectionsDuring } from '../../../testing/process/unhandled-rejections';
import { KnowledgeService } from './knowledge-service';

// The console closes while the knowledge service is busy: warming up, clustering the duplicates
// inbox in the worker, merging tiers and sorting rankings for a preview. Whatever was under way
// must end quietly — CI's e2e runs failed on an `unhandledRejection` printed by the host at close.
// Each round closes at a different moment of that work; the workers really run (from sources), as
// the built app's do, and every slice yields (budget 0), so a close lands between chunks too.

let root: string;
let project: string;
let hive: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'close-while-working-'));
  project = path.join(root, 'project');
  hive = path.join(root, 'hive');
  // 9,000 entries: about 5,400 swarm lessons, more than one of the runner's 4,000-item chunks.
  writeSyntheticStores(project, hive, { events: 200, entries: 9_000, receipts: 5 }, 11);
  startWorkersFromSources(sourceWorkerByName);
});
afterAll(() => {
  startWorkersFromSources(null);
  fs.rmSync(root, { recursive: true, force: true });
});

describe('closing the knowledge service while it works', () => {
  it('leaves no rejection without a handler, whenever the close comes', async () => {
    const settledCalls: string[] = [];
    // Close at the moment one of the three workers' runners takes a task, and a few turns of the
    // event loop later (between its chunks, or while the worker computes).
    const rounds = (['clusterRunner', 'mergeRunner', 'rankRunner'] as const).flatMap((runner) => [0, 2].map((turns) => ({ runner, turns })));
    let reached = 0;
    const orphans = await unhandledRejectionsDuring(async () => {
      for (const [round, { runner, turns }] of rounds.entries()) {
        const cache = path.join(root, `cache-${round}`);
        const index = new StoreIndexService(resolveWorkspacePaths(project, hive, 'flag', false), cache, { watch: false });
        const service = new KnowledgeService(index, project, Date.now, 1);
        // What the views ask for at once on opening; their answers or errors go to their callers.
        const calls = [service.inboxes(), service.previewInjection({ headroomPercent: 60, phase: 'coding', filePaths: [] }), service.model()].map((call) =>
          call.then(
            () => 'answered',
            (error: Error) => error.message,
          ),
        );
        const watched = (service as unknown as { jobs: Record<typeof runner, { busy: boolean }> }).jobs[runner];
        const deadline = Date.now() + 20_000;
        while (!watched.busy && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
        if (watched.busy) reached++;
        for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
        await service.dispose();
        await index.close();
        settledCalls.push(...(await Promise.all(calls)));
        // The process reports an unhandled rejection after the microtasks of the tick it happened in.
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    });
    expect(orphans).toEqual([]);
    // Sanity: every round did close during the work of the runner it waited for.
    expect(settledCalls.length).toBe(rounds.length * 3);
    expect(reached).toBe(rounds.length);
  }, 120_000);
});
