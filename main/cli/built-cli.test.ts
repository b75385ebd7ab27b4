import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What users run is the BUILT CLI: bin/swarm-console.mjs imports out/main/cli.js (`npm run build`),
// which shares its chunks with the desktop app's out/main/index.js. These tests need that build
// (`npm test` builds before the unit tests).
const repo = path.resolve(__dirname, '..', '..');
const bin = path.join(repo, 'bin', 'swarm-console.mjs');
const outMain = path.join(repo, 'out', 'main');
const noTsx = path.join(repo, 'testing', 'cli', 'no-tsx.mjs');
const workerProbe = path.join(repo, 'testing', 'cli', 'worker-probe.mjs');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Result> {
  return new Promise((resolve) =>
    execFile(process.execPath, args, { cwd: repo, env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('the built CLI', () => {
  it('is built next to the desktop main bundle and its similarity worker', () => {
    for (const file of ['cli.js', 'index.js', 'similarity-worker.js']) expect(fs.existsSync(path.join(outMain, file)), `out/main/${file} (run \`npm run build\`)`).toBe(true);
    // The CLI must not pull in Electron's main process (it would start the app) or `electron`.
    const reachable = new Set<string>();
    const visit = (file: string) => {
      if (reachable.has(file)) return;
      reachable.add(file);
      for (const [, spec] of fs.readFileSync(path.join(outMain, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*["']\.\/([^"']+)["']/g)) visit(spec!);
    };
    visit('cli.js');
    expect([...reachable]).not.toContain('index.js');
    for (const file of reachable) expect(fs.readFileSync(path.join(outMain, file), 'utf8'), file).not.toMatch(/from\s*["']electron["']/);
  });

  it('runs with tsx unloadable: no TypeScript is compiled at run time', async () => {
    const result = await node(['--import', noTsx, bin, '--help']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('swarm-console — the opencode-swarm knowledge console');
    const inspect = await node(['--import', noTsx, bin, 'inspect', '--help']);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('Usage: swarm-console inspect');
    for (const file of fs.readdirSync(outMain).filter((f) => f.endsWith('.js'))) {
      expect(fs.readFileSync(path.join(outMain, file), 'utf8'), `out/main/${file}`).not.toMatch(/["']tsx(\/[^"']*)?["']/);
    }
  });

  it('the no-tsx guard really refuses tsx (so the test above can fail)', async () => {
    const viaImport = await node(['--import', noTsx, '--import', 'tsx', '-e', '0']);
    expect(viaImport.code).not.toBe(0);
    expect(viaImport.stderr).toContain('no-tsx: "tsx" may not be loaded here');
    const viaRequire = await node(['--import', noTsx, '-e', "require('tsx/package.json')"]);
    expect(viaRequire.code).not.toBe(0);
    expect(viaRequire.stderr).toContain('no-tsx: "tsx/package.json" may not be loaded here');
  });

  it('without a build says in one line to run `npm run build` first, and exits 2', async () => {
    // A clone that was never built: bin/ without out/ beside it.
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'unbuilt-cli-'));
    try {
      fs.mkdirSync(path.join(clone, 'bin'));
      fs.copyFileSync(bin, path.join(clone, 'bin', 'swarm-console.mjs'));
      const result = await node([path.join(clone, 'bin', 'swarm-console.mjs'), 'inspect', '--project', clone]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('swarm-console: the CLI is not built (no out/main/cli.js); run `npm run build` first.\n');
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
  });

  it('starts the knowledge model’s similarity worker from out/main/similarity-worker.js', async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'built-cli-worker-'));
    const log = path.join(scratch, 'workers.jsonl');
    const child = spawn(process.execPath, ['--import', noTsx, '--import', workerProbe, bin, 'serve', '--port', '0', '--user-data', path.join(scratch, 'user-data')], {
      cwd: repo,
      env: { ...process.env, WORKER_PROBE_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const waitFor = async <T>(find: () => T | null | undefined, what: string): Promise<T> => {
      for (let i = 0; i < 1200; i++) {
        const found = find();
        if (found) return found;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no ${what}:\n${output}`);
    };
    const records = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; file: string; name: string }) : []);
    try {
      const launch = new URL(await waitFor(() => /Open: (\S+)/.exec(output)?.[1], 'launch URL'));
      const headers = { origin: launch.origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
      const signIn = (await (await fetch(`${launch.origin}/api/session`, { method: 'POST', headers, body: JSON.stringify({ token: launch.searchParams.get('token') }) })).json()) as { value: { session: string } };
      // The first knowledge query opens the knowledge model, whose warm-up clusters near-duplicates in the worker.
      const answer = await fetch(`${launch.origin}/api/call/knowledge.inboxes`, { method: 'POST', headers: { ...headers, 'x-console-session': signIn.value.session }, body: '{}' });
      expect(answer.status).toBe(200);
      const online = await waitFor(() => {
        if (output.includes('similarity worker unavailable')) throw new Error(`the built runner computed in-thread:\n${output}`);
        return records().find((r) => r.event === 'online' && r.name === 'similarity-worker');
      }, 'similarity worker online');
      expect(online.file).toBe(path.join(outMain, 'similarity-worker.js'));
      expect(output).not.toContain('similarity worker unavailable');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 150_000);
});
