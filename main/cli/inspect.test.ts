import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hiveEntry, line, lines, rejectedLesson, swarmEntryV1, swarmEntryV2 } from '../../testing/stores/sample-records';

const repo = path.resolve(__dirname, '..', '..');
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) {
    fs.chmodSync(root, 0o700);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

function inspect(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bin', 'swarm-console.mjs'), 'inspect', ...args], { cwd: repo, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full)] = entry.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex') : 'special';
    }
  };
  walk(root);
  return out;
}

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inspect-'));
  roots.push(root);
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(path.join(swarm, 'knowledge.jsonl'), line(swarmEntryV1()) + 'not json\n' + line(swarmEntryV2({ confidence: 'high' })));
  fs.writeFileSync(path.join(swarm, 'knowledge-rejected.jsonl'), lines([rejectedLesson()]));
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), lines([hiveEntry()]) + '{"id":"half');
  return { root, project, hive, swarm };
}

describe('swarm-console inspect', () => {
  it('prints the stable JSON shape, one element per file found, and changes no byte', async () => {
    const ws = workspace();
    const before = hashTree(ws.root);
    const result = await inspect(['--project', ws.project, '--hive', ws.hive, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.project).toBe(ws.project);
    expect(report.hive).toBe(ws.hive);
    expect(report.stores.map((s: any) => s.store).sort()).toEqual(['.swarm/knowledge-rejected.jsonl', '.swarm/knowledge.jsonl', 'shared-learnings.jsonl']);
    const knowledge = report.stores.find((s: any) => s.store === '.swarm/knowledge.jsonl');
    expect(knowledge).toMatchObject({ tier: 'swarm', path: path.join(ws.swarm, 'knowledge.jsonl'), lines: 3, records: 2 });
    expect(knowledge.defects).toEqual([
      { line: 2, offset: Buffer.byteLength(line(swarmEntryV1())), kind: 'invalid_json', reason: expect.stringMatching(/^invalid JSON/) },
      { line: 3, offset: expect.any(Number), kind: 'schema', reason: 'confidence: expected number, got string' },
    ]);
    const hive = report.stores.find((s: any) => s.store === 'shared-learnings.jsonl');
    expect(hive).toMatchObject({ tier: 'hive', lines: 1, records: 1, defects: [expect.objectContaining({ line: 2, kind: 'incomplete_tail' })] });
    expect(hashTree(ws.root)).toEqual(before);
  });

  it('prints a readable table with file:line defects', async () => {
    const ws = workspace();
    const result = await inspect(['--project', ws.project, '--hive', ws.hive]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('.swarm/knowledge.jsonl:2 (byte');
    expect(result.stdout).toMatch(/swarm\s+\.swarm\/knowledge\.jsonl\s+3\s+2\s+2\s+defects/);
  });

  it('exits non-zero with a clear message when a store path cannot be read', async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws.swarm, 'knowledge-events.jsonl'));
    const before = hashTree(ws.root);
    const result = await inspect(['--project', ws.project, '--hive', ws.hive, '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot read ${path.join(ws.swarm, 'knowledge-events.jsonl')}`);
    expect(result.stderr).toContain('is a directory');
    // Everything readable is still reported.
    expect(JSON.parse(result.stdout).stores.find((s: any) => s.store === '.swarm/knowledge.jsonl').records).toBe(2);
    expect(hashTree(ws.root)).toEqual(before);
  });

  it.skipIf(process.getuid?.() === 0)('exits non-zero when a store file has no read permission', async () => {
    const ws = workspace();
    fs.chmodSync(path.join(ws.swarm, 'knowledge-rejected.jsonl'), 0o000);
    const result = await inspect(['--project', ws.project, '--hive', ws.hive]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('permission denied');
    fs.chmodSync(path.join(ws.swarm, 'knowledge-rejected.jsonl'), 0o600);
  });

  it('exits 2 with a message for a missing project folder or missing --project', async () => {
    const ws = workspace();
    const missing = await inspect(['--project', path.join(ws.root, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
    const usage = await inspect([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--project is required');
  });

  it('resolves the hive from the environment as the plugin does when --hive is omitted', async () => {
    const ws = workspace();
    const dataHome = path.join(ws.root, 'xdg');
    fs.mkdirSync(path.join(dataHome, 'opencode-swarm'), { recursive: true });
    fs.writeFileSync(path.join(dataHome, 'opencode-swarm', 'shared-learnings.jsonl'), lines([hiveEntry(), hiveEntry({ id: 'second' })]));
    const result = await inspect(['--project', ws.project, '--json'], { XDG_DATA_HOME: dataHome });
    const report = JSON.parse(result.stdout);
    expect(report.hive).toBe(path.join(dataHome, 'opencode-swarm'));
    expect(report.stores.find((s: any) => s.store === 'shared-learnings.jsonl').records).toBe(2);
  });
});
