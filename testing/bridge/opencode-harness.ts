import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gatePluginSource } from './gate-plugin';
import { opencodeBinary } from './opencode-binary';

/**
 * Starts the REAL `opencode serve` binary (opencode-ai 1.18.33) for tests: loopback only, a scratch
 * HOME and XDG folders, a project wired to a fake OpenAI-compatible model, and the test gate plugin.
 * Facts it relies on (observed on 1.18.33):
 *  - the first request touching a directory runs `npm install @opencode-ai/plugin` into
 *    `<project>/.opencode/` and `$XDG_CONFIG_HOME/opencode/` unless `node_modules` exists there and the
 *    lock file lists the package (offline that install waits about 70 s);
 *  - during start-up the port accepts a connection but does not answer: probe with a short timeout;
 *  - SIGTERM normally ends it within 60 ms, once it took up to 4 s.
 */
const OPENCODE_VERSION = '1.18.33';
const START_TIMEOUT_MS = 120_000;

interface HarnessOptions {
  /** `baseUrl` of the fake model, e.g. http://127.0.0.1:PORT/v1. */
  llmBaseUrl: string;
  /** Sets OPENCODE_SERVER_PASSWORD (every route then needs Basic auth `opencode:<password>`). */
  password?: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const PLUGIN_DEPS_PACKAGE = JSON.stringify({ dependencies: { '@opencode-ai/plugin': OPENCODE_VERSION } });
const PLUGIN_DEPS_LOCK = JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { '@opencode-ai/plugin': OPENCODE_VERSION } } } });

/** Makes OpenCode believe its plugin dependencies are installed, so it never runs npm. */
function preseedPluginDeps(dir: string): void {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), PLUGIN_DEPS_PACKAGE);
  fs.writeFileSync(path.join(dir, 'package-lock.json'), PLUGIN_DEPS_LOCK);
}

function providerConfig(llmBaseUrl: string) {
  return {
    provider: {
      fakellm: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake LLM (loopback)',
        options: { baseURL: llmBaseUrl, apiKey: 'not-used' },
        models: { 'fake-1': { name: 'Fake 1', tool_call: true, limit: { context: 128000, output: 4096 } } },
      },
    },
    model: 'fakellm/fake-1',
    small_model: 'fakellm/fake-1',
    enabled_providers: ['fakellm'],
    share: 'disabled',
    autoupdate: false,
  };
}

export class OpencodeServer {
  readonly home: string;
  readonly projectDir: string;
  private child: ChildProcess | null = null;
  private starts = 0;

  private constructor(
    readonly root: string,
    readonly port: number,
    readonly options: HarnessOptions,
  ) {
    this.home = path.join(root, 'home');
    this.projectDir = path.join(root, 'project');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get authHeader(): Record<string, string> {
    return this.options.password ? { authorization: `Basic ${Buffer.from(`opencode:${this.options.password}`).toString('base64')}` } : {};
  }

  static async start(options: HarnessOptions): Promise<OpencodeServer> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oc-harness-'));
    const server = new OpencodeServer(root, await freePort(), options);
    fs.mkdirSync(path.join(server.home, '.config', 'opencode'), { recursive: true });
    preseedPluginDeps(path.join(server.home, '.config', 'opencode'));
    server.addProject('project');
    try {
      await server.launch();
    } catch (error) {
      fs.rmSync(root, { recursive: true, force: true });
      throw error;
    }
    return server;
  }

  /** A git project (so it gets a real projectID) with the fake provider and the gate plugin. */
  addProject(name: string): string {
    const dir = path.join(this.root, name);
    fs.mkdirSync(path.join(dir, '.opencode', 'plugins'), { recursive: true });
    if (!fs.existsSync(path.join(dir, '.git'))) {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
      git('init', '-q');
      git('-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '--allow-empty', '-m', `init ${name}`);
    }
    fs.writeFileSync(path.join(dir, 'opencode.json'), JSON.stringify(providerConfig(this.options.llmBaseUrl), null, 2));
    fs.writeFileSync(path.join(dir, '.opencode', 'plugins', 'knowledge-gate.js'), gatePluginSource());
    preseedPluginDeps(path.join(dir, '.opencode'));
    return dir;
  }

  private env(): NodeJS.ProcessEnv {
    // A clean environment: nothing of the caller's OPENCODE_* or real HOME leaks in.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LANG: process.env.LANG ?? 'C.UTF-8',
      HOME: this.home,
      XDG_CONFIG_HOME: path.join(this.home, '.config'),
      XDG_DATA_HOME: path.join(this.home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(this.home, '.cache'),
      XDG_STATE_HOME: path.join(this.home, '.local', 'state'),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
    };
    if (this.options.password) env.OPENCODE_SERVER_PASSWORD = this.options.password;
    return env;
  }

  private async launch(): Promise<void> {
    // Callers skip when the binary is missing (opencodeSkipNote); this is for one that did not.
    if (!opencodeBinary.ok) throw new Error(`cannot start opencode serve: ${opencodeBinary.reason}`);
    const log = fs.openSync(path.join(this.root, `serve-${++this.starts}.log`), 'a');
    const child = spawn(opencodeBinary.path, ['serve', '--port', String(this.port), '--hostname', '127.0.0.1'], {
      cwd: this.projectDir,
      env: this.env(),
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    // 1.5 s on an idle box; far longer when the machine is shared by several busy processes
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`opencode exited during start-up (${this.logTail()})`);
      try {
        const res = await fetch(`${this.url}/global/health`, { headers: this.authHeader, signal: AbortSignal.timeout(500) });
        if (res.ok) return;
      } catch {
        // not listening yet, or inside the accept-but-no-answer window
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.stop();
    throw new Error(`opencode did not become healthy within ${START_TIMEOUT_MS / 1000} s (${this.logTail()})`);
  }

  logTail(): string {
    try {
      return fs.readFileSync(path.join(this.root, `serve-${this.starts}.log`), 'utf8').slice(-2000);
    } catch {
      return 'no log';
    }
  }

  /** SIGTERM, then SIGKILL if it is still alive after 5 s. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  /** Same port, same data (sessions and their stored events survive in $XDG_DATA_HOME). */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  // ---- driving sessions through the classic routes (the ones that run plugins) ----

  async request<T>(method: string, route: string, body?: unknown, directory?: string): Promise<T> {
    const headers: Record<string, string> = { ...this.authHeader };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (directory) headers['x-opencode-directory'] = encodeURIComponent(directory);
    const res = await fetch(`${this.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`${method} ${route} → HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async createSession(title: string, directory = this.projectDir): Promise<{ id: string; directory: string; projectID: string }> {
    return this.request('POST', '/session', { title }, directory);
  }

  /** Blocks until the session is idle again (POST /session/{id}/message). */
  async prompt(sessionID: string, text: string, directory = this.projectDir): Promise<void> {
    await this.request('POST', `/session/${sessionID}/message`, { parts: [{ type: 'text', text }] }, directory);
  }

  async promptAsync(sessionID: string, text: string, directory = this.projectDir): Promise<void> {
    await this.request('POST', `/session/${sessionID}/prompt_async`, { parts: [{ type: 'text', text }] }, directory);
  }
}
