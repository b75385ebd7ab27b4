/// <reference types="node" />
// A Node test of a browser module: it runs under vitest in Node against a real local server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApi } from './http-adapter';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections(), server.close();
});

/** A real HTTP server speaking the browser host's SSE dialect, scripted per connection. */
async function sseServer(handle: (connection: number, request: http.IncomingMessage, response: http.ServerResponse) => void) {
  let connections = 0;
  const server = http.createServer((request, response) => handle(++connections, request, response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

const until = async (what: () => boolean) => {
  while (!what()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('the browser adapter reads subscriptions with fetch', () => {
  it('sends the session header, resubscribes when the host drops the stream, and asks the subscriber to resync', async () => {
    const headers: (string | undefined)[] = [];
    const server = await sseServer((connection, request, response) => {
      headers.push(request.headers['x-console-session'] as string | undefined);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`: subscribed\n\ndata: {"n":${connection}}\n\n`);
      // The host closes the first stream, as it does to a reader that fell behind.
      if (connection === 1) response.end();
    });
    const events: unknown[] = [];
    let resyncs = 0;
    const api = createHttpApi('tab-secret', () => {}, server.origin);
    const stop = api.subscribe('stores.changes', {}, (event) => events.push(event), () => resyncs++);
    await until(() => events.length === 2 && resyncs === 1);
    stop();
    expect(events).toEqual([{ n: 1 }, { n: 2 }]);
    expect(headers).toEqual(['tab-secret', 'tab-secret']);
  });

  it('stops and reports sign-out when the host no longer knows the session', async () => {
    const server = await sseServer((_connection, _request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error: { code: 'forbidden', message: 'This browser tab has no console session.' } }));
    });
    const messages: string[] = [];
    const api = createHttpApi('stale', (message) => messages.push(message), server.origin);
    api.subscribe('stores.changes', {}, () => {});
    await until(() => messages.length === 1);
    await expect(api.call('workspace.info', {})).rejects.toThrow('This browser tab has no console session.');
    expect(messages).toEqual(['This browser tab has no console session.', 'This browser tab has no console session.']);
  });
});

describe('the browser adapter makes calls with fetch', () => {
  it('a host that does not answer, or answers without a result (a proxy page, a cut connection), is "unavailable": the views ask again on their own', async () => {
    const server = await sseServer((_connection, _request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad gateway</html>');
    });
    const api = createHttpApi('tab-secret', () => {}, server.origin);
    const answered = await api.call('stores.summary', {}).catch((error: unknown) => error);
    expect(answered).toMatchObject({ name: 'ConsoleError', code: 'unavailable' });
    expect((answered as Error).message).toMatch(/^The console host did not answer \(HTTP 502, /);

    const closed = createHttpApi('tab-secret', () => {}, 'http://127.0.0.1:9');
    expect(await closed.call('stores.summary', {}).catch((error: unknown) => error)).toMatchObject({ code: 'unavailable' });
  });
});
