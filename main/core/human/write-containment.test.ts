import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import type { CallerContext } from './confirmation';
import { stepObservers } from './write/pause-points';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { hiveLine } from '../../../testing/human/hive-fixture';
import { generatedSkill } from '../../../testing/skills/skills-workspace';
import { lines, swarmEntryV1 } from '../../../testing/stores/sample-records';

// Issue 18 item 5: every file a human-only command reads or writes obeys the read side's rule
// (stores/containment.ts): a symlink leading out of the project, the plugin's data folder and the
// link store is refused at the preview and again under the lock, naming the link and its target.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  stepObservers.clear();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const caller: CallerContext = { host: 'electron', confirmation: new FakeConfirmation(true) };
const OUTSIDE_TEXT = 'outside the workspace: never read, never replaced\n';

function workspace(opts: { linked?: boolean } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'write-containment-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  const hive = path.join(root, 'hive');
  const swarm = path.join(project, '.swarm');
  const outside = path.join(root, 'elsewhere');
  fs.mkdirSync(swarm, { recursive: true });
  fs.mkdirSync(hive, { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(hive, 'shared-learnings.jsonl'), `${hiveLine(1)}\n${hiveLine(2)}\n`);
  const entries = lines([swarmEntryV1({ id: 's1', lesson: 'first lesson' }), swarmEntryV1({ id: 's2', lesson: 'second lesson' })]);
  let knowledgeDir = swarm;
  if (opts.linked) {
    knowledgeDir = path.join(hive, 'links', 'team');
    fs.mkdirSync(knowledgeDir, { recursive: true });
    fs.writeFileSync(path.join(swarm, 'link.json'), JSON.stringify({ version: 1, linkId: 'team', createdAt: '2026-06-01T00:00:00.000Z', source: 'manual' }));
  }
  fs.writeFileSync(path.join(knowledgeDir, 'knowledge.jsonl'), entries);
  /** Replaces `file` (or folder) with a symlink to a new file (or folder) outside; returns the target. */
  const linkOut = (file: string, kind: 'file' | 'dir' = 'file') => {
    const target = path.join(outside, `${path.basename(file)}-${crypto.randomBytes(3).toString('hex')}`);
    if (kind === 'dir') fs.mkdirSync(target);
    else fs.writeFileSync(target, OUTSIDE_TEXT);
    fs.rmSync(file, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.symlinkSync(target, file);
    return target;
  };
  return { root, project, hive, swarm, outside, knowledgeDir, linkOut };
}

async function open(w: ReturnType<typeof workspace>): Promise<ConsoleCore> {
  const core = await createConsoleCore({ userDataDir: path.join(w.root, 'user-data'), host: 'electron', version: 'test' }, { project: w.project, hive: w.hive });
  cleanups.push(() => core.dispose());
  return core;
}

const call = (core: ConsoleCore, name: string, input: unknown) => core.dispatcher.forCaller(caller).call(name, input);
async function ok<T = any>(core: ConsoleCore, name: string, input: unknown): Promise<T> {
  const result = await call(core, name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}
async function refused(core: ConsoleCore, name: string, input: unknown): Promise<string> {
  const result = await call(core, name, input);
  expect(result.ok, `${name} should be refused`).toBe(false);
  return result.ok ? '' : result.error.message;
}
const commit = (token: string) => ({ token, reason: 'containment test', confirmation: {} });

/** The refusal names the symlink and where it leads. */
function expectNamed(message: string, link: string, target: string): void {
  expect(message).toContain(`${link} is a symlink outside the workspace`);
  expect(message).toContain(`it leads to ${target}`);
}

/** The link is still a link, and what it leads to was neither changed nor read into the answer. */
function expectUntouched(link: string, target: string, message = ''): void {
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  if (fs.statSync(target).isFile()) expect(fs.readFileSync(target, 'utf8')).toBe(OUTSIDE_TEXT);
  else expect(fs.readdirSync(target)).toEqual([]);
  expect(message).not.toContain(OUTSIDE_TEXT.trim());
}

describe('hive files symlinked out of the data folder', () => {
  for (const name of ['shared-learnings.jsonl', 'shared-learnings-quarantined.jsonl', 'shared-knowledge-events.jsonl'] as const) {
    it(`${name}: the quarantine preview is refused, naming the link and its target`, async () => {
      const w = workspace();
      const link = path.join(w.hive, name);
      const target = w.linkOut(link);
      const core = await open(w);
      const message = await refused(core, 'hive.quarantine.preview', { ids: ['hive-0001'] });
      expectNamed(message, link, target);
      expectUntouched(link, target, message);
    });

    it(`${name}: a commit previewed before the link appeared is refused, nothing written`, async () => {
      const w = workspace();
      const core = await open(w);
      const preview = await ok(core, 'hive.quarantine.preview', { ids: ['hive-0001'] });
      const link = path.join(w.hive, name);
      const target = w.linkOut(link);
      const message = await refused(core, 'hive.quarantine.commit', commit(preview.token));
      expectNamed(message, link, target);
      expectUntouched(link, target, message);
      expect(fs.existsSync(path.join(w.hive, 'quarantine-backups')) ? fs.readdirSync(path.join(w.hive, 'quarantine-backups')) : []).toEqual([]);
    });
  }

  it('shared-knowledge-events.jsonl swapped for a link while the commit waits for the lock: refused under the lock', async () => {
    const w = workspace();
    const core = await open(w);
    const preview = await ok(core, 'hive.quarantine.preview', { ids: ['hive-0001'] });
    const link = path.join(w.hive, 'shared-knowledge-events.jsonl');
    let target = '';
    stepObservers.add((step) => {
      if (step === 'holding-lock' && !target) target = w.linkOut(link);
    });
    const store = fs.readFileSync(path.join(w.hive, 'shared-learnings.jsonl'), 'utf8');
    const message = await refused(core, 'hive.quarantine.commit', commit(preview.token));
    expectNamed(message, link, target);
    expectUntouched(link, target, message);
    expect(fs.readFileSync(path.join(w.hive, 'shared-learnings.jsonl'), 'utf8')).toBe(store);
  });

  it('quarantine-backups/ as a symlink out: preview and commit refused, status lists nothing and says why', async () => {
    const w = workspace();
    const core = await open(w);
    const preview = await ok(core, 'hive.quarantine.preview', { ids: ['hive-0001'] });
    const link = path.join(w.hive, 'quarantine-backups');
    const target = w.linkOut(link, 'dir');
    expectNamed(await refused(core, 'hive.quarantine.preview', { ids: ['hive-0001'] }), link, target);
    expectNamed(await refused(core, 'hive.quarantine.commit', commit(preview.token)), link, target);
    expectNamed(await refused(core, 'hive.rollback.preview', { token: null }), link, target);
    const status = await ok(core, 'hive.quarantine.status', {});
    expect(status.backups).toEqual([]);
    expectNamed(status.notes[0], link, target);
    expectUntouched(link, target);
  });

  it('a backup folder inside quarantine-backups/ that is a symlink out: rollback refused, status names it', async () => {
    const w = workspace();
    const core = await open(w);
    const preview = await ok(core, 'hive.quarantine.preview', { ids: ['hive-0001'] });
    const done = await ok(core, 'hive.quarantine.commit', commit(preview.token));
    const link = path.join(fs.realpathSync(w.hive), 'quarantine-backups', done.backup);
    // The same backup, moved out and linked back: self-consistent, signed, but outside.
    const target = path.join(w.outside, 'moved-backup');
    fs.renameSync(link, target);
    fs.symlinkSync(target, link);
    const before = fs.readFileSync(path.join(w.hive, 'shared-learnings.jsonl'), 'utf8');
    expectNamed(await refused(core, 'hive.rollback.preview', { token: null }), link, target);
    expectNamed(await refused(core, 'hive.rollback.preview', { token: done.token12.slice(0, 6), allowUnsigned: true }), link, target);
    const status = await ok(core, 'hive.quarantine.status', {});
    expect(status.backups[0]).toMatchObject({ name: done.backup, verified: false });
    expectNamed(status.backups[0].problems[0], link, target);
    expect(fs.readFileSync(path.join(w.hive, 'shared-learnings.jsonl'), 'utf8')).toBe(before);
  });
});

describe('project and link-store files symlinked out of the workspace', () => {
  for (const name of ['knowledge.jsonl', 'knowledge-quarantined.jsonl', 'knowledge-rejected.jsonl'] as const) {
    it(`.swarm/${name}: quarantine preview refused; a commit previewed earlier refused; nothing written`, async () => {
      const w = workspace();
      const core = await open(w);
      const preview = await ok(core, 'swarm.quarantine.preview', { ids: ['s1'] });
      const link = path.join(w.swarm, name);
      const original = name === 'knowledge.jsonl' ? fs.readFileSync(link, 'utf8') : null;
      const target = w.linkOut(link);
      if (original !== null) fs.writeFileSync(target, original); // a store that reads well through the link
      const message = await refused(core, 'swarm.quarantine.commit', commit(preview.token));
      expectNamed(message, link, target);
      expectNamed(await refused(core, 'swarm.quarantine.preview', { ids: ['s1'] }), link, target);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(target, 'utf8')).toBe(original ?? OUTSIDE_TEXT);
    });
  }

  it('.swarm/knowledge-events.jsonl (read by restore for previous statuses): restore preview refused', async () => {
    const w = workspace();
    const link = path.join(w.swarm, 'knowledge-events.jsonl');
    const target = w.linkOut(link);
    const core = await open(w);
    const message = await refused(core, 'swarm.restore.preview', { ids: ['s1'] });
    expectNamed(message, link, target);
    expectUntouched(link, target, message);
  });

  it('.swarm/knowledge.jsonl out of the workspace: promote to the hive refused (it reads that store)', async () => {
    const w = workspace();
    const link = path.join(w.swarm, 'knowledge.jsonl');
    const target = w.linkOut(link);
    fs.writeFileSync(target, lines([swarmEntryV1({ id: 's1', lesson: 'first lesson' })]));
    const core = await open(w);
    const message = await refused(core, 'swarm.promote.preview', { id: 's1' });
    expectNamed(message, link, target);
    expect(fs.readFileSync(path.join(w.hive, 'shared-learnings.jsonl'), 'utf8')).toBe(`${hiveLine(1)}\n${hiveLine(2)}\n`);
  });

  it('a file of the link store symlinked out: refused; the link store itself (and the plugin`s own link symlink) still work', async () => {
    const w = workspace({ linked: true });
    // The plugin's own link symlink: .swarm/knowledge.jsonl → links/team/knowledge.jsonl stays allowed.
    fs.symlinkSync(path.join(w.knowledgeDir, 'knowledge.jsonl'), path.join(w.swarm, 'knowledge.jsonl'));
    const core = await open(w);
    const preview = await ok(core, 'swarm.quarantine.preview', { ids: ['s1'] });
    expect(preview.tier).toBe('link');
    const result = await ok(core, 'swarm.quarantine.commit', commit(preview.token));
    expect(result.state).toBe('committed');
    expect(fs.lstatSync(path.join(w.swarm, 'knowledge.jsonl')).isSymbolicLink()).toBe(true);

    const link = path.join(w.knowledgeDir, 'knowledge-rejected.jsonl');
    const target = w.linkOut(link);
    expectNamed(await refused(core, 'swarm.quarantine.preview', { ids: ['s2'] }), link, target);
    expectUntouched(link, target);
  });
});

describe('skill files symlinked out of the project', () => {
  function withDraft() {
    const w = workspace();
    fs.mkdirSync(path.join(w.swarm, 'skills', 'proposals'), { recursive: true });
    fs.writeFileSync(path.join(w.swarm, 'skills', 'proposals', 'scope.md'), generatedSkill('scope', { ids: ['s1'] }));
    return w;
  }

  it('.opencode/skills/generated/<slug>/SKILL.md as a symlink out: apply refused, naming the link and its target', async () => {
    const w = withDraft();
    const link = path.join(w.project, '.opencode', 'skills', 'generated', 'scope', 'SKILL.md');
    const target = w.linkOut(link);
    const core = await open(w);
    const preview = await ok(core, 'skills.apply.preview', { slug: 'scope', force: true, evaluate: false });
    expect(preview.plan.refusal).toMatchObject({ step: 'paths' });
    expect(preview.plan.refusal.reason).toContain(`${path.relative(w.project, link)} is a symlink leading outside`);
    expect(preview.plan.refusal.reason).toContain(`it leads to ${target}`);
    const result = await ok(core, 'skills.apply.commit', commit(preview.token));
    expect(result.state).not.toBe('committed');
    expectUntouched(link, target);
    expect(fs.existsSync(path.join(w.swarm, 'skills', 'proposals', 'scope.md'))).toBe(true);
  });

  it('.swarm/skills/proposals as a symlink out: apply and reject refused, naming the link and its target', async () => {
    const w = workspace();
    const link = path.join(w.swarm, 'skills', 'proposals');
    const target = w.linkOut(link, 'dir');
    fs.writeFileSync(path.join(target, 'scope.md'), generatedSkill('scope', { ids: ['s1'] }));
    const core = await open(w);
    const preview = await ok(core, 'skills.apply.preview', { slug: 'scope', force: false, evaluate: false });
    expect(preview.plan.refusal).toMatchObject({ step: 'paths' });
    expect(preview.plan.refusal.reason).toContain(`${path.relative(w.project, link)} is a symlink leading outside`);
    expect(preview.plan.refusal.reason).toContain(`it leads to ${target}`);
    const reject = await call(core, 'skills.reject.preview', { slug: 'scope' });
    expect(JSON.stringify(reject)).toContain(`it leads to ${target}`);
    expect(fs.readdirSync(target)).toEqual(['scope.md']);
    expect(fs.existsSync(path.join(w.project, '.opencode', 'skills', 'generated', 'scope'))).toBe(false);
  });
});
