import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { StoreIndexService } from '../store-index/store-index-service';
import { swarmEntryV2 } from '../../../testing/stores/sample-records';
import { rewriteStore } from '../../../testing/history/plugin-writes';
import { HistoryService } from './history-service';
import { HistoryQueries } from './history-queries';
import { thinningLine, type ThinReport } from './thinning';

/** The budget as the console runs it: real store files, the index's change reports, the check after each batch. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the history service keeps its budget', () => {
  it('thins after recorded batches once over budget, keeping first and last versions, and says what it did', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'history-budget-'));
    cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
    const project = path.join(root, 'project');
    const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
    const paths = resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false);
    const entry = (uses: number) => swarmEntryV2({ id: 'e1', lesson: 'Retry the webhook with backoff.', retrieval_outcomes: { applied_count: uses, succeeded_after_count: 0, failed_after_count: 0 } });
    rewriteStore(knowledge, [entry(0)]);
    const clock = { t: Date.UTC(2026, 6, 1, 9, 0) };
    const reports: ThinReport[] = [];
    const index = new StoreIndexService(paths, path.join(root, 'ws'), { watch: false });
    // A budget far below one page: every batch is over it.
    const history = new HistoryService(index, { dir: path.join(root, 'ws'), userDataDir: path.join(root, 'ud'), role: 'app', now: () => clock.t, budgetBytes: 1, onThinned: (r) => reports.push(r) });
    cleanups.push(async () => {
      await history.close();
      await index.close();
    });
    await history.settle();
    for (let uses = 1; uses <= 40; uses++) {
      clock.t += 60_000;
      rewriteStore(knowledge, [entry(uses)]);
      await index.rescan();
      await history.settle();
    }
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.some((r) => r.sightingsThinned > 0)).toBe(true);
    expect(thinningLine(reports.at(-1)!)).toMatch(/^history thinned: \d+ intermediate versions? merged into spans, .* \(budget 0\.0 MB\); still over: every entry's first and last version/);
    const queries = new HistoryQueries({ db: history.db, lastLooked: null, caps: history.caps, quarantines: () => [], status: history.status, now: clock.t });
    const timeline = queries.timeline('e1');
    expect(timeline.versions[0]!.record).toMatchObject({ retrieval_outcomes: { applied_count: 0 } });
    expect(timeline.versions.at(-1)!.record).toMatchObject({ retrieval_outcomes: { applied_count: 40 } });
    const thinned = timeline.versions.filter((v) => v.thinned).reduce((n, v) => n + v.thinned!.count, 0);
    expect(thinned + timeline.versions.filter((v) => !v.thinned).length).toBe(41);
    expect(thinned).toBeGreaterThan(0);
  });
});
