import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'swarm-console.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-usage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: repo }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('swarm-console help', () => {
  it.each([
    ['serve', 'Usage: swarm-console serve'],
    ['inspect', 'Usage: swarm-console inspect'],
    ['denials', 'Usage: swarm-console denials'],
    ['verify', 'Usage: swarm-console verify'],
    ['open', 'Usage: swarm-console [open]'],
    ['history', 'Usage: swarm-console history'],
    ['record', 'Usage: swarm-console record'],
  ])('`%s --help` prints that command\'s own usage and exits 0', async (command, heading) => {
    for (const flag of ['--help', '-h']) {
      const result = await cli([command, '--project', root, flag]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout.startsWith(heading)).toBe(true);
    }
  });

  it('documents --max-defects and marks --opencode optional, saying what denials does without it', async () => {
    const top = await cli(['--help']);
    expect(top.stdout).toContain('inspect --project DIR [--hive DIR] [--json] [--max-defects N]');
    expect(top.stdout).toContain('denials [--opencode URL [--password P]] [--project DIR]');
    expect((await cli(['inspect', '--help'])).stdout).toMatch(/--max-defects N\s+list at most N defects per file \(default 20/);
    expect((await cli(['denials', '--help'])).stdout).toContain('Without --opencode\n                    only these events are printed: no server is contacted.');
  });

  it('denials without --opencode prints the project\'s gate warnings from events.jsonl', async () => {
    const project = path.join(root, 'project');
    fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
    const warn = { event: 'knowledge_application_gate_warn', timestamp: '2026-07-01T10:00:00.000Z', tool: 'bash', agent: 'coder', sessionID: 'ses_1', unacknowledged_critical_ids: ['dir-1'] };
    fs.writeFileSync(path.join(project, '.swarm', 'events.jsonl'), `${JSON.stringify(warn)}\n`);
    const result = await cli(['denials', '--project', project, '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ source: 'events', kind: 'warn', directiveIds: ['dir-1'] })]);
  });
});

describe('swarm-console inspect | head', () => {
  it('ends quietly when the reader closes the pipe early', async () => {
    const project = path.join(root, 'many-defects');
    fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
    fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), 'not json\n'.repeat(20_000));
    const child = spawn(process.execPath, [bin, 'inspect', '--project', project, '--hive', path.join(root, 'no-hive'), '--max-defects', '20000'], { cwd: repo });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Read the first chunk, then close our end, as `head` does after its lines.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  });
});
