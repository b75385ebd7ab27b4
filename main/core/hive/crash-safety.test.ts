import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { HumanServices } from '../human/runner';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { fileSha, makeHiveFixture, type HiveFixture } from '../../../testing/human/hive-fixture';
import type { WriteStep } from '../human/write/pause-points';
import { sha256Hex } from '../human/write/store-snapshot';
import { HIVE_QUARANTINE_OP, HIVE_ROLLBACK_OP } from './hive-paths';
import { hiveQuarantineStatus } from './backups';
import { hivePaths } from './hive-paths';
import { previewHiveQuarantine } from './quarantine';
import { commitHiveRollback, previewHiveRollback } from './rollback';

/**
 * Real processes, real files, real proper-lockfile locks. A child process commits; the test kills
 * it with SIGKILL at each step, or holds the hive lock from another process while it commits.
 */
const repo = path.resolve(__dirname, '../../..');
const RUN_TS = path.join(repo, 'bin', 'run-ts.mjs');
const CHILD = path.join(repo, 'testing', 'human', 'commit-child.ts');
const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

function services(f: HiveFixture, lockWaitMs = 5_000): HumanServices {
  const s = new HumanServices({ userDataDir: f.userData, consoleVersion: 'test', lockWaitMs, revertCheckMs: 3_600_000 });
  s.describe(HIVE_QUARANTINE_OP, () => 'hive quarantine');
  s.describe(HIVE_ROLLBACK_OP, () => 'rollback');
  return s;
}

function fixture(): HiveFixture {
  const f = makeHiveFixture(8, 'hive-crash-');
  cleanups.push(f.cleanup);
  return f;
}

const paths = (f: HiveFixture) => resolveWorkspacePaths(f.project, f.hive, 'flag', false);

function startChild(f: HiveFixture, token: string, env: Record<string, string> = {}, lockWaitMs = 5_000) {
  const child = spawn(process.execPath, [RUN_TS, CHILD, f.userData, f.project, f.hive, token, String(lockWaitMs)], {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const stderrMatches = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stderr)) resolve();
      };
      child.stderr.on('data', check);
      child.on('exit', () => reject(new Error(`child exited before ${pattern}: ${stderr}${stdout}`)));
      check();
    });
  return { child, exited, stderrMatches };
}

/** The store as a successful commit of `ids` leaves it (every other line byte for byte). */
function committedBytes(f: HiveFixture, ids: string[]): string {
  return fs
    .readFileSync(f.store, 'utf8')
    .split('\n')
    .filter((l) => !ids.some((id) => l.includes(`"${id}"`)))
    .join('\n');
}

const STEPS: { step: WriteStep; committed: boolean }[] = [
  { step: 'after-backup', committed: false },
  { step: 'holding-lock', committed: false },
  { step: 'after-temp-write', committed: false },
  { step: 'after-rename', committed: true },
  { step: 'before-audit', committed: true },
];

describe('crash safety: SIGKILL at each step of a hive quarantine commit', () => {
  it(
    'leaves the store untouched or fully committed, never torn; the lock is recoverable after its stale time; rollback restores the original sha256',
    async () => {
      await Promise.all(
        STEPS.map(async ({ step, committed }) => {
          const f = fixture();
          const ids = ['hive-0003', 'hive-0007'];
          const original = fs.readFileSync(f.store);
          const committedText = committedBytes(f, ids);
          const preview = await previewHiveQuarantine(services(f), caller, paths(f), ids);
          const run = startChild(f, preview.token, { SWARM_CONSOLE_PAUSE_AT: step });
          await run.stderrMatches(new RegExp(`PAUSED ${step}`));
          run.child.kill('SIGKILL');
          expect((await run.exited).signal).toBe('SIGKILL');

          // Killed while holding it, the child leaves the plugin's lock behind, refreshed no more.
          expect(fs.existsSync(`${fs.realpathSync(f.hive)}.lock`), `${step}: lock left`).toBe(step !== 'after-backup');
          const now = fs.readFileSync(f.store);
          expect(now.equals(original) || now.toString('utf8') === committedText, `${step}: torn store`).toBe(true);
          expect(now.equals(original), `${step}: committed?`).toBe(!committed);
          // The temp file a killed writer leaves carries `.tmp.` in its name: the plugin's readers and ours skip it.
          for (const name of fs.readdirSync(f.hive)) if (name.startsWith('shared-learnings.jsonl') && name !== 'shared-learnings.jsonl') expect(name).toContain('.tmp.');

          // The killed child's lock (if it got that far) is broken only once stale; the rollback waits for it.
          const rollbackServices = services(f, 30_000);
          const status = hiveQuarantineStatus(hivePaths(f.hive), rollbackServices.backupSigningKey(), [f.project, f.hive]);
          expect(status.backups).toHaveLength(1);
          expect(status.backups[0]).toMatchObject({ state: 'interrupted', verified: true, ids, trust: 'signed' });

          const rollback = await previewHiveRollback(rollbackServices, caller, paths(f), { prefix: null, allowUnsigned: false });
          expect(rollback.method, step).toBe(committed ? 'exact' : 'none');
          const result = await commitHiveRollback(rollbackServices, caller, paths(f), { token: rollback.token, reason: 'undo', confirmation: {} });
          expect(result.state).toBe(committed ? 'rolled_back' : 'nothing_to_do');
          expect(fileSha(f.store), step).toBe(sha256Hex(original));
        }),
      );
    },
    120_000,
  );
});

/** Another process holding `<dataDir>.lock` with proper-lockfile and the plugin's options, until told to let go. */
function holdHiveLock(dataDir: string) {
  const script = `
    const lockfile = require(${JSON.stringify(path.join(repo, 'node_modules', 'proper-lockfile'))});
    lockfile.lock(${JSON.stringify(dataDir)}, { stale: 5000, update: 2500, realpath: true }).then((release) => {
      process.stdout.write('HELD\\n');
      process.stdin.once('data', () => release().then(() => process.exit(0)));
    }, (e) => { process.stdout.write('FAILED ' + e.code + '\\n'); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const held = new Promise<void>((resolve, reject) => child.stdout.on('data', (d) => (String(d).includes('HELD') ? resolve() : reject(new Error(String(d))))));
  const release = () =>
    new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.stdin.write('go\n');
    });
  return { held, release };
}

const waitFor = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 25));
};

describe('concurrency with another process holding the hive lock', () => {
  it('the commit waits for the lock, then succeeds', async () => {
    const f = fixture();
    const preview = await previewHiveQuarantine(services(f), caller, paths(f), ['hive-0002']);
    const holder = holdHiveLock(f.hive);
    await holder.held;
    const sha = fileSha(f.store);
    const run = startChild(f, preview.token, {}, 60_000);
    // The backup is written before the lock is taken: once it exists the commit is waiting.
    await waitFor(() => fs.existsSync(path.join(f.hive, 'quarantine-backups')) && fs.readdirSync(path.join(f.hive, 'quarantine-backups')).length === 1);
    expect(fileSha(f.store)).toBe(sha);
    expect(run.child.exitCode).toBe(null);
    await holder.release();
    const done = await run.exited;
    expect(JSON.parse(done.stdout)).toMatchObject({ ok: true, result: { state: 'committed', after: { entryCount: 7 } } });
  }, 60_000);

  it('aborts cleanly on timeout: no change, no orphan backup, the other holder keeps its lock', async () => {
    const f = fixture();
    const preview = await previewHiveQuarantine(services(f), caller, paths(f), ['hive-0002']);
    const holder = holdHiveLock(f.hive);
    await holder.held;
    const sha = fileSha(f.store);
    const done = await startChild(f, preview.token, {}, 1_500).exited;
    expect(done.code).toBe(1);
    expect(JSON.parse(done.stdout).message).toMatch(/^Aborted \(lock_timeout\): Another process held .*opencode-swarm\.lock .*nothing was changed/);
    expect(fileSha(f.store)).toBe(sha);
    expect(fs.readdirSync(path.join(f.hive, 'quarantine-backups'))).toEqual([]);
    expect(fs.existsSync(`${fs.realpathSync(f.hive)}.lock`)).toBe(true);
    await holder.release();
  }, 60_000);

  it('an append made while the commit waits for the lock aborts it with no change', async () => {
    const f = fixture();
    const preview = await previewHiveQuarantine(services(f), caller, paths(f), ['hive-0002']);
    const holder = holdHiveLock(f.hive);
    await holder.held;
    const run = startChild(f, preview.token, {}, 60_000);
    await waitFor(() => fs.existsSync(path.join(f.hive, 'quarantine-backups')) && fs.readdirSync(path.join(f.hive, 'quarantine-backups')).length === 1);
    fs.appendFileSync(f.store, `${JSON.stringify({ id: 'appended-by-the-plugin', tier: 'hive', lesson: 'appended under the lock' })}\n`);
    const sha = fileSha(f.store);
    await holder.release();
    const done = await run.exited;
    expect(JSON.parse(done.stdout).message).toMatch(/^Refused \(store fingerprint\): The store now holds 9 entries, not the 8/);
    expect(fileSha(f.store)).toBe(sha);
    expect(fs.readdirSync(path.join(f.hive, 'quarantine-backups'))).toEqual([]);
  }, 60_000);
});
