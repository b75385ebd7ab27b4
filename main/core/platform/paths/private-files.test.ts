import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConsoleCore } from '../../console-core';
import { hiveEntry, lines, swarmEntryV2 } from '../../../../testing/stores/sample-records';

function modesUnder(root: string): Record<string, string> {
  const out: Record<string, string> = { '.': (fs.statSync(root).mode & 0o777).toString(8) };
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      out[path.relative(root, full)] = (fs.statSync(full).mode & 0o777).toString(8);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
  return out;
}

describe("the console's user-data folder is its owner's alone", () => {
  it('creates the folder 0700 and the index, feed and recent-projects files 0600, SQLite side files included', async () => {
    const previousUmask = process.umask(0o022);
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'private-files-'));
    const userDataDir = path.join(base, 'user-data');
    const project = path.join(base, 'project');
    fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
    fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), lines([swarmEntryV2({ lesson: 'copied into the index' })]));
    const hive = path.join(base, 'hive');
    fs.mkdirSync(hive);
    fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), lines([hiveEntry()]));
    const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
    try {
      expect(await core.dispatcher.call('stores.entries', {})).toMatchObject({ ok: true });
      expect(await core.dispatcher.call('live.feed', {})).toMatchObject({ ok: true });
      const modes = modesUnder(userDataDir);
      const files = Object.keys(modes);
      expect(files).toContain('bridge.db');
      expect(files).toContain('recent-projects.json');
      expect(files.some((f) => /\.(db|sqlite)$/.test(f) && f.startsWith('workspaces'))).toBe(true);
      expect(files.some((f) => f.endsWith('-wal'))).toBe(true);
      for (const [file, mode] of Object.entries(modes)) {
        const isDir = fs.statSync(path.join(userDataDir, file)).isDirectory();
        expect(`${file} ${mode}`).toBe(`${file} ${isDir ? '700' : '600'}`);
      }
    } finally {
      await core.dispose();
      process.umask(previousUmask);
    }
  });

  it('tightens a user-data folder the console made before this rule, and leaves a foreign folder alone', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'private-files-old-'));
    const old = path.join(base, 'old');
    fs.mkdirSync(old, { mode: 0o755 });
    fs.chmodSync(old, 0o755);
    fs.writeFileSync(path.join(old, 'recent-projects.json'), '[]\n', { mode: 0o644 });
    const foreign = path.join(base, 'foreign');
    fs.mkdirSync(foreign);
    fs.chmodSync(foreign, 0o755);
    for (const userDataDir of [old, foreign]) {
      const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project: path.join(base) });
      await core.dispose();
    }
    expect(fs.statSync(old).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(old, 'recent-projects.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(foreign).mode & 0o777).toBe(0o755);
  });
});
