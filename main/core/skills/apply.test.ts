import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyProposal, planApply, rejectDraft, retireSkill } from './apply';
import { normalizedHash, sha256 } from './rejected-edits';
import { MOTIF, entryLine, fixture, generatedSkill, snapshot, type Fixture } from '../../../testing/skills/skills-workspace';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const NOW = new Date('2026-12-01T12:00:00.000Z');
let backups = 0;
/** Every write goes through the human-only protocol, which backs up first: here, beside the project. */
const backupIn = (f: Fixture) => ({ root: path.join(path.dirname(f.project), 'backups'), name: `backup-${++backups}`, manifest: {}, signingKey: Buffer.alloc(32, 7) });
const PROPOSAL = '.swarm/skills/proposals/scope.md';
const ACTIVE = '.opencode/skills/generated/scope/SKILL.md';

/** A project with a draft citing k1 (swarm) and h1 (hive), plus lines that must survive byte for byte. */
function withDraft(opts: { procedure?: string[] } = {}): Fixture & { swarmBefore: string[]; draft: string } {
  const f = fixture(cleanups);
  const draft = generatedSkill('scope', { ids: ['k1', 'h1'], ...opts });
  f.write(PROPOSAL, draft);
  // Odd spacing, an unknown field, an unparseable line, CRLF: none of it may be renormalised.
  const swarmLines = [entryLine('k0'), '{"id": "k9",  "lesson":"spaced", "x_unknown": {"a": 1}}', 'not json at all', entryLine('k1', { x_keep: true }), entryLine('k2')];
  fs.writeFileSync(f.knowledge, `${swarmLines.slice(0, 3).join('\n')}\r\n${swarmLines.slice(3).join('\n')}\n`);
  fs.writeFileSync(f.hiveFile, `${entryLine('h0', { tier: 'hive' })}\n${entryLine('h1', { tier: 'hive' })}\n`);
  return { ...f, swarmBefore: swarmLines, draft };
}

describe('skill_apply engine (docs/plugin-formats.md#skill-apply)', () => {
  it('plain: writes the active skill with status flipped, stamps swarm and hive entries, removes the proposal', async () => {
    const f = withDraft();
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: true, refusal: null, stamped: true, stampNote: null, notFound: [], proposalKept: false, removed: [PROPOSAL] });
    expect(result.written).toEqual([ACTIVE, '.swarm/knowledge.jsonl', expect.stringMatching(/shared-learnings\.jsonl$/)]);
    expect(f.read(ACTIVE)).toBe(f.draft.replace('status: draft', 'status: active'));
    expect(f.exists(PROPOSAL)).toBe(false);

    const text = fs.readFileSync(f.knowledge, 'utf8');
    const lines = text.split('\n');
    // Untouched lines (and the CRLF) stay byte for byte.
    expect(text.startsWith(`${f.swarmBefore.slice(0, 3).join('\n')}\r\n`)).toBe(true);
    expect(lines[4]).toBe(f.swarmBefore[4]);
    const stamped = JSON.parse(lines[3] as string);
    expect(stamped).toMatchObject({ id: 'k1', x_keep: true, generated_skill_slug: 'scope', generated_skill_path: '.opencode/skills/generated/scope/SKILL.md', updated_at: NOW.toISOString() });
    const hive = fs.readFileSync(f.hiveFile, 'utf8').split('\n');
    expect(hive[0]).toBe(entryLine('h0', { tier: 'hive' }));
    expect(JSON.parse(hive[1] as string)).toMatchObject({ id: 'h1', generated_skill_slug: 'scope' });
    expect(result.stores.map((s) => `${s.tier}:${s.stampedIds.join(',')}`)).toEqual(['swarm:k1', 'hive:h1']);
    // Locks released, no temp files left.
    expect(fs.existsSync(`${f.swarm}.lock`)).toBe(false);
    expect(fs.existsSync(`${f.hive}.lock`)).toBe(false);
    expect(fs.readdirSync(f.swarm).filter((n) => n.includes('.tmp'))).toEqual([]);
  });

  it('stamps a source entry on a final line without its newline and ends the file with one, as the plugin does', async () => {
    const f = fixture(cleanups);
    f.write(PROPOSAL, generatedSkill('scope', { ids: ['k1'] }));
    fs.writeFileSync(f.knowledge, `${entryLine('k0')}\n${entryLine('k1', { x_keep: true })}`);
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: true, stamped: true, stampNote: null, notFound: [], proposalKept: false });
    expect(result.stores.find((s) => s.tier === 'swarm')).toMatchObject({ stampedIds: ['k1'], lines: 1, note: null });
    const text = fs.readFileSync(f.knowledge, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(entryLine('k0'));
    expect(JSON.parse(lines[1] as string)).toMatchObject({ id: 'k1', x_keep: true, generated_skill_slug: 'scope', updated_at: NOW.toISOString() });
  });

  it('stamps only the source_knowledge_ids ids when generated_from_knowledge lists more (the plugin parser starts that list afresh)', async () => {
    const f = withDraft();
    const draft = generatedSkill('scope', { ids: ['k1'] }).replace('generated_from_knowledge:\n  - k1', 'generated_from_knowledge:\n  - k1\n  - k2');
    f.write(PROPOSAL, draft);
    expect(planApply(f.stores, { slug: 'scope', force: false, evaluate: false }).sourceIds).toEqual(['k1']);
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result.stores.map((s) => `${s.tier}:${s.stampedIds.join(',')}`)).toEqual(['swarm:k1', 'hive:']);
    expect(fs.readFileSync(f.knowledge, 'utf8').split('\n')[4]).toBe(f.swarmBefore[4]);
  });

  it('stamps the link store instead of .swarm when the project is linked', async () => {
    const f = withDraft();
    const linkDir = path.join(f.hive, 'links', 'abc');
    fs.mkdirSync(linkDir, { recursive: true });
    fs.writeFileSync(path.join(linkDir, 'knowledge.jsonl'), `${entryLine('k1')}\n`);
    const swarmBefore = fs.readFileSync(f.knowledge, 'utf8');
    const result = await applyProposal({ ...f.stores, knowledgeDir: linkDir }, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result.stores.map((s) => `${s.tier}:${s.stampedIds.join(',')}`)).toEqual(['link:k1', 'hive:h1']);
    expect(fs.readFileSync(f.knowledge, 'utf8')).toBe(swarmBefore);
    expect(JSON.parse(fs.readFileSync(path.join(linkDir, 'knowledge.jsonl'), 'utf8'))).toMatchObject({ generated_skill_slug: 'scope' });
  });

  it('evaluate with no fixtures: unevaluated passes and the draft is activated', async () => {
    const f = withDraft();
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: true }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: true, stamped: true, evaluation: { status: 'unevaluated', passed: true } });
  });

  it('an active SKILL.md without the marker is refused unless forced', async () => {
    const f = withDraft();
    const hand = generatedSkill('scope', { ids: ['k1'], status: 'active', marker: false, procedure: ['my own words'] });
    f.write(ACTIVE, hand);
    const before = snapshot(f.project);
    const refused = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: true }, { now: NOW, backup: backupIn(f) });
    expect(refused).toMatchObject({ activated: false, refusal: { step: 'marker', reason: 'active SKILL.md is not generator-stamped (manual edit suspected)' }, written: [] });
    expect(snapshot(f.project)).toEqual(before);
    const forced = await applyProposal(f.stores, { slug: 'scope', force: true, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(forced).toMatchObject({ activated: true, stamped: true });
    expect(f.read(ACTIVE)).toContain('status: active');
    expect(f.read(ACTIVE)).not.toContain('my own words');
  });

  it('a missing proposal is refused with the plugin reason', async () => {
    const f = fixture(cleanups);
    const result = await applyProposal(f.stores, { slug: 'nope', force: false, evaluate: true }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: false, refusal: { step: 'proposal', reason: 'proposal not found: .swarm/skills/proposals/nope.md' } });
  });

  it.each([
    ['../x', 'traversal'],
    ['a/b', 'a path'],
    ['/etc/passwd', 'an absolute path'],
    ['ѕcope', 'a look-alike (Cyrillic ѕ)'],
    ['Scope', 'upper case'],
    ['', 'empty'],
  ])('slug %j (%s) is refused before any file access', async (slug) => {
    const f = withDraft();
    f.write('.swarm/skills/proposals/x.md', generatedSkill('x', { ids: ['k1'] }));
    f.write('.swarm/skills/proposals/a-b.md', generatedSkill('a-b', { ids: ['k1'] }));
    f.write('.swarm/skills/proposals/etc-passwd.md', generatedSkill('etc-passwd', { ids: ['k1'] }));
    const before = snapshot(f.project);
    const result = await applyProposal(f.stores, { slug, force: true, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result.activated).toBe(false);
    expect(result.refusal?.step).toBe('slug');
    expect(result.refusal?.reason).toMatch(/^invalid slug/);
    expect(snapshot(f.project)).toEqual(before);
  });

  it('a skill folder symlinked out of the generated tree is refused; the outside stays untouched', async () => {
    const f = withDraft();
    const outside = path.join(path.dirname(f.project), 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'SKILL.md'), 'precious');
    fs.mkdirSync(path.join(f.project, '.opencode', 'skills', 'generated'), { recursive: true });
    fs.symlinkSync(outside, path.join(f.project, '.opencode', 'skills', 'generated', 'scope'));
    const result = await applyProposal(f.stores, { slug: 'scope', force: true, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: false, refusal: { step: 'paths' } });
    expect(result.refusal?.reason).toMatch(/resolves outside \.opencode\/skills\/generated/);
    expect(fs.readFileSync(path.join(outside, 'SKILL.md'), 'utf8')).toBe('precious');
    expect(f.exists(PROPOSAL)).toBe(true);
  });

  it('a proposal that is a symlink is refused', async () => {
    const f = fixture(cleanups);
    const elsewhere = path.join(path.dirname(f.project), 'elsewhere.md');
    fs.writeFileSync(elsewhere, generatedSkill('scope', { ids: ['k1'] }));
    fs.mkdirSync(path.join(f.swarm, 'skills', 'proposals'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(f.project, PROPOSAL));
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: false, refusal: { step: 'paths' } });
    expect(fs.existsSync(elsewhere)).toBe(true);
  });

  it('a motif proposal activates without stamping any entry; the proposal stays (as in the plugin)', async () => {
    const f = withDraft();
    f.write('.swarm/skills/proposals/motif-flaky-retry.md', MOTIF);
    const swarmBefore = fs.readFileSync(f.knowledge, 'utf8');
    const plan = planApply(f.stores, { slug: 'motif-flaky-retry', force: false, evaluate: true });
    expect(plan).toMatchObject({ motif: true, sourceIds: [], refusal: null });
    const result = await applyProposal(f.stores, { slug: 'motif-flaky-retry', force: false, evaluate: true }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: true, stamped: false, stampNote: 'malformed_frontmatter: no source knowledge ids found', proposalKept: true, written: ['.opencode/skills/generated/motif-flaky-retry/SKILL.md'], removed: [] });
    expect(f.read('.opencode/skills/generated/motif-flaky-retry/SKILL.md')).toBe(MOTIF);
    expect(fs.readFileSync(f.knowledge, 'utf8')).toBe(swarmBefore);
  });

  it('a failing eval appends a rejected-edit record in the plugin format and writes nothing else; the same content is then refused', async () => {
    const f = withDraft({ procedure: ['call declare_scope when convenient'] });
    f.write('.swarm/skills/evals/scope/basic.json', JSON.stringify({ cases: [{ id: 'globs', required_phrases: ['declare_scope', 'file globs'] }] }));
    const incumbent = generatedSkill('scope', { ids: ['k1'], status: 'active' });
    f.write(ACTIVE, incumbent);
    const knowledgeBefore = fs.readFileSync(f.knowledge, 'utf8');
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: true }, { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: false, refusal: { step: 'eval', reason: 'validation_failed: candidate did not strictly improve incumbent on every eval case' }, written: ['.swarm/skills/rejected-edits.jsonl'] });
    expect(result.evaluation?.cases.map((c) => [c.candidate.score, c.incumbent?.score])).toEqual([[0.5, 1]]);
    const records = f.read('.swarm/skills/rejected-edits.jsonl').trim().split('\n').map((l) => JSON.parse(l));
    expect(records).toEqual([
      {
        timestamp: NOW.toISOString(),
        slug: 'scope',
        operation: 'skill_apply',
        reason: 'candidate did not strictly improve incumbent on every eval case',
        candidateHash: sha256(f.draft),
        candidateNormalizedHash: normalizedHash(f.draft),
        incumbentHash: sha256(incumbent),
        candidateScore: 0.5,
        incumbentScore: 1,
        evalFiles: ['.swarm/skills/evals/scope/basic.json'],
        caseCount: 1,
        candidatePreview: f.draft.replace(/\s+/g, ' ').trim().slice(0, 800),
      },
    ]);
    expect(f.read(ACTIVE)).toBe(incumbent);
    expect(f.exists(PROPOSAL)).toBe(true);
    expect(fs.readFileSync(f.knowledge, 'utf8')).toBe(knowledgeBefore);
    const again = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) });
    expect(again.refusal).toEqual({ step: 'rejected', reason: 'previously rejected equivalent content' });
  });

  it('previously rejected content is refused by normalised hash (new generated_at, other whitespace, other case)', async () => {
    const f = withDraft();
    const earlier = generatedSkill('scope', { ids: ['k1', 'h1'], generatedAt: '2026-01-01T00:00:00.000Z' }).replace('# Skill scope', '#   SKILL scope');
    f.write('.swarm/skills/rejected-edits.jsonl', `${JSON.stringify({ timestamp: NOW.toISOString(), slug: 'scope', operation: 'skill_generate:draft', reason: 'x', candidateHash: sha256(earlier), candidateNormalizedHash: normalizedHash(earlier), candidateScore: 0, incumbentScore: 0, evalFiles: [], caseCount: 0, candidatePreview: '' })}\n`);
    const before = snapshot(f.project);
    const result = await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: true }, { now: NOW, backup: backupIn(f) });
    expect(result.refusal).toEqual({ step: 'rejected', reason: 'previously rejected equivalent content' });
    expect(snapshot(f.project)).toEqual(before);
    // A record for another slug does not count.
    f.write('.swarm/skills/rejected-edits.jsonl', `${JSON.stringify({ slug: 'other', candidateHash: sha256(f.draft) })}\n`);
    expect((await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) })).activated).toBe(true);
  });

  it('refuses a commit when the draft changed after the preview the person confirmed', async () => {
    const f = withDraft();
    const plan = planApply(f.stores, { slug: 'scope', force: false, evaluate: true });
    f.write(PROPOSAL, `${f.draft}\nextra line\n`);
    const result = await applyProposal(f.stores, plan.request, { now: NOW, expected: plan, backup: backupIn(f) });
    expect(result).toMatchObject({ activated: false, refusal: { step: 'changed' } });
  });
});

describe('reject and retire', () => {
  it('reject appends an operator_reject record with the reason; the draft stays and can no longer be applied', async () => {
    const f = withDraft();
    const result = await rejectDraft(f.stores, 'scope', '  too vague about globs ', { now: NOW, backup: backupIn(f) });
    expect(result).toMatchObject({ rejected: true, written: ['.swarm/skills/rejected-edits.jsonl'], record: { operation: 'operator_reject', reason: 'too vague about globs', slug: 'scope', candidateHash: sha256(f.draft), caseCount: 0 } });
    expect(f.exists(PROPOSAL)).toBe(true);
    expect((await applyProposal(f.stores, { slug: 'scope', force: false, evaluate: false }, { now: NOW, backup: backupIn(f) })).refusal?.step).toBe('rejected');
    expect((await rejectDraft(f.stores, 'scope', '', { now: NOW, backup: backupIn(f) })).rejected).toBe(false);
    expect((await rejectDraft(f.stores, '../scope', 'x', { now: NOW, backup: backupIn(f) })).refusal?.step).toBe('slug');
  });

  it('keeps the newest 200 rejected edits', async () => {
    const f = withDraft();
    const old = Array.from({ length: 205 }, (_, i) => JSON.stringify({ slug: 'other', n: i, candidateHash: String(i) }));
    f.write('.swarm/skills/rejected-edits.jsonl', `${old.join('\n')}\n`);
    await rejectDraft(f.stores, 'scope', 'no', { now: NOW, backup: backupIn(f) });
    const lines = f.read('.swarm/skills/rejected-edits.jsonl').trim().split('\n');
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe(old[6]);
    expect(JSON.parse(lines[199] as string).operation).toBe('operator_reject');
  });

  it('retire writes retired.marker like skill_retire and refuses twice or without an active skill', () => {
    const f = withDraft();
    expect(retireSkill(f.stores, 'scope', 'manual_retire', NOW)).toMatchObject({ retired: false, refusal: { step: 'proposal' } });
    f.write(ACTIVE, generatedSkill('scope', { ids: ['k1'], status: 'active' }));
    expect(retireSkill(f.stores, 'scope', '', NOW)).toMatchObject({ retired: true, written: ['.opencode/skills/generated/scope/retired.marker'] });
    expect(JSON.parse(f.read('.opencode/skills/generated/scope/retired.marker'))).toEqual({ retiredAt: NOW.toISOString(), reason: 'manual_retire' });
    expect(f.exists(ACTIVE)).toBe(true);
    expect(retireSkill(f.stores, 'scope', 'again', NOW).refusal?.reason).toMatch(/^already retired/);
  });
});
