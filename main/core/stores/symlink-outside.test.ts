import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, openCore } from '../../../testing/stores/core-calls';
import { gateWarnEvent, hiveEntry, line, lines, swarmEntryV2, unactionableEntry } from '../../../testing/stores/sample-records';

// Issue 10 item 8: a store path that leads out of the project and the plugin's data folder is not
// read, and says so with its target; no byte of the target shows anywhere.

const SECRET = 'TOPSECRET-credential-7f3a';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export function symlinkWorkspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'symlink-outside-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  const swarm = path.join(project, '.swarm');
  const hive = path.join(root, 'hive');
  const outside = path.join(root, 'elsewhere');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(path.join(hive, 'links', 'team'), { recursive: true });
  fs.mkdirSync(outside);
  // Outside: a "credentials" file (not JSON) and a well-formed JSONL store with the marker inside.
  fs.writeFileSync(path.join(outside, 'credentials'), `${SECRET}=hunter2\nline two ${SECRET}\n`);
  fs.writeFileSync(path.join(outside, 'store.jsonl'), lines([swarmEntryV2({ id: 'outside-entry', lesson: `Never shown: ${SECRET} appears only outside the workspace.` })]));
  fs.writeFileSync(path.join(outside, 'events.jsonl'), line(gateWarnEvent({ message: SECRET })));
  fs.symlinkSync(path.join(outside, 'credentials'), path.join(swarm, 'knowledge.jsonl'));
  fs.symlinkSync(path.join(outside, 'store.jsonl'), path.join(swarm, 'knowledge-rejected.jsonl'));
  fs.symlinkSync(path.join(outside, 'events.jsonl'), path.join(swarm, 'events.jsonl'));
  fs.symlinkSync(path.join(outside, 'credentials'), path.join(swarm, 'curator-summary.json'));
  // Inside: a symlink into the hive's link store (as a later plugin may make, docs/plugin-formats.md#link-symlinks) is read.
  fs.writeFileSync(path.join(hive, 'links', 'team', 'knowledge-unactionable.jsonl'), lines([unactionableEntry({ id: 'inside-entry' })]));
  fs.symlinkSync(path.join(hive, 'links', 'team', 'knowledge-unactionable.jsonl'), path.join(swarm, 'knowledge-unactionable.jsonl'));
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), lines([hiveEntry({ id: 'hive-entry' })]));
  return { root, project, swarm, hive, outside };
}

const open = (project: string, hive: string) => openCore(project, hive, cleanups, 'symlink-outside-ud-');
const call = callOk;

describe('store paths that lead out of the workspace', () => {
  it('are not read: unreadable with "symlink outside the workspace — not read" and the target; nothing of the target shows', async () => {
    const ws = symlinkWorkspace();
    const core = await open(ws.project, ws.hive);
    const summary = await call(core, 'stores.summary');
    const byKey = Object.fromEntries(summary.stores.map((s: any) => [s.key, s]));
    for (const [key, target] of [
      ['knowledge', 'credentials'],
      ['knowledge-rejected', 'store.jsonl'],
      ['events', 'events.jsonl'],
      ['curator-summary', 'credentials'],
    ] as const) {
      expect(byKey[key], key).toMatchObject({ status: 'unreadable', records: 0, defects: 0 });
      expect(byKey[key].message, key).toContain('symlink outside the workspace — not read');
      expect(byKey[key].message, key).toContain(path.join(ws.outside, target));
    }
    expect(byKey['knowledge-unactionable']).toMatchObject({ status: 'ok', records: 1, defects: 0 });

    const entries = await call(core, 'stores.entries', { limit: 500 });
    expect(entries.items.map((e: any) => e.id).sort()).toEqual(['hive-entry', 'inside-entry']);
    const everything = JSON.stringify([
      summary,
      entries,
      await call(core, 'stores.defects', {}),
      await call(core, 'stores.events', {}),
      await call(core, 'stores.records', { store: 'curator-summary' }),
      await call(core, 'receipts.sources'),
      await call(core, 'receipts.obligations', {}),
    ]);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('hunter2');
  });

  it('a .swarm folder that is itself a symlink out of the project is not read either', async () => {
    const ws = symlinkWorkspace();
    const moved = path.join(ws.outside, 'swarm-elsewhere');
    fs.mkdirSync(moved);
    fs.writeFileSync(path.join(moved, 'knowledge.jsonl'), lines([swarmEntryV2({ id: 'outside-swarm-entry', lesson: `Only outside: ${SECRET}.` })]));
    fs.rmSync(ws.swarm, { recursive: true });
    fs.symlinkSync(moved, ws.swarm);
    const core = await open(ws.project, ws.hive);
    const summary = await call(core, 'stores.summary');
    const knowledge = summary.stores.find((s: any) => s.key === 'knowledge');
    expect(knowledge).toMatchObject({ status: 'unreadable' });
    expect(knowledge.message).toContain(`symlink outside the workspace — not read (it leads to ${path.join(moved, 'knowledge.jsonl')})`);
    const entries = await call(core, 'stores.entries', { limit: 500 });
    expect(entries.items.map((e: any) => e.id)).toEqual(['hive-entry']);
    expect(JSON.stringify([summary, entries])).not.toContain(SECRET);
  });

  it('are read when the operator allows it for this opening of the workspace, and refused again when reopened without', async () => {
    const ws = symlinkWorkspace();
    const core = await open(ws.project, ws.hive);
    const allowed = await call(core, 'workspace.open', { project: ws.project, hive: ws.hive, allowSymlinksOutside: true });
    expect(allowed.project.symlinksOutsideAllowed).toBe(true);
    const summary = await call(core, 'stores.summary');
    const rejected = summary.stores.find((s: any) => s.key === 'knowledge-rejected');
    expect(rejected.records).toBe(1);
    expect(rejected.message).toContain(`symlink to ${path.join(ws.outside, 'store.jsonl')}`);
    expect((await call(core, 'stores.entries', { filter: { id: 'outside-entry' } })).total).toBe(1);

    const again = await call(core, 'workspace.open', { project: ws.project, hive: ws.hive });
    expect(again.project.symlinksOutsideAllowed).toBe(false);
    const refused = await call(core, 'stores.summary');
    expect(refused.stores.find((s: any) => s.key === 'knowledge-rejected')).toMatchObject({ status: 'unreadable', records: 0 });
    expect((await call(core, 'stores.entries', { filter: { id: 'outside-entry' } })).total).toBe(0);
  });
});
