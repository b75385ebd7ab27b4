import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import type { CallerContext } from './confirmation';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { hiveLine } from '../../../testing/human/hive-fixture';
import { lines, swarmEntryV1 } from '../../../testing/stores/sample-records';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imported-refusal-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const swarm = path.join(project, '.swarm');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), `${hiveLine(1)}\n`);
  fs.writeFileSync(path.join(swarm, 'knowledge.jsonl'), lines([swarmEntryV1({ id: 's1', lesson: 'first lesson' }), swarmEntryV1({ id: 's2', lesson: 'second lesson' })]));
  return { root, project, hive, swarm };
}

async function open(w: ReturnType<typeof workspace>): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: path.join(w.root, 'user-data'), host: 'electron', version: 'test' }, { project: w.project, hive: w.hive });
  cleanups.push(() => core.dispose());
  return core;
}

const call = (core: ConsoleCore, name: string, input: unknown) => core.dispatcher.forCaller(caller).call(name, input);
const tree = (dir: string) =>
  Object.fromEntries(fs.readdirSync(dir).sort().map((n) => [n, crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, n))).digest('hex')]));

describe('human-only writes to a store the plugin imported into swarm.db', () => {
  it('refuses the preview, with the reason', async () => {
    const w = workspace();
    fs.renameSync(path.join(w.swarm, 'knowledge.jsonl'), path.join(w.swarm, 'knowledge.jsonl.imported'));
    const core = await open(w);
    const before = tree(w.swarm);
    for (const [op, input] of [
      ['swarm.quarantine.preview', { ids: ['s1'] }],
      ['swarm.restore.preview', { ids: ['s1'] }],
      ['swarm.archive.preview', { ids: ['s1'] }],
      ['swarm.promote.preview', { id: 's1' }],
    ] as const) {
      const result = await call(core, op, input);
      expect(result.ok, op).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('forbidden');
        expect(result.error.message).toContain("knowledge.jsonl has been imported into the plugin's swarm.db");
        expect(result.error.message).toContain('writing it would change nothing it uses');
      }
    }
    expect(tree(w.swarm)).toEqual(before);
  });

  it('refuses a commit whose preview came before the plugin imported the store, and writes nothing', async () => {
    const w = workspace();
    const core = await open(w);
    const preview = await call(core, 'swarm.quarantine.preview', { ids: ['s1'] });
    expect(preview.ok).toBe(true);
    fs.renameSync(path.join(w.swarm, 'knowledge.jsonl'), path.join(w.swarm, 'knowledge.jsonl.imported'));
    const before = tree(w.swarm);
    const token = (preview as { value: { token: string } }).value.token;
    const commit = await call(core, 'swarm.quarantine.commit', { token, reason: 'test', confirmation: {} });
    expect(commit.ok).toBe(false);
    if (!commit.ok) expect(commit.error.message).toContain("has been imported into the plugin's swarm.db");
    expect(tree(w.swarm)).toEqual(before);
  });

  it('refuses hive quarantine once the hive store was imported', async () => {
    const w = workspace();
    fs.renameSync(path.join(w.hive, 'shared-learnings.jsonl'), path.join(w.hive, 'shared-learnings.jsonl.imported'));
    const core = await open(w);
    const result = await call(core, 'hive.quarantine.preview', { ids: ['hive-1'] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain("shared-learnings.jsonl has been imported into the plugin's database");
  });
});
