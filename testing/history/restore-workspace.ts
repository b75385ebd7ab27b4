import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConsoleCore, type ConsoleCore } from '../../main/core/console-core';
import type { CallerContext } from '../../main/core/human/confirmation';
import { FakeConfirmation } from '../human/fake-confirmation';
import { lines } from '../stores/sample-records';
import { waitFor } from './plugin-writes';

/**
 * A project and a hive whose history the console records, for restore tests: write the stores,
 * open a core (a person confirms through a FakeConfirmation), let the plugin "forget" entries, and
 * call the contract as the Electron host does.
 */
export interface RestoreWorkspace {
  root: string;
  project: string;
  swarm: string;
  hive: string;
  userData: string;
  /** The knowledge family's folder: `.swarm`, or the link store `links/shared-ws` when linked. */
  dir: string;
  knowledge: string;
  hiveStore: string;
  core: ConsoleCore;
  person: FakeConfirmation;
  caller: CallerContext;
  call<T = any>(name: string, input: unknown): Promise<T>;
  /** The refusal message of a call that must fail. */
  refused(name: string, input: unknown): Promise<{ code: string; message: string }>;
  /** Rewrites `file` without the lines of `ids` (other lines byte for byte), then waits until history lists them as forgotten. */
  forget(file: string, ids: readonly string[]): Promise<void>;
  /** Waits until history has recorded `count` sightings open now. */
  settled(count: number): Promise<void>;
  backups(): string[];
}

export async function restoreWorkspace(stores: { swarm: unknown[]; hive?: unknown[]; files?: Record<string, string> }, cleanups: (() => unknown)[], options: { lockWaitMs?: number; linked?: boolean } = {}): Promise<RestoreWorkspace> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'history-restore-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'billing-api');
  const swarm = path.join(project, '.swarm');
  const hive = path.join(root, 'data', 'opencode-swarm');
  const userData = path.join(root, 'user-data');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  let dir = swarm;
  if (options.linked) {
    dir = path.join(hive, 'links', 'shared-ws');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'shared-ws', createdAt: '2026-06-01T00:00:00.000Z', source: 'manual' }, null, 2));
  }
  const knowledge = path.join(dir, 'knowledge.jsonl');
  const hiveStore = path.join(hive, 'shared-learnings.jsonl');
  fs.writeFileSync(knowledge, lines(stores.swarm));
  fs.writeFileSync(hiveStore, lines(stores.hive ?? []));
  for (const [name, text] of Object.entries(stores.files ?? {})) fs.writeFileSync(path.join(dir, name), text);
  const core = await createConsoleCore({ userDataDir: userData, host: 'electron', version: 'test', human: { lockWaitMs: options.lockWaitMs ?? 3_000, revertCheckMs: 3_600_000 } }, { project, hive });
  cleanups.push(() => core.dispose());
  const person = new FakeConfirmation(true);
  const caller: CallerContext = { host: 'electron', confirmation: person };
  const dispatch = (name: string, input: unknown) => core.dispatcher.forCaller(caller).call(name, input);
  const call = async (name: string, input: unknown) => {
    const result = await dispatch(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
    return result.value as any;
  };
  return {
    root,
    project,
    swarm,
    hive,
    userData,
    dir,
    knowledge,
    hiveStore,
    core,
    person,
    caller,
    call,
    async refused(name, input) {
      const result = await dispatch(name, input);
      if (result.ok) throw new Error(`${name} succeeded but was expected to be refused`);
      return { code: result.error.code, message: result.error.message };
    },
    async forget(file, ids) {
      const kept = fs
        .readFileSync(file, 'utf8')
        .split(/(?<=\n)/)
        .filter((l) => !ids.some((id) => l.includes(`"id":"${id}"`)));
      const temp = `${file}.tmp.${process.pid}`;
      fs.writeFileSync(temp, kept.join(''));
      fs.renameSync(temp, file);
      await waitFor(async () => {
        const { entries } = await call('history.forgotten', {});
        return ids.every((id) => entries.some((e: { id: string }) => e.id === id));
      }, 15_000, `history to list ${ids.join(', ')} as forgotten`);
    },
    async settled(count) {
      await waitFor(async () => (await call('history.asOf', { moment: 'now', limit: 5000 })).total === count, 15_000, `history to hold ${count} entries`);
    },
    backups() {
      const dir = path.join(userData, 'human-only', 'backups');
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    },
  };
}
