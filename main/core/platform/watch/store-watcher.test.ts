import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreWatcher, type WatchEvent } from './store-watcher';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'store-watcher-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function follow(targets: ConstructorParameters<typeof StoreWatcher>[0]) {
  const events: WatchEvent[] = [];
  const waiters: { match: (e: WatchEvent) => boolean; resolve: () => void }[] = [];
  const watcher = new StoreWatcher(targets, (event) => {
    events.push(event);
    for (const waiter of [...waiters]) if (waiter.match(event)) waiter.resolve();
  });
  cleanups.push(() => watcher.close());
  const next = (match: (e: WatchEvent) => boolean) =>
    events.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
  return { watcher, events, next };
}

describe('StoreWatcher', () => {
  it('is ready only once every existing folder is watched, even when another target is missing', async () => {
    // chokidar counts a missing path twice towards `ready`, which then came before the busiest
    // folder was watched: a write right after `ready` was never reported.
    for (let round = 0; round < 5; round++) {
      const root = tempRoot();
      const swarm = path.join(root, 'project', '.swarm');
      for (let i = 0; i < 60; i++) fs.mkdirSync(path.join(swarm, 'skills', `s${i}`, 'evals'), { recursive: true });
      const { watcher, next } = follow([
        { dir: path.join(root, 'project', '.opencode', 'skills', 'generated'), depth: 1, relevant: () => true },
        { dir: path.join(root, 'hive'), depth: 0, relevant: () => true },
        { dir: swarm, depth: 3, relevant: () => true },
      ]);
      await watcher.ready;
      const file = path.join(swarm, 'link.json');
      fs.writeFileSync(file, '{}\n');
      await next((e) => e.kind === 'file' && e.path === file);
    }
  });
});
