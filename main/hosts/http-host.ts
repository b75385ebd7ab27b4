import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from '../core/api/dispatcher';
import { checkOrigin, constantTimeEqual, randomSecret, readCookie, SECURITY_HEADERS, SESSION_COOKIE } from './http-security';
import { contentTypeOf, resolveStaticFile } from './static-files';

export interface HttpHostOptions {
  dispatcher: Dispatcher;
  /** The built renderer (index.html + assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
}

export interface HttpHost {
  readonly port: number;
  /** The one URL to open: carries the per-launch token, exchanged for a cookie on first visit. */
  readonly launchUrl: string;
  readonly origin: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

/**
 * The browser host: the same contract as the Electron IPC host, over HTTP on 127.0.0.1 only.
 * `POST /api/call/<op>` answers with the dispatcher's envelope; `GET /api/subscribe/<op>?input=`
 * streams Server-Sent Events. Everything needs the session cookie minted from the launch token.
 */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const token = randomSecret();
  const session = randomSecret();
  const server = http.createServer();
  const openStreams = new Set<ServerResponse>();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;

  const send = (response: ServerResponse, status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
    response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
    response.end(body);
  };
  const sendJson = (response: ServerResponse, status: number, value: unknown) => send(response, status, JSON.stringify(value), 'application/json; charset=utf-8');

  const hasSession = (request: IncomingMessage) => {
    const cookie = readCookie(request, SESSION_COOKIE);
    return cookie !== null && constantTimeEqual(cookie, session);
  };

  async function readBody(request: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new Error('request body over 1 MiB');
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : {};
  }

  async function handleCall(request: IncomingMessage, response: ServerResponse, name: string) {
    if (request.method !== 'POST') return send(response, 405, 'POST only', undefined, { allow: 'POST' });
    // A browser always sends Origin on a POST; demanding it closes the door on cross-site forms.
    if (request.headers.origin !== origin) return send(response, 403, 'missing or foreign Origin');
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return send(response, 415, 'application/json only');
    let input: unknown;
    try {
      input = await readBody(request);
    } catch (error) {
      return sendJson(response, 400, { ok: false, error: { code: 'invalid_input', message: `Unreadable request body: ${(error as Error).message}` } });
    }
    sendJson(response, 200, await options.dispatcher.call(name, input));
  }

  function handleSubscribe(request: IncomingMessage, response: ServerResponse, name: string, url: URL) {
    let input: unknown = {};
    try {
      input = JSON.parse(url.searchParams.get('input') ?? '{}');
    } catch {
      return sendJson(response, 400, { ok: false, error: { code: 'invalid_input', message: 'input is not JSON' } });
    }
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    const result = options.dispatcher.subscribe(name, input, (event) => response.write(`data: ${JSON.stringify(event)}\n\n`));
    if (!result.ok) {
      response.end(`event: error\ndata: ${JSON.stringify(result.error)}\n\n`);
      return;
    }
    response.write(': subscribed\n\n');
    openStreams.add(response);
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    request.on('close', () => {
      clearInterval(heartbeat);
      openStreams.delete(response);
      result.value();
    });
  }

  function handleStatic(response: ServerResponse, pathname: string, method: string) {
    if (method !== 'GET' && method !== 'HEAD') return send(response, 405, 'GET only');
    const file = resolveStaticFile(options.rendererDir, pathname);
    if (!file) return send(response, 404, 'Not found. Is the renderer built? Run `npm run build`.');
    send(response, 200, method === "HEAD" ? "" : fs.readFileSync(file), contentTypeOf(file));
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const verdict = checkOrigin(request, host);
    if (!verdict.ok) return send(response, verdict.status, verdict.reason);
    const url = new URL(request.url ?? '/', origin);
    const offered = url.searchParams.get('token');
    if (offered !== null) {
      if (!constantTimeEqual(offered, token)) return send(response, 401, 'Wrong or expired console token. Use the URL printed by `swarm-console serve`.');
      // Exchange the token for a cookie and drop it from the address bar (and from history).
      return send(response, 303, '', undefined, {
        location: '/',
        'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      });
    }
    if (!hasSession(request)) {
      return send(response, 401, 'This console needs the per-launch URL printed by `swarm-console serve` (it carries a one-time token).');
    }
    const callMatch = /^\/api\/call\/([\w.-]{1,80})$/.exec(url.pathname);
    if (callMatch) {
      void handleCall(request, response, callMatch[1] as string).catch((error) =>
        sendJson(response, 500, { ok: false, error: { code: 'failed', message: String(error) } }),
      );
      return;
    }
    const subscribeMatch = /^\/api\/subscribe\/([\w.-]{1,80})$/.exec(url.pathname);
    if (subscribeMatch) return handleSubscribe(request, response, subscribeMatch[1] as string, url);
    if (url.pathname.startsWith('/api/')) return send(response, 404, 'Unknown API route');
    handleStatic(response, url.pathname, request.method ?? 'GET');
  });

  return {
    port,
    origin,
    launchUrl: `${origin}/?token=${token}`,
    async close() {
      for (const stream of openStreams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Browsers keep idle keep-alive sockets open; without this, close() waits for them.
      server.closeAllConnections();
      await closed;
    },
  };
}
