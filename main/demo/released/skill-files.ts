import path from 'node:path';
import { DAY, HOUR, iso } from '../clock';
import type { EntryDraft } from '../entry-model';
import { writeJsonLines, writePrettyJson, writeText } from '../line-writer';
import type { Rng } from '../rng';
import { SKILL_MARKER } from '../skills';
import { RELEASED_IDS as ID, RELEASED_SKILL } from './ids';

/**
 * Curator and skill files of the released demo's main worktree, as 7.103.2 writes them
 * (docs/plugin-formats.md#skills, #curator): one active generated skill, one draft proposal, usage and changelog
 * lines, the curator summary and one phase's curator findings.
 */

interface Skill {
  slug: string;
  title: string;
  sources: string[];
  trigger: string;
  procedure: string[];
  forbidden: string[];
  reviewer: string[];
  generatedAt: number;
  status: 'draft' | 'active';
}

function markdown(skill: Skill, lessons: Map<string, string>): string {
  const quote = (v: string) => (/[:#"'\n]/.test(v) ? JSON.stringify(v) : v);
  return [
    '---', `name: ${skill.slug}`, `description: ${quote(skill.title)}`, 'triggers:', `  - ${quote(skill.trigger)}`,
    'generated_from_knowledge:', ...skill.sources.map((id) => `  - ${id}`), 'source_knowledge_ids:', ...skill.sources.map((id) => `  - ${id}`),
    `generated_at: ${quote(iso(skill.generatedAt))}`, 'confidence: 0.85', `status: ${skill.status}`, 'version: 1', 'skill_origin: generated', 'skill_type: directive', '---', '',
    SKILL_MARKER, `# ${skill.title}`, '', '## Trigger', '', `- ${skill.trigger}`, '',
    '## Required Procedure', '', ...skill.procedure.map((p, i) => `${i + 1}. ${p}`), '',
    '## Forbidden Shortcuts', '', ...skill.forbidden.map((f) => `- ${f}`), '',
    '## Delegation Template', '', '```', `SKILLS: file:.opencode/skills/generated/${skill.slug}/SKILL.md`, '```', '',
    '## Reviewer Checks', '', ...skill.reviewer.map((r) => `- ${r}`), '',
    '## Source Knowledge IDs', '', ...skill.sources.map((id) => `- ${id} — ${lessons.get(id) ?? ''}`), '',
  ].join('\n');
}

export function writeReleasedSkills(projectDir: string, rng: Rng, now: number, entries: readonly EntryDraft[]): void {
  const lessons = new Map(entries.map((e) => [e.id, e.lesson]));
  const swarm = path.join(projectDir, '.swarm');
  const active: Skill = {
    slug: RELEASED_SKILL, title: 'Snapshot staging before migrating', sources: [ID.criticalEnforced, ID.escalationSource], trigger: 'schema migration against staging',
    procedure: ['take a snapshot of the staging database', 'run the migration', 'record the snapshot id in the task evidence'], forbidden: ['migrating staging without a snapshot'],
    reviewer: ['task evidence names the snapshot id'], generatedAt: now - 8 * DAY, status: 'active',
  };
  const draft: Skill = {
    slug: 'outbox-event-publishing', title: 'Publish inventory events through the outbox', sources: [ID.criticalApplied], trigger: 'new inventory change event',
    procedure: ['insert the event into the outbox table inside the business transaction'], forbidden: ['publishing to the broker from a request handler'],
    reviewer: ['no broker client call in request handlers'], generatedAt: now - 2 * DAY, status: 'draft',
  };
  writeText(path.join(projectDir, '.opencode', 'skills', 'generated', active.slug, 'SKILL.md'), markdown(active, lessons));
  writeText(path.join(swarm, 'skills', 'proposals', `${draft.slug}.md`), markdown(draft, lessons));
  writeJsonLines(path.join(swarm, 'skill-changelogs', `${active.slug}.jsonl`), [{ version: 1, timestamp: iso(active.generatedAt), action: 'generated', reason: 'curator skill candidate (confidence 0.85)' }]);
  const skillPath = `.opencode/skills/generated/${active.slug}/SKILL.md`;
  writeJsonLines(path.join(swarm, 'skill-usage.jsonl'), [
    { id: rng.uuid(), skillPath, agentName: 'coder', taskID: 'injection', timestamp: iso(now - 5 * DAY), complianceVerdict: 'not_checked', sessionID: `ses_${rng.base62(12)}`, skillVersion: 1 },
    { id: rng.uuid(), skillPath, agentName: 'coder', taskID: '4.1', timestamp: iso(now - 2 * DAY), complianceVerdict: 'violated', reviewerNotes: 'no snapshot id in the evidence', sessionID: `ses_${rng.base62(12)}`, skillVersion: 1 },
  ]);

  writePrettyJson(path.join(swarm, 'curator-summary.json'), {
    schema_version: 1, session_id: `ses_${rng.base62(12)}`, last_updated: iso(now - 3 * DAY - HOUR), last_phase_covered: 3,
    digest: 'Phases 1–3 delivered stock reservations and the ERP sync; two critical directives keep being shown without an answer.',
    phase_digests: [1, 2, 3].map((phase) => ({
      phase, timestamp: iso(now - (12 - 3 * phase) * DAY - HOUR), summary: `Phase ${phase} complete.`, agents_used: ['architect', 'coder', 'reviewer'],
      tasks_completed: 4, tasks_total: phase === 2 ? 5 : 4, key_decisions: [], blockers_resolved: [],
    })),
    compliance_observations: [{ phase: 2, timestamp: iso(now - 6 * DAY + HOUR), type: 'missing_reviewer', description: 'Task 2.3 was marked complete without a reviewer delegation.', severity: 'warning' }],
    knowledge_recommendations: [{ action: 'promote', entry_id: ID.criticalApplied, lesson: lessons.get(ID.criticalApplied) ?? '', reason: 'applied in every phase it was shown' }],
  });
  writePrettyJson(path.join(swarm, 'evidence', '3', 'curator-findings.json'), {
    findings: [
      { knowledge_id: ID.criticalEnforced, expected_behavior: 'a staging snapshot before the migration', observed_behavior: 'no acknowledgement and no snapshot recorded', verdict: 'violated', evidence_refs: ['.swarm/evidence/3/task-3.2.json'] },
      { knowledge_id: ID.criticalApplied, expected_behavior: 'events written to the outbox', observed_behavior: 'outbox insert in the reservation transaction', verdict: 'applied', evidence_refs: [] },
    ],
  });
}
