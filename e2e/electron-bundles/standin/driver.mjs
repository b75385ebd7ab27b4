// The test's side of the stand-in: commands that arrive over the child-process channel and play
// Electron's part (ready, requests, navigation, IPC from chosen frames, closing windows), and the
// replies. Loaded by register.mjs next to the stand-in, never by the bundle under test.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, standin, WebFrameMain } from './electron.mjs';

const { records, windows, protocolHandlers, permissionHandlers, ipcHandlers, WebContents } = standin;


const mainWindow = () => [...windows][0] ?? null;
const event = () => {
  const e = { defaultPrevented: false, preventDefault: () => (e.defaultPrevented = true) };
  return e;
};

/** Builds the sender of an IPC message as the test describes it. */
function senderFor(from) {
  const window = mainWindow();
  if (from === 'main-frame') return { sender: window.webContents, senderFrame: window.webContents.mainFrame };
  if (from === 'sub-frame') {
    const child = new WebFrameMain(window.webContents.mainFrame.url, window.webContents.mainFrame);
    return { sender: window.webContents, senderFrame: child };
  }
  if (from === 'other-contents') {
    const other = new WebContents();
    other.mainFrame.url = window.webContents.mainFrame.url;
    return { sender: other, senderFrame: other.mainFrame };
  }
  if (from === 'destroyed-frame') return { sender: window.webContents, senderFrame: null };
  throw new Error(`unknown sender "${from}"`);
}

async function responseSummary(response) {
  const headers = Object.fromEntries(response.headers);
  const type = headers['content-type'] ?? '';
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers, length: body.length, text: /html|javascript|css|json|plain/.test(type) || !type ? body.toString('utf8') : null };
}

const commands = {
  ready() {
    standin.markReady();
  },
  records: () => records,
  windows: () => BrowserWindow.getAllWindows().map((w) => ({ id: w.id, url: w.webContents.mainFrame.url, minimized: w.minimized, focused: w.focused })),
  async fetch({ url }) {
    const handler = protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) return { status: null };
    return responseSummary(await handler(new Request(url)));
  },
  navigate({ url }) {
    const e = event();
    mainWindow().webContents.emit('will-navigate', e, url);
    return { prevented: e.defaultPrevented };
  },
  windowOpen({ url }) {
    const handler = mainWindow().webContents.windowOpenHandler;
    if (!handler) return { action: 'allow', reason: 'no window-open handler' };
    return handler({ url, frameName: '', features: '', disposition: 'new-window', referrer: { url: '', policy: 'default' }, postBody: undefined });
  },
  attachWebview({ src }) {
    const e = event();
    const webPreferences = { nodeIntegration: false };
    mainWindow().webContents.emit('will-attach-webview', e, webPreferences, { src });
    return { prevented: e.defaultPrevented };
  },
  permissionRequest({ permission }) {
    if (!permissionHandlers.request) return { granted: 'no handler' };
    return new Promise((resolve) => permissionHandlers.request(mainWindow()?.webContents ?? null, permission, (granted) => resolve({ granted }), { requestingUrl: 'app://console/index.html', isMainFrame: true }));
  },
  permissionCheck({ permission }) {
    if (!permissionHandlers.check) return { granted: 'no handler' };
    return { granted: permissionHandlers.check(mainWindow()?.webContents ?? null, permission, 'app://console', { isMainFrame: true }) };
  },
  handlers: () => [...ipcHandlers.keys()],
  async invoke({ channel, args = [], from = 'main-frame', frameUrl }) {
    const handler = ipcHandlers.get(channel);
    if (!handler) return { noHandler: true };
    const { sender, senderFrame } = senderFor(from);
    const restore = senderFrame?.url;
    if (frameUrl && senderFrame) senderFrame.url = frameUrl;
    try {
      const value = await handler({ sender, senderFrame, frameId: senderFrame?.routingId ?? -1, processId: 1, type: 'frame-invoke' }, ...args);
      return { value };
    } finally {
      if (frameUrl && senderFrame) senderFrame.url = restore;
    }
  },
  secondInstance({ argv = [] }) {
    app.emit('second-instance', event(), argv, process.cwd(), {});
  },
  minimize() {
    mainWindow().minimize();
  },
  closeAllWindows() {
    for (const window of BrowserWindow.getAllWindows()) window.close();
  },
  activeResources: () => process.getActiveResourcesInfo(),
};

// Electron runs the main script to its end before anything else happens; this driver is loaded
// before the script (--import), so every command first waits for the script's evaluation. Importing
// the entry returns the very module Node is running, once it has been evaluated.
// Watchers and timers of the core do not keep the process alive on their own, so ending by itself
// does not prove the core was disposed; the files it still holds open at exit do (Linux: /proc).
process.on('exit', () => {
  const report = process.env.STANDIN_EXIT_REPORT;
  const userData = process.env.STANDIN_USER_DATA && fs.existsSync(process.env.STANDIN_USER_DATA) ? fs.realpathSync(process.env.STANDIN_USER_DATA) : null;
  if (!report || !userData || !fs.existsSync('/proc/self/fd')) return;
  const open = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${userData}/`)) open.push(target);
    } catch {
      // The fd used to list the folder is gone by the time it is read.
    }
  }
  fs.writeFileSync(report, JSON.stringify(open));
});

const entry = pathToFileURL(fs.realpathSync(process.argv[1])).href;
let entryEvaluated;
const afterEntry = () => (entryEvaluated ??= import(entry).then(
  () => undefined,
  () => undefined,
));

process.on('message', async (message) => {
  if (!message || message.type !== 'command') return;
  const { id, name, input } = message;
  try {
    await afterEntry();
    const command = commands[name];
    if (!command) throw new Error(`unknown command "${name}"`);
    process.send({ type: 'reply', id, ok: true, value: await command(input ?? {}) });
  } catch (error) {
    process.send({ type: 'reply', id, ok: false, error: String(error?.stack ?? error) });
  }
});
