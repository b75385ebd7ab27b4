// A stand-in for the `electron` module, loaded in place of it when the BUILT main bundle
// (out/main/index.js) runs under plain Node in a child process (see hooks.mjs). Test-only:
// it lives under e2e/, which electron-builder never packs (build/electron-builder.yml packs out/**).
//
// It records what the bundle does and lets the test drive Electron's side of the lifecycle over
// the child-process IPC channel (driver.mjs). Plain JavaScript on purpose:
// Node 20 cannot strip types, and a transpiling loader must not touch the bundle under test.
// Where real Electron would throw (a second handler on one channel, protocol.handle before ready,
// registerSchemesAsPrivileged after ready), this stand-in throws too, so the bundle sees the same
// rules it would see in the app.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

let userDataDir = process.env.STANDIN_USER_DATA;
if (!userDataDir || !process.send) throw new Error('the electron stand-in runs only in a forked child with STANDIN_USER_DATA set');

const records = [];
function record(kind, details = {}) {
  const entry = { kind, ...details };
  records.push(entry);
  process.send({ type: 'record', record: entry });
}

let ready = false;
let resolveReady;
const readyPromise = new Promise((resolve) => (resolveReady = resolve));

// ---- frames, web contents, windows -------------------------------------------------------

let nextId = 1;

export class WebFrameMain {
  constructor(url, parent = null) {
    this.url = url;
    this.parent = parent;
    this.routingId = nextId++;
    this.processId = 1;
    this.frames = [];
  }
  get origin() {
    return new URL(this.url).origin;
  }
  get top() {
    return this.parent ? this.parent.top : this;
  }
}

class WebContents extends EventEmitter {
  constructor() {
    super();
    this.id = nextId++;
    this.mainFrame = new WebFrameMain('about:blank');
    this.destroyed = false;
    this.windowOpenHandler = null;
    this.sent = [];
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
    record('webContents.setWindowOpenHandler', { webContentsId: this.id });
  }
  send(channel, ...args) {
    record('webContents.send', { webContentsId: this.id, channel, args });
  }
  isDestroyed() {
    return this.destroyed;
  }
  getURL() {
    return this.mainFrame.url;
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }
}

const windows = new Set();

export class BrowserWindow extends EventEmitter {
  constructor(options = {}) {
    super();
    if (!ready) throw new Error('BrowserWindow cannot be created before the app is ready');
    this.id = nextId++;
    this.options = options;
    this.minimized = false;
    this.focused = false;
    this.destroyed = false;
    this.webContents = new WebContents();
    windows.add(this);
    record('BrowserWindow.new', { windowId: this.id, webContentsId: this.webContents.id, options });
    app.emit('web-contents-created', { preventDefault() {} }, this.webContents);
  }
  static getAllWindows() {
    return [...windows];
  }
  async loadURL(url) {
    record('BrowserWindow.loadURL', { windowId: this.id, url });
    // Like Chromium: a registered scheme is fetched through its handler; a failed load rejects.
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = protocolHandlers.get(scheme);
    if (!handler) throw new Error(`ERR_UNKNOWN_URL_SCHEME (${url})`);
    const response = await handler(new Request(url));
    if (!response.ok) throw new Error(`ERR_FAILED ${response.status} (${url})`);
    this.webContents.mainFrame.url = url;
    record('BrowserWindow.loaded', { windowId: this.id, url, status: response.status });
  }
  isMinimized() {
    return this.minimized;
  }
  minimize() {
    this.minimized = true;
  }
  restore() {
    this.minimized = false;
    record('BrowserWindow.restore', { windowId: this.id });
  }
  focus() {
    this.focused = true;
    record('BrowserWindow.focus', { windowId: this.id });
  }
  isDestroyed() {
    return this.destroyed;
  }
  close() {
    if (this.destroyed) return;
    this.destroyed = true;
    windows.delete(this);
    this.webContents.destroy();
    this.emit('closed');
    record('BrowserWindow.closed', { windowId: this.id });
    if (windows.size === 0) app.emit('window-all-closed', { preventDefault() {} });
  }
}

// ---- app -----------------------------------------------------------------------------------

class App extends EventEmitter {
  constructor() {
    super();
    this.quitRequested = false;
  }
  whenReady() {
    return readyPromise;
  }
  isReady() {
    return ready;
  }
  getPath(name) {
    record('app.getPath', { name });
    if (name === 'userData') return userDataDir;
    throw new Error(`the stand-in knows no path "${name}"`);
  }
  setPath(name, value) {
    record('app.setPath', { name, value });
    if (name !== 'userData') throw new Error(`the stand-in knows no path "${name}"`);
    // Electron's own rules: an absolute path to a folder that exists.
    if (!path.isAbsolute(value)) throw new Error(`Path must be absolute: ${value}`);
    if (!fs.statSync(value, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`Failed to set path: ${value} does not exist`);
    userDataDir = value;
  }
  getVersion() {
    return process.env.STANDIN_APP_VERSION ?? '0.0.0';
  }
  getName() {
    return 'swarm-knowledge-console';
  }
  /** Electron's lock lives in the userData folder; this one is a pid file there. */
  requestSingleInstanceLock() {
    const lockFile = path.join(userDataDir, 'SingletonLock');
    let granted = false;
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      granted = true;
    } catch {
      const holder = Number(fs.readFileSync(lockFile, 'utf8'));
      granted = !isAlive(holder);
      if (granted) fs.writeFileSync(lockFile, String(process.pid));
    }
    if (granted) process.once('exit', () => fs.rmSync(lockFile, { force: true }));
    record('app.requestSingleInstanceLock', { granted });
    return granted;
  }
  quit() {
    record('app.quit');
    if (this.quitRequested) return;
    this.quitRequested = true;
    // Electron ends the process after quit; here the test instead waits for the process to end by
    // itself, which it only does once the core has closed every handle it opened.
    process.channel?.unref();
  }
  exit(code = 0) {
    record('app.exit', { code });
    process.exit(code);
  }
  focus() {
    record('app.focus');
  }
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const app = new App();

// ---- protocol, session, ipcMain ------------------------------------------------------------

const protocolHandlers = new Map();

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    if (ready) throw new Error('protocol.registerSchemesAsPrivileged must be called before the app is ready');
    record('protocol.registerSchemesAsPrivileged', { schemes });
  },
  handle(scheme, handler) {
    if (!ready) throw new Error('protocol.handle must be called after the app is ready');
    if (protocolHandlers.has(scheme)) throw new Error(`scheme "${scheme}" is already handled`);
    protocolHandlers.set(scheme, handler);
    record('protocol.handle', { scheme });
  },
  unhandle(scheme) {
    protocolHandlers.delete(scheme);
    record('protocol.unhandle', { scheme });
  },
  isProtocolHandled(scheme) {
    return protocolHandlers.has(scheme);
  },
};

const permissionHandlers = { request: null, check: null };
export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler) {
      permissionHandlers.request = handler;
      record('session.setPermissionRequestHandler', { set: typeof handler === 'function' });
    },
    setPermissionCheckHandler(handler) {
      permissionHandlers.check = handler;
      record('session.setPermissionCheckHandler', { set: typeof handler === 'function' });
    },
  },
};

const ipcHandlers = new Map();
export const ipcMain = Object.assign(new EventEmitter(), {
  handle(channel, handler) {
    if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, handler);
    record('ipcMain.handle', { channel });
  },
  handleOnce(channel, handler) {
    this.handle(channel, handler);
  },
  removeHandler(channel) {
    ipcHandlers.delete(channel);
    record('ipcMain.removeHandler', { channel });
  },
});

// ---- the rest of the surface the console may use -------------------------------------------

export const dialog = {
  async showMessageBox(...args) {
    const [maybeWindow, maybeOptions] = args;
    const options = maybeWindow instanceof BrowserWindow ? maybeOptions : maybeWindow;
    record('dialog.showMessageBox', { options: toPlain(options) });
    // The answer the test scripted (default: the first button, which is how a dismissed box reads).
    return { response: Number(process.env.STANDIN_DIALOG_RESPONSE ?? 0), checkboxChecked: false };
  },
  showMessageBoxSync(...args) {
    const options = args[0] instanceof BrowserWindow ? args[1] : args[0];
    record('dialog.showMessageBoxSync', { options: toPlain(options) });
    return Number(process.env.STANDIN_DIALOG_RESPONSE ?? 0);
  },
  showErrorBox(title, content) {
    record('dialog.showErrorBox', { title, content });
  },
};

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options = {}) {
    super();
    record('Notification.new', { options: toPlain(options) });
  }
  show() {
    record('Notification.show');
  }
}

export const shell = {
  async openExternal(url) {
    record('shell.openExternal', { url });
  },
  async openPath(target) {
    record('shell.openPath', { path: target });
    return '';
  },
  showItemInFolder(target) {
    record('shell.showItemInFolder', { path: target });
  },
};

export const Menu = {
  setApplicationMenu(menu) {
    record('Menu.setApplicationMenu', { menu: menu === null ? null : 'menu' });
  },
  buildFromTemplate(template) {
    return { template };
  },
};

export default { app, BrowserWindow, WebFrameMain, ipcMain, protocol, session, dialog, Notification, shell, Menu };

/** Not Electron's: what the test-side driver (driver.mjs) needs to play Electron's part. */
export const standin = {
  records,
  windows,
  protocolHandlers,
  permissionHandlers,
  ipcHandlers,
  WebContents,
  markReady() {
    ready = true;
    record('app.ready');
    app.emit('ready', {}, {});
    resolveReady();
  },
};

function toPlain(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

record('standin.loaded', { pid: process.pid });
