import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConsoleCore, type ConsoleCore } from '../../main/core/console-core';
import type { CallerContext } from '../../main/core/human/confirmation';
import { generatedSkill } from '../skills/skills-workspace';
import { swarmEntryV1 } from '../stores/sample-records';
import { FakeConfirmation } from './fake-confirmation';
import { hiveLine } from './hive-fixture';
import { waitFor } from '../history/plugin-writes';

/**
 * Every human-only command that writes through the one write protocol, on one real workspace:
 * a project (`billing-api`, optionally linked to `links/shared-ws`) with swarm entries (one
 * archived, with its tombstone), a skill draft citing them, a rejected-edit ledger, and a hive. For the write-safety
 * tests, which run the same check against each command.
 */
export interface CommandWorkspace {
  root: string;
  project: string;
  hive: string;
  swarm: string;
  /** Where the knowledge family lives (`.swarm` or the link store). */
  dir: string;
  userData: string;
  core: ConsoleCore;
  person: FakeConfirmation;
  caller: CallerContext;
  /** sha256 of every file under the project, the hive and the console's backup folders. */
  tree(): Record<string, string>;
  call<T = any>(name: string, input: unknown): Promise<T>;
  dispose(): Promise<void>;
}

const entry = (i: number, overrides: Record<string, unknown> = {}) =>
  JSON.stringify(swarmEntryV1({ id: `swarm-${i}`, lesson: `Swarm lesson ${i}: distinct text so each line hashes differently.`, ...overrides }));

function walk(dir: string, out: Record<string, string>, root: string): void {
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    if (stat.isDirectory()) walk(file, out, root);
    else out[path.relative(root, file)] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
}

export async function commandWorkspace(options: { linked?: boolean; lockWaitMs?: number } = {}): Promise<CommandWorkspace> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'human-commands-'));
  const project = path.join(root, 'billing-api');
  const hive = path.join(root, 'data', 'opencode-swarm');
  const swarm = path.join(project, '.swarm');
  const userData = path.join(root, 'user-data');
  fs.mkdirSync(path.join(swarm, 'skills', 'proposals'), { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), `${[1, 2, 3].map((i) => hiveLine(i)).join('\n')}\n`);
  let dir = swarm;
  if (options.linked) {
    dir = path.join(hive, 'links', 'shared-ws');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'shared-ws', createdAt: '2026-06-01T00:00:00.000Z', source: 'manual' }, null, 2));
  }
  fs.writeFileSync(path.join(dir, 'knowledge.jsonl'), `${[entry(1), entry(2, { status: 'established' }), '{"id":"torn', entry(3), entry(4, { status: 'archived' })].join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'knowledge-events.jsonl'), `${JSON.stringify({ schema_version: 1, type: 'archived', entry_id: 'swarm-4', tier: 'swarm', previous_status: 'established', event_id: 'e1', timestamp: '2026-06-30T00:00:00.000Z' })}\n`);
  fs.writeFileSync(path.join(swarm, 'skills', 'proposals', 'scope.md'), generatedSkill('scope', { ids: ['swarm-1', 'hive-0001'] }));
  // An earlier rejection of another skill, so a reject has a ledger to back up and rewrite.
  fs.writeFileSync(path.join(swarm, 'skills', 'rejected-edits.jsonl'), `${JSON.stringify({ timestamp: '2026-11-01T00:00:00.000Z', slug: 'other', operation: 'operator_reject', reason: 'x', candidateHash: 'a'.repeat(64) })}\n`);
  const core = await createConsoleCore({ userDataDir: userData, host: 'electron', version: 'test', human: { lockWaitMs: options.lockWaitMs ?? 3_000, revertCheckMs: 3_600_000 } }, { project, hive });
  const person = new FakeConfirmation(true);
  const caller: CallerContext = { host: 'electron', confirmation: person };
  return {
    root,
    project,
    hive,
    swarm,
    dir,
    userData,
    core,
    person,
    caller,
    tree() {
      const out: Record<string, string> = {};
      for (const d of [project, hive, path.join(userData, 'human-only', 'backups'), path.join(userData, 'human-only', 'skill-backups')]) walk(d, out, root);
      return out;
    },
    async call(name, input) {
      const result = await core.dispatcher.forCaller(caller).call(name, input);
      if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
      return result.value as any;
    },
    async dispose() {
      await core.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface HumanCommandCase {
  /** The commit operation, e.g. `hive.quarantine.commit`. */
  op: string;
  /** Any commits it depends on (a rollback needs a quarantine), then its preview: the token. */
  prepare(w: CommandWorkspace): Promise<string>;
}

/**
 * What the plugin does when it drops an entry (a cap eviction): `knowledge.jsonl` rewritten by temp + rename
 * without the entry, every other line byte for byte; then history lists it as forgotten.
 */
export async function forgetEntry(w: CommandWorkspace, id: string): Promise<void> {
  const file = path.join(w.dir, 'knowledge.jsonl');
  await waitFor(async () => (await w.call('history.timeline', { id })).versions.length > 0, 15_000, `history to record ${id}`);
  const kept = fs.readFileSync(file, 'utf8').split(/(?<=\n)/).filter((l) => !l.includes(`"id":"${id}"`));
  fs.writeFileSync(`${file}.tmp.${process.pid}`, kept.join(''));
  fs.renameSync(`${file}.tmp.${process.pid}`, file);
  await waitFor(async () => (await w.call('history.forgotten', {})).entries.some((e: { id: string }) => e.id === id), 15_000, `history to list ${id} as forgotten`);
}

const previewOf = (name: string, input: unknown) => async (w: CommandWorkspace) => (await w.call(`${name}.preview`, input)).token as string;

export const HUMAN_COMMANDS: HumanCommandCase[] = [
  { op: 'hive.quarantine.commit', prepare: previewOf('hive.quarantine', { ids: ['hive-0001'] }) },
  {
    op: 'hive.rollback.commit',
    async prepare(w) {
      const token = await previewOf('hive.quarantine', { ids: ['hive-0002'] })(w);
      await w.call('hive.quarantine.commit', { token, reason: 'before the rollback', confirmation: {} });
      return previewOf('hive.rollback', { token: null })(w);
    },
  },
  { op: 'swarm.quarantine.commit', prepare: previewOf('swarm.quarantine', { ids: ['swarm-1'] }) },
  { op: 'swarm.restore.commit', prepare: previewOf('swarm.restore', { ids: ['swarm-4'] }) },
  { op: 'swarm.archive.commit', prepare: previewOf('swarm.archive', { ids: ['swarm-3'] }) },
  { op: 'swarm.promote.commit', prepare: previewOf('swarm.promote', { id: 'swarm-2' }) },
  { op: 'skills.apply.commit', prepare: previewOf('skills.apply', { slug: 'scope', evaluate: false }) },
  { op: 'skills.reject.commit', prepare: previewOf('skills.reject', { slug: 'scope' }) },
  {
    op: 'history.restore.commit',
    async prepare(w) {
      await forgetEntry(w, 'swarm-3');
      return previewOf('history.restore', { id: 'swarm-3' })(w);
    },
  },
];
