import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningConsole {
  /** The first launch URL (its token works once). */
  launchUrl: string;
  origin: string;
  userDataDir: string;
  output: () => string;
  /** The console's process id (under `terminal: true`, the id of `script`). */
  pid: number;
  /** The exit code and signal when the console has exited (on its own, or after `stop()`), else null. */
  exited: () => { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Presses Enter in the console's terminal and returns the new launch URL it prints (needs `terminal: true`). */
  pressEnter(): Promise<string>;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '..');
const LAUNCH_URL = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/g;

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Starts `swarm-console serve` as a real child process on a free port with a private
 * user-data folder, and waits for the URL it prints. With `terminal: true` it runs under a
 * pseudo-terminal (util-linux `script`), as from a person's shell, so Enter can be pressed.
 */
export async function startConsole(
  options: { project?: string; hive?: string; userDataDir?: string; env?: Record<string, string>; terminal?: boolean; port?: number } = {},
): Promise<RunningConsole> {
  const userDataDir = options.userDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-'));
  const args = [path.join(repoRoot, 'bin', 'swarm-console.mjs'), 'serve', '--port', String(options.port ?? 0), '--user-data', userDataDir];
  if (options.project) args.push('--project', options.project);
  if (options.hive) args.push('--hive', options.hive);
  const env = { ...process.env, ...options.env };
  const child: ChildProcessWithoutNullStreams = options.terminal
    ? spawn('script', ['-qfec', [process.execPath, ...args].map(shellQuote).join(' '), '/dev/null'], { cwd: repoRoot, env })
    : spawn(process.execPath, args, { cwd: repoRoot, env });
  let output = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  child.once('exit', (code, signal) => (exit = { code, signal }));
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const launchUrls = () => [...output.matchAll(LAUNCH_URL)].map((match) => match[1] as string);
  const waitForUrl = (count: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`console printed no launch URL #${count} in 60 s:\n${output}`)), 60_000);
      const check = () => {
        const urls = launchUrls();
        if (urls.length < count) return;
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(urls[count - 1] as string);
      };
      child.stdout.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`console exited with ${code}:\n${output}`));
      });
      check();
    });
  const launchUrl = await waitForUrl(1);
  return {
    launchUrl,
    origin: new URL(launchUrl).origin,
    userDataDir,
    output: () => output,
    pid: child.pid as number,
    exited: () => exit,
    async pressEnter() {
      const next = waitForUrl(launchUrls().length + 1);
      child.stdin.write('\n');
      return next;
    },
    async stop() {
      // exitCode stays null for a console killed by a signal: ask whether it exited at all.
      if (exit !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Under a pseudo-terminal, Ctrl+C reaches the console as it would from a shell.
      if (options.terminal) child.stdin.write('\x03');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
