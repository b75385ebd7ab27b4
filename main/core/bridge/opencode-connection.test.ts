import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionState, FeedItem } from '../../../shared/contract/live';
import { Bridge } from './bridge';
import { startFakeSseServer, syncToolPart, type FakeSseServer } from '../../../testing/bridge/fake-sse-server';
import { waitFor } from '../../../testing/bridge/wait';

// The stream-handling edge cases a real server will not produce on demand, against a tiny fake
// of the routes the bridge uses.

const DENY = 'KNOWLEDGE_ENFORCE_GATE_DENY: knowledge_probe blocked — critical knowledge directive(s) KD-0042 require KNOWLEDGE_APPLIED:KD-0042 before this tool may run';

let fake: FakeSseServer;
let bridge: Bridge;
let items: Map<string, FeedItem>;
let states: ConnectionState['kind'][];

async function connect(connection: ConstructorParameters<typeof Bridge>[0]['connection'] = {}) {
  bridge = new Bridge({ dbFile: ':memory:', connection: { backoffInitialMs: 50, backoffMaxMs: 200, ...connection } });
  items = new Map();
  states = [];
  bridge.subscribe((event) => {
    if (event.type === 'items') for (const item of event.items) items.set(item.id, item);
    if (event.type === 'server' && states.at(-1) !== event.server.state.kind) states.push(event.server.state.kind);
  });
  const info = bridge.connect({ url: fake.url });
  await fake.waitForStreams(1);
  await bridge.whenSynced();
  return bridge.connection(info.id)!;
}

beforeEach(async () => {
  fake = await startFakeSseServer();
});

afterEach(async () => {
  await bridge?.dispose();
  await fake.close();
});

describe('OpencodeConnection against a fake stream', () => {
  it('skips invalid JSON, unknown event types, malformed sync events and huge parts with counted warnings, and keeps going', async () => {
    const connection = await connect();
    fake.write('data: {not json at all\n\n');
    fake.send({ payload: { type: 'something.new.in.v2', properties: {} } });
    fake.send({ payload: { type: 'sync', syncEvent: { type: 'message.part.updated.1', seq: 'zero' } } });
    fake.send({ directory: '/x' });
    fake.write(`data: ${JSON.stringify({ payload: { type: 'message.part.updated', properties: { part: { text: 'x'.repeat(5 * 1024 * 1024) } } } })}\n\n`);
    fake.send(syncToolPart({ sessionID: 'ses_a', seq: 0, partID: 'prt_1', callID: 'call_1', tool: 'knowledge_probe', status: 'error', error: DENY }));
    const denial = await waitFor(() => [...items.values()].find((i) => i.callID === 'call_1'), 'the denial after the junk');
    expect(denial.directiveIds).toEqual(['KD-0042']);
    const warnings = connection.info().warnings;
    expect(warnings).toMatchObject({ invalidJson: 1, unknownType: 1, malformed: 2, oversized: 1 });
    expect(warnings.lastWarning).toBeTruthy();
    expect(connection.state.kind).toBe('connected');
  });

  it('keeps one copy of an event delivered plain, as sync, and twice, and ignores allowed calls', async () => {
    await connect();
    const sync = syncToolPart({ sessionID: 'ses_b', seq: 0, partID: 'prt_2', callID: 'call_2', tool: 'bash', status: 'error', error: 'SCOPE VIOLATION: src/x.ts is outside the task scope' });
    const payload = (sync as { payload: { syncEvent: { data: unknown } } }).payload.syncEvent.data;
    fake.send({ directory: '/tmp/fake-project', payload: { id: 'evt_x', type: 'message.part.updated', properties: payload } });
    fake.send(sync);
    fake.send(sync);
    fake.send(syncToolPart({ sessionID: 'ses_b', seq: 1, partID: 'prt_3', callID: 'call_3', tool: 'bash', status: 'completed', output: 'fine' }));
    fake.send(syncToolPart({ sessionID: 'ses_b', seq: 2, partID: 'prt_4', callID: 'call_4', tool: 'read', status: 'error', error: 'ENOENT: no such file' }));
    await waitFor(() => bridge.connection(bridge.servers()[0]!.id)!.processor.lastSeqs().ses_b === 2, 'seq 2 processed');
    const all = [...items.values()];
    expect(all.map((i) => [i.callID, i.gate])).toEqual([['call_2', 'SCOPE VIOLATION']]);
    expect(all[0]?.followUp?.outcome).toBe('retried_ok');
    expect(bridge.feed.store.query({}, undefined, 10).items).toHaveLength(1);
  });

  it('catches up through /sync/history when a seq is skipped', async () => {
    const connection = await connect();
    fake.send(syncToolPart({ sessionID: 'ses_c', seq: 0, partID: 'prt_5', callID: 'call_5', tool: 'bash', status: 'completed' }));
    await waitFor(() => connection.processor.lastSeqs().ses_c === 0, 'seq 0');
    // seq 1 (a denial) never reaches the stream; the server has it stored
    const missed = syncToolPart({ sessionID: 'ses_c', seq: 1, partID: 'prt_6', callID: 'call_6', tool: 'phase_complete', status: 'error', error: DENY });
    const stored = (missed as { payload: { syncEvent: { id: string; seq: number; type: string; data: unknown } } }).payload.syncEvent;
    fake.history.push({ id: stored.id, aggregate_id: 'ses_c', seq: 1, type: stored.type, data: stored.data });
    const next = syncToolPart({ sessionID: 'ses_c', seq: 2, partID: 'prt_7', callID: 'call_7', tool: 'bash', status: 'completed' });
    const nextStored = (next as { payload: { syncEvent: { id: string; type: string; data: unknown } } }).payload.syncEvent;
    fake.history.push({ id: nextStored.id, aggregate_id: 'ses_c', seq: 2, type: nextStored.type, data: nextStored.data });
    fake.send(next);
    const caught = await waitFor(() => items.get('oc:ses_c:prt_6'), 'caught-up denial');
    expect(caught).toMatchObject({ replayed: true, tool: 'phase_complete', callID: 'call_6' });
    await waitFor(() => connection.processor.lastSeqs().ses_c === 2, 'seq 2 after catch-up');
  });

  it('shows "connected but silent" when even heartbeats stop, then reconnects', async () => {
    const connection = await connect({ silentAfterMs: 1_200, restartAfterSilenceMs: 60_000 });
    const silent = await waitFor(() => connection.state.kind === 'silent' && connection.state, 'silent', 10_000);
    expect(silent.lastEventAt).toBeLessThanOrEqual(Date.now() - 1_200);
    fake.send({ payload: { type: 'server.heartbeat', properties: {} } });
    await waitFor(() => connection.state.kind === 'connected', 'connected after a heartbeat');
    // a clean close by the server: reconnect and catch up
    fake.endStreams();
    await waitFor(() => states.includes('reconnecting'), 'reconnecting');
    await waitFor(() => connection.state.kind === 'connected' && fake.streams() === 1, 'connected again');
  });

  it('stays unreachable with a reason while nothing listens, without throwing', async () => {
    await fake.close();
    bridge = new Bridge({ dbFile: ':memory:', connection: { backoffInitialMs: 50, backoffMaxMs: 100 } });
    const info = bridge.connect({ url: fake.url });
    const state = await waitFor(() => {
      const s = bridge.connection(info.id)?.state;
      return s?.kind === 'unreachable' && s;
    }, 'unreachable');
    expect(state.reason).toBe('connection refused');
    fake = await startFakeSseServer(); // for afterEach
  });
});
