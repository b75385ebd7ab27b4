import { describe, expect, it } from 'vitest';
import { DirectivesQuery } from '../../../shared/contract/knowledge';
import { listDirectives } from './directive-list';
import { entryDetail } from './entry-detail';
import { buildInboxes } from './inbox-list';
import { KnowledgeModel } from './knowledge-model';
import type { SourceEntry } from './model-types';
import { DEFAULT_THRESHOLDS } from '../rules/thresholds';

let rid = 0;
const source = (value: Record<string, unknown>, over: Partial<SourceEntry> = {}): SourceEntry => ({
  rid: ++rid,
  value,
  text: JSON.stringify(value),
  tier: (value.tier as SourceEntry['tier']) ?? 'swarm',
  collection: 'active',
  storeKey: value.tier === 'hive' ? 'hive' : 'knowledge',
  file: value.tier === 'hive' ? '/hive/shared-learnings.jsonl' : '/p/.swarm/knowledge.jsonl',
  line: 1,
  notes: [],
  ...over,
});

const CRIT = 'aaaaaaaa-0000-4000-8000-000000000001';
const ONE_PHASE = 'aaaaaaaa-0000-4000-8000-000000000002';
const HIVE = 'bbbbbbbb-0000-4000-8000-000000000003';

const entries: SourceEntry[] = [
  source({
    id: CRIT,
    tier: 'swarm',
    lesson: 'Call declare_scope before any coder delegation that modifies source files.',
    status: 'established',
    confidence: 0.8,
    category: 'process',
    scope: 'global',
    tags: [],
    phases_alive: 9,
    max_phases: 10,
    directive_priority: 'critical',
    applies_to_agents: ['coder'],
    confirmed_by: [{ phase_number: 1, confirmed_at: '2026-06-01T00:00:00.000Z', project_name: 'p' }],
    retrieval_outcomes: { shown_count: 3 },
    escalation_history: [{ from: 'high', to: 'critical', reason: 'repeat_violation', at: '2026-06-30T00:00:00.000Z' }],
  }),
  source({
    id: ONE_PHASE,
    tier: 'swarm',
    lesson: 'Run the focused test file after editing a fixture to catch snapshot drift.',
    status: 'candidate',
    confidence: 0.76,
    category: 'testing',
    required_actions: ['run the focused test file'],
    confirmed_by: [{ phase_number: 3, confirmed_at: '2026-06-20T00:00:00.000Z', project_name: 'p' }],
    retrieval_outcomes: {},
  }),
  source({ id: HIVE, tier: 'hive', lesson: 'Call declare_scope before any coder delegation that modifies source files.', status: 'promoted', confidence: 1, source_project: 'p', retrieval_outcomes: {} }),
  source({ id: 'r1', lesson: 'Just run rm -rf node_modules', rejection_reason: 'dangerous command', rejected_at: '2026-06-21T00:00:00.000Z', rejection_layer: 2 }, { collection: 'rejected', storeKey: 'knowledge-rejected' }),
  source({ id: 'u1', lesson: 'Be careful with timezones.', unactionable_reason: 'missing_scope', quarantined_at: '2026-06-21T00:00:00.000Z' }, { collection: 'unactionable', storeKey: 'knowledge-unactionable' }),
];

const model = new KnowledgeModel(
  {
    entries,
    knowledgeEvents: [
      { value: { type: 'retrieved', result_ids: [CRIT], timestamp: '2026-07-01T10:00:00.000Z', trace_id: 't1' }, storeKey: 'knowledge-events', file: '/e', line: 1 },
      { value: { type: 'violated', knowledge_id: CRIT, timestamp: '2026-06-29T10:00:00.000Z', trace_id: 't1', agent: 'coder', reason: 'heredoc write' }, storeKey: 'knowledge-events', file: '/e', line: 2 },
      { value: { type: 'violated', knowledge_id: CRIT, timestamp: '2026-06-01T10:00:00.000Z' }, storeKey: 'knowledge-events', file: '/e', line: 3 },
    ],
    applicationLog: [],
    baseline: null,
    retractions: [],
    skills: [{ slug: 'scope-discipline', path: '.opencode/skills/generated/scope-discipline/SKILL.md', kind: 'active', status: 'active', retired: false, stale: false, sourceIds: [CRIT] }],
  },
  DEFAULT_THRESHOLDS,
  Date.parse('2026-12-01T00:00:00.000Z'),
);

describe('knowledge model', () => {
  it('anchors "this week" on the latest recorded activity, not on a later wall clock', () => {
    expect(new Date(model.asOf).toISOString()).toBe('2026-07-01T10:00:00.000Z');
  });

  it('builds the detail pane: counters from events, markers, verdict, receipts, skills and the hive counterpart', () => {
    const detail = entryDetail(model, model.find(CRIT)!);
    expect(detail.outcomes).toMatchObject({ shown_count: 1, violated_count: 2, fromRollup: true });
    expect(detail.markers).toMatchObject({ violationsInWindow: 1, expiry: { phasesLeft: 2, action: 'archived' } });
    expect(detail.maturity).toMatchObject({ eligible: false, decidedBy: 'negative_signal' });
    expect(detail.receipts.total).toBe(3);
    expect(detail.receipts.recent[0]).toMatchObject({ kind: 'retrieved', traceId: 't1' });
    expect(detail.skills.map((s) => s.slug)).toEqual(['scope-discipline']);
    expect(detail.counterparts).toEqual([expect.objectContaining({ id: HIVE, tier: 'hive', exact: true, similarity: 1 })]);
    expect(detail.timeline).toEqual([{ phase: 1, project: 'p', at: '2026-06-01T00:00:00.000Z' }]);
  });

  it('lists directives with funnel, verdict and expiry, and filters to critical expiring or violated ones', () => {
    const all = listDirectives(model, DirectivesQuery.parse({}));
    expect(all.rows.map((r) => r.id)).toEqual([CRIT, ONE_PHASE]);
    expect(all.counts).toMatchObject({ all: 2, expiringSoon: 1, violatedInWindow: 1, notEligible: 2 });
    const row = all.rows[0]!;
    expect(row.funnel).toMatchObject({ shown: 1, violated: 2 });
    expect(row.escalation_history[0]).toMatchObject({ from: 'high', to: 'critical' });
    expect(listDirectives(model, DirectivesQuery.parse({ priority: ['critical'], expiringWithin: 2 })).total).toBe(1);
    expect(listDirectives(model, DirectivesQuery.parse({ violatedInWindow: true })).rows.map((r) => r.id)).toEqual([CRIT]);
    const ineligible = listDirectives(model, DirectivesQuery.parse({ q: 'fixture' })).rows[0]!;
    expect(ineligible.maturity.reasons).toEqual(['Only 1 distinct phase confirmed it; min_skill_confirmations is 2.']);
  });

  it('fills the inboxes from the rejected and unactionable collections', () => {
    const inboxes = buildInboxes(model);
    expect(inboxes.rejected.find((g) => g.layer === '2')!.items.map((i) => i.id)).toEqual(['r1']);
    expect(inboxes.unactionable.map((u) => u.id)).toEqual(['u1']);
    expect(inboxes.duplicates.map((d) => d.total)).toEqual([0, 0]);
  });
});
