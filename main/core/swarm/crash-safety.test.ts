import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { swarmEntryV1 } from '../../../testing/stores/sample-records';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { HumanServices } from '../human/runner';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import type { WriteStep } from '../human/write/pause-points';
import { commitSwarmQuarantine, previewSwarmQuarantine } from './quarantine-restore';
import { SWARM_QUARANTINE_OP } from './swarm-store';

/** A child process quarantines two swarm entries and is killed with SIGKILL at a step; every file stays whole. */
const repo = path.resolve(__dirname, '../../..');
const children: ChildProcess[] = [];
const roots: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

function project() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'swarm-crash-'));
  roots.push(root);
  const swarm = path.join(root, 'project', '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(path.join(root, 'hive'));
  const files = { knowledge: path.join(swarm, 'knowledge.jsonl'), quarantined: path.join(swarm, 'knowledge-quarantined.jsonl'), rejected: path.join(swarm, 'knowledge-rejected.jsonl') };
  fs.writeFileSync(files.knowledge, `${[1, 2, 3, 4, 5].map((i) => JSON.stringify(swarmEntryV1({ id: `s-${i}`, lesson: `Lesson ${i} for the crash test.` }))).join('\n')}\n`);
  fs.writeFileSync(files.quarantined, `${JSON.stringify(swarmEntryV1({ id: 'old-q', status: 'quarantined' }))}\n`);
  fs.writeFileSync(files.rejected, '{"id":"old-r","lesson":"x","rejection_reason":"y","rejected_at":"2026-01-01T00:00:00.000Z","rejection_layer":1}\n');
  const services = (lockWaitMs = 5_000) => {
    const s = new HumanServices({ userDataDir: path.join(root, 'user-data'), consoleVersion: 'test', lockWaitMs });
    s.describe(SWARM_QUARANTINE_OP, () => 'quarantine');
    return s;
  };
  return { root, swarm, files, services, paths: resolveWorkspacePaths(path.join(root, 'project'), path.join(root, 'hive'), 'flag', false) };
}

const read = (file: string) => fs.readFileSync(file, 'utf8');

describe('crash safety of a swarm quarantine (three files under .swarm.lock)', () => {
  it.each<[WriteStep, boolean]>([
    ['after-backup', false],
    ['holding-lock', false],
    ['after-temp-write', false],
    ['after-rename', true],
  ])('SIGKILL %s: each file is untouched or fully committed; a later commit recovers the lock', async (step, committed) => {
    const p = project();
    const before = { knowledge: read(p.files.knowledge), quarantined: read(p.files.quarantined), rejected: read(p.files.rejected) };
    const preview = await previewSwarmQuarantine(p.services(), caller, p.paths, ['s-2', 's-4']);
    const child = spawn(process.execPath, [path.join(repo, 'bin', 'run-ts.mjs'), path.join(repo, 'testing/human/commit-child.ts'), path.join(p.root, 'user-data'), p.paths.projectDir, p.paths.hiveDir, preview.token, '5000', 'swarm'], {
      cwd: repo,
      env: { ...process.env, SWARM_CONSOLE_PAUSE_AT: step },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
        if (stderr.includes(`PAUSED ${step}`)) resolve();
      });
      child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    if (committed) {
      expect(read(p.files.knowledge)).toBe(before.knowledge.split('\n').filter((l) => !l.includes('"s-2"') && !l.includes('"s-4"')).join('\n'));
      expect(read(p.files.quarantined).startsWith(before.quarantined)).toBe(true);
      expect(read(p.files.quarantined).trim().split('\n')).toHaveLength(3);
      expect(read(p.files.rejected).trim().split('\n')).toHaveLength(3);
    } else {
      expect({ knowledge: read(p.files.knowledge), quarantined: read(p.files.quarantined), rejected: read(p.files.rejected) }).toEqual(before);
      // The killed child's .swarm.lock (if any) is broken only once stale; a new commit waits for it.
      const s = p.services(30_000);
      const again = await previewSwarmQuarantine(s, caller, p.paths, ['s-2']);
      await expect(commitSwarmQuarantine(s, caller, p.paths, { token: again.token, reason: 'after the crash', confirmation: {} })).resolves.toMatchObject({ state: 'committed' });
    }
    // Recovered: the later commit broke the stale lock and released its own. Killed after the rename: the lock is left, stale soon.
    expect(fs.existsSync(`${fs.realpathSync(p.swarm)}.lock`)).toBe(committed);
  }, 90_000);
});
