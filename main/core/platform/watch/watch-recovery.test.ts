import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../../console-core';
import { hiveEntry, line, lines, swarmEntryV2 } from '../../../../testing/stores/sample-records';

// Item 7 of issue 10: `.swarm/` (or the hive) removed, renamed or made unreadable and brought
// back must be followed again without reopening the workspace. Every change is made by a
// separate process, as the plugin or a shell would.

const repo = path.resolve(__dirname, '..', '..', '..', '..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sh(script: string, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', script, 'sh', ...args], (error, _stdout, stderr) => (error ? reject(new Error(`${script}: ${stderr}`)) : resolve())),
  );
}

const append = (file: string, record: unknown) => sh('printf %s "$1" >> "$2"', line(record), file);

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-recovery-'));
  cleanups.push(() => {
    spawnSync('chmod', ['-R', 'u+rwx', root]);
    fs.rmSync(root, { recursive: true, force: true });
  });
  const project = path.join(root, 'project');
  const swarm = path.join(project, '.swarm');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(path.join(swarm, 'knowledge.jsonl'), lines([swarmEntryV2({ id: 'before' })]));
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), lines([hiveEntry({ id: 'hive-before' })]));
  // A folder prepared elsewhere, to be copied or moved in.
  const prepared = path.join(root, 'prepared');
  fs.mkdirSync(prepared);
  fs.writeFileSync(path.join(prepared, 'knowledge.jsonl'), lines([swarmEntryV2({ id: 'prepared' })]));
  const preparedHive = path.join(root, 'prepared-hive');
  fs.mkdirSync(preparedHive);
  fs.writeFileSync(path.join(preparedHive, 'shared-learnings.jsonl'), lines([hiveEntry({ id: 'hive-prepared' })]));
  return { root, project, swarm, hive, prepared, preparedHive };
}

async function open(project: string, hive: string): Promise<ConsoleCore> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-recovery-ud-'));
  const core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project, hive });
  cleanups.push(async () => {
    await core.dispose();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });
  // As in the app, the receipts views watch `.swarm/` too (a second watcher on the same folder).
  const sources = await core.dispatcher.call('receipts.sources', {});
  if (!sources.ok) throw new Error(sources.error.message);
  return core;
}

async function shownIds(core: ConsoleCore): Promise<string[]> {
  const page = await core.dispatcher.call('stores.entries', { limit: 500 });
  if (!page.ok) throw new Error(page.error.message);
  return (page.value as { items: { id: string }[] }).items.map((e) => e.id).sort();
}

/** Resolves once the entries shown are `expected`, checking after every change the core reports. */
async function until(core: ConsoleCore, expected: string[]): Promise<void> {
  const want = JSON.stringify([...expected].sort());
  await new Promise<void>((resolve, reject) => {
    let checking = Promise.resolve();
    const check = () => {
      checking = checking.then(async () => {
        if (JSON.stringify(await shownIds(core)) === want) resolve();
      }, reject);
    };
    const sub = core.dispatcher.subscribe('stores.changes', {}, check);
    if (sub.ok) cleanups.push(sub.value);
    check();
  });
}

describe('watchers recover when a store folder goes and comes back', () => {
  it('.swarm removed with rm -rf, then copied back: shows the copy and follows appends', async () => {
    const ws = workspace();
    const core = await open(ws.project, ws.hive);
    await until(core, ['before', 'hive-before']);
    await sh('rm -rf "$1"', ws.swarm);
    await until(core, ['hive-before']);
    await sh('cp -r "$1" "$2"', ws.prepared, ws.swarm);
    await until(core, ['prepared', 'hive-before']);
    await append(path.join(ws.swarm, 'knowledge.jsonl'), swarmEntryV2({ id: 'appended' }));
    await until(core, ['prepared', 'appended', 'hive-before']);
  });

  it('.swarm moved away, then made again with mkdir and a write: follows the new folder', async () => {
    const ws = workspace();
    const core = await open(ws.project, ws.hive);
    await until(core, ['before', 'hive-before']);
    await sh('mv "$1" "$1-away" && mkdir "$1"', ws.swarm);
    await until(core, ['hive-before']);
    await append(path.join(ws.swarm, 'knowledge.jsonl'), swarmEntryV2({ id: 'fresh' }));
    await until(core, ['fresh', 'hive-before']);
    await append(path.join(ws.swarm, 'knowledge.jsonl'), swarmEntryV2({ id: 'appended' }));
    await until(core, ['fresh', 'appended', 'hive-before']);
  });

  it('.swarm swapped for a prepared folder with two mv: shows the new folder and follows appends', async () => {
    const ws = workspace();
    const core = await open(ws.project, ws.hive);
    await until(core, ['before', 'hive-before']);
    await sh('mv "$1" "$1-away" && mv "$2" "$1"', ws.swarm, ws.prepared);
    await until(core, ['prepared', 'hive-before']);
    await append(path.join(ws.swarm, 'knowledge.jsonl'), swarmEntryV2({ id: 'appended' }));
    await until(core, ['prepared', 'appended', 'hive-before']);
  });

  it('the hive folder removed and copied back: shows the copy and follows appends', async () => {
    const ws = workspace();
    const core = await open(ws.project, ws.hive);
    await until(core, ['before', 'hive-before']);
    await sh('rm -rf "$1"', ws.hive);
    await until(core, ['before']);
    await sh('cp -r "$1" "$2"', ws.preparedHive, ws.hive);
    await until(core, ['before', 'hive-prepared']);
    await append(path.join(ws.hive, 'shared-learnings.jsonl'), hiveEntry({ id: 'hive-appended' }));
    await until(core, ['before', 'hive-prepared', 'hive-appended']);
  });

  it('the hive folder swapped for a prepared one with mv: shows the new folder and follows appends', async () => {
    const ws = workspace();
    const core = await open(ws.project, ws.hive);
    await until(core, ['before', 'hive-before']);
    await sh('mv "$1" "$1-away" && mv "$2" "$1"', ws.hive, ws.preparedHive);
    await until(core, ['before', 'hive-prepared']);
    await append(path.join(ws.hive, 'shared-learnings.jsonl'), hiveEntry({ id: 'hive-appended' }));
    await until(core, ['before', 'hive-prepared', 'hive-appended']);
  });

  // Root reads through any mode bits, so when the tests run as root the core runs in a child
  // process as root without the capabilities that bypass them (setpriv drops CAP_DAC_OVERRIDE and
  // CAP_DAC_READ_SEARCH): it still reads the repository wherever it is cloned, and mode bits bind
  // it like any owner. As any other user it runs as that user.
  const asRoot = process.getuid?.() === 0;
  const setpriv = spawnSync('sh', ['-c', 'command -v setpriv']).status === 0;
  it.skipIf(asRoot && !setpriv)('chmod 000 .swarm then 755: the stores read unreadable, then everything again (core not root)', async () => {
    const ws = workspace();
    const userDataDir = path.join(ws.root, 'user-data');
    fs.mkdirSync(userDataDir);
    const command = [process.execPath, '--import', 'tsx', path.join(repo, 'testing', 'watch', 'core-probe.ts'), ws.project, ws.hive, userDataDir];
    const argv = asRoot ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--', ...command] : command;
    const child = spawn(argv[0] as string, argv.slice(1), { cwd: repo, env: { ...process.env, HOME: ws.root }, stdio: ['pipe', 'pipe', 'inherit'] });
    cleanups.push(() => {
      child.stdin.end();
      return new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    });
    type Report = { status: Record<string, string>; ids: string[] };
    const reports = readline.createInterface({ input: child.stdout });
    const waiters: ((report: Report) => boolean)[] = [];
    reports.on('line', (text) => {
      const report = JSON.parse(text) as Report;
      for (const waiter of [...waiters]) if (waiter(report)) waiters.splice(waiters.indexOf(waiter), 1);
    });
    const reported = (match: (report: Report) => boolean) =>
      new Promise<void>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`core probe exited (${code})`)));
        waiters.push((report) => (match(report) ? (resolve(), true) : false));
      });

    await reported((r) => r.status.knowledge === 'ok' && r.ids.includes('before'));
    await sh('chmod 000 "$1"', ws.swarm);
    await reported((r) => r.status.knowledge === 'unreadable' && !r.ids.includes('before'));
    await sh('chmod 755 "$1"', ws.swarm);
    await reported((r) => r.status.knowledge === 'ok' && r.ids.includes('before'));
    await append(path.join(ws.swarm, 'knowledge.jsonl'), swarmEntryV2({ id: 'appended' }));
    await reported((r) => r.ids.includes('appended'));
    expect(child.exitCode).toBeNull();
    // A whole core starts in the child under tsx: on a loaded 2-core machine that alone can take most of 30 s.
  }, 120_000);
});
