import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..', '..');
const cli = path.join(repo, 'bin', 'swarm-console.mjs');

/** The variables OpenCode gives its agents' shells: scrubbed so a test decides which are present. */
export const AGENT_VARIABLES = ['AGENT', 'OPENCODE', 'OPENCODE_PID', 'OPENCODE_TERMINAL'];

export interface ServeInPty {
  /** Every byte `serve` wrote to its pseudo-terminal so far. */
  bytes(): Buffer;
  /** The same, decoded as UTF-8. */
  text(): string;
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Calls an API operation as a script would (curl-like: Origin header, the session secret). */
  call(op: string, input: unknown): Promise<{ ok: boolean; value?: any; error?: { code: string; message: string } }>;
  stop(): Promise<void>;
}

export interface ServeInPtyOptions {
  project: string;
  hive: string;
  userData: string;
  env?: Record<string, string>;
  /** Start through this executable (e.g. a node named `opencode`) as the parent of `script`. */
  launcher?: string;
  /** Pipe serve's stdout (and stderr) through `tee` into this file, as `npm start 2>&1 | tee log` does. */
  teeTo?: string;
}

/**
 * `swarm-console serve` on a pseudo-terminal (util-linux `script`), with a stand-in renderer, as a
 * person's shell or an agent's `script` wrapper would start it.
 */
export async function serveInPty(options: ServeInPtyOptions): Promise<ServeInPty> {
  const renderer = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-pty-renderer-'));
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>console</title>');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), SWARM_CONSOLE_RENDERER_DIR: renderer };
  for (const name of AGENT_VARIABLES) delete env[name];
  Object.assign(env, options.env ?? {});
  const argv = [process.execPath, cli, 'serve', '--port', '0', '--project', options.project, '--hive', options.hive, '--user-data', options.userData];
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  // `exec` so serve's parent is `script` whatever shell `script` starts (bash execs a lone command
  // itself, dash does not); the shell is pinned so this machine and CI run the same chain.
  const command = options.teeTo ? `${argv.map(quote).join(' ')} 2>&1 | tee ${quote(options.teeTo)}` : `exec ${argv.map(quote).join(' ')}`;
  env.SHELL = '/bin/sh';
  const scriptArgs = ['-qfec', command, '/dev/null'];
  const child = options.launcher
    ? spawn(options.launcher, ['-e', `require('node:child_process').spawn('script', ${JSON.stringify(scriptArgs)}, { stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 1)); process.on('SIGTERM', () => {})`], { cwd: repo, env })
    : spawn('script', scriptArgs, { cwd: repo, env });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const text = () => Buffer.concat(chunks).toString('utf8');
  const waitFor = async (pattern: RegExp) => {
    for (let i = 0; i < 1200; i++) {
      const output = text();
      const match = pattern.exec(output);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`serve exited while waiting for ${pattern}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${pattern} in 120 s:\n${text()}`);
  };
  const launch = new URL((await waitFor(/Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/))[1] as string);
  const headers = { origin: launch.origin, 'content-type': 'application/json' };
  const session = (await (await fetch(`${launch.origin}/api/session`, { method: 'POST', headers, body: JSON.stringify({ token: launch.searchParams.get('token') }) })).json()) as { value: { session: string } };
  return {
    bytes: () => Buffer.concat(chunks),
    text,
    waitFor,
    async call(op, input) {
      const response = await fetch(`${launch.origin}/api/call/${op}`, { method: 'POST', headers: { ...headers, 'x-console-session': session.value.session }, body: JSON.stringify(input) });
      return (await response.json()) as never;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // SIGTERM reaches `script`, which hangs up the pty: serve gets SIGHUP/SIGTERM and leaves.
        child.kill('SIGTERM');
        spawnKillScript(child.pid);
        await exited;
      }
      fs.rmSync(renderer, { recursive: true, force: true });
    },
  };
}

/** With a launcher in between, `script` is a grandchild: end it by its own id. */
function spawnKillScript(parent: number | undefined) {
  if (parent === undefined) return;
  try {
    for (const pid of fs.readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) process.kill(Number(pid), 'SIGTERM');
  } catch {
    // already gone
  }
}
