import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { demoWorkspaces } from '../../demo/week/demo-workspaces';

describe('the dispatcher validates every input against the contract', () => {
  let core: ConsoleCore;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dispatcher-'));

  beforeAll(async () => {
    core = await createConsoleCore({ userDataDir, host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
  });
  afterAll(async () => {
    await core.dispose();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  it('answers a valid query with an ok envelope', async () => {
    const result = await core.dispatcher.call('workspace.info', {});
    expect(result).toMatchObject({ ok: true, value: { project: { isDemo: true }, host: 'browser' } });
  });

  it('rejects a wrong type with the field path in a clear message', async () => {
    const result = await core.dispatcher.call('workspace.open', { project: 42 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: 'project' }] } });
    expect(!result.ok && result.error.message).toMatch(/^Invalid input for workspace\.open: project: /);
  });

  it('rejects unknown fields, so nothing unchecked reaches a handler', async () => {
    const result = await core.dispatcher.call('workspace.info', { sneaky: true });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('sneaky') } });
  });

  it('rejects an operation that is not in the contract', async () => {
    expect(await core.dispatcher.call('fs.writeFile', {})).toMatchObject({ ok: false, error: { code: 'unknown_operation' } });
    expect(await core.dispatcher.call('__proto__', {})).toMatchObject({ ok: false, error: { code: 'unknown_operation' } });
    expect(core.dispatcher.subscribe('workspace.info', {}, () => {})).toMatchObject({ ok: false, error: { code: 'unknown_operation' } });
  });

  it('reports a missing project folder as not_found and keeps the open workspace', async () => {
    const missing = path.join(userDataDir, 'no-such-project');
    expect(await core.dispatcher.call('workspace.open', { project: missing })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await core.dispatcher.call('workspace.info', {})).toMatchObject({ ok: true, value: { project: { isDemo: true } } });
  });

  it('pushes an event to subscribers when another workspace opens', async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'dispatcher-project-'));
    const events: unknown[] = [];
    const subscription = core.dispatcher.subscribe('workspace.events', {}, (event) => events.push(event));
    expect(subscription.ok).toBe(true);
    await core.dispatcher.call('workspace.open', { project, hive: userDataDir });
    expect(events).toMatchObject([{ kind: 'opened', info: { project: { path: project, isDemo: false }, hive: { path: userDataDir, source: 'flag' } } }]);
    if (subscription.ok) subscription.value();
  });
});
