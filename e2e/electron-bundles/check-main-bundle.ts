import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ipcChannel, IPC_UNSUBSCRIBE_CHANNEL, opNames } from '../../shared/contract';
import { launchMainBundle, type MainBundleProcess, type StandinRecord } from './main-bundle';

/** What the desktop app must do, whatever the code that does it looks like. */
export const expected = {
  url: 'app://console/index.html',
  webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
  scheme: { scheme: 'app', privileges: { standard: true, secure: true } },
  channels: [...opNames.map(ipcChannel), IPC_UNSUBSCRIBE_CHANNEL].sort(),
  cspDirectives: ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"],
  grantedPermissions: ['notifications'],
  askedPermissions: ['notifications', 'media', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'display-capture', 'fullscreen', 'midi', 'openExternal', 'pointerLock', 'idle-detection'],
  foreignSenders: ['sub-frame', 'other-contents', 'destroyed-frame'] as const,
  traversal: [
    'app://console/..%2fmain%2findex.js',
    'app://console/..%2f..%2fmain%2findex.js',
    'app://console/assets/..%2f..%2fpreload%2findex.cjs',
    'app://console/%2e%2e/%2e%2e/package.json',
    'app://console/assets/..%2f..%2f..%2fpreload%2findex.cjs',
    'app://console/..%5c..%5cmain%5cindex.js',
    'app://console/%2fetc%2fpasswd',
  ],
};

type Fetched = { status: number | null; headers: Record<string, string>; length: number; text: string | null };
type Envelope = { ok: boolean; value?: unknown; error?: { code: string } };

interface MainBundleReport {
  records: StandinRecord[];
  problems: string[];
}

/**
 * Runs the built main bundle in `outDir` against the stand-in Electron through its whole life —
 * start, ready, window, requests, IPC, a second instance, closing the last window — and lists every
 * way its behaviour departs from `expected`. An empty list is a pass.
 */
export async function checkMainBundle(outDir: string, { quitWithinMs = 60_000 }: { quitWithinMs?: number } = {}): Promise<MainBundleReport> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-bundle-'));
  const problems: string[] = [];
  const run = launchMainBundle({ outDir, userDataDir });
  try {
    await checkStartup(run, outDir, problems);
    if (!run.records.some((r) => r.kind === 'BrowserWindow.loaded')) return { records: run.records, problems };
    await checkRendererProtocol(run, outDir, problems);
    await checkGuards(run, problems);
    await checkIpc(run, problems);
    await checkSecondInstance(run, outDir, userDataDir, problems, quitWithinMs);
    await checkShutdown(run, problems, quitWithinMs);
    return { records: run.records, problems };
  } catch (error) {
    problems.push(`the check could not finish: ${error instanceof Error ? error.message : String(error)}`);
    return { records: run.records, problems };
  } finally {
    run.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

async function checkStartup(run: MainBundleProcess, outDir: string, problems: string[]) {
  await run.waitForRecord('app.requestSingleInstanceLock');
  const schemes = run.records.find((r) => r.kind === 'protocol.registerSchemesAsPrivileged')?.schemes as { scheme: string; privileges: Record<string, boolean> }[] | undefined;
  const app = schemes?.find((s) => s.scheme === expected.scheme.scheme);
  if (!app) problems.push('the app scheme is not registered as privileged before ready');
  else for (const [name, value] of Object.entries(expected.scheme.privileges)) if (app.privileges[name] !== value) problems.push(`scheme privilege ${name} is ${app.privileges[name]}, expected ${value}`);

  await run.command('ready');
  try {
    await run.waitForRecord('BrowserWindow.loaded');
  } catch (error) {
    problems.push(`the window never finished loading: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const windows = run.records.filter((r) => r.kind === 'BrowserWindow.new');
  if (windows.length !== 1) problems.push(`${windows.length} windows were created, expected 1`);
  const webPreferences = ((windows[0]?.options as { webPreferences?: Record<string, unknown> })?.webPreferences ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(expected.webPreferences)) {
    if (webPreferences[name] !== value) problems.push(`webPreferences.${name} is ${JSON.stringify(webPreferences[name])}, expected ${value}`);
  }
  const preload = webPreferences.preload;
  if (typeof preload !== 'string' || !path.isAbsolute(preload)) problems.push(`webPreferences.preload is ${JSON.stringify(preload)}, expected an absolute path`);
  else if (!fs.existsSync(preload)) problems.push(`webPreferences.preload ${preload} does not exist`);
  else if (path.resolve(preload) !== path.join(path.resolve(outDir), 'preload', 'index.cjs')) problems.push(`webPreferences.preload is ${preload}, not the built preload bundle`);
  const loaded = run.records.filter((r) => r.kind === 'BrowserWindow.loadURL').map((r) => r.url);
  if (loaded.length !== 1 || loaded[0] !== expected.url) problems.push(`the window loaded ${JSON.stringify(loaded)}, expected ["${expected.url}"]`);
}

async function checkRendererProtocol(run: MainBundleProcess, outDir: string, problems: string[]) {
  const rendererIndex = fs.readFileSync(path.join(outDir, 'renderer', 'index.html'), 'utf8');
  const index = await run.command<Fetched>('fetch', { url: expected.url });
  if (index.status !== 200 || index.text !== rendererIndex) problems.push(`${expected.url} answered ${index.status} without the built renderer's index.html`);
  const csp = index.headers?.['content-security-policy'] ?? '';
  for (const directive of expected.cspDirectives) if (!csp.includes(directive)) problems.push(`the CSP of index.html lacks "${directive}" (got "${csp}")`);

  const script = /<script[^>]+src="\.?\/?([^"]+)"/.exec(rendererIndex)?.[1];
  if (script) {
    const asset = await run.command<Fetched>('fetch', { url: `app://console/${script}` });
    const onDisk = fs.readFileSync(path.join(outDir, 'renderer', script));
    if (asset.status !== 200 || asset.length !== onDisk.length || !/javascript/.test(asset.headers['content-type'] ?? '')) problems.push(`the renderer script ${script} is not served as JavaScript (${asset.status})`);
  } else problems.push('the built index.html names no script');

  // Whatever a traversal attempt gets back (404 or the router's index.html), it is nothing else.
  for (const url of expected.traversal) {
    const response = await run.command<Fetched>('fetch', { url });
    if (response.status === 200 && response.text !== rendererIndex) problems.push(`${url} escaped the renderer folder (${response.length} bytes)`);
  }
  const foreignHost = await run.command<Fetched>('fetch', { url: 'app://elsewhere/index.html' });
  if (foreignHost.status === 200) problems.push('app://elsewhere/ is served like the console');
}

async function checkGuards(run: MainBundleProcess, problems: string[]) {
  const contentsCreated = run.records.filter((r) => r.kind === 'webContents.setWindowOpenHandler');
  if (contentsCreated.length === 0) problems.push('no window-open handler was set on the window contents');
  for (const url of ['https://example.com/', 'http://127.0.0.1:4096/', 'file:///etc/passwd', 'app://elsewhere/index.html']) {
    const { prevented } = await run.command<{ prevented: boolean }>('navigate', { url });
    if (!prevented) problems.push(`navigation to ${url} was not prevented`);
  }
  const inApp = await run.command<{ prevented: boolean }>('navigate', { url: 'app://console/index.html#/knowledge' });
  if (inApp.prevented) problems.push('navigation inside the console was prevented');
  const opened = await run.command<{ action: string }>('windowOpen', { url: 'https://example.com/' });
  if (opened.action !== 'deny') problems.push(`window.open answered ${JSON.stringify(opened)}, expected deny`);
  const webview = await run.command<{ prevented: boolean }>('attachWebview', { src: 'https://example.com/' });
  if (!webview.prevented) problems.push('a webview was allowed to attach');
  for (const permission of expected.askedPermissions) {
    const shouldGrant = expected.grantedPermissions.includes(permission);
    const requested = await run.command<{ granted: unknown }>('permissionRequest', { permission });
    const checked = await run.command<{ granted: unknown }>('permissionCheck', { permission });
    if (requested.granted !== shouldGrant) problems.push(`permission request "${permission}" answered ${JSON.stringify(requested.granted)}, expected ${shouldGrant}`);
    if (checked.granted !== shouldGrant) problems.push(`permission check "${permission}" answered ${JSON.stringify(checked.granted)}, expected ${shouldGrant}`);
  }
}

async function checkIpc(run: MainBundleProcess, problems: string[]) {
  const channels = (await run.command<string[]>('handlers')).sort();
  const missing = expected.channels.filter((c) => !channels.includes(c));
  const extra = channels.filter((c) => !expected.channels.includes(c));
  if (missing.length) problems.push(`no IPC handler for ${missing.join(', ')}`);
  if (extra.length) problems.push(`IPC handlers outside the contract: ${extra.join(', ')}`);

  // Every handler refuses a sender other than the console window's main frame, before any work.
  for (const channel of channels) {
    for (const from of expected.foreignSenders) {
      const args = channel === IPC_UNSUBSCRIBE_CHANNEL ? ['bundle-check-0'] : [{}];
      const { value } = await run.command<{ value: Envelope }>('invoke', { channel, args, from });
      if (value?.error?.code !== 'forbidden') problems.push(`${channel} from a ${from} answered ${JSON.stringify(value).slice(0, 120)}, expected forbidden`);
    }
    const args = channel === IPC_UNSUBSCRIBE_CHANNEL ? ['bundle-check-0'] : [{}];
    const navigatedAway = await run.command<{ value: Envelope }>('invoke', { channel, args, from: 'main-frame', frameUrl: 'https://example.com/' });
    if (navigatedAway.value?.error?.code !== 'forbidden') problems.push(`${channel} from the main frame showing another origin was not forbidden`);
  }

  // From the console's main frame a real call reaches the core and answers.
  const info = await run.command<{ value: Envelope }>('invoke', { channel: ipcChannel('workspace.info'), args: [{}] });
  if (!info.value?.ok) problems.push(`workspace.info from the main frame answered ${JSON.stringify(info.value).slice(0, 200)}`);
  const invalid = await run.command<{ value: Envelope }>('invoke', { channel: ipcChannel('stores.entry'), args: [{ nonsense: true }] });
  if (invalid.value?.error?.code !== 'invalid_input') problems.push(`a malformed stores.entry from the main frame answered ${JSON.stringify(invalid.value).slice(0, 200)}, expected invalid_input`);
  const subscribed = await run.command<{ value: Envelope }>('invoke', { channel: ipcChannel('workspace.events'), args: [{ subscriptionId: 'bundle-check-1', input: {} }] });
  if (!subscribed.value?.ok) problems.push(`subscribing to workspace.events answered ${JSON.stringify(subscribed.value).slice(0, 200)}`);
  const unsubscribed = await run.command<{ value: Envelope }>('invoke', { channel: IPC_UNSUBSCRIBE_CHANNEL, args: ['bundle-check-1'] });
  if (!unsubscribed.value?.ok) problems.push(`unsubscribing answered ${JSON.stringify(unsubscribed.value)}`);
  // Start what holds resources (the store index and its file watchers, as the Stores view does) and
  // leave it running: only the core's dispose can stop it when the window closes.
  const summary = await run.command<{ value: Envelope }>('invoke', { channel: ipcChannel('stores.summary'), args: [{}] });
  if (!summary.value?.ok) problems.push(`stores.summary from the main frame answered ${JSON.stringify(summary.value).slice(0, 200)}`);
  const watching = await run.command<{ value: Envelope }>('invoke', { channel: ipcChannel('stores.changes'), args: [{ subscriptionId: 'bundle-check-2', input: {} }] });
  if (!watching.value?.ok) problems.push(`subscribing to stores.changes answered ${JSON.stringify(watching.value).slice(0, 200)}`);
}

async function checkSecondInstance(run: MainBundleProcess, outDir: string, userDataDir: string, problems: string[], quitWithinMs: number) {
  const second = launchMainBundle({ outDir, userDataDir });
  try {
    const lock = await second.waitForRecord('app.requestSingleInstanceLock');
    if (lock.granted !== false) problems.push('a second instance got the single-instance lock');
    const quit = await second.waitForRecord('app.quit', quitWithinMs).then(
      () => true,
      () => false,
    );
    if (!quit) problems.push('a second instance did not quit');
    else {
      const { code } = await second.exited;
      if (code !== 0) problems.push(`a second instance exited with ${code}`);
    }
    if (second.records.some((r) => r.kind === 'BrowserWindow.new' || r.kind === 'ipcMain.handle')) problems.push('a second instance opened a window or registered handlers');
  } finally {
    second.kill();
  }
  // Electron then tells the first instance; it must bring its window back.
  await run.command('minimize');
  await run.command('secondInstance', { argv: ['swarm-console'] });
  const [window] = await run.command<{ minimized: boolean; focused: boolean }[]>('windows');
  if (!window || window.minimized || !window.focused) problems.push(`a second instance left the first window ${JSON.stringify(window)}`);
}

async function checkShutdown(run: MainBundleProcess, problems: string[], quitWithinMs: number) {
  await run.command('closeAllWindows');
  await run.waitForRecord('app.quit', quitWithinMs).catch(() => problems.push('closing the last window did not quit the app'));
  // After quit the stand-in holds nothing open: the process ends by itself only if the core closed
  // its watchers, database, worker and timers.
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([run.exited.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), quitWithinMs)))]);
  clearTimeout(timer);
  if (!ended) {
    const resources = await run.command<string[]>('activeResources').catch(() => ['(unknown)']);
    problems.push(`the process was still running ${quitWithinMs / 1000} s after quit, holding ${resources.join(', ')}`);
    return;
  }
  // The core's watchers and timers do not hold the process, so an exit alone does not show a dispose:
  // its databases (index, bridge) still open at exit do.
  const open = run.openFilesAtExit();
  if (open?.length) problems.push(`the core was not disposed: at exit it still held ${open.join(', ')}`);
}
