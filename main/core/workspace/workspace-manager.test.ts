import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceManager } from './workspace-manager';
import { demoWorkspaces } from '../../demo/demo-workspaces';

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
