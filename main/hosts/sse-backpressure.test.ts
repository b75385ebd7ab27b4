import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { startHttpHost, type HttpHost } from './http-host';
import { DEFAULT_STREAM_LIMITS } from './sse-streams';

const SUBSCRIBERS = 50;
const LINES = 20_000;
const MB = 1024 * 1024;
/** Unread output the host may hold for one reader: its cap plus the one frame that crossed it. */
const STREAM_BOUND = DEFAULT_STREAM_LIMITS.maxBufferedBytes + 256 * 1024;
/** Growth of this process's RSS during the burst (the index and feed ingest 20k lines here too). */
const RSS_GROWTH_BOUND = 600 * MB;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A subscriber that sends its request and then never reads a byte. */
function stalledSubscriber(port: number, secret: string, name: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/subscribe/${name}?input=%7B%7D HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-console-session: ${secret}\r\n\r\n`);
      socket.once('data', (first) => {
        socket.pause();
        if (!first.toString().startsWith('HTTP/1.1 200')) reject(new Error(`refused: ${first.toString().split('\r\n')[0]}`));
        else resolve(socket);
      });
    });
    socket.on('error', () => {});
  });
}

/** A separate process appends gate lines to events.jsonl, as the plugin would during a denial storm. */
function appendGateLines(file: string, count: number): Promise<void> {
  const script = `
    const fs = require('node:fs');
    const [file, count] = process.argv.slice(1);
    let batch = '';
    for (let i = 0; i < Number(count); i++) {
      const event = i % 2
        ? { timestamp: new Date(Date.now() - 1000 + i % 1000).toISOString(), event: 'knowledge_application_gate_warn', tool: 'save_plan', agent: 'coder', sessionID: 'ses_' + (i % 40), unacknowledged_critical_ids: ['e' + (i % 300), 'e' + (i % 7)] }
        : { timestamp: new Date().toISOString(), event: 'knowledge_application_gate_deny', sessionID: 'ses_' + (i % 40), tool: 'task', agent: 'architect', entry_ids: ['e' + (i % 300)], trace_ids: ['t' + i], entry_set_key: (i % 65536).toString(16).padStart(16, '0'), denial_count: 1 + (i % 5), max_gate_denials: 5 };
      batch += JSON.stringify(event) + '\\n';
      if (i % 200 === 199) { fs.appendFileSync(file, batch); batch = ''; }
    }
    if (batch) fs.appendFileSync(file, batch);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, file, String(count)], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`appender exited ${code}`))));
  });
}

describe('subscribers that never read, during a burst of gate lines', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sse-stalled-'));
  const project = path.join(base, 'project');
  const events = path.join(project, '.swarm', 'events.jsonl');
  let core: ConsoleCore;
  let host: HttpHost;

  beforeAll(async () => {
    fs.mkdirSync(path.dirname(events), { recursive: true });
    fs.writeFileSync(events, '');
    core = await createConsoleCore({ userDataDir: path.join(base, 'user-data'), host: 'browser', version: 'test' }, { project });
    host = await startHttpHost({ dispatcher: core.dispatcher, rendererDir: base, port: 0 });
  });
  afterAll(async () => {
    await host.close();
    await core.dispose();
  });

  it(`keep the host's buffers bounded, are dropped when they fall behind, and leave nothing behind when they close`, { timeout: 600_000 }, async () => {
    const secrets: string[] = [];
    for (let i = 0; i < Math.ceil(SUBSCRIBERS / DEFAULT_STREAM_LIMITS.maxPerSession); i++) {
      const token = new URL(host.newLaunchUrl()).searchParams.get('token');
      const response = await fetch(`${host.origin}/api/session`, { method: 'POST', headers: { origin: host.origin, 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      secrets.push(((await response.json()) as { value: { session: string } }).value.session);
    }
    const sockets: net.Socket[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const secret = secrets[i % secrets.length] as string;
      sockets.push(await stalledSubscriber(host.port, secret, i % 2 ? 'stores.changes' : 'live.events'));
    }
    expect(host.streamStats().open).toBe(SUBSCRIBERS);

    const rssBefore = process.memoryUsage().rss;
    let peakBuffered = 0;
    let peakRss = rssBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakBuffered = Math.max(peakBuffered, host.streamStats().bufferedBytes);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await sleep(100);
      }
    })();

    await appendGateLines(events, LINES);
    // Wait (without a deadline of our own) until the console has read every line.
    for (;;) {
      const summary = (await core.dispatcher.call('stores.summary', {})) as { ok: true; value: { stores: { pattern: string; lines: number }[] } };
      if (summary.value.stores.find((s) => s.pattern === '.swarm/events.jsonl')?.lines === LINES) break;
      await sleep(250);
    }
    const feed = (await core.dispatcher.call('live.feed', { limit: 1 })) as { ok: boolean };
    expect(feed.ok).toBe(true);
    await sleep(2_000);
    sampling = false;
    await sampler;

    const stats = host.streamStats();
    console.log(
      `[stalled SSE] ${SUBSCRIBERS} readers, ${LINES} lines: RSS ${(rssBefore / MB).toFixed(0)} → peak ${(peakRss / MB).toFixed(0)} MB; ` +
        `unread output: peak total ${(peakBuffered / MB).toFixed(1)} MB (sampled), peak per stream ${(stats.peakStreamBytes / MB).toFixed(2)} MB; dropped ${stats.dropped}, still open ${stats.open}`,
    );
    expect(stats.peakStreamBytes).toBeLessThanOrEqual(STREAM_BOUND);
    expect(peakBuffered).toBeLessThanOrEqual(SUBSCRIBERS * STREAM_BOUND);
    expect(peakRss - rssBefore).toBeLessThan(RSS_GROWTH_BOUND);
    expect(stats.dropped).toBeGreaterThan(0);

    for (const socket of sockets) socket.destroy();
    while (host.streamStats().open > 0) await sleep(100);
    expect(host.streamStats()).toMatchObject({ open: 0, bufferedBytes: 0 });
  });
});
