import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { launchMainBundle } from './main-bundle';

// The stand-in is only a fair judge if it refuses what Electron refuses. A small bundle of our own
// does each forbidden thing in turn (the step is the argument after `--`).
const bundle = `
import { app, BrowserWindow, dialog, ipcMain, protocol } from 'electron';
const step = process.argv[process.argv.indexOf('--') + 1];
if (step === 'handle-before-ready') protocol.handle('app', () => new Response(''));
if (step === 'second-handler') { ipcMain.handle('swarm:x', () => 1); ipcMain.handle('swarm:x', () => 2); }
if (step === 'window-before-ready') new BrowserWindow({});
if (step === 'relative-user-data') app.setPath('userData', 'relative/dir');
if (step === 'scheme-after-ready') app.whenReady().then(() => protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: {} }]));
if (step === 'dialog') app.whenReady().then(async () => {
  const { response } = await dialog.showMessageBox({ type: 'warning', message: 'Quarantine 3 entries?', buttons: ['Cancel', 'Quarantine'], cancelId: 0, defaultId: 0 });
  console.log('answer ' + response);
  app.quit();
});
`;

let outDir: string;
let userDataDir: string;
test.beforeAll(() => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-standin-out-'));
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-standin-data-'));
  fs.mkdirSync(path.join(outDir, 'main'));
  fs.writeFileSync(path.join(outDir, 'main', 'index.js'), bundle);
});
test.afterAll(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(userDataDir, { recursive: true, force: true });
});

const refusals: [string, RegExp][] = [
  ['handle-before-ready', /protocol\.handle must be called after the app is ready/],
  ['second-handler', /Attempted to register a second handler for 'swarm:x'/],
  ['window-before-ready', /BrowserWindow cannot be created before the app is ready/],
  ['relative-user-data', /Path must be absolute/],
  ['scheme-after-ready', /registerSchemesAsPrivileged must be called before the app is ready/],
];

for (const [step, message] of refusals) {
  test(`the stand-in refuses like Electron: ${step}`, async () => {
    const run = launchMainBundle({ outDir, userDataDir, args: [step] });
    if (step === 'scheme-after-ready') await run.command('ready');
    const { code } = await run.exited;
    expect(code).not.toBe(0);
    expect(run.output()).toMatch(message);
  });
}

test('a native message box is recorded with its options and answers the scripted button', async () => {
  const run = launchMainBundle({ outDir, userDataDir, args: ['dialog'], env: { STANDIN_DIALOG_RESPONSE: '1' } });
  await run.command('ready');
  const box = await run.waitForRecord('dialog.showMessageBox');
  expect(box.options).toMatchObject({ type: 'warning', message: 'Quarantine 3 entries?', buttons: ['Cancel', 'Quarantine'], cancelId: 0 });
  expect(await run.exited).toEqual({ code: 0, signal: null });
  expect(run.output()).toContain('answer 1');
});
