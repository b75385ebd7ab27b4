/**
 * Electron bootstrap: the only place that imports `electron` besides the IPC host. Everything
 * else runs in the headless core, which the browser host and the CLI share.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session, type WebFrameMain } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createConsoleCore, type ConsoleCore } from './core/console-core';
import { registerIpcHost } from './hosts/electron-ipc';
import { dialogConfirmation } from './hosts/dialog-confirmation';
import { APP_ORIGIN, APP_SCHEME, isConsoleUrl, serveRendererRequest } from './hosts/renderer-protocol';
import { demoWorkspaces } from './demo/week/demo-workspaces';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '..', 'renderer');
const preloadFile = path.join(here, '..', 'preload', 'index.cjs');

const separator = process.argv.indexOf('--');
const { values } = parseArgs({
  args: separator >= 0 ? process.argv.slice(separator + 1) : [],
  options: { project: { type: 'string' }, hive: { type: 'string' }, 'user-data': { type: 'string' } },
  strict: false,
});
const flag = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

// Electron keeps its single-instance lock and Chromium's profile in userData: a console started on
// another user-data folder (a test, a second operator profile) is another instance, not a duplicate.
// setPath wants an absolute path to an existing folder.
const userDataFlag = flag(values['user-data']);
if (userDataFlag) {
  const userDataDir = path.resolve(userDataFlag);
  fs.mkdirSync(userDataDir, { recursive: true });
  app.setPath('userData', userDataDir);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | null = null;
  let core: ConsoleCore | null = null;

  const isTrustedFrame = (frame: WebFrameMain | null): boolean =>
    !!frame && !!mainWindow && frame === mainWindow.webContents.mainFrame && isConsoleUrl(frame.url);

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isConsoleUrl(url)) event.preventDefault();
    });
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  app.whenReady().then(async () => {
    core = await createConsoleCore(
      { userDataDir: app.getPath('userData'), host: 'electron', version: app.getVersion(), demo: demoWorkspaces },
      { project: flag(values.project) ?? null, hive: flag(values.hive) },
    );
    protocol.handle(APP_SCHEME, (request) => serveRendererRequest(rendererDir, request.url));
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permission === 'notifications'));
    session.defaultSession.setPermissionCheckHandler((_contents, permission) => permission === 'notifications');
    // Human-only commits are confirmed by the person in a native modal dialog owned by the main process.
    const confirmation = dialogConfirmation((options) => (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options)));
    registerIpcHost(ipcMain, core.dispatcher.forCaller({ host: 'electron', confirmation }), isTrustedFrame);

    mainWindow = new BrowserWindow({
      width: 1440,
      height: 900,
      title: 'Swarm Knowledge Console',
      backgroundColor: '#14161a',
      webPreferences: { preload: preloadFile, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
    });
    mainWindow.on('closed', () => (mainWindow = null));
    await mainWindow.loadURL(`${APP_ORIGIN}/index.html`);
  });

  app.on('window-all-closed', async () => {
    await core?.dispose();
    app.quit();
  });
}
