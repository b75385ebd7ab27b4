import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny stand-in for the few OpenCode routes the bridge uses, for what a real server will not
 * produce on demand: invalid JSON, unknown event types, huge parts, silence, synthetic floods.
 * `write(raw)` sends raw bytes to every open /global/event stream; `send(envelope)` one `data:` event.
 */
export interface FakeSseServer {
  readonly url: string;
  /** Stored events /sync/history answers with (filtered by the posted seq map like the real one). */
  readonly history: { id: string; aggregate_id: string; seq: number; type: string; data: unknown }[];
  streams(): number;
  write(raw: string): void;
  send(envelope: unknown): void;
  /** Resolves once `n` streams are open. */
  waitForStreams(n: number): Promise<void>;
  endStreams(): void;
  close(): Promise<void>;
}

export async function startFakeSseServer(options: { heartbeat?: boolean } = {}): Promise<FakeSseServer> {
  const streams = new Set<http.ServerResponse>();
  const history: FakeSseServer['history'] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === '/global/health') return json({ healthy: true, version: 'fake-sse' });
    if (url.pathname === '/experimental/session') return json([]);
    if (url.pathname === '/session/status') return json({});
    if (url.pathname === '/sync/history') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const known = JSON.parse(body || '{}') as Record<string, number>;
        json(history.filter((e) => known[e.aggregate_id] === undefined || e.seq > (known[e.aggregate_id] as number)));
      });
      return;
    }
    if (url.pathname === '/global/event') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' });
      res.write(`data: ${JSON.stringify({ payload: { id: 'evt_connected', type: 'server.connected', properties: {} } })}\n\n`);
      streams.add(res);
      res.on('close', () => streams.delete(res));
      for (const w of waiters.splice(0)) if (streams.size >= w.n) w.resolve();
      else waiters.push(w);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const heartbeat = options.heartbeat
    ? setInterval(() => {
        for (const s of streams) s.write(`data: ${JSON.stringify({ payload: { type: 'server.heartbeat', properties: {} } })}\n\n`);
      }, 10_000)
    : null;
  const { port } = server.address() as AddressInfo;
  const write = (raw: string) => {
    for (const s of streams) s.write(raw);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    history,
    streams: () => streams.size,
    write,
    send: (envelope) => write(`data: ${JSON.stringify(envelope)}\n\n`),
    waitForStreams: (n) =>
      streams.size >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    endStreams: () => {
      for (const s of streams) s.end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (heartbeat) clearInterval(heartbeat);
        for (const s of streams) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A `sync` envelope carrying a stored tool part, as /global/event sends it. */
export function syncToolPart(options: {
  sessionID: string;
  seq: number;
  partID: string;
  callID: string;
  tool: string;
  status: 'error' | 'completed' | 'running';
  error?: string;
  output?: string;
  directory?: string;
  time?: number;
  input?: unknown;
}): unknown {
  const time = options.time ?? Date.now();
  const state =
    options.status === 'error'
      ? { status: 'error', input: options.input ?? {}, error: options.error ?? '', time: { start: time - 4, end: time } }
      : options.status === 'completed'
        ? { status: 'completed', input: options.input ?? {}, output: options.output ?? 'ok', metadata: {}, title: '', time: { start: time - 4, end: time } }
        : { status: 'running', input: options.input ?? {}, time: { start: time } };
  const part = { type: 'tool', tool: options.tool, callID: options.callID, state, id: options.partID, sessionID: options.sessionID, messageID: `msg_${options.sessionID}` };
  return {
    directory: options.directory ?? '/tmp/fake-project',
    project: 'fakeproject',
    payload: {
      type: 'sync',
      id: `evt_${options.partID}_${options.seq}`,
      syncEvent: { id: `evt_${options.partID}_${options.seq}`, type: 'message.part.updated.1', seq: options.seq, aggregateID: options.sessionID, data: { sessionID: options.sessionID, part, time } },
    },
  };
}
