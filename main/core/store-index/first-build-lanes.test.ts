import { describe, expect, it } from 'vitest';
import { firstBuildLanes, IN_THREAD_SHARE } from './first-build-lanes';

const MB = 1024 * 1024;
const file = (name: string, mb: number) => ({ path: `/w/${name}`, size: mb * MB });
const names = (list: { path: string }[]) => list.map((f) => f.path.slice(3));

describe('firstBuildLanes', () => {
  it('gives this thread the small files and big ones up to its share of the big bytes, largest first that fit; the largest always to the worker', () => {
    // The generated million-event workspace's big files (MB), and two small ones.
    const files = [
      file('receipts', 375), file('events', 201), file('archive', 79), file('knowledge', 70), file('application', 33),
      file('plugin-events', 23), file('hive', 19), file('backup', 19), file('link-events', 17), file('hive-events', 15),
      file('link', 10), file('baseline', 0.01), file('skills', 0.2),
    ];
    const { inThread, onWorker } = firstBuildLanes(files, (size) => size >= 8 * MB);
    expect(names(onWorker)).toEqual(['receipts', 'archive', 'knowledge', 'application', 'plugin-events', 'hive', 'backup', 'link-events', 'hive-events']);
    expect(names(inThread)).toEqual(['events', 'link', 'baseline', 'skills']);
    const bigBytes = files.filter((f) => f.size >= 8 * MB).reduce((sum, f) => sum + f.size, 0);
    const inThreadBig = inThread.filter((f) => f.size >= 8 * MB).reduce((sum, f) => sum + f.size, 0);
    expect(inThreadBig).toBeLessThanOrEqual(IN_THREAD_SHARE * bigBytes);
    expect(inThreadBig).toBeGreaterThan(0.9 * IN_THREAD_SHARE * bigBytes);
  });

  it('reads every file somewhere, once', () => {
    const files = Array.from({ length: 40 }, (_, i) => file(`f${i}`, (i * 7919) % 97));
    const { inThread, onWorker } = firstBuildLanes(files, (size) => size >= 8 * MB);
    expect([...inThread, ...onWorker].map((f) => f.path).sort()).toEqual(files.map((f) => f.path).sort());
  });

  it('keeps the one big file on the worker, and everything on this thread when the worker takes nothing', () => {
    expect(names(firstBuildLanes([file('only', 300), file('small', 1)], (size) => size >= 8 * MB).onWorker)).toEqual(['only']);
    const none = firstBuildLanes([file('a', 300), file('b', 200)], () => false);
    expect(names(none.inThread)).toEqual(['a', 'b']);
    expect(none.onWorker).toEqual([]);
  });
});
