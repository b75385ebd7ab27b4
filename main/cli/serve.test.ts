import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '..', '..');
const cli = path.join(repo, 'bin', 'swarm-console.mjs');

/** A project and a built-renderer stand-in, so `serve` runs from a clone that was never built. */
function setup() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-cli-'));
  const project = path.join(base, 'project');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  const renderer = path.join(base, 'renderer');
  fs.mkdirSync(renderer);
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>console</title>');
  const userData = path.join(base, 'user-data');
  return { userData, args: ['--project', project, '--user-data', userData], env: { ...process.env, SWARM_CONSOLE_RENDERER_DIR: renderer } };
}

describe('swarm-console serve', () => {
  it('says the port is in use and exits 2, without a stack trace and before writing the demo workspace', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const { env, userData } = setup();
    // No --project: the demo workspace, which a start that goes ahead generates into user-data.
    const args = ['--user-data', userData];
    try {
      const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [cli, 'serve', '--port', String(port), ...args], { cwd: repo, env, timeout: 120_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      );
      expect(result.stderr.trim()).toBe(`swarm-console: port ${port} is in use; pick another with --port N (0 picks a free one).`);
      expect(result.code).toBe(2);
      expect(result.stdout).not.toContain('Open:');
      expect(fs.existsSync(path.join(userData, 'demo'))).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('prints a new launch URL when Enter is pressed in its terminal, and the older unused one stops working', async () => {
    const { args, env } = setup();
    // util-linux `script` gives the console a real pseudo-terminal, as a person's shell would.
    const command = [process.execPath, cli, 'serve', '--port', '0', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: repo, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const urls = () => [...output.matchAll(/Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/g)].map((m) => m[1] as string);
    const waitFor = async (what: () => boolean) => {
      for (let i = 0; i < 1200 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(what(), output).toBe(true);
    };
    try {
      await waitFor(() => urls().length === 1);
      expect(output).toContain('Press Enter here for a new one.');
      child.stdin.write('\n');
      await waitFor(() => urls().length === 2);
      const [first, second] = urls() as [string, string];
      expect(second).not.toBe(first);
      expect((await fetch(second)).status).toBe(200);
      const stale = await fetch(first);
      expect(stale.status).toBe(401);
      expect(await stale.text()).toContain('replaced by a newer one');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write('\x03');
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('without a terminal, does not offer Enter and tells the browser to restart instead', async () => {
    const { args, env } = setup();
    const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], { cwd: repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    try {
      for (let i = 0; i < 1200 && !/Open: \S+/.test(output); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      const url = /Open: (\S+)/.exec(output)?.[1] as string;
      expect(output).not.toContain('Press Enter');
      // Said at start-up, not first when a button is pressed.
      expect(output).toContain('Human-only commands are off: This console was not started from an interactive terminal');
      child.stdin.write('\n');
      const stranger = await fetch(new URL('/', url));
      expect(await stranger.text()).toContain('stop <code>swarm-console serve</code> and start it again');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('names the command the person ran on the sign-in page: `npm start` falls back to this host through `open`', async () => {
    const { args, env } = setup();
    // An Electron path with no binary: `open` falls back to the browser host on any machine.
    const noElectron = fs.mkdtempSync(path.join(os.tmpdir(), 'no-electron-'));
    const child = spawn(process.execPath, [cli, 'open', '--port', '0', ...args], {
      cwd: repo,
      env: { ...env, ELECTRON_OVERRIDE_DIST_PATH: noElectron, SWARM_CONSOLE_COMMAND: 'npm start' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    try {
      for (let i = 0; i < 1200 && !/Open: \S+/.test(output); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      const url = /Open: (\S+)/.exec(output)?.[1] as string;
      expect(output).toContain('Starting the browser host instead.');
      const page = await (await fetch(new URL('/', url))).text();
      expect(page).toContain('stop <code>npm start</code> and start it again');
      expect(page).not.toContain('swarm-console serve');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
