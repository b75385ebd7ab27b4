import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceManager } from './workspace-manager';
import { demoWorkspaces } from '../../demo/week/demo-workspaces';

// The switcher's demo projects: the rich demo and the released-plugin-shaped worktree pair, each
// opened with its own hive so neither sees the other's hive or link store.

describe('WorkspaceManager demo projects', () => {
  let userData: string;
  let manager: WorkspaceManager;
  beforeAll(() => {
    userData = fs.mkdtempSync(path.join(os.tmpdir(), 'workspaces-'));
    manager = new WorkspaceManager(userData, demoWorkspaces);
  });
  afterAll(async () => {
    await manager.close();
    fs.rmSync(userData, { recursive: true, force: true });
  });

  it('lists both demo workspaces and opens the released pair with its own hive and link store', async () => {
    const demo = await manager.open({ project: null });
    expect(path.basename(demo.paths.projectDir)).toBe('billing-api');
    expect(path.basename(demo.paths.hiveDir)).toBe('hive-data');
    expect(manager.demoProjects().map((p) => p.name)).toEqual(['billing-api', 'inventory-api', 'inventory-api-hotfix', 'payments-worker']);
    expect(manager.demoProjects().find((p) => p.name === 'inventory-api')?.note).toMatch(/released opencode-swarm 7\.103\.2/);

    for (const name of ['inventory-api', 'inventory-api-hotfix']) {
      const released = await manager.open({ project: path.join(userData, 'demo', name) });
      expect(released.paths.isDemo).toBe(true);
      expect(released.paths.hiveDir).toBe(path.join(userData, 'demo', 'released-hive'));
      expect(released.paths.knowledgeDir).toBe(path.join(userData, 'demo', 'released-hive', 'links', 'inventory-api'));
    }
    const second = await manager.open({ project: path.join(userData, 'demo', 'payments-worker') });
    expect(second.paths.hiveDir).toBe(path.join(userData, 'demo', 'hive-data'));
  });
});

// Issue 19 item 9: the switcher opening a linked worktree (no hive named) used the environment's
// hive instead of the one the operator works in, so the worktree showed "0 entries".
describe('WorkspaceManager carries the hive when switching', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'carry-hive-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps the open hive for a project opened without one, remembers it per project, and leaves the first opening to the environment', async () => {
    const hive = path.join(root, 'team-hive');
    fs.mkdirSync(path.join(hive, 'links'), { recursive: true });
    fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), '');
    const envData = path.join(root, 'xdg');
    const platformEnv = { platform: 'linux' as const, env: { HOME: root, XDG_DATA_HOME: envData }, homedir: () => root };
    const envHive = path.join(envData, 'opencode-swarm');
    const [main, hotfix, other] = ['main', 'main-hotfix', 'other'].map((name) => {
      const dir = path.join(root, name);
      fs.mkdirSync(path.join(dir, '.swarm'), { recursive: true });
      return dir;
    }) as [string, string, string];
    const userData = path.join(root, 'user-data');

    const manager = new WorkspaceManager(userData, null, platformEnv);
    try {
      expect((await manager.open({ project: main, hive })).paths).toMatchObject({ hiveDir: hive, hiveSource: 'flag' });
      // The switcher opens the linked worktree by path, naming no hive: the team hive stays.
      expect((await manager.open({ project: hotfix })).paths).toMatchObject({ hiveDir: hive, hiveSource: 'carried' });
      // A hive named in the switcher wins over the carried one.
      expect((await manager.open({ project: other, hive: envHive })).paths).toMatchObject({ hiveDir: envHive, hiveSource: 'flag' });
      // Back to the worktree from the recent list: the hive it was last opened with.
      expect((await manager.open({ project: hotfix })).paths).toMatchObject({ hiveDir: hive, hiveSource: 'carried' });
      expect(manager.recentProjects().find((p) => p.path === hotfix)?.hive).toBe(hive);
    } finally {
      await manager.close();
    }

    // A new start: the command line's opening resolves the hive from the environment as documented.
    const restarted = new WorkspaceManager(userData, null, platformEnv);
    try {
      expect((await restarted.open({ project: hotfix })).paths).toMatchObject({ hiveDir: envHive, hiveSource: 'env' });
      // Switching to a project that was opened with a hive brings that hive back.
      expect((await restarted.open({ project: main })).paths).toMatchObject({ hiveDir: hive, hiveSource: 'carried' });
    } finally {
      await restarted.close();
    }
  });
});

// A workspace closes by finishing its history catch-up and pending recording, which took over 10 s
// on a busy machine: the next project must not wait for it, and the same project must.
describe('WorkspaceManager closes the previous workspace without holding the switch', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'switch-close-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('opens another project while the previous one closes, waits when the same project comes back, and close() waits for every closing', async () => {
    const [first, second] = ['first', 'second'].map((name) => {
      const dir = path.join(root, name);
      fs.mkdirSync(path.join(dir, '.swarm'), { recursive: true });
      return dir;
    }) as [string, string];
    const hive = path.join(root, 'hive');
    fs.mkdirSync(hive, { recursive: true });
    const manager = new WorkspaceManager(path.join(root, 'user-data'), null);
    const events: string[] = [];
    let finishClosing!: () => void;
    const slowClose = new Promise<void>((resolve) => (finishClosing = resolve));
    try {
      const a = await manager.open({ project: first, hive });
      a.service('slow-to-close', () => ({
        value: null,
        dispose: async () => {
          await slowClose;
          events.push('first closed');
        },
      }));

      await manager.open({ project: second, hive });
      events.push('second open');
      expect(manager.isClosing(first)).toBe(true);

      const back = manager.open({ project: first, hive }).then(() => events.push('first open again'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).toEqual(['second open']);
      finishClosing();
      await back;
      expect(events).toEqual(['second open', 'first closed', 'first open again']);
      expect(manager.isClosing(first)).toBe(false);
    } finally {
      finishClosing();
      await manager.close();
    }
    expect(manager.isClosing(first) || manager.isClosing(second)).toBe(false);
  });
});
