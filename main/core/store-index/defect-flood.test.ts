import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { gateWarnEvent, line } from '../../../testing/stores/sample-records';
import { MAX_STORED_DEFECTS, type StoreChange } from './ingest';
import { StoreIndexService } from './store-index-service';

// Issue 10 item 6: a flood of invalid lines (2.2M in the report) appended a few thousand at a time
// must cost little: what is stored and emitted per bad line is counted here, not timed.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a flood of invalid lines', () => {
  it('stores at most the capped defect rows over all passes, counts every bad line, and emits one change per pass', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'defect-flood-'));
    cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
    const project = path.join(root, 'project');
    const events = path.join(project, '.swarm', 'events.jsonl');
    fs.mkdirSync(path.dirname(events), { recursive: true });
    fs.mkdirSync(path.join(root, 'hive'));
    fs.writeFileSync(events, line(gateWarnEvent()));
    const service = new StoreIndexService(resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false), path.join(root, 'cache'), { watch: false });
    cleanups.push(() => service.close());
    await service.ready;
    const changes: StoreChange[] = [];
    service.onChange((change) => changes.push(change));

    const passes = 8;
    const perPass = 5_000;
    for (let pass = 0; pass < passes; pass++) {
      fs.appendFileSync(events, '{not json at all\n'.repeat(perPass));
      await service.rescan();
    }
    fs.appendFileSync(events, line(gateWarnEvent({ timestamp: '2026-07-02T00:00:00.000Z' })));
    await service.rescan();

    const bad = passes * perPass;
    const file = service.db.prepare("SELECT defects, records FROM files WHERE store_key = 'events'").get() as { defects: number; records: number };
    expect(file).toEqual({ defects: bad, records: 2 });
    const stored = (service.db.prepare("SELECT COUNT(*) AS n FROM defects WHERE store_key = 'events'").get() as { n: number }).n;
    expect(stored).toBe(MAX_STORED_DEFECTS);
    expect(bad).toBeGreaterThan(MAX_STORED_DEFECTS * 3);
    const forEvents = changes.filter((c) => c.storeKey === 'events');
    expect(forEvents.map((c) => c.kind)).toEqual([...Array(passes).fill('defects'), 'appended']);
    expect(forEvents.slice(0, passes).every((c) => c.count === perPass)).toBe(true);
  });
});
