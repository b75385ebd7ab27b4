import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { startHttpHost, type HttpHost } from './http-host';
import { demoWorkspaces } from '../demo/week/demo-workspaces';

const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

function fakeRenderer(): string {
  const dir = tempDir('http-renderer-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title><script src="/assets/app.js"></script>');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
}

/** What a browser tab holds after signing in: the header secret (sessionStorage) and the page cookie. */
interface SignedIn {
  secret: string;
  cookie: string;
}

async function exchange(host: HttpHost, token: string | undefined, origin = host.origin) {
  return fetch(`${host.origin}/api/session`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(token === undefined ? {} : { token }),
  });
}

async function signIn(host: HttpHost, launchUrl = host.newLaunchUrl()): Promise<SignedIn> {
  const response = await exchange(host, new URL(launchUrl).searchParams.get('token') as string);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { value: { session: string } };
  return { secret: body.value.session, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] as string };
}

/** A request on a raw socket, so the test controls every header byte (duplicates included). */
function rawHttp(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the browser host carries the contract over loopback HTTP, for the tab that holds the session', () => {
  const userDataDir = tempDir('http-host-');
  let core: ConsoleCore;
  let host: HttpHost;
  let tab: SignedIn;

  beforeAll(async () => {
    core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
    host = await startHttpHost({ dispatcher: core.dispatcher, rendererDir: fakeRenderer(), port: 0, launch: { command: 'npm start', interactive: true } });
    tab = await signIn(host, host.launchUrl);
  });
  afterAll(async () => {
    await host.close();
    await core.dispose();
  });

  const post = (name: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${host.origin}/api/call/${name}`, { method: 'POST', headers: { 'x-console-session': tab.secret, origin: host.origin, 'content-type': 'application/json', ...headers }, body });

  it('binds 127.0.0.1 only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the page to a launch URL or a signed-in tab, and a sign-in page naming the command to anyone else', async () => {
    const fresh = host.newLaunchUrl();
    const withToken = await fetch(fresh);
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await withToken.text()).toContain('<title>console</title>');
    // Loading the page does not spend the token: the page's script does, once.
    await signIn(host, fresh);

    expect((await fetch(`${host.origin}/`, { headers: { cookie: tab.cookie } })).status).toBe(200);
    const stranger = await fetch(`${host.origin}/`);
    expect(stranger.status).toBe(401);
    const page = await stranger.text();
    expect(page).toContain('no console session');
    expect(page).toContain('<code>npm start</code>');
    expect(page).toContain('Press Enter');
    // The built scripts are public (no secret in them) and load before the tab has signed in.
    expect((await fetch(`${host.origin}/assets/app.js`)).status).toBe(200);
  });

  it('never puts the session secret in a page or a cookie', async () => {
    const page = await (await fetch(`${host.origin}/`, { headers: { cookie: tab.cookie } })).text();
    expect(page).not.toContain(tab.secret);
    expect(tab.cookie).not.toContain(tab.secret);
    expect(tab.cookie).toMatch(new RegExp(`^swarm_console_page_${host.port}=`));
  });

  it('answers calls with the dispatcher envelope and refuses malformed bodies clearly', async () => {
    expect(await (await post('workspace.info', '{}')).json()).toMatchObject({ ok: true });
    expect(await (await post('workspace.info', '{not json')).json()).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('Unreadable request body') } });
    expect((await post('workspace.info', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('workspace.info', 'x'.repeat(1024 * 1024 + 10))).status).toBe(400);
  });

  it('refuses relative folders and NUL bytes in workspace.open as invalid input', async () => {
    for (const input of [{ project: 'relative/project' }, { project: '/tmp/a\0b' }, { project: null, hive: '../hive' }]) {
      const answer = (await (await post('workspace.open', JSON.stringify(input))).json()) as { ok: boolean; error: { code: string; message: string } };
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(answer.error.message).toMatch(/absolute path|NUL bytes/);
    }
  });

  it('gives a stolen page cookie nothing: a replay with the right Host and Origin is refused', async () => {
    // Cookies ignore ports: any other local server the browser visits receives this one. Its
    // owner replays it exactly as the page would, minus the header only the tab knows.
    let received = '';
    const otherService = http.createServer((request, response) => {
      received = request.headers.cookie ?? '';
      response.end('ok');
    });
    await new Promise<void>((resolve) => otherService.listen(0, '127.0.0.1', resolve));
    const otherPort = (otherService.address() as net.AddressInfo).port;
    await fetch(`http://127.0.0.1:${otherPort}/`, { headers: { cookie: tab.cookie } });
    otherService.close();
    expect(received).toBe(tab.cookie);

    const replay = await fetch(`${host.origin}/api/call/workspace.info`, {
      method: 'POST',
      headers: { cookie: received, origin: host.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(replay.status).toBe(401);
    const stream = await fetch(`${host.origin}/api/subscribe/workspace.events?input=%7B%7D`, { headers: { cookie: received } });
    expect(stream.status).toBe(401);
    // Nor can the cookie fetch a secret: the exchange needs the launch token.
    const session = await fetch(`${host.origin}/api/session`, { method: 'POST', headers: { cookie: received, origin: host.origin, 'content-type': 'application/json' }, body: '{}' });
    expect(session.status).toBe(401);
    expect(await session.text()).not.toMatch(/"session"/);
  });

  it('spends a launch token once and says what to do with a used, replaced or unknown one', async () => {
    const used = host.newLaunchUrl();
    const usedToken = new URL(used).searchParams.get('token') as string;
    await signIn(host, used);
    const again = await exchange(host, usedToken);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      'This launch URL has already been used. Press Enter in the terminal where `npm start` is running: it prints a new launch URL. Each launch URL opens the console once.',
    );
    const reopened = await fetch(used);
    expect(reopened.status).toBe(401);
    expect(await reopened.text()).toContain('already been used');

    const replaced = host.newLaunchUrl();
    host.newLaunchUrl();
    expect(await (await fetch(replaced)).text()).toContain('replaced by a newer one');
    expect(await (await fetch(`${host.origin}/?token=not-a-token`)).text()).toContain('not one this console printed');
    // A token is spent only by a POST from our own page.
    const fresh = new URL(host.newLaunchUrl()).searchParams.get('token') as string;
    expect((await exchange(host, fresh, 'http://evil.example')).status).toBe(403);
    expect((await exchange(host, fresh)).status).toBe(200);
  });

  it('keeps two sessions apart: a second sign-in does not sign the first tab out', async () => {
    const other = await signIn(host);
    expect(other.secret).not.toBe(tab.secret);
    expect((await post('workspace.info', '{}')).status).toBe(200);
    expect((await post('workspace.info', '{}', { 'x-console-session': other.secret })).status).toBe(200);
  });

  it('streams subscription events as Server-Sent Events to the session header', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${host.origin}/api/subscribe/workspace.events?input=%7B%7D`, { headers: { 'x-console-session': tab.secret }, signal: controller.signal });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes(': subscribed')) received += (await reader.read()).value ?? '';
    const project = tempDir('http-project-');
    await post('workspace.open', JSON.stringify({ project }));
    while (!received.includes('"kind":"opened"')) received += (await reader.read()).value ?? '';
    const data = JSON.parse(received.split('\n').find((line) => line.startsWith('data: '))!.slice(6));
    expect(data).toMatchObject({ kind: 'opened', info: { project: { path: project } } });
    controller.abort();
  });

  it('refuses a subscription to something that is not a subscription', async () => {
    const response = await fetch(`${host.origin}/api/subscribe/workspace.info?input=%7B%7D`, { headers: { 'x-console-session': tab.secret } });
    expect(await response.text()).toContain('unknown_operation');
  });

  it('answers 400 to a duplicate Host header and explains the address to a localhost visitor', async () => {
    const duplicate = await rawHttp(host.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`);
    expect(duplicate).toMatch(/^HTTP\/1\.1 400 /);
    const localhost = await rawHttp(host.port, `GET /?token=${new URL(host.launchUrl).searchParams.get('token')} HTTP/1.1\r\nHost: localhost:${host.port}\r\nConnection: close\r\n\r\n`);
    expect(localhost).toMatch(/^HTTP\/1\.1 421 /);
    expect(localhost).toContain(`http://127.0.0.1:${host.port}/`);
    expect(localhost).not.toContain('token=');
  });
});

describe('a subscription request that is not allowed changes nothing', () => {
  const userDataDir = tempDir('http-host-refusals-');
  let core: ConsoleCore;
  let host: HttpHost;

  beforeAll(async () => {
    core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
    host = await startHttpHost({ dispatcher: core.dispatcher, rendererDir: fakeRenderer(), port: 0 });
  });
  afterAll(async () => {
    await host.close();
    await core.dispose();
  });

  it('refuses POST, no session, a foreign Origin or a cross-site fetch before the live feed is opened', async () => {
    const tab = await signIn(host);
    const live = `${host.origin}/api/subscribe/live.events?input=%7B%7D`;
    const post = await fetch(live, { method: 'POST', headers: { 'x-console-session': tab.secret, origin: host.origin } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect((await fetch(live)).status).toBe(401);
    expect((await fetch(live, { headers: { 'x-console-session': tab.secret, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await fetch(live, { headers: { 'x-console-session': tab.secret, 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await fetch(`${host.origin}/api/call/live.servers`, { method: 'POST', headers: { 'x-console-session': tab.secret, 'sec-fetch-site': 'same-site', origin: host.origin, 'content-type': 'application/json' }, body: '{}' })).status).toBe(403);
    expect(fs.existsSync(path.join(userDataDir, 'bridge.db'))).toBe(false);
  });

  it('caps the streams one session may hold and says so', async () => {
    const small = await startHttpHost({ dispatcher: core.dispatcher, rendererDir: fakeRenderer(), port: 0, streamLimits: { maxPerSession: 2, maxTotal: 3 } });
    try {
      const [a, b] = [await signIn(small), await signIn(small)];
      const open = (secret: string) => fetch(`${small.origin}/api/subscribe/workspace.events?input=%7B%7D`, { headers: { 'x-console-session': secret } });
      expect((await open(a.secret)).status).toBe(200);
      expect((await open(a.secret)).status).toBe(200);
      const third = await open(a.secret);
      expect(third.status).toBe(503);
      expect(await third.text()).toContain('already has 2 live streams');
      expect((await open(b.secret)).status).toBe(200);
      const overHost = await open(b.secret);
      expect(overHost.status).toBe(503);
      expect(await overHost.text()).toContain('already serves 3 live streams');
    } finally {
      await small.close();
    }
  });
});
