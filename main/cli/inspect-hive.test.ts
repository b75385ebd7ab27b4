import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '..', '..');
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bin', 'swarm-console.mjs'), 'inspect', ...args], { cwd: repo }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A linked worktree whose link store lives in `<share>/opencode-swarm/links/team`. */
function linkedWorktree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inspect-hive-'));
  roots.push(root);
  const share = path.join(root, 'share');
  const dataDir = path.join(share, 'opencode-swarm');
  fs.mkdirSync(path.join(dataDir, 'links', 'team'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'shared-learnings.jsonl'), '');
  const project = path.join(root, 'worktree');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.writeFileSync(path.join(project, '.swarm', 'link.json'), JSON.stringify({ version: 1, linkId: 'team', createdAt: '2026-01-01T00:00:00Z', source: 'manual' }));
  return { root, share, dataDir, project };
}

describe('swarm-console inspect with a wrong --hive', () => {
  it('names the opencode-swarm folder inside the one given', async () => {
    const ws = linkedWorktree();
    const human = await inspect(['--project', ws.project, '--hive', ws.share]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`note: no hive here: ${ws.share} holds the plugin's data folder ${ws.dataDir}`);
    expect(human.stdout).toContain(`(--hive ${ws.dataDir})`);
    const json = JSON.parse((await inspect(['--project', ws.project, '--hive', ws.share, '--json'])).stdout);
    expect(json.hiveCheck).toEqual({ state: 'parent', suggestion: ws.dataDir, message: expect.stringMatching(/^no hive here: /) });
  });

  it('says "no hive here" for an empty folder and nothing for the right one', async () => {
    const ws = linkedWorktree();
    const empty = path.join(ws.root, 'empty');
    fs.mkdirSync(empty);
    const result = await inspect(['--project', ws.project, '--hive', empty]);
    expect(result.stdout).toContain(`note: no hive here: ${empty} holds no shared-learnings.jsonl`);
    const right = await inspect(['--project', ws.project, '--hive', ws.dataDir, '--json']);
    expect(JSON.parse(right.stdout).hiveCheck).toEqual({ state: 'hive', suggestion: null, message: null });
    expect(right.stdout).not.toContain('no hive here');
  });
});
