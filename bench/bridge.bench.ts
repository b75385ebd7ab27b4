/**
 * Bridge benchmark (issue 6).
 *  1. Denial latency: from the moment a REAL `opencode serve` denies a tool call (the tool part's
 *     `state.time.end`, same machine clock) to the feed item reaching a `live.events` contract
 *     subscriber, p50/p95 over 100 denials. Baseline in the same run: a bare reader of
 *     /global/event that only JSON-parses and prints (no catch-up, no SQLite, no contract).
 *  2. Memory after 100,000 events: a child process (`--expose-gc`) runs the bridge against a
 *     local fake SSE server fed 100,000 realistic events (plain + sync copies, deltas, heartbeats,
 *     1 % denials) through the same parsing path; heap and RSS growth over the idle bridge.
 *     Throughput is compared with a bare JSON.parse loop over the same payloads.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './report';
import { percentile } from './report';
import type { LiveEvent } from '../shared/contract/live';
import { createConsoleCore } from '../main/core/console-core';
import { Bridge } from '../main/core/bridge/bridge';
import { startFakeLlm } from '../testing/bridge/fake-llm';
import { OpencodeServer } from '../testing/bridge/opencode-harness';
import { opencodeBinary } from '../testing/bridge/opencode-binary';
import { startFakeSseServer, syncToolPart } from '../testing/bridge/fake-sse-server';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const DENIALS = 100;
const EVENTS = 100_000;
const MARKER = 'call_bench_marker';
const DENY = 'KNOWLEDGE_ENFORCE_GATE_DENY: save_plan blocked — critical knowledge directive(s) KD-0001 require KNOWLEDGE_APPLIED:KD-0001 before this action.';
const MiB = 1024 * 1024;

// ---------- 1. latency against the real server ----------

async function rawDenialTimes(url: string, headers: Record<string, string>, signal: AbortSignal, onDenial: (callID: string, latencyMs: number) => void) {
  const response = await fetch(`${url}/global/event`, { headers, signal });
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let i; (i = buffer.indexOf('\n\n')) >= 0; buffer = buffer.slice(i + 2)) {
        const data = buffer.slice(0, i).replace(/^data: ?/, '');
        const event = JSON.parse(data);
        const part = event.payload?.syncEvent?.data?.part;
        if (part?.type === 'tool' && part.state?.status === 'error') onDenial(part.callID, Date.now() - part.state.time.end);
      }
    }
  } catch {
    // aborted at the end
  }
}

async function measureLatency(report: BenchReport): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-bench-'));
  const llm = await startFakeLlm();
  const server = await OpencodeServer.start({ llmBaseUrl: llm.baseUrl });
  // The live feed is scoped to the open project: open the folder the server's sessions run in.
  const project = server.projectDir;
  const core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'bench' }, { project, hive: path.join(root, 'hive') });
  const bridgeLatency = new Map<string, number>();
  const rawLatency = new Map<string, number>();
  const abort = new AbortController();
  try {
    const sub = core.dispatcher.subscribe('live.events', {}, (event) => {
      const e = event as LiveEvent;
      if (e.type !== 'items') return;
      const now = Date.now();
      for (const item of e.items) if (item.callID && !bridgeLatency.has(item.callID)) bridgeLatency.set(item.callID, now - item.time);
    });
    const connected = await core.dispatcher.call('live.connect', { url: server.url });
    if (!connected.ok || !sub.ok) throw new Error('cannot connect the bridge');
    void rawDenialTimes(server.url, {}, abort.signal, (callID, ms) => rawLatency.set(callID, ms));
    const sessions = await Promise.all([0, 1, 2, 3].map((i) => server.createSession(`bench ${i}`)));
    await server.prompt(sessions[0]!.id, 'warm up'); // first prompt of an instance pays for its start-up
    const t0 = Date.now();
    await Promise.all(
      sessions.map(async (session) => {
        // one prompt = a chain of 5 denied calls (the fake model retries after each tool result)
        const chain = `CALL knowledge_probe ${Array.from({ length: 5 }, (_, i) => `{"topic":"bench ${i}"}`).join(' THEN ')}`;
        for (let i = 0; i < DENIALS / sessions.length / 5; i++) await server.prompt(session.id, chain);
      }),
    );
    const deadline = Date.now() + 30_000;
    while (bridgeLatency.size < DENIALS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    sub.value();
    const bridge = [...bridgeLatency.values()];
    const raw = [...rawLatency.values()];
    report.count('denials measured', bridge.length, 'denials', `${DENIALS}`);
    report.figure('denial → contract subscriber p50', percentile(bridge, 50), 'ms', '< 1000 ms (seen within a second)');
    report.figure('denial → contract subscriber p95', percentile(bridge, 95), 'ms', '< 1000 ms');
    report.figure('baseline: denial → bare /global/event reader p50', percentile(raw, 50), 'ms');
    report.figure('baseline: denial → bare /global/event reader p95', percentile(raw, 95), 'ms');
    report.figure('bridge overhead over the bare reader (p50)', percentile(bridge, 50) - percentile(raw, 50), 'ms', '< 100 ms');
    report.note(`${DENIALS} denials from 4 concurrent sessions in ${((Date.now() - t0) / 1000).toFixed(1)} s; latency starts at the tool part's state.time.end (server clock, same machine)`);
  } finally {
    abort.abort();
    await core.dispose();
    await server.dispose();
    await llm.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// ---------- 2. memory after 100,000 events (child process) ----------

/** Realistic stream frames: per tool call a plain + sync running part, two deltas, plain + sync end state. */
export function syntheticFrames(count: number): string[] {
  const frames: string[] = [];
  const seq = new Map<string, number>();
  const output = 'x'.repeat(300);
  for (let call = 0; frames.length < count - 1; call++) {
    const sessionID = `ses_bench_${call % 50}`;
    const next = () => {
      const value = (seq.get(sessionID) ?? -1) + 1;
      seq.set(sessionID, value);
      return value;
    };
    const denied = call % 25 === 24;
    const common = { sessionID, partID: `prt_${call}`, callID: `call_${call}`, tool: denied ? 'save_plan' : 'bash', input: { command: 'ls -la' } };
    const running = syncToolPart({ ...common, seq: next(), status: 'running' }) as { payload: { syncEvent: { data: unknown } } };
    frames.push(`data: ${JSON.stringify({ directory: '/tmp/fake-project', payload: { id: `evt_p${call}`, type: 'message.part.updated', properties: running.payload.syncEvent.data } })}\n\n`);
    frames.push(`data: ${JSON.stringify(running)}\n\n`);
    for (let d = 0; d < 2; d++) frames.push(`data: ${JSON.stringify({ directory: '/tmp/fake-project', payload: { id: `evt_d${call}_${d}`, type: 'message.part.delta', properties: { sessionID, messageID: 'm', partID: 'p', field: 'text', delta: 'some streamed text ' } } })}\n\n`);
    const end = syncToolPart({ ...common, seq: next(), status: denied ? 'error' : 'completed', error: DENY, output }) as { payload: { syncEvent: { data: unknown } } };
    frames.push(`data: ${JSON.stringify({ directory: '/tmp/fake-project', payload: { id: `evt_e${call}`, type: 'message.part.updated', properties: end.payload.syncEvent.data } })}\n\n`);
    frames.push(`data: ${JSON.stringify(end)}\n\n`);
    if (call % 150 === 0) frames.push(`data: ${JSON.stringify({ payload: { type: 'server.heartbeat', properties: {} } })}\n\n`);
  }
  frames.length = count - 1;
  frames.push(`data: ${JSON.stringify(syncToolPart({ sessionID: 'ses_marker', seq: 0, partID: 'prt_marker', callID: MARKER, tool: 'save_plan', status: 'error', error: DENY }))}\n\n`);
  return frames;
}

async function memoryChild(url: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-mem-'));
  const bridge = new Bridge({ dbFile: path.join(dir, 'bridge.db') });
  let first = 0;
  let done: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  bridge.subscribe((event) => {
    if (event.type === 'server' && !first && event.server.lastEventAt) first = performance.now();
    if (event.type === 'items' && event.items.some((i) => i.callID === MARKER)) done();
  });
  gc();
  const before = process.memoryUsage();
  const server = bridge.connect({ url });
  await bridge.whenSynced();
  process.stdout.write('ready\n');
  const t0 = performance.now();
  await finished;
  const seconds = (performance.now() - t0) / 1000;
  gc();
  const after = process.memoryUsage();
  const info = bridge.connection(server.id)!.info();
  const stored = bridge.store.query({}, undefined, 1).items.length ? (bridge.store.db.prepare('SELECT count(*) AS n FROM feed').get() as { n: number }).n : 0;
  process.stdout.write(`${JSON.stringify({ before, after, seconds, stored, warnings: info.warnings })}\n`);
  await bridge.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}

async function measureMemory(report: BenchReport): Promise<void> {
  const frames = syntheticFrames(EVENTS);
  const t0 = performance.now();
  for (const frame of frames) JSON.parse(frame.slice(6));
  const parseSeconds = (performance.now() - t0) / 1000;
  const fake = await startFakeSseServer();
  const child = spawn(process.execPath, ['--expose-gc', path.join(repo, 'bin/run-ts.mjs'), path.join(here, 'bridge.bench.ts'), '--bridge-memory-child', fake.url], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => ((out += c.toString()), out.includes('ready\n') && resolve())));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await ready;
    await fake.waitForStreams(1);
    // push in slices so the fake server never holds the whole stream in its buffers
    for (let i = 0; i < frames.length; i += 500) {
      fake.write(frames.slice(i, i + 500).join(''));
      await new Promise((r) => setImmediate(r));
    }
    await exited;
    const result = JSON.parse(out.split('\n').filter(Boolean).at(-1) as string) as {
      before: NodeJS.MemoryUsage;
      after: NodeJS.MemoryUsage;
      seconds: number;
      stored: number;
      warnings: Record<string, number>;
    };
    report.figure('heap growth after 100,000 events', (result.after.heapUsed - result.before.heapUsed) / MiB, 'MiB', '< 50 MiB (bounded ring)');
    report.figure('heap used after 100,000 events', result.after.heapUsed / MiB, 'MiB');
    report.figure('RSS after 100,000 events', result.after.rss / MiB, 'MiB');
    report.figure('RSS growth over the idle bridge', (result.after.rss - result.before.rss) / MiB, 'MiB');
    report.figure('bridge throughput', EVENTS / result.seconds, 'events/s');
    report.figure('bridge time / bare JSON.parse time (same payloads)', result.seconds / parseSeconds, '×');
    report.note(`${result.stored} feed items persisted in SQLite (1 in 25 tool calls denied); warnings ${JSON.stringify(result.warnings)}`);
  } finally {
    child.kill();
    await fake.close();
  }
}

export async function run(report: BenchReport): Promise<void> {
  report.section('Bridge: denial latency (real opencode serve 1.18.33)');
  if (opencodeBinary.ok) await measureLatency(report);
  else report.note(`not measured: ${opencodeBinary.reason}`);
  report.section('Bridge: memory after 100,000 events');
  await measureMemory(report);
}

const childAt = process.argv.indexOf('--bridge-memory-child');
if (childAt >= 0) {
  await memoryChild(process.argv[childAt + 1] as string);
  process.exit(0);
}
