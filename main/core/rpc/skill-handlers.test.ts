import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createConsoleCore, type ConsoleCore } from '../console-core';
import { commandFor } from '../curator/review-queue';
import { DEMO_IDS as ID } from '../../demo/ids';
import { makeDemo, treeHash, type DemoFixture } from '../../../testing/demo/demo-workspace';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(): Promise<{ core: ConsoleCore; demo: DemoFixture }> {
  const demo = makeDemo();
  cleanups.push(demo.cleanup);
  const core = await createConsoleCore({ userDataDir: `${demo.root}/ud`, host: 'browser', version: 'test' }, { project: demo.projectDir, hive: demo.hiveDir });
  cleanups.push(() => core.dispose());
  return { core, demo };
}

async function call<T = any>(core: ConsoleCore, name: string, input: unknown = {}): Promise<T> {
  const result = await core.dispatcher.call(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message} ${JSON.stringify(result.error.issues ?? [])}`);
  return result.value as T;
}

describe('skills.* and curator.* on the demo workspace', () => {
  it('lists every proposal type, without writing anything', async () => {
    const { core, demo } = await open();
    const before = treeHash(demo.projectDir);
    const overview = await call(core, 'skills.overview');
    const byKind = (kind: string) => overview.skills.filter((s: any) => s.kind === kind).map((s: any) => s.slug).sort();
    expect(byKind('draft')).toEqual(['idempotent-refunds', 'pan-masking', 'scope-discipline', 'secret-hygiene']);
    expect(byKind('motif')).toEqual(['motif-flaky-retry-loop', 'workflow-refund-endpoint']);
    expect(byKind('active')).toEqual(['focused-test-runs', 'migration-dry-run', 'pan-masking', 'scope-discipline']);
    expect(byKind('retired')).toEqual(['legacy-fixture-mocks']);
    expect(byKind('stale')).toEqual(['webhook-retry-backoff']);
    const active = (slug: string) => overview.skills.find((s: any) => s.slug === slug && s.kind === 'active');
    expect(active('pan-masking').hasMarker).toBe(false);
    expect(active('scope-discipline')).toMatchObject({ hasMarker: true, usage: { total: expect.any(Number) } });
    const workflow = overview.skills.find((s: any) => s.slug === 'workflow-refund-endpoint');
    expect(workflow).toMatchObject({ skillType: 'workflow', sourceIds: [], motif: { generatedBy: 'macro_reflector_success', appliesToAgents: ['architect', 'coder'] } });
    expect(overview.candidates.map((c: any) => `${c.name}:${c.state}:${c.verdict}:${c.riskFlags.join('+')}`).sort()).toEqual(['stripe-webhook-verification:quarantined:needs_review:network_access+shell_commands', 'typescript-strict-null-checks:promoted:safe:']);
    expect(overview.improver.proposals.map((p: any) => p.source)).toEqual(['llm', 'deterministic_fallback']);
    expect(overview.improver.quotas.map((q: any) => `${q.kind}:${q.callsUsed}/${q.maxCalls}`)).toEqual(['skill_improver:3/10', 'knowledge_enrichment:7/30']);
    expect(treeHash(demo.projectDir)).toBe(before);
  });

  it('details a revised draft: diff against the active skill, sources with the maturity verdict, logs, eval side by side, plan', async () => {
    const { core } = await open();
    const detail = await call(core, 'skills.detail', { slug: 'scope-discipline', kind: 'proposal' });
    expect(detail.item).toMatchObject({ kind: 'draft', hasActive: true, version: 3 });
    expect(detail.diff.filter((p: any) => p.kind === 'add').map((p: any) => p.text).join('')).toContain('compare the diff against the declared globs before review');
    expect(detail.diff.filter((p: any) => p.kind === 'del').map((p: any) => p.text).join('')).toContain('version: 2');
    expect(detail.sources).toEqual([expect.objectContaining({ id: ID.scopeEscalated, found: true, tier: 'swarm', maturity: expect.objectContaining({ eligible: expect.any(Boolean) }), stampedSlug: 'scope-discipline' })]);
    expect(detail.changelog.map((c: any) => c.action)).toEqual(['generated', 'revised']);
    expect(detail.usage.length).toBeGreaterThan(0);
    expect(detail.rejectedEdits).toEqual([expect.objectContaining({ operation: 'skill_apply', candidateScore: 0.5, incumbentScore: 1, matchesThis: false })]);
    expect(detail.evalPreview).toMatchObject({ status: 'passed', rule: 'strictly_improve', caseCount: 3 });
    expect(detail.evalPreview.cases.map((c: any) => [c.id, c.candidate.score, c.incumbent.score])).toEqual([
      ['requires-declare-scope', 1, 1],
      ['names-globs', 1, 1],
      ['diff-against-globs', 1, 0],
    ]);
    expect(detail.plan).toMatchObject({ refusal: null, incumbent: 'generated', sourceIds: [ID.scopeEscalated] });
    expect(detail.frontmatter.find((f: any) => f.key === 'status').value).toBe('draft');
  });

  it('plans each demo draft as skill_apply would decide it', async () => {
    const { core } = await open();
    const plan = (slug: string, extra = {}) => call(core, 'skills.planApply', { slug, ...extra });
    expect((await plan('secret-hygiene')).evaluation).toMatchObject({ status: 'passed', rule: 'all_perfect' });
    expect((await plan('idempotent-refunds')).refusal).toEqual({ step: 'eval', reason: 'validation_failed: candidate did not satisfy eval set' });
    expect((await plan('idempotent-refunds', { evaluate: false })).refusal).toBeNull();
    expect((await plan('pan-masking')).refusal).toEqual({ step: 'marker', reason: 'active SKILL.md is not generator-stamped (manual edit suspected)' });
    expect((await plan('pan-masking', { force: true })).refusal).toBeNull();
    expect(await plan('motif-flaky-retry-loop')).toMatchObject({ motif: true, sourceIds: [], refusal: null });
    expect((await plan('../scope-discipline')).refusal?.step).toBe('slug');
    expect(await core.dispatcher.call('skills.detail', { slug: '../x', kind: 'proposal' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('shows the curator summary with recommendations next to their entries, findings, drift and insights', async () => {
    const { core } = await open();
    const curator = await call(core, 'curator.overview');
    expect(curator.summary.digests.map((d: any) => d.phase)).toEqual([4, 3, 2, 1]);
    expect(curator.summary.compliance.map((c: any) => c.severity)).toEqual(['warning', 'warning', 'warning', 'info', 'info']);
    const recs = curator.summary.recommendations;
    expect(recs.map((r: any) => r.action)).toEqual(['promote', 'archive', 'flag_contradiction', 'rewrite', 'promote']);
    expect(recs[0]).toMatchObject({ entryId: ID.focusedTests, entry: expect.objectContaining({ tier: expect.any(String) }), applied: expect.stringMatching(/^(applied|not_applied)$/) });
    expect(recs[4]).toMatchObject({ entryId: null, applied: 'applied', promotionCounts: { promoted: 2, skipped_duplicates: 1, encounters_updated: 4 } });
    for (const r of recs) expect(r.appliedEvidence.length).toBeGreaterThan(0);
    expect(curator.findings.find((f: any) => f.knowledgeId === ID.scopeEscalated)).toMatchObject({ phase: '4', verdict: 'violated', entryFound: true });
    expect(curator.drift.map((d: any) => `${d.phase}:${d.alignment}:${d.driftScore}`)).toEqual(['4:ALIGNED:0.04', '3:MINOR_DRIFT:0.22']);
    expect(curator.insights).toHaveLength(4);
  });

  it('builds one review queue with counts per kind; drafts offer approve and reject', async () => {
    const { core } = await open();
    const queue = await call(core, 'review.queue');
    expect(queue.counts.skill_draft).toBe(6);
    expect(queue.counts.curator_recommendation).toBeGreaterThanOrEqual(0);
    expect(Object.keys(queue.counts).sort()).toEqual(['curator_recommendation', 'hive_contradiction', 'rejected_lesson', 'repeated_denial', 'skill_draft', 'unactionable_lesson']);
    expect(queue.items.filter((i: any) => i.kind === 'skill_draft').every((i: any) => i.actions.join() === 'approve,reject')).toBe(true);
    for (const i of queue.items.filter((x: any) => x.kind !== 'skill_draft')) {
      expect(i.actions).toEqual(i.command ? ['approve'] : []);
      if (i.command) expect(i.command.id).toBe(i.open.entryId);
    }
    // Recommendations map onto the human-only commands that exist; rewrite has none.
    expect(commandFor('promote', 'k', 'swarm', 'active')).toMatchObject({ preview: 'swarm.promote.preview' });
    expect(commandFor('promote', 'k', 'hive', 'active')).toBeNull();
    // Archive means archive (issue 19 item 10): never the stronger quarantine; a hive entry has no archive command.
    expect(commandFor('archive', 'k', 'link', 'active')).toMatchObject({ preview: 'swarm.archive.preview' });
    expect(commandFor('archive', 'k', 'hive', 'active')).toBeNull();
    expect(commandFor('flag_contradiction', 'k', 'hive', 'active')).toMatchObject({ preview: 'hive.quarantine.preview' });
    expect(commandFor('rewrite', 'k', 'swarm', 'active')).toBeNull();
    expect(commandFor('archive', 'k', 'swarm', 'quarantined')).toBeNull();
    expect(queue.counts.rejected_lesson + queue.counts.unactionable_lesson).toBeGreaterThan(0);
  });
});

describe('review.dismiss: clearing the queue items that have no store-writing decision', () => {
  const filesUnder = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)]));

  it('a dismissed item leaves the queue (counted), comes back when what was reviewed changes, and writes no store', async () => {
    const { core, demo } = await open();
    const queue = await call(core, 'review.queue');
    expect(queue.dismissed).toBe(0);
    const rejected = queue.items.find((i: any) => i.kind === 'rejected_lesson');
    expect(rejected.actions).toEqual([]);
    const projectBefore = treeHash(demo.projectDir);
    const hiveBefore = treeHash(demo.hiveDir);

    const dismissal = await call(core, 'review.dismiss', { key: rejected.key, reason: 'validation was right: the lesson named no scope' });
    expect(dismissal).toMatchObject({ key: rejected.key, reason: 'validation was right: the lesson named no scope' });
    const after = await call(core, 'review.queue');
    expect(after.items.map((i: any) => i.key)).not.toContain(rejected.key);
    expect(after.dismissed).toBe(1);
    expect(after.counts.rejected_lesson).toBe(queue.counts.rejected_lesson - 1);
    expect(treeHash(demo.projectDir)).toBe(projectBefore);
    expect(treeHash(demo.hiveDir)).toBe(hiveBefore);

    const file = filesUnder(path.join(demo.root, 'ud', 'review'))[0]!;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8').trim())).toMatchObject({ v: 1, key: rejected.key, reason: 'validation was right: the lesson named no scope' });
    const audit = fs.readFileSync(filesUnder(path.join(demo.root, 'ud')).find((f) => f.endsWith(`${path.sep}audit.jsonl`))!, 'utf8');
    expect(audit).toContain('"op":"review.dismiss"');

    // The plugin rewrites the rejected entry: the person reviewed something else, so it is back.
    const id = rejected.open.entryId as string;
    const storeFile = filesUnder(rejected.open.tier === 'hive' ? demo.hiveDir : demo.projectDir).find((f) => f.endsWith('.jsonl') && fs.readFileSync(f, 'utf8').includes(`"id":"${id}"`))!;
    const lines = fs.readFileSync(storeFile, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(`"id":"${id}"`));
    lines[at] = JSON.stringify({ ...JSON.parse(lines[at]!), rejection_reason: 'rejected again with a new reason' });
    fs.writeFileSync(storeFile, lines.join('\n'));
    await expect.poll(async () => (await call(core, 'review.queue')).items.some((i: any) => i.open.entryId === id && i.kind === 'rejected_lesson' && i.key !== rejected.key), { timeout: 60_000 }).toBe(true);
    expect((await call(core, 'review.queue')).dismissed).toBe(0);
  });

  it('refuses bad input, unknown keys and items that have a human-only decision, recording nothing', async () => {
    const { core, demo } = await open();
    const queue = await call(core, 'review.queue');
    const draft = queue.items.find((i: any) => i.kind === 'skill_draft');
    const unactionable = queue.items.find((i: any) => i.kind === 'unactionable_lesson');
    expect(await core.dispatcher.call('review.dismiss', { key: unactionable.key, reason: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatcher.call('review.dismiss', { key: unactionable.key })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatcher.call('review.dismiss', { key: unactionable.key, reason: 'x'.repeat(501) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatcher.call('review.dismiss', { key: unactionable.key, reason: 'ok', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await core.dispatcher.call('review.dismiss', { key: draft.key, reason: 'not now' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('human-only decision') } });
    expect(await core.dispatcher.call('review.dismiss', { key: 'rejected:swarm:nope@000000000000', reason: 'gone' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(fs.existsSync(path.join(demo.root, 'ud', 'review'))).toBe(false);
    // A recommendation with a command is decided through it; one without (rewrite) is dismissed.
    const withCommand = queue.items.find((i: any) => i.kind === 'curator_recommendation' && i.command);
    const withoutCommand = queue.items.find((i: any) => i.kind === 'curator_recommendation' && !i.command);
    expect(await core.dispatcher.call('review.dismiss', { key: withCommand.key, reason: 'later' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(fs.existsSync(path.join(demo.root, 'ud', 'review'))).toBe(false);
    await call(core, 'review.dismiss', { key: withoutCommand.key, reason: 'the rewrite is already in the next phase plan' });
    // A repeated denial (built by the view from live counters) is dismissed by its directive and latest denial.
    await call(core, 'review.dismiss', { key: 'denial:dir-7@1764590000000', reason: 'the directive is being retired' });
    const after = await call(core, 'review.queue');
    expect(after.dismissedKeys.sort()).toEqual(['denial:dir-7@1764590000000', withoutCommand.key].sort());
    expect(after.dismissed).toBe(1);
    expect(after.items.map((i: any) => i.key)).toContain(withCommand.key);
  });
});
