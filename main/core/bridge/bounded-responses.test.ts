import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSE_LIMITS } from './bounded-body';

// Issue 10 item 4: a server whose answers never end must not take the console's memory with it.
// The process under test is a child (its peak RSS is what is bounded); the misbehaving server
// runs here, on loopback.

const repo = path.resolve(__dirname, '..', '..', '..');
const MB = 1024 * 1024;
/** Peak RSS allowed for the child. Measured with the caps: 118–183 MB; without them 1.7 GB before the fake stopped. */
const RSS_BOUND_MB = 300;
/** The fake stops by itself after this much, so a client without caps fails the test instead of the machine. */
const SAFETY_STOP_BYTES = 800 * MB;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** Answers like OpenCode, except that `endless` routes stream a JSON array that never ends. */
async function misbehavingServer(endless: 'history' | 'health'): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const chunk = Buffer.from(`${JSON.stringify({ id: 'evt', aggregate_id: 'ses_x', seq: 1, type: 'session.updated.1', data: { pad: 'x'.repeat(200) } })},`.repeat(256));
  const stream = (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const pump = () => {
      while (!res.destroyed && sent < SAFETY_STOP_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  };
  const server = http.createServer((req, res) => {
    const route = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (route === '/global/health') return endless === 'health' ? stream(res) : json({ healthy: true, version: 'endless' });
    if (route === '/experimental/session') return json([]);
    if (route === '/session/status') return json({});
    if (route === '/sync/history') return req.resume().once('end', () => (endless === 'history' ? stream(res) : json([])));
    if (route === '/global/event') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.write(`data: ${JSON.stringify({ payload: { id: 'evt_connected', type: 'server.connected', properties: {} } })}\n\n`);
    }
    res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent };
}

function runMeasured(args: string[]): Promise<{ code: number; stdout: string; stderr: string; maxRssMb: number }> {
  return new Promise((resolve) => {
    const env = { ...process.env, NODE_OPTIONS: `--require ${path.join(repo, 'testing', 'bridge', 'report-max-rss.cjs')}` };
    execFile(process.execPath, args, { cwd: repo, env, maxBuffer: 16 * MB }, (error, stdout, stderr) => {
      const rss = /max-rss-kib=(\d+)/.exec(stderr);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, maxRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN });
    });
  });
}

describe('bounded answers from an OpenCode server', () => {
  it('stops reading an endless /sync/history at the cap and says so in the server state (the Live view)', async () => {
    const server = await misbehavingServer('history');
    const result = await runMeasured(['--import', 'tsx', path.join(repo, 'testing', 'bridge', 'bridge-probe.ts'), server.url]);
    expect(result.code).toBe(0);
    const { state } = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    expect(state).toMatchObject({ kind: 'refused', reason: `history response over ${RESPONSE_LIMITS.history / MB} MB` });
    expect(result.maxRssMb).toBeLessThan(RSS_BOUND_MB);
    expect(server.sent()).toBeLessThan(SAFETY_STOP_BYTES);
  });

  it('denials --opencode against an endless history: names the cap, exits 1, memory bounded', async () => {
    const server = await misbehavingServer('history');
    const result = await runMeasured([path.join(repo, 'bin', 'swarm-console.mjs'), 'denials', '--opencode', server.url]);
    expect(result.stderr).toContain(`${server.url}: refused: history response over ${RESPONSE_LIMITS.history / MB} MB`);
    expect(result.code).toBe(1);
    expect(result.maxRssMb).toBeLessThan(RSS_BOUND_MB);
  });

  it('an endless health answer is cut at its 1 MB cap too', async () => {
    const server = await misbehavingServer('health');
    const result = await runMeasured(['--import', 'tsx', path.join(repo, 'testing', 'bridge', 'bridge-probe.ts'), server.url]);
    const { state } = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    expect(state).toMatchObject({ kind: 'refused', reason: 'health response over 1 MB' });
    expect(result.maxRssMb).toBeLessThan(RSS_BOUND_MB);
  });
});
