import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { startHttpHost, type HttpHost } from './http-host';

describe('the browser host carries the contract over loopback HTTP', () => {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'http-host-'));
  const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'http-renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>console</title>');
  let core: ConsoleCore;
  let host: HttpHost;
  let cookie: string;

  beforeAll(async () => {
    core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test' }, { project: null });
    host = await startHttpHost({ dispatcher: core.dispatcher, rendererDir, port: 0 });
    const exchange = await fetch(host.launchUrl, { redirect: 'manual' });
    cookie = (exchange.headers.get('set-cookie') ?? '').split(';')[0] as string;
  });
  afterAll(async () => {
    await host.close();
    await core.dispose();
  });

  const post = (name: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${host.origin}/api/call/${name}`, { method: 'POST', headers: { cookie, origin: host.origin, 'content-type': 'application/json', ...headers }, body });

  it('binds 127.0.0.1 only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the renderer with a strict CSP once signed in', async () => {
    const response = await fetch(`${host.origin}/`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await response.text()).toContain('<title>console</title>');
  });

  it('answers calls with the dispatcher envelope and refuses malformed bodies clearly', async () => {
    expect(await (await post('workspace.info', '{}')).json()).toMatchObject({ ok: true });
    expect(await (await post('workspace.info', '{not json')).json()).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('Unreadable request body') } });
    expect((await post('workspace.info', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('workspace.info', 'x'.repeat(1024 * 1024 + 10))).status).toBe(400);
  });

  it('streams subscription events as Server-Sent Events', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${host.origin}/api/subscribe/workspace.events?input=%7B%7D`, { headers: { cookie }, signal: controller.signal });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes(': subscribed')) received += (await reader.read()).value ?? '';
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'http-project-'));
    await post('workspace.open', JSON.stringify({ project }));
    while (!received.includes('"kind":"opened"')) received += (await reader.read()).value ?? '';
    const data = JSON.parse(received.split('\n').find((line) => line.startsWith('data: '))!.slice(6));
    expect(data).toMatchObject({ kind: 'opened', info: { project: { path: project } } });
    controller.abort();
  });

  it('refuses a subscription to something that is not a subscription', async () => {
    const response = await fetch(`${host.origin}/api/subscribe/workspace.info?input=%7B%7D`, { headers: { cookie } });
    expect(await response.text()).toContain('unknown_operation');
  });
});
