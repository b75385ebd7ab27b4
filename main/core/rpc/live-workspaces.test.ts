import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectiveCounter, FeedItem, LiveEvent } from '../../../shared/contract/live';
import { RELEASED_IDS } from '../../demo/released/ids';
import { startFakeSseServer, syncToolPart, type FakeSseServer } from '../../../testing/bridge/fake-sse-server';
import { waitFor } from '../../../testing/bridge/wait';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { demoWorkspaces } from '../../demo/week/demo-workspaces';

// Issue 13 item 1: one user-data folder (one bridge.db) and several workspaces. Live history,
// counters, facets, sessions, pushed items and repeat alerts belong to the project they came from.

const DENY = (id: string) => `KNOWLEDGE_ENFORCE_GATE_DENY: save_plan blocked — critical knowledge directive(s) ${id} require KNOWLEDGE_APPLIED:${id} before this action.`;

let root: string;
let other: string;
let fake: FakeSseServer;
let core: ConsoleCore;

async function call<T>(name: string, input: unknown): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
const feed = async () => (await call<{ items: FeedItem[] }>('live.feed', { limit: 500 })).items;
const demoDir = (name: string) => path.join(root, 'user-data', 'demo', name);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'live-workspaces-'));
  other = path.join(root, 'shop');
  fs.mkdirSync(path.join(other, '.swarm'), { recursive: true });
  fs.writeFileSync(
    path.join(other, '.swarm', 'events.jsonl'),
    `${JSON.stringify({ timestamp: new Date().toISOString(), event: 'knowledge_application_gate_warn', tool: 'save_plan', agent: 'architect', sessionID: 'ses_shop', unacknowledged_critical_ids: ['KD-0042'] })}\n`,
  );
  fake = await startFakeSseServer();
  core = await createConsoleCore({ userDataDir: path.join(root, 'user-data'), host: 'browser', version: 'test', demo: demoWorkspaces }, { project: null });
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  await fake?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('live history per workspace', () => {
  it('never shows the demo’s history in another project, and keeps each project’s own', async () => {
    // The demo ran once: its events.jsonl denials are in bridge.db now.
    const demoItems = await feed();
    expect(demoItems.some((i) => i.kind === 'denial')).toBe(true);
    const demoDirectives = new Set(demoItems.flatMap((i) => i.directiveIds));
    expect((await call<DirectiveCounter[]>('live.counters', {})).length).toBeGreaterThan(0);

    await call('workspace.open', { project: other, hive: path.join(root, 'hive') });
    const own = await feed();
    expect(own.map((i) => [i.kind, i.directiveIds])).toEqual([['warn', ['KD-0042']]]);
    expect(await call<DirectiveCounter[]>('live.counters', {})).toEqual([]);
    const facets = await call<{ projects: string[]; directives: string[]; sessions: string[] }>('live.facets', {});
    expect(facets).toMatchObject({ projects: [other], directives: ['KD-0042'], sessions: ['ses_shop'] });
    expect(facets.directives.some((id) => demoDirectives.has(id))).toBe(false);
    // asking for the demo's folder explicitly does not reach outside the open workspace either
    expect((await call<{ items: FeedItem[] }>('live.feed', { filter: { project: demoDir('billing-api') } })).items).toEqual([]);

    // the released demo's main worktree: its own four warnings and the missing-session one, nothing else
    await call('workspace.open', { project: demoDir('inventory-api') });
    const released = await feed();
    expect(released).toHaveLength(5);
    expect(released.every((i) => i.directory === demoDir('inventory-api') && i.kind === 'warn')).toBe(true);
    expect(new Set(released.flatMap((i) => i.directiveIds))).toEqual(new Set([RELEASED_IDS.criticalEnforced, RELEASED_IDS.criticalUnanswered]));
    // its linked worktree shares the link store, not the gate history
    await call('workspace.open', { project: demoDir('inventory-api-hotfix') });
    expect((await feed()).every((i) => i.directory === demoDir('inventory-api-hotfix'))).toBe(true);

    await call('workspace.open', { project: null });
    expect((await feed()).map((i) => i.id).sort()).toEqual(demoItems.map((i) => i.id).sort());
  }, 120_000);

  it('pushes, counts and alerts only what happens in the open workspace', async () => {
    await call('workspace.open', { project: other, hive: path.join(root, 'hive') });
    const events: LiveEvent[] = [];
    const sub = core.dispatcher.subscribe('live.events', {}, (e) => events.push(e as LiveEvent));
    if (!sub.ok) throw new Error('subscribe failed');
    await call('live.setRules', { enabled: true, threshold: 2, windowMinutes: 10 });
    await call('live.connect', { url: fake.url });
    await fake.waitForStreams(1);

    // two denials in the demo's folder, then two in the open project
    const elsewhere = demoDir('billing-api');
    fake.send(syncToolPart({ sessionID: 'ses_demo', seq: 0, partID: 'p1', callID: 'c1', tool: 'save_plan', status: 'error', error: DENY('KD-0099'), directory: elsewhere }));
    fake.send(syncToolPart({ sessionID: 'ses_demo', seq: 1, partID: 'p2', callID: 'c2', tool: 'save_plan', status: 'error', error: DENY('KD-0099'), directory: elsewhere }));
    fake.send(syncToolPart({ sessionID: 'ses_here', seq: 0, partID: 'p3', callID: 'c3', tool: 'save_plan', status: 'error', error: DENY('KD-0042'), directory: other }));
    fake.send(syncToolPart({ sessionID: 'ses_here', seq: 1, partID: 'p4', callID: 'c4', tool: 'save_plan', status: 'error', error: DENY('KD-0042'), directory: path.join(other, 'web') }));

    // a session OpenCode never placed in a folder: shown in every workspace rather than lost
    fake.send(syncToolPart({ sessionID: 'ses_nowhere', seq: 0, partID: 'p5', callID: 'c5', tool: 'task', status: 'error', error: DENY('KD-0077'), directory: 'global' }));
    const alert = await waitFor(() => events.find((e) => e.type === 'repeat'), 'repeat alert in this workspace');
    expect(alert).toMatchObject({ alert: { directiveId: 'KD-0042', count: 2 } });
    await waitFor(async () => (await feed()).filter((i) => i.kind === 'denial').length === 3, 'own and unplaced denials stored');
    await waitFor(() => events.some((e) => e.type === 'items' && e.items.some((i) => i.callID === 'c5')), 'the unplaced denial');
    expect(events.flatMap((e) => (e.type === 'items' ? e.items : [])).map((i) => i.callID).sort()).toEqual(['c3', 'c4', 'c5']);
    expect(events.filter((e) => e.type === 'repeat').map((e) => (e.type === 'repeat' ? e.alert.directiveId : ''))).toEqual(['KD-0042']);
    expect((await call<DirectiveCounter[]>('live.counters', {})).map((c) => [c.directiveId, c.total]).sort()).toEqual([['KD-0042', 2], ['KD-0077', 1]]);
    expect((await call<{ sessions: string[] }>('live.facets', {})).sessions.sort()).toEqual(['ses_here', 'ses_nowhere', 'ses_shop']);

    // the other workspace's denials were kept for it
    await call('workspace.open', { project: null });
    expect((await feed()).filter((i) => i.callID).map((i) => i.callID).sort()).toEqual(['c1', 'c2', 'c5']);
    sub.value();
  }, 120_000);
});
