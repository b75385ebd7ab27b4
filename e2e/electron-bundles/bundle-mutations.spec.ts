import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { checkHumanCommit } from './check-human-commit';
import { checkMainBundle } from './check-main-bundle';
import { checkPreloadBundle } from './check-preload-bundle';
import { builtOutDir, launchMainBundle } from './main-bundle';

// The checks on the built bundles are only worth something if they fail when the bundles go wrong.
// Each case copies out/ to a temp folder, changes one thing in the built file — a security
// setting, a path, a channel, a handler — and expects the checker to name the breakage.

interface Mutation {
  what: string;
  /**
   * The built file to change. `main/*.js`: whichever file under out/main holds it — code the desktop
   * app shares with the CLI's browser host (the CSP, the static-file resolver) is built into a
   * chunk that out/main/index.js and out/main/cli.js both import, under a hashed name.
   */
  file: 'main/index.js' | 'main/*.js' | 'preload/index.cjs';
  find: string | RegExp;
  replace: string;
  problem: RegExp;
}

const mainMutations: Mutation[] = [
  { what: 'the sandbox is off', file: 'main/index.js', find: 'sandbox: true,', replace: 'sandbox: false,', problem: /webPreferences\.sandbox is false/ },
  { what: 'context isolation is off', file: 'main/index.js', find: 'contextIsolation: true,', replace: 'contextIsolation: false,', problem: /webPreferences\.contextIsolation is false/ },
  { what: 'Node integration is on', file: 'main/index.js', find: 'nodeIntegration: false,', replace: 'nodeIntegration: true,', problem: /webPreferences\.nodeIntegration is true/ },
  { what: 'web security is off', file: 'main/index.js', find: 'webSecurity: true', replace: 'webSecurity: false', problem: /webPreferences\.webSecurity is false/ },
  { what: 'the preload path is wrong', file: 'main/index.js', find: '"preload", "index.cjs")', replace: '"preload", "index.js")', problem: /preload .*index\.js does not exist/ },
  { what: 'the window loads another page', file: 'main/index.js', find: 'loadURL(`${APP_ORIGIN}/index.html`)', replace: 'loadURL(`${APP_ORIGIN}/start.html`)', problem: /the window loaded \["app:\/\/console\/start\.html"\]/ },
  { what: 'the CSP is loosened', file: 'main/*.js', find: `"default-src 'none'",`, replace: `"default-src *",`, problem: /CSP of index\.html lacks "default-src 'none'"/ },
  {
    what: 'the protocol handler follows ..',
    file: 'main/*.js',
    find: 'const candidate = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);\n\tif (candidate !== root && !candidate.startsWith(root + path.sep)) return null;',
    replace: 'const candidate = path.resolve(root, decoded.replace(/^\\/+/, ""));',
    problem: /app:\/\/console\/\.\.%2fmain%2findex\.js escaped the renderer folder/,
  },
  { what: 'navigation is not guarded', file: 'main/index.js', find: 'if (!isConsoleUrl(url)) event.preventDefault();', replace: '', problem: /navigation to https:\/\/example\.com\/ was not prevented/ },
  { what: 'window.open is allowed', file: 'main/index.js', find: 'action: "deny"', replace: 'action: "allow"', problem: /window\.open answered \{"action":"allow"\}/ },
  { what: 'webviews may attach', file: 'main/index.js', find: 'contents.on("will-attach-webview", (event) => event.preventDefault());', replace: '', problem: /a webview was allowed to attach/ },
  { what: 'every permission is granted', file: 'main/index.js', find: 'callback(permission === "notifications")', replace: 'callback(true)', problem: /permission request "media" answered true/ },
  { what: 'calls skip the sender check', file: 'main/index.js', find: 'isTrustedFrame(event.senderFrame) ? dispatcher.call(name, input) : forbidden', replace: 'dispatcher.call(name, input)', problem: /swarm:workspace\.info from a sub-frame answered .*expected forbidden/ },
  { what: 'the unsubscribe handler is on another channel', file: 'main/index.js', find: 'ipcMain.handle(IPC_UNSUBSCRIBE_CHANNEL,', replace: 'ipcMain.handle("swarm:stop",', problem: /no IPC handler for swarm:unsubscribe/ },
  { what: 'a second instance does not focus the first', file: 'main/index.js', find: 'mainWindow.focus();', replace: '', problem: /a second instance left the first window/ },
  { what: 'a second instance is allowed to run', file: 'main/index.js', find: 'if (!app.requestSingleInstanceLock()) app.quit();', replace: 'if (!(app.requestSingleInstanceLock(), true)) app.quit();', problem: /a second instance did not quit/ },
  { what: 'closing the window leaves the core running', file: 'main/index.js', find: 'await core?.dispose();', replace: '', problem: /still running .* after quit|core was not disposed/ },
  {
    what: 'the main bundle is emitted as CommonJS',
    file: 'main/index.js',
    find: /^import \{([^}]*)\} from "electron";$/m,
    replace: 'const {$1} = require("electron");',
    problem: /require is not defined in ES module scope/,
  },
];

const preloadMutations: Mutation[] = [
  {
    what: 'a generic invoke is exposed',
    file: 'preload/index.cjs',
    find: 'electron.contextBridge.exposeInMainWorld("swarm", bridge);',
    replace: 'electron.contextBridge.exposeInMainWorld("swarm", { ...bridge, invoke: (channel, input) => electron.ipcRenderer.invoke(channel, input) });',
    problem: /window\.swarm has \["calls","invoke","subscriptions"\]/,
  },
  { what: 'ipcRenderer is exposed as well', file: 'preload/index.cjs', find: 'electron.contextBridge.exposeInMainWorld("swarm", bridge);', replace: 'electron.contextBridge.exposeInMainWorld("swarm", bridge); electron.contextBridge.exposeInMainWorld("ipc", electron.ipcRenderer);', problem: /the preload exposed \["swarm","ipc"\]/ },
  { what: 'ipcRenderer.invoke hides among the calls', file: 'preload/index.cjs', find: '\tcalls: {},', replace: '\tcalls: { ipc: electron.ipcRenderer.invoke },', problem: /window\.swarm leaks ipcRenderer/ },
  { what: 'the channels are renamed', file: 'preload/index.cjs', find: 'var ipcChannel = (name) => `swarm:${name}`;', replace: 'var ipcChannel = (name) => `swarm/${name}`;', problem: /workspace\.info invoked swarm\/workspace\.info, which the main bundle did not register/ },
  { what: 'the preload is emitted as an ES module', file: 'preload/index.cjs', find: 'let electron = require("electron");', replace: 'import * as electron from "electron";', problem: /does not run sandboxed: Cannot use import statement outside a module/ },
  { what: 'the preload requires a Node module', file: 'preload/index.cjs', find: 'let electron = require("electron");', replace: 'let electron = require("electron"); require("node:fs");', problem: /does not run sandboxed: Cannot find module 'node:fs'/ },
];

const copies: string[] = [];
test.afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

/** out/ and the package.json beside it, which makes out/main/index.js an ES module as in the app. */
function copyBuild(root: string) {
  fs.cpSync(builtOutDir, path.join(root, 'out'), { recursive: true });
  fs.copyFileSync(path.join(builtOutDir, '..', 'package.json'), path.join(root, 'package.json'));
}

function mutatedCopy(mutation: Mutation): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-mutant-'));
  copies.push(root);
  const outDir = path.join(root, 'out');
  copyBuild(root);
  const hitsIn = (source: string) => (typeof mutation.find === 'string' ? source.split(mutation.find).length - 1 : (source.match(new RegExp(mutation.find, 'gm')) ?? []).length);
  const candidates =
    mutation.file === 'main/*.js'
      ? fs.readdirSync(path.join(outDir, 'main')).filter((name) => name.endsWith('.js')).map((name) => path.join(outDir, 'main', name))
      : [path.join(outDir, mutation.file)];
  const holding = candidates.filter((candidate) => hitsIn(fs.readFileSync(candidate, 'utf8')) > 0);
  expect(holding.length, `"${mutation.find}" is in one built file of ${mutation.file}`).toBe(1);
  const file = holding[0]!;
  const source = fs.readFileSync(file, 'utf8');
  // The mutation must hit exactly once, or the case would pass without testing anything.
  expect(hitsIn(source), `"${mutation.find}" occurs once in the built ${path.relative(outDir, file)}`).toBe(1);
  fs.writeFileSync(file, typeof mutation.find === 'string' ? source.replace(mutation.find, () => mutation.replace) : source.replace(mutation.find, mutation.replace));
  return outDir;
}

test('an unchanged copy of out/ passes, so a failure below comes from its one change', async () => {
  test.setTimeout(240_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-mutant-'));
  copies.push(root);
  copyBuild(root);
  expect((await checkMainBundle(path.join(root, 'out'))).problems).toEqual([]);
});

for (const mutation of mainMutations) {
  test(`the main-bundle check fails when ${mutation.what}`, async () => {
    test.setTimeout(240_000);
    // The two cases that leave a process running are caught by this bound, whatever its length (the
    // process never ends); in the others a slow exit would only add a problem they do not look for.
    const { problems } = await checkMainBundle(mutatedCopy(mutation), { quitWithinMs: 10_000 });
    expect(problems.some((p) => mutation.problem.test(p)), problems.join('\n')).toBe(true);
  });
}

// Wiring that confirms without asking a person passes every check above; only a driven commit sees it.
const autoConfirm: Mutation = {
  what: 'the confirmation port always answers "confirmed"',
  file: 'main/index.js',
  find: 'dialogConfirmation((options) => mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options))',
  replace: 'dialogConfirmation(async (options) => ({ response: options.buttons.indexOf("OK") }))',
  problem: /Cancel: the commit answered .*expected forbidden/,
};

test('the human-commit check passes an unchanged copy and fails when the confirmation port always answers "confirmed"', async () => {
  test.setTimeout(300_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-mutant-'));
  copies.push(root);
  copyBuild(root);
  expect((await checkHumanCommit(path.join(root, 'out'))).problems).toEqual([]);
  const { problems } = await checkHumanCommit(mutatedCopy(autoConfirm));
  expect(problems.some((p) => autoConfirm.problem.test(p)), problems.join('\n')).toBe(true);
  expect(problems).toContain('Cancel: the hive store changed although the person pressed Cancel');
});

test.describe('the preload-bundle check', () => {
  test('fails for each change to the built preload', async () => {
    test.setTimeout(240_000);
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-preload-mutant-'));
    copies.push(userDataDir);
    const main = launchMainBundle({ outDir: builtOutDir, userDataDir });
    try {
      await main.command('ready');
      await main.waitForRecord('BrowserWindow.loaded');
      const mainChannels = await main.command<string[]>('handlers');
      const invokeMain = (channel: string, ...args: unknown[]) => main.command<{ value: unknown }>('invoke', { channel, args }).then((r) => r.value);
      const unchanged = await checkPreloadBundle(builtOutDir, mainChannels, invokeMain);
      expect(unchanged.problems).toEqual([]);
      for (const mutation of preloadMutations) {
        const { problems } = await checkPreloadBundle(mutatedCopy(mutation), mainChannels, invokeMain);
        expect(problems.some((p) => mutation.problem.test(p)), `${mutation.what}:\n${problems.join('\n')}`).toBe(true);
      }
    } finally {
      main.kill();
    }
  });
});
