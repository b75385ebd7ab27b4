import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lines, swarmEntryV2 } from '../../testing/stores/sample-records';

// Issue 10 item 8 through the CLI: `inspect` does not read a store that leads out of the workspace.

const repo = path.resolve(__dirname, '..', '..');
const SECRET = 'TOPSECRET-credential-7f3a';
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bin', 'swarm-console.mjs'), 'inspect', ...args], { cwd: repo }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('swarm-console inspect and symlinks', () => {
  it('reports a store symlinked out of the workspace as not read, with its target, and prints none of its bytes', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inspect-symlinks-'));
    roots.push(root);
    const project = path.join(root, 'project');
    const hive = path.join(root, 'hive');
    fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
    fs.mkdirSync(hive);
    const secret = path.join(root, 'credentials');
    fs.writeFileSync(secret, `${SECRET}=hunter2\n`);
    fs.symlinkSync(secret, path.join(project, '.swarm', 'knowledge.jsonl'));
    fs.writeFileSync(path.join(project, '.swarm', 'knowledge-rejected.jsonl'), lines([swarmEntryV2({ id: 'ok-entry' })]));

    for (const json of [false, true]) {
      const result = await inspect(['--project', project, '--hive', hive, ...(json ? ['--json'] : [])]);
      expect(result.code).toBe(1);
      const all = result.stdout + result.stderr;
      expect(all).not.toContain(SECRET);
      expect(all).not.toContain('hunter2');
      expect(all).toContain(`symlink outside the workspace — not read (it leads to ${secret})`);
      if (json) {
        const store = JSON.parse(result.stdout).stores.find((s: { key: string }) => s.key === 'knowledge');
        expect(store).toMatchObject({ status: 'unreadable', lines: 0, defectCount: 0, defects: [] });
      }
    }
  });
});
