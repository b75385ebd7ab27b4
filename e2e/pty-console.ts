import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');

export interface TerminalConsole {
  launchUrl: string;
  origin: string;
  hiveDir: string;
  userDataDir: string;
  /** Everything the console printed on its terminal so far. */
  terminal(): string;
  /** Waits for the next line matching `pattern` after `seen` earlier matches, and returns its capture. */
  nextMatch(pattern: RegExp, seen: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `swarm-console serve` attached to a pseudo-terminal (util-linux `script`), as when a person
 * starts it from a shell: human-only commands are enabled and the one-time codes appear here only.
 */
export async function startConsoleInTerminal(options: { env?: Record<string, string> } = {}): Promise<TerminalConsole> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-pty-e2e-'));
  const argv = [process.execPath, path.join(repoRoot, 'bin', 'swarm-console.mjs'), 'serve', '--port', '0', '--user-data', userDataDir];
  const command = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: repoRoot, env: { ...process.env, ...options.env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const waitFor = async <T>(find: () => T | null, what: string): Promise<T> => {
    for (let i = 0; i < 1200; i++) {
      const found = find();
      if (found !== null) return found;
      if (child.exitCode !== null) throw new Error(`console exited while waiting for ${what}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${what} in 120 s:\n${output}`);
  };
  const launchUrl = await waitFor(() => /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)?.[1] ?? null, 'launch URL');
  const hiveDir = await waitFor(() => /, hive (\S+)\r?\n/.exec(output)?.[1] ?? null, 'hive folder');
  return {
    launchUrl,
    origin: new URL(launchUrl).origin,
    hiveDir,
    userDataDir,
    terminal: () => output,
    nextMatch: (pattern, seen) => waitFor(() => [...output.matchAll(new RegExp(pattern, 'g'))][seen]?.[1] ?? null, String(pattern)),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
