import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../shared/contract/live';
import { startFakeSseServer, syncToolPart, type FakeSseServer } from '../../../testing/bridge/fake-sse-server';
import { waitFor } from '../../../testing/bridge/wait';
import { createConsoleCore, type ConsoleCore } from '../console-core';

// The live.* operations through the real dispatcher (inputs AND outputs validated against the
// contract), with a fake OpenCode stream and a project whose events.jsonl holds gate events.

const DENY = 'KNOWLEDGE_ENFORCE_GATE_DENY: save_plan blocked — critical knowledge directive(s) KD-0007 require KNOWLEDGE_APPLIED:KD-0007 before this action.';

let root: string;
let project: string;
let fake: FakeSseServer;
let core: ConsoleCore;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'live-handlers-'));
  project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.writeFileSync(
    path.join(project, '.swarm', 'events.jsonl'),
    `${JSON.stringify({ timestamp: new Date().toISOString(), event: 'knowledge_application_gate_warn', tool: 'save_plan', agent: 'architect', sessionID: 'ses_w', unacknowledged_critical_ids: ['KD-0007'] })}\n`,
  );
  fake = await startFakeSseServer();
  core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'test' }, { project, hive: path.join(root, 'hive') });
});

afterEach(async () => {
  await core.dispose();
  await fake.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function call(name: string, input: unknown) {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as never;
}

describe('live handlers', () => {
  it('connects, lists, pushes feed items and answers feed / counters / facets queries', async () => {
    const events: LiveEvent[] = [];
    const sub = core.dispatcher.subscribe('live.events', {}, (e) => events.push(e as LiveEvent));
    expect(sub.ok).toBe(true);

    const server = await call('live.connect', { url: `${fake.url}/`, password: 'hunter2', label: 'fake' });
    expect(server).toMatchObject({ url: fake.url, label: 'fake', hasPassword: true });
    expect(JSON.stringify(server)).not.toContain('hunter2');
    await fake.waitForStreams(1);
    fake.send(syncToolPart({ sessionID: 'ses_1', seq: 0, partID: 'prt_1', callID: 'call_1', tool: 'save_plan', status: 'error', error: DENY, directory: path.join(project, 'src') }));

    const pushed = await waitFor(() => events.flatMap((e) => (e.type === 'items' ? e.items : [])).find((i) => i.callID === 'call_1'), 'pushed denial');
    expect(pushed).toMatchObject({ source: 'opencode', directiveIds: ['KD-0007'], gate: 'KNOWLEDGE_ENFORCE_GATE_DENY' });
    expect(events.some((e) => e.type === 'server' && e.server.state.kind === 'connected')).toBe(true);
    expect(JSON.stringify(events)).not.toContain('hunter2');

    const feed = await call('live.feed', {});
    expect((feed as { items: { kind: string }[] }).items.map((i) => i.kind).sort()).toEqual(['denial', 'warn']);
    const filtered = await call('live.feed', { filter: { gate: 'KNOWLEDGE_ENFORCE_GATE_DENY' }, limit: 10 });
    expect((filtered as { items: unknown[] }).items).toHaveLength(1);
    const counters = (await call('live.counters', {})) as { directiveId: string; lastHour: number }[];
    expect(counters).toEqual([expect.objectContaining({ directiveId: 'KD-0007', lastHour: 1 })]);
    const facets = (await call('live.facets', {})) as { tools: string[] };
    expect(facets.tools).toEqual(['save_plan']);
    expect(await call('live.servers', {})).toHaveLength(1);

    expect(await call('live.setRules', { enabled: true, threshold: 2, windowMinutes: 5 })).toEqual({ enabled: true, threshold: 2, windowMinutes: 5 });
    fake.send(syncToolPart({ sessionID: 'ses_1', seq: 1, partID: 'prt_2', callID: 'call_2', tool: 'save_plan', status: 'error', error: DENY, directory: project }));
    const alert = await waitFor(() => events.find((e) => e.type === 'repeat'), 'repeat alert');
    expect(alert).toMatchObject({ type: 'repeat', alert: { directiveId: 'KD-0007', tool: 'save_plan', count: 2 } });

    expect(await call('live.disconnect', { serverId: (server as { id: string }).id })).toEqual({ removed: true });
    expect(await call('live.servers', {})).toEqual([]);
    if (sub.ok) sub.value();
  });

  it('remembers connected servers (URL and label, never the password) and reconnects them on the next start', async () => {
    const userData = path.join(root, 'user-data');
    const server = (await call('live.connect', { url: `${fake.url}/`, password: 'hunter2', label: 'build box' })) as { id: string };
    await fake.waitForStreams(1);
    const file = path.join(userData, 'live-servers.json');
    const stored = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(stored)).toEqual([{ url: fake.url, label: 'build box' }]);
    expect(stored).not.toContain('hunter2');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // A restart: a new core on the same user-data folder reconnects without any live call but this listing.
    await core.dispose();
    await waitFor(() => fake.streams() === 0, 'stream closed by the first core');
    core = await createConsoleCore({ userDataDir: userData, host: 'browser', version: 'test' }, { project, hive: path.join(root, 'hive') });
    await waitFor(() => fake.streams() === 1, 'stream reopened at start, before any live call');
    type Listed = { id: string; url: string; label: string; hasPassword: boolean; state: { kind: string } }[];
    const servers = await waitFor(async () => {
      const listed = (await call('live.servers', {})) as Listed;
      return listed[0]?.state.kind === 'connected' ? listed : undefined;
    }, 'remembered server reconnected');
    expect(servers).toEqual([expect.objectContaining({ id: server.id, url: fake.url, label: 'build box', hasPassword: false })]);

    // Disconnecting forgets it: the start after that connects to nothing.
    expect(await call('live.disconnect', { serverId: server.id })).toEqual({ removed: true });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([]);
    await core.dispose();
    core = await createConsoleCore({ userDataDir: userData, host: 'browser', version: 'test' }, { project, hive: path.join(root, 'hive') });
    expect(await call('live.servers', {})).toEqual([]);
  });

  it('rejects bad input at the boundary', async () => {
    for (const input of [{ url: 'file:///etc/passwd' }, { url: 'http://x', extra: 1 }, { url: 'x'.repeat(3000) }]) {
      const result = await core.dispatcher.call('live.connect', input);
      expect(result.ok).toBe(false);
    }
    expect((await core.dispatcher.call('live.feed', { limit: 100_000 })).ok).toBe(false);
    expect((await core.dispatcher.call('live.setRules', { enabled: true, threshold: 1, windowMinutes: 5 })).ok).toBe(false);
  });
});
