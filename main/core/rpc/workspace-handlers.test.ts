import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceInfo } from '../../../shared/contract/workspace';
import { createConsoleCore, type ConsoleCore } from '../console-core';

/** A linked worktree and the plugin data folder `<share>/opencode-swarm` that holds its link store. */
function linkedWorktree(root: string) {
  const share = path.join(root, 'share');
  const dataDir = path.join(share, 'opencode-swarm');
  fs.mkdirSync(path.join(dataDir, 'links', 'team'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'links', 'team', 'knowledge.jsonl'), '');
  const project = path.join(root, 'worktree');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.writeFileSync(path.join(project, '.swarm', 'link.json'), JSON.stringify({ version: 1, linkId: 'team', createdAt: '2026-01-01T00:00:00Z', source: 'manual' }, null, 2));
  fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), '{"id":"local-1"}\n');
  return { share, dataDir, project };
}

describe('workspace.info tells the operator when the hive folder is wrong', () => {
  let core: ConsoleCore;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-info-'));
  const layout = linkedWorktree(root);

  beforeAll(async () => {
    core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'test' }, { project: layout.project, hive: layout.dataDir });
  });
  afterAll(async () => {
    await core.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const info = async (): Promise<WorkspaceInfo> => {
    const result = await core.dispatcher.call('workspace.info', {});
    if (!result.ok) throw new Error(result.error.message);
    return result.value as WorkspaceInfo;
  };
  const open = async (hive: string): Promise<WorkspaceInfo> => {
    const result = await core.dispatcher.call('workspace.open', { project: layout.project, hive });
    if (!result.ok) throw new Error(result.error.message);
    return result.value as WorkspaceInfo;
  };

  it('accepts the real data folder and names the orphaned local knowledge.jsonl of a linked worktree', async () => {
    const value = await info();
    expect(value.hive.check).toEqual({ state: 'hive', message: null, suggestion: null });
    expect(value.link).toMatchObject({ linkId: 'team', orphanedLocalFiles: ['knowledge.jsonl'], storeExists: true });
  });

  it('offers <dir>/opencode-swarm when --hive names the folder above it', async () => {
    const value = await open(layout.share);
    expect(value.hive.check.state).toBe('parent');
    expect(value.hive.check.suggestion).toBe(layout.dataDir);
    expect(value.hive.check.message).toMatch(/^no hive here: /);
    // The link store is looked for under the wrong folder: say it is missing rather than leave the local file looking orphaned for nothing.
    expect(value.link?.storeExists).toBe(false);
  });

  it('says "no hive here" for an empty folder', async () => {
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    const value = await open(empty);
    expect(value.hive.check).toMatchObject({ state: 'empty', suggestion: null, message: expect.stringContaining('no hive here') });
  });

  it('drops the orphaned note once the local copy is gone', async () => {
    await open(layout.dataDir);
    fs.rmSync(path.join(layout.project, '.swarm', 'knowledge.jsonl'));
    expect((await info()).link?.orphanedLocalFiles).toEqual([]);
  });
});
