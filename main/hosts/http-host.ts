import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from '../core/rpc/dispatcher';
import { signInMessage, signInPage, wrongHostPage, type LaunchHints } from './http-pages';
import { checkFetchSite, checkOrigin, pageCookieName, readCookie, SECURITY_HEADERS, SESSION_HEADER } from './http-security';
import { SessionBook, type Session } from './http-session';
import { DEFAULT_STREAM_LIMITS, SseStreams, type StreamLimits } from './sse-streams';
import { contentTypeOf, resolveStaticFile } from './static-files';

interface HttpHostOptions {
  dispatcher: Dispatcher;
  /** The built renderer (index.html + assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  /** How the person started the console, named on the sign-in pages. */
  launch?: LaunchHints;
  streamLimits?: Partial<StreamLimits>;
}

export interface HttpHost {
  readonly port: number;
  /** The first launch URL: its token works once, for one browser tab's session. */
  readonly launchUrl: string;
  readonly origin: string;
  /** A fresh launch URL (the older unused one stops working). */
  newLaunchUrl(): string;
  streamStats(): ReturnType<SseStreams['stats']>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_LAUNCH: LaunchHints = { command: 'swarm-console serve', interactive: false };

type Reply = {
  send(status: number, body: string | Buffer, type?: string, extra?: Record<string, string>): void;
  json(status: number, value: unknown): void;
};

/** An authenticated API route family: `/api/<family>/<name>`, one method, handled with the caller's session. */
interface ApiRoute {
  pattern: RegExp;
  method: 'GET' | 'POST';
  handle(request: IncomingMessage, response: ServerResponse, reply: Reply, name: string, url: URL, session: Session): void | Promise<void>;
}

/**
 * The browser host: the same contract as the Electron IPC host, over HTTP on 127.0.0.1 only.
 * `POST /api/session` spends a launch token for a session secret; with that secret in the
 * `x-console-session` header, `POST /api/call/<op>` answers with the dispatcher's envelope and
 * `GET /api/subscribe/<op>?input=` streams Server-Sent Events.
 */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const launch = options.launch ?? DEFAULT_LAUNCH;
  const book = new SessionBook();
  const streams = new SseStreams({ ...DEFAULT_STREAM_LIMITS, ...options.streamLimits });
  const server = http.createServer();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;
  const cookieName = pageCookieName(port);

  const replyTo = (response: ServerResponse): Reply => ({
    send(status, body, type = 'text/plain; charset=utf-8', extra = {}) {
      response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
      response.end(body);
    },
    json(status, value) {
      this.send(status, JSON.stringify(value), 'application/json; charset=utf-8');
    },
  });
  const failure = (code: string, message: string) => ({ ok: false, error: { code, message } });

  async function readJsonBody(request: IncomingMessage): Promise<unknown> {
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) throw Object.assign(new Error('application/json only'), { status: 415 });
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

  /** POSTs must carry our Origin (browsers always send it on POST): no cross-site forms. */
  const postOriginRefusal = (request: IncomingMessage) => (request.headers.origin === origin ? null : 'missing or foreign Origin');

  async function exchangeToken(request: IncomingMessage, reply: Reply) {
    if (request.method !== 'POST') return reply.send(405, 'POST only', undefined, { allow: 'POST' });
    const refused = postOriginRefusal(request);
    if (refused) return reply.send(403, refused);
    let body: unknown;
    try {
      body = await readJsonBody(request);
    } catch (error) {
      return reply.json((error as { status?: number }).status ?? 400, failure('invalid_input', `Unreadable request body: ${(error as Error).message}`));
    }
    const token = (body as { token?: unknown } | null)?.token;
    if (typeof token !== 'string' || token === '') return reply.json(401, failure('forbidden', signInMessage('none', launch)));
    const result = book.exchange(token);
    if (!result.ok) return reply.json(401, failure('forbidden', signInMessage(result.state, launch)));
    reply.send(200, JSON.stringify({ ok: true, value: { session: result.session.secret } }), 'application/json; charset=utf-8', {
      'set-cookie': `${cookieName}=${result.session.pageKey}; HttpOnly; SameSite=Strict; Path=/`,
    });
  }

  const apiRoutes: ApiRoute[] = [
    {
      pattern: /^\/api\/call\/([\w.-]{1,80})$/,
      method: 'POST',
      async handle(request, _response, reply, name) {
        const refused = postOriginRefusal(request);
        if (refused) return reply.send(403, refused);
        let input: unknown;
        try {
          input = await readJsonBody(request);
        } catch (error) {
          return reply.json((error as { status?: number }).status ?? 400, failure('invalid_input', `Unreadable request body: ${(error as Error).message}`));
        }
        reply.json(200, await options.dispatcher.call(name, input));
      },
    },
    {
      pattern: /^\/api\/subscribe\/([\w.-]{1,80})$/,
      method: 'GET',
      handle(_request, response, reply, name, url, session) {
        const refused = streams.refusal(session.secret);
        if (refused) return reply.json(503, failure('unavailable', refused));
        let input: unknown;
        try {
          input = JSON.parse(url.searchParams.get('input') ?? '{}');
        } catch {
          return reply.json(400, failure('invalid_input', 'input is not JSON'));
        }
        streams.start(response, session.secret, (emit) => options.dispatcher.subscribe(name, input, emit));
      },
    },
  ];

  function handleApi(request: IncomingMessage, response: ServerResponse, reply: Reply, url: URL) {
    const site = checkFetchSite(request);
    if (!site.ok) return reply.send(site.status, site.reason);
    if (url.pathname === '/api/session') return void exchangeToken(request, reply).catch((error) => reply.json(500, failure('failed', String(error))));
    for (const route of apiRoutes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      // Method and session are settled before anything is parsed or opened for the request.
      if (request.method !== route.method) return reply.send(405, `${route.method} only`, undefined, { allow: route.method });
      const session = book.find(request.headers[SESSION_HEADER] as string | undefined);
      if (!session) return reply.json(401, failure('forbidden', signInMessage('none', launch)));
      return void Promise.resolve(route.handle(request, response, reply, match[1] as string, url, session)).catch((error) =>
        response.headersSent ? response.destroy() : reply.json(500, failure('failed', String(error))),
      );
    }
    reply.send(404, 'Unknown API route');
  }

  /** Static files are the public build; only the page itself waits for a launch token or a signed-in tab's cookie. */
  function handlePage(request: IncomingMessage, reply: Reply, url: URL) {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return reply.send(405, 'GET only', undefined, { allow: 'GET, HEAD' });
    const file = resolveStaticFile(options.rendererDir, url.pathname);
    if (!file) return reply.send(404, 'Not found. Is the renderer built? Run `npm run build`.');
    if (file.endsWith('.html')) {
      const offered = url.searchParams.get('token');
      const state = offered === null ? (book.hasPageKey(readCookie(request, cookieName)) ? 'valid' : 'none') : book.tokenState(offered);
      if (state !== 'valid') return reply.send(401, signInPage(state, launch), 'text/html; charset=utf-8');
    }
    reply.send(200, method === 'HEAD' ? '' : fs.readFileSync(file), contentTypeOf(file));
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const reply = replyTo(response);
    const verdict = checkOrigin(request, host);
    if (!verdict.ok) {
      if (verdict.status === 421) return reply.send(421, wrongHostPage(host), 'text/html; charset=utf-8');
      return reply.send(verdict.status, verdict.reason);
    }
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname.startsWith('/api/')) return handleApi(request, response, reply, url);
    handlePage(request, reply, url);
  });

  const launchUrlFor = (token: string) => `${origin}/?token=${token}`;
  return {
    port,
    origin,
    launchUrl: launchUrlFor(book.issueToken()),
    newLaunchUrl: () => launchUrlFor(book.issueToken()),
    streamStats: () => streams.stats(),
    async close() {
      streams.closeAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Browsers keep idle keep-alive sockets open; without this, close() waits for them.
      server.closeAllConnections();
      await closed;
    },
  };
}
