import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { IPC_EVENT_CHANNEL } from '../../shared/contract';
import { generateDemoWorkspace } from '../../main/demo/generate';
import { checkHumanCommit } from './check-human-commit';
import { checkMainBundle, expected } from './check-main-bundle';
import { checkPreloadBundle } from './check-preload-bundle';
import { builtOutDir, launchMainBundle } from './main-bundle';

// The files users actually start: out/main/index.js with out/preload/index.cjs, as `npm run build`
// left them, run under plain Node with a stand-in for `electron` (standin/electron.mjs).
test.beforeAll(() => {
  for (const file of ['main/index.js', 'preload/index.cjs', 'renderer/index.html']) {
    if (!fs.existsSync(path.join(builtOutDir, file))) throw new Error(`out/${file} is missing: run \`npm run build\` first`);
  }
});

test('the built main bundle opens one locked-down window on app://, guards it, answers only its own frame and shuts down cleanly', async () => {
  test.setTimeout(240_000);
  const report = await checkMainBundle(builtOutDir);
  expect(report.problems).toEqual([]);

  const window = report.records.find((r) => r.kind === 'BrowserWindow.new') as unknown as { options: { webPreferences: Record<string, unknown> } };
  expect(window.options.webPreferences).toMatchObject(expected.webPreferences);
  expect(window.options.webPreferences.preload).toBe(path.join(builtOutDir, 'preload', 'index.cjs'));
  expect(report.records.filter((r) => r.kind === 'BrowserWindow.loadURL').map((r) => r.url)).toEqual([expected.url]);
  expect(report.records.filter((r) => r.kind === 'ipcMain.handle').map((r) => r.channel).sort()).toEqual(expected.channels);
  expect(report.records.map((r) => r.kind)).toContain('app.quit');
});

test("a hive quarantine through the built bundle's IPC: the dialog (Cancel by default, naming the ids) refuses on Cancel and commits on OK", async () => {
  test.setTimeout(240_000);
  expect((await checkHumanCommit(builtOutDir)).problems).toEqual([]);
});

test('the built preload exposes exactly the contract on the channels the main bundle registered, end to end', async () => {
  test.setTimeout(240_000);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-preload-'));
  const main = launchMainBundle({ outDir: builtOutDir, userDataDir });
  try {
    await main.command('ready');
    await main.waitForRecord('BrowserWindow.loaded');
    const mainChannels = await main.command<string[]>('handlers');
    const invokeMain = (channel: string, ...args: unknown[]) => main.command<{ value: unknown }>('invoke', { channel, args }).then((r) => r.value);

    const { problems, preload } = await checkPreloadBundle(builtOutDir, mainChannels, invokeMain);
    expect(problems).toEqual([]);
    main.onRecord((record) => {
      if (record.kind === 'webContents.send') preload!.deliver(record.channel as string, ...(record.args as unknown[]));
    });

    // What the renderer does first: ask for the workspace, then follow workspace changes.
    const swarm = preload!.exposed[0]!.api as {
      calls: Record<string, (input: unknown) => Promise<{ ok: boolean; value?: { project: { path: string; isDemo: boolean } } }>>;
      subscriptions: Record<string, (input: unknown, onEvent: (event: unknown) => void, onError: (error: unknown) => void) => () => void>;
    };
    const info = await swarm.calls['workspace.info']!({});
    expect(info.ok).toBe(true);
    expect(info.value?.project.isDemo).toBe(true);

    const events: unknown[] = [];
    const errors: unknown[] = [];
    const stop = swarm.subscriptions['workspace.events']!({}, (event) => events.push(event), (error) => errors.push(error));
    // The child handles messages in order, so the subscription is in place before the open.
    const reopened = await swarm.calls['workspace.open']!({ project: info.value!.project.path });
    expect(reopened.ok).toBe(true);
    await expect.poll(() => events.length, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ kind: 'opened' });
    expect(errors).toEqual([]);
    expect(main.records.some((r) => r.kind === 'webContents.send' && r.channel === IPC_EVENT_CHANNEL)).toBe(true);
    stop();

    await main.command('closeAllWindows');
    expect(await main.exited).toEqual({ code: 0, signal: null });
  } finally {
    main.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
});

test('started with --user-data, the app keeps its data, profile and single-instance lock in that folder', async () => {
  test.setTimeout(240_000);
  const defaultDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-default-'));
  const otherRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'console-other-'));
  const otherDir = path.join(otherRoot, 'not', 'yet', 'there');
  const first = launchMainBundle({ outDir: builtOutDir, userDataDir: defaultDir });
  const second = launchMainBundle({ outDir: builtOutDir, userDataDir: defaultDir, args: ['--user-data', otherDir] });
  try {
    expect((await first.waitForRecord('app.requestSingleInstanceLock')).granted).toBe(true);
    // Another user-data folder is another instance: it gets its own lock instead of quitting.
    expect((await second.waitForRecord('app.requestSingleInstanceLock')).granted).toBe(true);
    expect(second.records.find((r) => r.kind === 'app.setPath')).toMatchObject({ name: 'userData', value: otherDir });
    expect(fs.existsSync(path.join(otherDir, 'SingletonLock'))).toBe(true);

    await second.command('ready');
    await second.waitForRecord('BrowserWindow.loaded');
    const info = await second.command<{ value: { ok: boolean; value: { userDataDir: string; project: { path: string } } } }>('invoke', { channel: 'swarm:workspace.info', args: [{}] });
    expect(info.value.ok).toBe(true);
    expect(info.value.value.userDataDir).toBe(otherDir);
    expect(info.value.value.project.path.startsWith(otherDir + path.sep)).toBe(true);

    for (const run of [first, second]) {
      if (!run.records.some((r) => r.kind === 'app.ready')) await run.command('ready');
      await run.waitForRecord('BrowserWindow.loaded');
      await run.command('closeAllWindows');
      expect(await run.exited).toEqual({ code: 0, signal: null });
    }
  } finally {
    first.kill();
    second.kill();
    fs.rmSync(defaultDir, { recursive: true, force: true });
    fs.rmSync(otherRoot, { recursive: true, force: true });
  }
});

test('started with --project and --hive, the app opens that project and that hive', async () => {
  test.setTimeout(240_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-project-'));
  const projectDir = path.join(root, 'work', 'billing-api');
  const hiveDir = path.join(root, 'hive-data');
  generateDemoWorkspace({ projectDir, hiveDir, seed: 7 });
  const userDataDir = path.join(root, 'user-data');
  fs.mkdirSync(userDataDir);
  const run = launchMainBundle({ outDir: builtOutDir, userDataDir, args: ['--project', projectDir, '--hive', hiveDir] });
  try {
    await run.command('ready');
    await run.waitForRecord('BrowserWindow.loaded');
    const info = await run.command<{ value: { ok: boolean; value: { project: { path: string; isDemo: boolean; swarmDirExists: boolean }; hive: { path: string; exists: boolean } } } }>('invoke', {
      channel: 'swarm:workspace.info',
      args: [{}],
    });
    expect(info.value.ok).toBe(true);
    expect(info.value.value.project).toMatchObject({ path: projectDir, swarmDirExists: true });
    expect(info.value.value.hive).toMatchObject({ path: hiveDir, exists: true });
    expect(fs.existsSync(path.join(userDataDir, 'demo'))).toBe(false);
    await run.command('closeAllWindows');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  } finally {
    run.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
