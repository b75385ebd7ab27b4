import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { lines, swarmEntryV2 } from '../../testing/stores/sample-records';

const repo = path.resolve(__dirname, '..', '..');
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

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inspect-upgrade-'));
  roots.push(root);
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive);
  return { project, hive, swarm: path.join(project, '.swarm') };
}

describe('inspect on a project whose plugin keeps stores in swarm.db', () => {
  it('says where knowledge went, reads the archive, and lists swarm.db tables (text and --json)', async () => {
    const w = workspace();
    const db = new Database(path.join(w.swarm, 'swarm.db'));
    db.pragma('user_version = 3');
    db.exec("CREATE TABLE migrations (version INTEGER); INSERT INTO migrations VALUES (1), (2); CREATE TABLE knowledge_entries (id TEXT); INSERT INTO knowledge_entries VALUES ('a'), ('b'), ('c');");
    db.close();
    const archive = path.join(w.swarm, 'knowledge.jsonl.imported');
    fs.writeFileSync(archive, lines([swarmEntryV2({ id: 'k1' })]));
    const at = new Date('2026-07-12T09:30:00Z');
    fs.utimesSync(archive, at, at);

    const json = await inspect(['--project', w.project, '--hive', w.hive, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.upgrade.swarmDb).toMatchObject({ state: 'ok', userVersion: 3, migrations: { table: 'migrations', rows: 2, latest: '2' } });
    expect(report.upgrade.swarmDb.storeTables).toEqual([{ name: 'knowledge_entries', rows: 3, storeKey: 'knowledge' }]);
    expect(report.notes).toContain(
      `this project's plugin keeps Swarm knowledge in swarm.db since ${at.toISOString()}; the console shows the archived JSONL as of then (archived by the plugin on 2026-07-12, read-only)`,
    );
    const store = report.stores.find((s: { key: string }) => s.key === 'knowledge');
    expect(store).toMatchObject({ store: '.swarm/knowledge.jsonl.imported', records: 1, archivedAt: at.toISOString(), message: `archived by the plugin on ${at.toISOString()}` });

    const text = await inspect(['--project', w.project, '--hive', w.hive]);
    expect(text.stdout).toContain("note: this project's plugin keeps Swarm knowledge in swarm.db since 2026-07-12T09:30:00.000Z");
    expect(text.stdout).toContain('.swarm/knowledge.jsonl.imported');
    expect(text.stdout).toContain('swarm.db ok, user_version 3, migrations: 2 rows (latest 2)');
    expect(text.stdout).toContain('table knowledge_entries: 3 rows (store knowledge) — not read yet');
  });

  it('masks credentials that store text brings into its output', async () => {
    const w = workspace();
    // A torn line (its JSON error quotes the text) and a schema defect quoting a field's value.
    fs.writeFileSync(
      path.join(w.swarm, 'knowledge.jsonl'),
      `{"lesson": token=abc123secret }\n${JSON.stringify(swarmEntryV2({ id: 'k2', category: 'password=hunter2hunter2' }))}\n`,
    );
    for (const args of [['--json'], []]) {
      const out = await inspect(['--project', w.project, '--hive', w.hive, ...args]);
      expect(out.stdout).toMatch(/token=•••|password=•••/);
      expect(out.stdout).not.toContain('abc12');
      expect(out.stdout).not.toContain('hunter2');
    }
  });
});
