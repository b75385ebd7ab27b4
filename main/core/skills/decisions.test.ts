import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import type { CallerContext } from '../human/confirmation';
import { FakeConfirmation } from '../../../testing/human/fake-confirmation';
import { DEMO_IDS as ID } from '../../demo/ids';
import { makeDemo, type DemoFixture } from '../../../testing/demo/demo-workspace';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(revertCheckMs = 60_000): Promise<{ core: ConsoleCore; demo: DemoFixture; person: FakeConfirmation; caller: CallerContext }> {
  const demo = makeDemo();
  cleanups.push(demo.cleanup);
  const core = await createConsoleCore({ userDataDir: path.join(demo.root, 'ud'), host: 'electron', version: 'test', human: { lockWaitMs: 2_000, revertCheckMs } }, { project: demo.projectDir, hive: demo.hiveDir });
  cleanups.push(() => core.dispose());
  const person = new FakeConfirmation(true);
  return { core, demo, person, caller: { host: 'electron', confirmation: person } };
}

async function ok<T = any>(core: ConsoleCore, caller: CallerContext, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.forCaller(caller).call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

const swarmLines = (demo: DemoFixture) => fs.readFileSync(demo.swarm('knowledge.jsonl'), 'utf8').split('\n');
const project = (demo: DemoFixture, rel: string) => path.join(demo.projectDir, rel);

describe('skill decisions as human-only commands (preview → token → confirmation → commit → audit)', () => {
  it('applies a draft: SKILL.md written, source entries stamped under the lock, proposal removed, backup and audit', async () => {
    const { core, demo, person, caller } = await open();
    const before = swarmLines(demo);
    const preview = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    expect(preview.plan).toMatchObject({ refusal: null, evaluate: true, incumbent: 'none', sourceIds: [ID.secretsRemediated, ID.skillFastTrack], evaluation: { status: 'passed', rule: 'all_perfect' } });
    expect(preview.title).toBe('skill apply of secret-hygiene');
    expect(fs.existsSync(project(demo, '.opencode/skills/generated/secret-hygiene/SKILL.md'))).toBe(false);

    const result = await ok(core, caller, 'skills.apply.commit', { token: preview.token, reason: 'reviewed with the payments team', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', activated: true, stamped: true, verified: true, removed: ['.swarm/skills/proposals/secret-hygiene.md'], notFound: [] });
    expect(person.shown.map((p) => p.title)).toEqual(['skill apply of secret-hygiene']);
    const active = fs.readFileSync(project(demo, '.opencode/skills/generated/secret-hygiene/SKILL.md'), 'utf8');
    expect(active).toMatch(/^status: active$/m);
    expect(fs.existsSync(project(demo, '.swarm/skills/proposals/secret-hygiene.md'))).toBe(false);
    const after = swarmLines(demo);
    expect(after).toHaveLength(before.length);
    const stampedIds = new Set([ID.secretsRemediated, ID.skillFastTrack]);
    after.forEach((line, i) => {
      if (!line || !stampedIds.has(JSON.parse(line).id)) expect(line).toBe(before[i]);
      else expect(JSON.parse(line)).toMatchObject({ generated_skill_slug: 'secret-hygiene', generated_skill_path: '.opencode/skills/generated/secret-hygiene/SKILL.md' });
    });
    expect(fs.existsSync(path.join(demo.root, 'ud', 'human-only', 'skill-backups', result.backup, 'proposal.md'))).toBe(true);
    const audit = await ok(core, caller, 'audit.list');
    expect(audit.records.map((r: any) => `${r.event}:${r.op}:${r.outcome}`)).toEqual(['preview:skills.apply.commit:ok', 'commit:skills.apply.commit:ok']);
    expect(audit.chain.ok).toBe(true);
    // The token commits once.
    const again = await core.dispatcher.forCaller(caller).call('skills.apply.commit', { token: preview.token, reason: 'again', confirmation: {} });
    expect(again).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('stamps a source entry on the final line without its newline, ends the file with one and says so truthfully', async () => {
    const { core, demo, caller } = await open();
    const knowledge = demo.swarm('knowledge.jsonl');
    const lines = fs.readFileSync(knowledge, 'utf8').split('\n').filter((l) => l !== '');
    const source = lines.findIndex((l) => JSON.parse(l).id === ID.secretsRemediated);
    const moved = [...lines.slice(0, source), ...lines.slice(source + 1), lines[source] as string];
    fs.writeFileSync(knowledge, moved.join('\n'));
    const preview = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    const result = await ok(core, caller, 'skills.apply.commit', { token: preview.token, reason: 'last line', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', activated: true, stamped: true, verified: true, notFound: [], stampNote: null });
    expect(result.stores[0].stampedIds).toEqual(expect.arrayContaining([ID.secretsRemediated, ID.skillFastTrack]));
    const after = fs.readFileSync(knowledge, 'utf8');
    expect(after.endsWith('\n')).toBe(true);
    const last = after.split('\n').at(-2) as string;
    expect(JSON.parse(last)).toMatchObject({ id: ID.secretsRemediated, generated_skill_slug: 'secret-hygiene' });
    expect(after.split('\n').slice(0, -2)).toEqual(moved.slice(0, -1).map((l) => (JSON.parse(l).id === ID.skillFastTrack ? expect.stringContaining('"generated_skill_slug":"secret-hygiene"') : l)));
  });

  it('the preview says how many unparseable lines the stamp keeps where the plugin would drop them, and the commit keeps them', async () => {
    const { core, demo, caller } = await open();
    const knowledge = demo.swarm('knowledge.jsonl');
    const clean = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    expect(clean.plan.keptUnparseable).toEqual([]);
    fs.appendFileSync(knowledge, '{"id": "half-writ\nnot json either\n');
    const preview = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    expect(preview.plan.keptUnparseable).toEqual([{ tier: 'swarm', file: '.swarm/knowledge.jsonl', lines: 2, note: '2 unparseable lines are kept as they are in .swarm/knowledge.jsonl; the plugin would drop them' }]);
    const result = await ok(core, caller, 'skills.apply.commit', { token: preview.token, reason: 'keep them', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', stamped: true, verified: true });
    expect(fs.readFileSync(knowledge, 'utf8').endsWith('{"id": "half-writ\nnot json either\n')).toBe(true);
  });

  it('over a hand-edited skill: refused without force (nothing written); with force the confirmation says FORCE', async () => {
    const { core, demo, person, caller } = await open();
    const hand = fs.readFileSync(project(demo, '.opencode/skills/generated/pan-masking/SKILL.md'), 'utf8');
    const plain = await ok(core, caller, 'skills.apply.preview', { slug: 'pan-masking' });
    expect(plain.plan.refusal).toEqual({ step: 'marker', reason: 'active SKILL.md is not generator-stamped (manual edit suspected)' });
    const refused = await ok(core, caller, 'skills.apply.commit', { token: plain.token, reason: 'try', confirmation: {} });
    expect(refused).toMatchObject({ state: 'refused', backup: null, written: [], refusal: { step: 'marker' } });
    expect(fs.readFileSync(project(demo, '.opencode/skills/generated/pan-masking/SKILL.md'), 'utf8')).toBe(hand);

    const forced = await ok(core, caller, 'skills.apply.preview', { slug: 'pan-masking', force: true });
    expect(forced.plan.refusal).toBeNull();
    const result = await ok(core, caller, 'skills.apply.commit', { token: forced.token, reason: 'the generated text supersedes the edit', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', activated: true });
    expect(person.shown.at(-1)?.title).toMatch(/FORCE: overwrites an active SKILL\.md without the generator marker/);
    expect(fs.readFileSync(path.join(demo.root, 'ud', 'human-only', 'skill-backups', result.backup, 'SKILL.md'), 'utf8')).toBe(hand);
  });

  it('a failing eval appends the plugin’s rejected-edit record and nothing else', async () => {
    const { core, demo, caller } = await open();
    const before = swarmLines(demo);
    const preview = await ok(core, caller, 'skills.apply.preview', { slug: 'idempotent-refunds' });
    expect(preview.plan.refusal).toEqual({ step: 'eval', reason: 'validation_failed: candidate did not satisfy eval set' });
    const result = await ok(core, caller, 'skills.apply.commit', { token: preview.token, reason: 'see whether it passes', confirmation: {} });
    expect(result).toMatchObject({ state: 'eval_failed', activated: false, written: ['.swarm/skills/rejected-edits.jsonl'], verified: true });
    const ledger = fs.readFileSync(project(demo, '.swarm/skills/rejected-edits.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(ledger.at(-1) as string)).toMatchObject({ slug: 'idempotent-refunds', operation: 'skill_apply', reason: 'candidate did not satisfy eval set', caseCount: 2 });
    expect(swarmLines(demo)).toEqual(before);
    expect(fs.existsSync(project(demo, '.swarm/skills/proposals/idempotent-refunds.md'))).toBe(true);
  });

  it('rejects a draft with the person’s reason; the draft stays, shown rejected, and apply is then refused', async () => {
    const { core, demo, caller } = await open();
    const preview = await ok(core, caller, 'skills.reject.preview', { slug: 'scope-discipline' });
    expect(preview).toMatchObject({ slug: 'scope-discipline', alreadyRejected: false, evaluation: { status: 'passed' } });
    const result = await ok(core, caller, 'skills.reject.commit', { token: preview.token, reason: 'the new step duplicates the reviewer check', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', verified: true, written: ['.swarm/skills/rejected-edits.jsonl'] });
    const last = JSON.parse(fs.readFileSync(project(demo, '.swarm/skills/rejected-edits.jsonl'), 'utf8').trim().split('\n').at(-1) as string);
    expect(last).toMatchObject({ operation: 'operator_reject', reason: 'the new step duplicates the reviewer check', slug: 'scope-discipline', candidateHash: preview.candidateHash, caseCount: 3 });
    const overview = await ok(core, caller, 'skills.overview');
    expect(overview.skills.find((s: any) => s.slug === 'scope-discipline' && s.kind === 'draft').rejected).toMatchObject({ operation: 'operator_reject' });
    expect((await ok(core, caller, 'skills.apply.preview', { slug: 'scope-discipline' })).plan.refusal).toEqual({ step: 'rejected', reason: 'previously rejected equivalent content' });
    const queue = await ok(core, caller, 'review.queue');
    expect(queue.items.some((i: any) => i.key === 'skill:scope-discipline')).toBe(false);
  });

  it('retires an active skill with retired.marker', async () => {
    const { core, demo, caller } = await open();
    const preview = await ok(core, caller, 'skills.retire.preview', { slug: 'focused-test-runs' });
    const result = await ok(core, caller, 'skills.retire.commit', { token: preview.token, reason: 'manual_retire', confirmation: {} });
    expect(result).toMatchObject({ state: 'committed', verified: true, written: ['.opencode/skills/generated/focused-test-runs/retired.marker'] });
    expect(Object.keys(JSON.parse(fs.readFileSync(project(demo, '.opencode/skills/generated/focused-test-runs/retired.marker'), 'utf8')))).toEqual(['retiredAt', 'reason']);
  });

  it('refuses when the draft changed after the preview, when the person cancels, and for a caller no person stands behind', async () => {
    const { core, demo, person, caller } = await open();
    const preview = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    fs.appendFileSync(project(demo, '.swarm/skills/proposals/secret-hygiene.md'), '\n- one more line\n');
    const changed = await core.dispatcher.forCaller(caller).call('skills.apply.commit', { token: preview.token, reason: 'x', confirmation: {} });
    expect(changed).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(!changed.ok && changed.error.message).toMatch(/proposal_sha256/);
    expect(fs.existsSync(project(demo, '.opencode/skills/generated/secret-hygiene/SKILL.md'))).toBe(false);

    person.answer = false;
    const fresh = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    expect(await core.dispatcher.forCaller(caller).call('skills.apply.commit', { token: fresh.token, reason: 'x', confirmation: {} })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fs.existsSync(project(demo, '.opencode/skills/generated/secret-hygiene/SKILL.md'))).toBe(false);
    expect(await core.dispatcher.call('skills.apply.preview', { slug: 'secret-hygiene' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('re-reads the stamped store after the commit and warns when a concurrent rewrite dropped the stamp', async () => {
    const { core, demo, caller } = await open(300);
    const knowledge = demo.swarm('knowledge.jsonl');
    const before = fs.readFileSync(knowledge, 'utf8');
    const preview = await ok(core, caller, 'skills.apply.preview', { slug: 'secret-hygiene' });
    const result = await ok(core, caller, 'skills.apply.commit', { token: preview.token, reason: 'ok', confirmation: {} });
    expect(result.revertCheckAt).not.toBeNull();
    // What a plugin rewrite from a read taken before the commit would put back.
    fs.writeFileSync(knowledge, before);
    let warnings: any[] = [];
    for (let i = 0; i < 300 && warnings.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      warnings = (await ok(core, caller, 'audit.list')).records.filter((r: any) => r.event === 'warning');
    }
    expect(warnings).toEqual([expect.objectContaining({ op: 'skills.apply.commit', outcome: 'warning', ids: expect.arrayContaining([ID.secretsRemediated, ID.skillFastTrack]) })]);
    expect(warnings[0].message).toMatch(/lost the secret-hygiene stamp/);
  });
});
