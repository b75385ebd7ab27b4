import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionState, FeedItem, LiveEvent } from '../../../shared/contract/live';
import { Bridge } from './bridge';
import { startFakeLlm, type FakeLlm } from '../../../testing/bridge/fake-llm';
import { GATE_ACK, GATE_DIRECTIVE_ID } from '../../../testing/bridge/gate-plugin';
import { OpencodeServer } from '../../../testing/bridge/opencode-harness';
import { opencodeBinary, opencodeSkipNote } from '../../../testing/bridge/opencode-binary';
import { TcpProxy } from '../../../testing/bridge/tcp-proxy';
import { waitFor } from '../../../testing/bridge/wait';

// Integration tests against the REAL `opencode serve` 1.18.33 binary, a loopback fake model and a
// test plugin that throws the knowledge gate's denial. Each server start costs seconds on a shared
// box, so one server serves the whole first block.

const DENY = 'CALL knowledge_probe {"topic":"db-migrations"}';
const ALLOW = `CALL knowledge_probe {"topic":"db-migrations","ack":"${GATE_ACK}"}`;

function recorder(bridge: Bridge) {
  const items = new Map<string, FeedItem>();
  const states: ConnectionState['kind'][] = [];
  const events: LiveEvent[] = [];
  bridge.subscribe((event) => {
    events.push(event);
    if (event.type === 'items') for (const item of event.items) items.set(item.id, item);
    if (event.type === 'removed') for (const id of event.ids) items.delete(id);
    if (event.type === 'server' && states.at(-1) !== event.server.state.kind) states.push(event.server.state.kind);
  });
  const denials = () => [...items.values()].filter((i) => i.kind === 'denial');
  return { items, states, events, denials };
}

const fastRetry = { backoffInitialMs: 100, backoffMaxMs: 400 };

describe.skipIf(!opencodeBinary.ok)(`bridge ↔ real opencode serve${opencodeSkipNote}`, () => {
  let llm: FakeLlm;
  let server: OpencodeServer;
  let scratch: string;

  beforeAll(async () => {
    llm = await startFakeLlm();
    server = await OpencodeServer.start({ llmBaseUrl: llm.baseUrl });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-test-'));
  }, 240_000);

  afterAll(async () => {
    await server?.dispose();
    await llm?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('reports a gate denial live with session, tool, call id, agent and directive ids, and not an allowed call', async () => {
    const bridge = new Bridge({ dbFile: ':memory:', connection: fastRetry });
    const rec = recorder(bridge);
    try {
      const info = bridge.connect({ url: server.url });
      await waitFor(() => bridge.connection(info.id)?.state.kind === 'connected', 'connected');
      const session = await server.createSession('gate test');
      await server.prompt(session.id, DENY);
      const denial = await waitFor(() => rec.denials().find((d) => d.sessionID === session.id), 'the denial');
      expect(denial).toMatchObject({
        source: 'opencode',
        sessionID: session.id,
        tool: 'knowledge_probe',
        gate: 'KNOWLEDGE_ENFORCE_GATE_DENY',
        directiveIds: [GATE_DIRECTIVE_ID],
        agent: 'build',
        directory: server.projectDir,
        replayed: false,
      });
      expect(denial.callID).toMatch(/^call_fake_\d+$/);
      expect(denial.message).toContain(`(callID=${denial.callID})`);

      // the agent acknowledges and the same tool runs: one allowed call, no new denial
      await server.prompt(session.id, ALLOW);
      const followed = await waitFor(() => rec.items.get(denial.id)?.followUp?.outcome === 'retried_ok' && rec.items.get(denial.id), 'follow-up');
      expect(followed.followUp?.acknowledged).toContain(`APPLIED:${GATE_DIRECTIVE_ID}`);
      expect(rec.denials().filter((d) => d.sessionID === session.id)).toHaveLength(1);

      // a built-in tool denied by the same hook
      await server.prompt(session.id, 'CALL bash {"command":"echo GATE_ME","description":"gated"}');
      const bash = await waitFor(() => rec.denials().find((d) => d.tool === 'bash'), 'bash denial');
      expect(bash.directiveIds).toEqual([GATE_DIRECTIVE_ID]);
      expect(bridge.feed.store.query({ sessionID: session.id }, undefined, 50).items.map((i) => i.tool).sort()).toEqual(['bash', 'knowledge_probe']);
      expect(bridge.sessions().find((s) => s.id === session.id)).toMatchObject({ directory: server.projectDir, denials: 2 });
    } finally {
      await bridge.dispose();
    }
  }, 180_000);

  it('catches up through /sync/history on denials that happened while the bridge was cut off or stopped', async () => {
    const proxy = await TcpProxy.start(server.port);
    const dbFile = path.join(scratch, 'bridge.db');
    let bridge = new Bridge({ dbFile, connection: fastRetry });
    let rec = recorder(bridge);
    try {
      const info = bridge.connect({ url: proxy.url });
      await waitFor(() => bridge.connection(info.id)?.state.kind === 'connected', 'connected');
      await bridge.whenSynced();
      const session = await server.createSession('outage');

      await proxy.block();
      await waitFor(() => rec.states.includes('unreachable'), 'unreachable while blocked');
      await server.prompt(session.id, DENY); // the server denies while the bridge cannot see it
      expect(rec.denials().some((d) => d.sessionID === session.id)).toBe(false);
      await proxy.unblock();
      const caught = await waitFor(() => rec.denials().find((d) => d.sessionID === session.id), 'caught-up denial');
      expect(caught).toMatchObject({ replayed: true, tool: 'knowledge_probe', directiveIds: [GATE_DIRECTIVE_ID], agent: 'build' });
      expect(rec.states.slice(-4)).toEqual(['connected', 'reconnecting', 'unreachable', 'connected']);

      // stop the console's bridge entirely; it remembers the last seq per session in its database
      await bridge.dispose();
      await server.prompt(session.id, 'CALL bash {"command":"echo GATE_ME","description":"while stopped"}');
      bridge = new Bridge({ dbFile, connection: fastRetry });
      rec = recorder(bridge);
      bridge.connect({ url: proxy.url });
      const bash = await waitFor(() => rec.denials().find((d) => d.tool === 'bash' && d.sessionID === session.id), 'denial made while stopped');
      expect(bash.replayed).toBe(true);
      await bridge.whenSynced();
      // the first denial is not reported a second time, and the database holds each once
      expect(rec.denials().filter((d) => d.sessionID === session.id).map((d) => d.tool)).toEqual(['bash']);
      expect(bridge.feed.store.query({ sessionID: session.id }, undefined, 50).items).toHaveLength(2);
    } finally {
      await bridge.dispose();
      await proxy.close();
    }
  }, 180_000);

  it('shows reconnecting / unreachable while the server is down and follows it again after a restart', async () => {
    const bridge = new Bridge({ dbFile: ':memory:', connection: fastRetry });
    const rec = recorder(bridge);
    try {
      const info = bridge.connect({ url: server.url });
      await waitFor(() => bridge.connection(info.id)?.state.kind === 'connected', 'connected');
      await bridge.whenSynced();
      await server.stop();
      const down = await waitFor(() => {
        const s = bridge.connection(info.id)?.state;
        return s?.kind === 'unreachable' && s;
      }, 'unreachable');
      expect(down.reason).toBe('connection refused');
      expect(rec.states).toContain('reconnecting');
      await server.restart();
      await waitFor(() => bridge.connection(info.id)?.state.kind === 'connected', 'connected again', 60_000);
      const session = await server.createSession('after restart');
      await server.prompt(session.id, DENY);
      const denial = await waitFor(() => rec.denials().find((d) => d.sessionID === session.id), 'denial after restart');
      expect(denial.replayed).toBe(false);
      expect(bridge.servers()[0]?.version).toBe('1.18.33');
    } finally {
      await bridge.dispose();
    }
  }, 180_000);
});

describe.skipIf(!opencodeBinary.ok)(`bridge ↔ password-protected opencode serve${opencodeSkipNote}`, () => {
  let llm: FakeLlm;
  let server: OpencodeServer;

  beforeAll(async () => {
    llm = await startFakeLlm();
    server = await OpencodeServer.start({ llmBaseUrl: llm.baseUrl, password: 's3cret-pw' });
  }, 240_000);

  afterAll(async () => {
    await server?.dispose();
    await llm?.close();
  }, 60_000);

  it('says "unauthorised" for a wrong password and connects with the right one', async () => {
    const bridge = new Bridge({ dbFile: ':memory:', connection: fastRetry });
    try {
      const wrong = bridge.connect({ url: server.url, password: 'nope' });
      const state = await waitFor(() => {
        const s = bridge.connection(wrong.id)?.state;
        return s?.kind === 'unauthorised' && s;
      }, 'unauthorised');
      expect(state.reason).toContain('401');
      const none = bridge.connect({ url: server.url });
      await waitFor(() => bridge.connection(none.id)?.state.kind === 'unauthorised', 'unauthorised without password');

      const right = bridge.connect({ url: server.url, password: 's3cret-pw' });
      await waitFor(() => bridge.connection(right.id)?.state.kind === 'connected', 'connected');
      expect(JSON.stringify(bridge.servers())).not.toContain('s3cret-pw');
      expect(bridge.servers()[0]?.hasPassword).toBe(true);
      const session = await server.createSession('auth');
      await server.prompt(session.id, DENY);
      await waitFor(() => bridge.feed.recent(10).find((d) => d.sessionID === session.id), 'denial on the protected server');
    } finally {
      await bridge.dispose();
    }
  }, 180_000);
});
