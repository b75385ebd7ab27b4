import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedItem, LiveEvent } from '../../../shared/contract/live';
import { Bridge } from './bridge';
import { parseGateEvent } from './events-log';
import { Feed } from './feed';
import { FeedStore } from './feed-store';
import { waitFor } from '../../../testing/bridge/wait';

const NOW = Date.UTC(2026, 10, 29, 18, 0, 0);

function liveDenial(over: Partial<FeedItem> = {}): FeedItem {
  return {
    id: `oc:ses_1:prt_${Math.random().toString(36).slice(2)}`,
    kind: 'denial',
    source: 'opencode',
    sources: ['opencode'],
    time: NOW - 1_000,
    serverId: 'srv_1',
    directory: '/work/proj',
    projectID: 'p1',
    sessionID: 'ses_1',
    messageID: 'msg_1',
    callID: 'call_1',
    agent: 'architect',
    tool: 'phase_complete',
    gate: 'KNOWLEDGE_ENFORCE_GATE_DENY',
    code: null,
    directiveIds: ['3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e'],
    message: 'KNOWLEDGE_ENFORCE_GATE_DENY: phase_complete blocked — …',
    input: null,
    replayed: false,
    followUp: { outcome: 'pending', acknowledged: [], actions: [] },
    extra: {},
    ...over,
  };
}

function eventsLine(record: Record<string, unknown>): FeedItem {
  const text = JSON.stringify(record);
  const { item } = parseGateEvent(record, text, '/work/proj');
  if (!item) throw new Error('not a gate event');
  return item;
}

const denyRecord = {
  timestamp: new Date(NOW - 900).toISOString(),
  event: 'knowledge_application_gate_deny',
  sessionID: 'ses_1',
  tool: 'phase_complete',
  agent: 'architect',
  entry_ids: ['3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e'],
  trace_ids: ['tr_1'],
  entry_set_key: '0123456789abcdef',
  denial_count: 1,
  max_gate_denials: 3,
};

function feedWithEvents() {
  const store = new FeedStore(':memory:');
  const feed = new Feed(store, 100, () => NOW);
  const events: LiveEvent[] = [];
  feed.subscribe((e) => events.push(e));
  return { store, feed, events };
}

describe('Feed', () => {
  it('keeps a denial seen live and again through catch-up once', () => {
    const { feed, store } = feedWithEvents();
    const item = liveDenial();
    expect(feed.add(item)).toBe(true);
    expect(feed.add({ ...item, replayed: true })).toBe(false);
    expect(store.query({}, undefined, 10).items).toHaveLength(1);
  });

  it('merges an events.jsonl deny into the live denial of the same call, in either order', () => {
    const a = feedWithEvents();
    const live = liveDenial();
    a.feed.add(live);
    expect(a.feed.add(eventsLine(denyRecord))).toBe(true);
    const [merged] = a.store.query({}, undefined, 10).items;
    expect(a.store.query({}, undefined, 10).items).toHaveLength(1);
    expect(merged).toMatchObject({ id: live.id, source: 'opencode', sources: ['opencode', 'events'] });
    expect(merged?.extra.denial_count).toBe(1);
    // reading events.jsonl again (a restart) adds nothing
    expect(a.feed.add(eventsLine(denyRecord))).toBe(false);

    const b = feedWithEvents();
    const first = eventsLine(denyRecord);
    b.feed.add(first);
    b.feed.add(live);
    const items = b.store.query({}, undefined, 10).items;
    expect(items.map((i) => i.id)).toEqual([live.id]);
    expect(items[0]?.sources).toEqual(['opencode', 'events']);
    expect(b.events.some((e) => e.type === 'removed' && e.ids.includes(first.id))).toBe(true);
  });

  it('does not merge a deny of another session, tool, time or directive', () => {
    const { feed, store } = feedWithEvents();
    feed.add(liveDenial());
    feed.add(eventsLine({ ...denyRecord, sessionID: 'ses_2' }));
    feed.add(eventsLine({ ...denyRecord, tool: 'save_plan' }));
    feed.add(eventsLine({ ...denyRecord, timestamp: new Date(NOW - 60_000).toISOString() }));
    feed.add(eventsLine({ ...denyRecord, entry_ids: ['0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'] }));
    expect(store.query({}, undefined, 10).items).toHaveLength(5);
  });

  it('raises one repeat alert when a directive blocks the same tool N times within the window', () => {
    const { feed, events } = feedWithEvents();
    feed.setRule({ enabled: true, threshold: 3, windowMinutes: 10 });
    for (let i = 0; i < 5; i++) feed.add(liveDenial({ time: NOW - 60_000 * i, callID: `call_${i}`, sessionID: i % 2 ? 'ses_1' : 'ses_2' }));
    feed.add(liveDenial({ time: NOW - 1000, tool: 'save_plan' }));
    const alerts = events.flatMap((e) => (e.type === 'repeat' ? [e.alert] : []));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ directiveId: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e', tool: 'phase_complete', count: 3, windowMinutes: 10 });
    expect(alerts[0]?.sessionIDs.sort()).toEqual(['ses_1', 'ses_2']);
  });

  it('pages newest first, filters, and counts per directive for the last hour and day', () => {
    const { feed, store } = feedWithEvents();
    feed.setRule({ enabled: false, threshold: 3, windowMinutes: 10 });
    for (let i = 0; i < 7; i++) feed.add(liveDenial({ time: NOW - i * 25 * 60_000, tool: i < 5 ? 'phase_complete' : 'save_plan' }));
    feed.add(liveDenial({ time: NOW - 2 * 86_400_000, directiveIds: ['KD-0001'], directory: '/other' }));
    feed.add(eventsLine({ timestamp: new Date(NOW).toISOString(), event: 'knowledge_application_gate_warn', tool: 'task', agent: 'architect', sessionID: 'ses_9', unacknowledged_critical_ids: ['KD-0001'] }));

    const page1 = store.query({}, undefined, 4);
    expect(page1.items.map((i) => i.time)).toEqual([...page1.items.map((i) => i.time)].sort((a, b) => b - a));
    const page2 = store.query({}, page1.nextCursor ?? undefined, 100);
    expect(page1.items.length + page2.items.length).toBe(9);
    expect(page2.nextCursor).toBeNull();
    expect(store.query({ tool: 'save_plan' }, undefined, 10).items).toHaveLength(2);
    expect(store.query({ directiveId: 'KD-0001' }, undefined, 10).items.map((i) => i.kind).sort()).toEqual(['denial', 'warn']);
    expect(store.query({ gate: 'knowledge_application_gate_warn' }, undefined, 10).items).toHaveLength(1);
    expect(store.query({ project: '/work/proj' }, undefined, 100).items).toHaveLength(8);
    expect(store.query({ text: 'BLOCKED —' }, undefined, 100).items).toHaveLength(8);

    const counters = store.counters(NOW, undefined, 10);
    const main = counters.find((c) => c.directiveId.startsWith('3f2b'));
    expect(main).toMatchObject({ lastHour: 3, lastDay: 7, total: 7 });
    expect(main?.tools).toEqual([{ tool: 'phase_complete', count: 5 }, { tool: 'save_plan', count: 2 }]);
    expect(counters.find((c) => c.directiveId === 'KD-0001')).toMatchObject({ lastHour: 0, lastDay: 0, total: 1 });
    expect(store.facets().gates).toEqual(['KNOWLEDGE_ENFORCE_GATE_DENY', 'knowledge_application_gate_warn']);
  });
});

describe('events.jsonl gate events', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('maps each gate event and ignores the other kinds of line', () => {
    const warn = eventsLine({ timestamp: '2026-11-29T18:00:00.000Z', event: 'knowledge_application_gate_warn', tool: 'save_plan', agent: 'architect', sessionID: 's', unacknowledged_critical_ids: ['a1b2c3d4'], dayKey: '2026-11-29' });
    expect(warn).toMatchObject({ kind: 'warn', source: 'events', gate: 'knowledge_application_gate_warn', directiveIds: ['a1b2c3d4'], time: Date.UTC(2026, 10, 29, 18) });
    expect(warn.extra.dayKey).toBe('2026-11-29');
    const reset = eventsLine({ timestamp: '2026-11-29T18:00:00Z', event: 'knowledge_application_gate_session_reset_clear', sessionID: 's', actor: 'user', command: '/swarm reset-session', cleared_entry_ids: ['x1'] });
    expect(reset).toMatchObject({ kind: 'clear', directiveIds: ['x1'] });
    const deny = eventsLine(denyRecord);
    expect(deny).toMatchObject({ kind: 'denial', gate: 'KNOWLEDGE_ENFORCE_GATE_DENY', tool: 'phase_complete', sessionID: 'ses_1' });
    expect(parseGateEvent({ timestamp: 'x', type: 'curator_compliance', phase: 1 }, '{}', '/p').item).toBeNull();
    expect(parseGateEvent({ event: 'knowledge_application_gate_warn', timestamp: 'not a date' }, '{}', '/p').problem).toContain('timestamp');
  });

  it('raises repeat alerts for denials appended while following, not for the history read at start', async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'events-repeat-'));
    dirs.push(project);
    fs.mkdirSync(path.join(project, '.swarm'));
    const file = path.join(project, '.swarm', 'events.jsonl');
    const deny = (n: number) => `${JSON.stringify({ ...denyRecord, sessionID: `ses_${n}`, timestamp: new Date(Date.now() - 1000 + n).toISOString() })}\n`;
    fs.writeFileSync(file, deny(1) + deny(2));
    const bridge = new Bridge({ dbFile: ':memory:' });
    const alerts: LiveEvent[] = [];
    bridge.subscribe((e) => e.type === 'repeat' && alerts.push(e));
    try {
      bridge.feed.setRule({ enabled: true, threshold: 2, windowMinutes: 10 });
      await bridge.followProject(project);
      expect(bridge.feed.store.query({}, undefined, 10).items).toHaveLength(2);
      expect(alerts).toEqual([]);
      fs.appendFileSync(file, deny(3));
      await waitFor(() => alerts.length === 1, 'repeat alert for the appended denial');
      expect(alerts[0]).toMatchObject({ alert: { tool: 'phase_complete', count: 3 } });
    } finally {
      await bridge.dispose();
    }
  });

  it('follows the file: appends, a half-written line, a corrupt line, and a rewrite, without duplicates', async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'events-follow-'));
    dirs.push(project);
    const bridge = new Bridge({ dbFile: ':memory:' });
    try {
      await bridge.followProject(project); // no .swarm yet
      fs.mkdirSync(path.join(project, '.swarm'));
      const file = path.join(project, '.swarm', 'events.jsonl');
      const line = (i: number) => JSON.stringify({ timestamp: new Date(NOW + i).toISOString(), event: 'knowledge_application_gate_warn', tool: 'task', agent: 'architect', sessionID: `s${i}`, unacknowledged_critical_ids: ['KD-0001'] });
      fs.writeFileSync(file, `${line(1)}\n{"type":"curator_compliance","timestamp":"2026-11-29T18:00:00Z"}\n`);
      await waitFor(() => bridge.feed.store.query({}, undefined, 10).items.length === 1, 'first line');
      fs.appendFileSync(file, `{broken json\n${line(2)}\n${line(3).slice(0, 30)}`);
      await waitFor(() => bridge.feed.store.query({}, undefined, 10).items.length === 2, 'second line');
      fs.appendFileSync(file, `${line(3).slice(30)}\n`);
      await waitFor(() => bridge.feed.store.query({}, undefined, 10).items.length === 3, 'completed third line');
      expect(bridge.eventsLog?.status.defects).toBe(1);
      // the plugin rewrote the file (e.g. rotation): old lines are recognised, the new one is added
      fs.writeFileSync(`${file}.tmp`, `${line(2)}\n${line(4)}\n`);
      fs.renameSync(`${file}.tmp`, file);
      await waitFor(() => bridge.feed.store.query({}, undefined, 10).items.length === 4, 'line after rewrite');
      expect(bridge.feed.store.query({}, undefined, 10).items.map((i) => i.sessionID)).toEqual(['s4', 's3', 's2', 's1']);
    } finally {
      await bridge.dispose();
    }
  });
});
