import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningConsole {
  /** The per-launch URL (with its token). */
  launchUrl: string;
  origin: string;
  userDataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * Starts `swarm-console serve` as a real child process on a free port with a private
 * user-data folder, and waits for the URL it prints.
 */
export async function startConsole(options: { project?: string; hive?: string; userDataDir?: string; env?: Record<string, string> } = {}): Promise<RunningConsole> {
  const userDataDir = options.userDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-'));
  const args = [path.join(repoRoot, 'bin', 'swarm-console.mjs'), 'serve', '--port', '0', '--user-data', userDataDir];
  if (options.project) args.push('--project', options.project);
  if (options.hive) args.push('--hive', options.hive);
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...options.env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`console did not start in 60 s:\n${output}`)), 60_000);
    const check = () => {
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`console exited with ${code}:\n${output}`));
    });
  });
  return {
    launchUrl,
    origin: new URL(launchUrl).origin,
    userDataDir,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
