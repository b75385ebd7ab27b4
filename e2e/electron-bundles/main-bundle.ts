import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** One thing the main bundle did to the stand-in `electron` module (see standin/electron.mjs). */
export interface StandinRecord {
  kind: string;
  [detail: string]: unknown;
}

interface MainBundleOptions {
  /** The folder holding main/, preload/ and renderer/ as `npm run build` emits them. */
  outDir: string;
  /** What the stand-in answers for `app.getPath('userData')`; also where its single-instance lock lives. */
  userDataDir: string;
  /** Arguments after `--`, as `swarm-console open` passes them. */
  args?: string[];
  /** Extra environment, e.g. STANDIN_DIALOG_RESPONSE: the button index a native message box answers. */
  env?: Record<string, string>;
  /** Extra Node options before the stand-in's, e.g. `--import` of a probe (testing/cli/worker-probe.mjs). */
  execArgv?: string[];
}

export interface MainBundleProcess {
  readonly records: StandinRecord[];
  command<T = unknown>(name: string, input?: object): Promise<T>;
  waitForRecord(kind: string, timeoutMs?: number): Promise<StandinRecord>;
  /** Calls `listener` with every record from now on (e.g. to relay `webContents.send` to a preload). */
  onRecord(listener: (record: StandinRecord) => void): void;
  /** Files under the user-data folder still open when the process exited (null: not known on this platform). */
  openFilesAtExit(): string[] | null;
  /** Resolves when the process has ended, by itself or otherwise. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  output(): string;
  kill(): void;
}

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const register = pathToFileURL(path.join(import.meta.dirname, 'standin', 'register.mjs')).href;

/**
 * Starts `<outDir>/main/index.js`, byte for byte as built, in a child Node process whose `electron`
 * is the stand-in. The test drives Electron's side (ready, requests, IPC, closing windows) through
 * `command`; everything the bundle does arrives in `records`.
 */
export function launchMainBundle(options: MainBundleOptions): MainBundleProcess {
  const entry = path.join(options.outDir, 'main', 'index.js');
  const exitReport = path.join(os.tmpdir(), `standin-exit-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, STANDIN_USER_DATA: options.userDataDir, STANDIN_APP_VERSION: '0.1.0', STANDIN_EXIT_REPORT: exitReport, ...options.env };
  delete env.NODE_OPTIONS;
  // A copy of out/ outside the repo still resolves better-sqlite3, chokidar… from the repo.
  if (!path.resolve(entry).startsWith(repoRoot + path.sep)) env.STANDIN_RESOLVE_FROM = pathToFileURL(path.join(repoRoot, 'out', 'main', 'index.js')).href;
  const child: ChildProcess = fork(entry, ['--', ...(options.args ?? [])], {
    execArgv: [...(options.execArgv ?? []), '--import', register],
    env,
    cwd: options.userDataDir,
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });

  const records: StandinRecord[] = [];
  const waiters: { kind: string; resolve: (record: StandinRecord) => void }[] = [];
  const listeners: ((record: StandinRecord) => void)[] = [];
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let output = '';
  let nextId = 1;
  let ended = false;
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));

  child.on('message', (message: { type: string; record?: StandinRecord; id?: number; ok?: boolean; value?: unknown; error?: string }) => {
    if (message.type === 'record' && message.record) {
      records.push(message.record);
      for (const listener of listeners) listener(message.record);
      for (const waiter of waiters.filter((w) => w.kind === message.record!.kind)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message.record);
      }
    } else if (message.type === 'reply' && message.id !== undefined) {
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) call?.resolve(message.value);
      else call?.reject(new Error(`stand-in command failed: ${message.error}`));
    }
  });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = true;
      for (const call of pending.values()) call.reject(new Error(`the main bundle exited (code ${code}, signal ${signal}) before answering\n${output}`));
      pending.clear();
      resolve({ code, signal });
    }),
  );

  return {
    records,
    exited,
    hasExited: () => ended,
    openFilesAtExit() {
      try {
        const open = JSON.parse(fs.readFileSync(exitReport, 'utf8')) as string[];
        fs.rmSync(exitReport, { force: true });
        return open;
      } catch {
        return null;
      }
    },
    output: () => output,
    onRecord: (listener) => void listeners.push(listener),
    kill: () => {
      if (!ended) child.kill('SIGKILL');
    },
    command<T>(name: string, input?: object): Promise<T> {
      if (ended) return Promise.reject(new Error(`the main bundle has exited; cannot run "${name}"\n${output}`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ type: 'command', id, name, input });
      });
    },
    waitForRecord(kind: string, timeoutMs = 90_000): Promise<StandinRecord> {
      const seen = records.find((r) => r.kind === kind);
      if (seen) return Promise.resolve(seen);
      return new Promise<StandinRecord>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${kind}" from the main bundle within ${timeoutMs} ms\n${output}`)), timeoutMs);
        const waiter = {
          kind,
          resolve: (record: StandinRecord) => {
            clearTimeout(timer);
            resolve(record);
          },
        };
        waiters.push(waiter);
        void exited.then(({ code, signal }) => {
          if (!waiters.includes(waiter)) return;
          waiters.splice(waiters.indexOf(waiter), 1);
          clearTimeout(timer);
          reject(new Error(`the main bundle exited (code ${code}, signal ${signal}) before "${kind}"\n${output}`));
        });
      });
    },
  };
}

export const builtOutDir = path.join(repoRoot, 'out');
