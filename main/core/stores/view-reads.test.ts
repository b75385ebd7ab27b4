import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, openCore } from '../../../testing/stores/core-calls';

// The skills and curator views read their files through the store reader (view-reads.ts): the
// "symlink outside the workspace — not read" rule of symlink-outside.test.ts holds for them too,
// and a defective line is reported as a defect, not thrown and not silently dropped.

const SECRET = 'TOPSECRET-view-credential-91c4';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const jsonl = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const usage = (slug: string, notes: string) => ({ id: `u-${notes.length}-${slug}`, timestamp: '2026-01-02T03:04:05.000Z', skillPath: `.opencode/skills/generated/${slug}/SKILL.md`, agentName: 'coder', taskID: '1.1', complianceVerdict: 'compliant', reviewerNotes: notes, skillVersion: 1 });
const skill = (description: string) => `---\nname: x\ndescription: ${description}\nversion: 1\n---\n\n# ${description}\n\nBody.\n`;
const insight = (lesson: string) => ({ lesson, category: 'testing', tags: ['t'], source: { kind: 'task', task_id: '1.1', agent: 'coder', outcome: 'success' }, created_at: '2026-01-02T03:04:05.000Z' });

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'view-reads-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  const swarm = path.join(project, '.swarm');
  const generated = path.join(project, '.opencode', 'skills', 'generated');
  const hive = path.join(root, 'hive');
  const outside = path.join(root, 'elsewhere');
  for (const dir of [swarm, path.join(swarm, 'skills', 'proposals'), path.join(swarm, 'skill-improver', 'proposals'), path.join(generated, 'alpha'), path.join(generated, 'beta'), hive, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(generated, 'alpha', 'SKILL.md'), skill('Alpha skill'));
  return { project, swarm, generated, hive, outside };
}

/** Writes `content` outside the workspace and links `at` (a store path) to it. */
function linkOutside(ws: ReturnType<typeof workspace>, at: string, content: string) {
  const target = path.join(ws.outside, `${path.basename(at)}-${Math.random().toString(16).slice(2)}`);
  fs.writeFileSync(target, content);
  fs.symlinkSync(target, at);
  return target;
}

const open = (project: string, hive: string) => openCore(project, hive, cleanups, 'view-reads-ud-');
const call = callOk;

describe('skills and curator views', () => {
  it('do not read a store symlinked outside the workspace, and say so with its target', async () => {
    const ws = workspace();
    const summaryTarget = linkOutside(ws, path.join(ws.swarm, 'curator-summary.json'), JSON.stringify({ schema_version: 1, session_id: SECRET, last_updated: 'x', last_phase_covered: 1, phase_digests: [], compliance_observations: [], knowledge_recommendations: [] }));
    const insightTarget = linkOutside(ws, path.join(ws.swarm, 'insight-candidates.jsonl'), jsonl([insight(`Lesson ${SECRET}`)]));
    linkOutside(ws, path.join(ws.swarm, 'skill-usage.jsonl'), jsonl([usage('alpha', SECRET)]));
    linkOutside(ws, path.join(ws.swarm, 'skill-improver-quota.json'), JSON.stringify({ date: '2026-01-01', calls_used: 1, max_calls: 3, window: 'utc', last_run_at: SECRET }));
    linkOutside(ws, path.join(ws.swarm, 'drift-report-phase-1.json'), JSON.stringify({ phase: 1, alignment: SECRET, drift_score: 0.1 }));
    linkOutside(ws, path.join(ws.swarm, 'skills', 'proposals', 'gamma.md'), skill(`Gamma ${SECRET}`));
    linkOutside(ws, path.join(ws.swarm, 'skill-improver', 'proposals', 'p1.md'), `---\nsource: llm\n---\n${SECRET}\n`);
    const skillTarget = linkOutside(ws, path.join(ws.generated, 'beta', 'SKILL.md'), skill(`Beta ${SECRET}`));
    const core = await open(ws.project, ws.hive);

    const overview = await call(core, 'skills.overview');
    const alphaDetail = await call(core, 'skills.detail', { slug: 'alpha', kind: 'active' });
    const curator = await call(core, 'curator.overview');
    const queue = await call(core, 'review.queue');
    expect(JSON.stringify([overview, alphaDetail, curator, queue])).not.toContain(SECRET);

    expect(curator.summary.problem).toContain(`symlink outside the workspace — not read (it leads to ${summaryTarget})`);
    expect(curator.problems.join('\n')).toContain(`symlink outside the workspace — not read (it leads to ${insightTarget})`);
    expect(curator.insights).toEqual([]);
    expect(alphaDetail.usage).toEqual([]);
    expect(alphaDetail.item.problems.join('\n')).toContain('skill-usage.jsonl: ');
    const beta = overview.skills.find((i: any) => i.slug === 'beta');
    expect(beta.problems.join('\n')).toContain(`symlink outside the workspace — not read (it leads to ${skillTarget})`);
    expect(overview.improver.quotas.find((q: any) => q.kind === 'skill_improver').problem).toContain('symlink outside the workspace — not read');
  });

  it('report a defective line as a defect and keep the lines around it', async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws.swarm, 'insight-candidates.jsonl'), `${JSON.stringify(insight('first'))}\n{"lesson": "torn\n${JSON.stringify(insight('third'))}\n`);
    fs.writeFileSync(path.join(ws.swarm, 'skill-usage.jsonl'), `${JSON.stringify(usage('alpha', 'one'))}\nnot json at all\n${JSON.stringify(usage('alpha', 'three'))}\n`);
    const core = await open(ws.project, ws.hive);

    const curator = await call(core, 'curator.overview');
    expect(curator.insights.map((i: any) => [i.line, i.lesson])).toEqual([
      [1, 'first'],
      [3, 'third'],
    ]);
    expect(curator.problems.some((p: string) => p.startsWith('.swarm/insight-candidates.jsonl: line 2: '))).toBe(true);

    const detail = await call(core, 'skills.detail', { slug: 'alpha', kind: 'active' });
    expect(detail.usage.map((u: any) => u.notes).sort()).toEqual(['one', 'three']);
    expect(detail.item.problems.some((p: string) => p.startsWith('.swarm/skill-usage.jsonl: line 2: '))).toBe(true);
    const overview = await call(core, 'skills.overview');
    expect(overview.skills.find((i: any) => i.slug === 'alpha').usage).toMatchObject({ total: 2, compliant: 2 });
  });
});
