import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Inboxes } from '../../../shared/contract/knowledge';
import { line, lines, rejectedLesson, swarmEntryV2 } from '../../../testing/stores/sample-records';
import type { ConsoleCore } from '../console-core';
import { callOk, openCore } from '../../../testing/stores/core-calls';
import { knowledgeOf } from './knowledge-handlers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(): Promise<{ core: ConsoleCore; rejectedFile: string }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inboxes-answer-'));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(
    path.join(project, '.swarm', 'knowledge.jsonl'),
    lines([
      swarmEntryV2({ id: 'a', lesson: 'Pin the lockfile before upgrading the toolchain.' }),
      swarmEntryV2({ id: 'b', lesson: 'Pin the lockfile before upgrading the toolchain again.' }),
    ]),
  );
  const rejectedFile = path.join(project, '.swarm', 'knowledge-rejected.jsonl');
  fs.writeFileSync(rejectedFile, line(rejectedLesson({ id: 'r1' })));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const core = await openCore(project, hive, cleanups, 'inboxes-answer-ud-');
  return { core, rejectedFile };
}

const call = callOk;

const rejectedIds = (inboxes: Inboxes) => inboxes.rejected.flatMap((group) => group.items.map((item) => item.id)).sort();

describe('the inboxes answer, kept while nothing changed', () => {
  it('is the same (checked and masked once) until the stores change, and is never served stale after an append', async () => {
    const { core, rejectedFile } = await open();
    await call(core, 'knowledge.inboxes');
    const service = knowledgeOf(core.context.workspaces.current);
    await service.settled();

    const first = await call<Inboxes>(core, 'knowledge.inboxes');
    expect(first.duplicatesFreshness.stale).toBe(false);
    expect(rejectedIds(first)).toEqual(['r1']);
    expect(await call<Inboxes>(core, 'knowledge.inboxes')).toBe(first);

    // Another process rejects a lesson holding a credential; once the index has the line, the next answer has it (masked).
    fs.appendFileSync(rejectedFile, line(rejectedLesson({ id: 'r2', lesson: 'Set DB_PASSWORD=hunter2hunter2 in the shared env file.', rejection_layer: 2 })));
    for (let i = 0; (await call(core, 'stores.entries', { limit: 1, filter: { id: 'r2' } })).total !== 1; i++) {
      if (i > 500) throw new Error('the index never showed the rejected line');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const next = await call<Inboxes>(core, 'knowledge.inboxes');
    expect(next).not.toBe(first);
    expect(rejectedIds(next)).toEqual(['r1', 'r2']);
    const r2 = next.rejected.flatMap((group) => group.items).find((item) => item.id === 'r2')!;
    expect(r2.lesson).toBe('Set DB_PASSWORD=••• in the shared env file.');

    await service.settled();
    const settled = await call<Inboxes>(core, 'knowledge.inboxes');
    expect(settled.duplicatesFreshness.stale).toBe(false);
    expect(rejectedIds(settled)).toEqual(['r1', 'r2']);
    expect(await call<Inboxes>(core, 'knowledge.inboxes')).toBe(settled);
  });
});
