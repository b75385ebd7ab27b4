import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gateDenyEvent, line } from '../../testing/stores/sample-records';

// Credentials quoted in store text are masked in every CLI output, not only `inspect` (issue 22).
const repo = path.resolve(__dirname, '..', '..');
const SECRET = 'Zq9hunter2longsecret';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => execFile(process.execPath, [path.join(repo, 'bin', 'swarm-console.mjs'), ...args], { cwd: repo }, (_e, stdout, stderr) => resolve({ stdout, stderr })));
}

function projectQuoting(secretText: string): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-masking-'));
  cleanups.push(() => fs.rmSync(project, { recursive: true, force: true }));
  fs.mkdirSync(path.join(project, '.swarm'));
  fs.writeFileSync(path.join(project, '.swarm', 'events.jsonl'), line(gateDenyEvent({ message: `blocked: the agent ran psql ${secretText}` })));
  // A journal line that is not a receipt: verify quotes its first bytes in the reason.
  fs.writeFileSync(path.join(project, '.swarm', 'knowledge-receipts-v2.jsonl'), `${secretText} not a receipt\n`);
  return project;
}

describe('CLI output masks credentials in store text', () => {
  it('denials (gate events of events.jsonl), as text and JSON', async () => {
    const project = projectQuoting(`postgres://app:${SECRET}@db/prod`);
    for (const args of [[], ['--json']]) {
      const { stdout } = await cli(['denials', '--project', project, ...args]);
      expect(stdout).toContain('blocked: the agent ran psql');
      expect(stdout).not.toContain(SECRET);
      expect(stdout).toContain('•••');
    }
  });

  it('verify, as text and JSON', async () => {
    const project = projectQuoting(`password=${SECRET}`);
    for (const args of [[], ['--json']]) {
      const { stdout } = await cli(['verify', '--project', project, ...args]);
      expect(stdout).not.toContain(SECRET);
    }
  });
});
