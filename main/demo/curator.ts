import path from 'node:path';
import { DAY, HOUR, iso } from './clock';
import type { ComplianceObservation } from './gate-events';
import { DEMO_IDS as ID } from './ids';
import { writeJsonLines, writePrettyJson } from './line-writer';
import type { Story } from './story-types';

/**
 * The project's `swarm_max_entries`: the store holds exactly this many lessons, so it is at its cap and the
 * scripted week's `knowledge_add` calls evict the oldest line (docs/plugin-formats.md#caps-and-ttl-archive).
 */
export const DEMO_SWARM_MAX_ENTRIES = 280;

type Rec = Record<string, unknown>;

export function complianceObservations(story: Story): ComplianceObservation[] {
  const closeOf = (n: number) => (story.phases[n - 1]?.closeMs ?? 0) - 30 * 1000;
  return [
    { phase: 1, atMs: closeOf(1), type: 'missing_retro', severity: 'info', description: 'Phase 1 closed without a retrospective note' },
    { phase: 2, atMs: closeOf(2), type: 'skipped_test', severity: 'warning', description: 'Task 2.3 marked complete with failing tests skipped' },
    { phase: 3, atMs: closeOf(3), type: 'missing_sme', severity: 'info', description: 'Ledger backfill planned without a database SME consultation' },
    { phase: 4, atMs: closeOf(4), type: 'missing_reviewer', severity: 'warning', description: 'Task 4.4 completed without a reviewer delegation' },
    { phase: 4, atMs: closeOf(4) + 1000, type: 'workflow_deviation', severity: 'warning', description: 'Architect session ses_4Gr0yl3Mx8Ua aborted with an unacknowledged critical directive' },
  ];
}

const FINDINGS: Record<number, Array<[string, string, string, 'applied' | 'ignored' | 'violated' | 'not_applicable', string[]]>> = {
  1: [[ID.focusedTests, 'run the focused test file before review', 'focused runs attached to 1.2 and 1.4', 'applied', ['.swarm/evidence/1.2.json']]],
  2: [
    [ID.secretsRemediated, 'no live keys in fixtures or env files', 'live-format key committed in test/fixtures/stripe.json', 'violated', ['.swarm/evidence/2.1.json', 'test/fixtures/stripe.json']],
    [ID.idempotencyKeys, 'idempotency key from the request id', 'payout client keys on X-Request-Id', 'applied', ['.swarm/evidence/2.1.json']],
  ],
  3: [
    [ID.migrationLockViolated, 'advisory lock around large backfills', 'migration 0042 backfills 48k rows without pg_advisory_lock', 'violated', ['db/migrations/0042_backfill_balances.sql']],
    [ID.panReleased, 'mask PANs before logging', 'operator verified maskPan() after a session reset', 'applied', ['src/logging/middleware.ts']],
  ],
  4: [
    [ID.scopeEscalated, 'declare_scope before coder delegation', 'declare_scope called for 4.1 and 4.2, skipped for 4.3', 'violated', ['.swarm/evidence/4.3.json']],
    [ID.openObligation, 'dry-run the ledger migration before applying it', 'session aborted before the dry-run; no log attached', 'ignored', ['.swarm/evidence/4.4.json']],
    [ID.hiveStream, 'stream pipelines use Readable.from', 'no stream processing in Phase 4', 'not_applicable', []],
  ],
};

/**
 * Curator outputs and the small per-worktree state files: curator summary and per-phase
 * findings, the insight queue, synonym map, verdict-feedback cursor, migration sentinel and
 * the project config (enforce mode, raised caps so the demo's few hundred entries fit).
 */
export function writeCuratorAndState(projectDir: string, story: Story, now: number, lastEventId: { id: string; timestamp: string }): void {
  const swarm = path.join(projectDir, '.swarm');
  const closed = story.phases.filter((p) => p.closeMs !== null);
  const digests = closed.map((p) => ({
    phase: p.number,
    timestamp: iso((p.closeMs as number) + 6000),
    summary: ['Refund data model and migrations drafted.', 'Payout provider sandbox wired; webhook secret rotated.', 'Ledger balances backfilled.', 'Refund endpoint implemented; one critical directive left unresolved.'][p.number - 1] ?? '',
    agents_used: ['coder', 'reviewer', ...(p.number >= 3 ? ['test_engineer'] : [])],
    tasks_completed: p.number === 4 ? 3 : 4,
    tasks_total: 4,
    key_decisions: [['ledger writes are transactional'], ['payout keys come from the vault stub'], ['backfill runs in batches of 5000'], ['refunds are idempotent by request id']][p.number - 1] ?? [],
    blockers_resolved: p.number === 3 ? ['session reset after repeated gate denials'] : [],
  }));
  const compliance = complianceObservations(story).map((c) => ({ phase: c.phase, timestamp: iso(c.atMs), type: c.type, description: c.description, severity: c.severity }));
  writePrettyJson(path.join(swarm, 'curator-summary.json'), {
    schema_version: 1,
    session_id: `session-${story.phases[3]?.startMs ?? now}`,
    last_updated: digests[digests.length - 1]?.timestamp ?? iso(now),
    last_phase_covered: closed.length,
    digest: digests.map((d) => `### Phase ${d.phase}\n${d.summary}`).join('\n\n'),
    phase_digests: digests,
    compliance_observations: compliance,
    knowledge_recommendations: [
      { action: 'promote', entry_id: ID.focusedTests, lesson: 'Run the focused test file for the module you changed before delegating review; leave the full suite to CI.', reason: 'applied in four consecutive phases' },
      { action: 'archive', entry_id: ID.lowUtility, lesson: 'Add a comment above every SQL query explaining its purpose.', reason: 'ignored 9 of 11 times' },
      { action: 'flag_contradiction', entry_id: ID.contradictionTagged, lesson: 'Retry failed webhook deliveries immediately up to ten times before backing off.', reason: 'conflicts with the Retry-After budget in the provider docs' },
      { action: 'rewrite', entry_id: ID.skillIneligibleNegative, lesson: 'Write currency rounding cases as one table of inputs and expected outputs per currency group.', reason: 'too vague to apply; mostly ignored', category: 'testing', confidence: 0.65 },
      { action: 'promote', lesson: 'hive promotion batch', reason: JSON.stringify({ promoted: 2, skipped_duplicates: 1, encounters_updated: 4 }) },
    ],
  });
  for (const [phase, findings] of Object.entries(FINDINGS)) {
    writePrettyJson(path.join(swarm, 'evidence', phase, 'curator-findings.json'), {
      findings: findings.map(([knowledge_id, expected_behavior, observed_behavior, verdict, evidence_refs]) => ({ knowledge_id, expected_behavior, observed_behavior, verdict, evidence_refs })),
    });
  }

  // Drift reports after phases 3 and 4 (the DriftReport shape: alignment, drift_score, findings).
  writePrettyJson(path.join(swarm, 'drift-report-phase-3.json'), {
    phase: 3,
    timestamp: iso((story.phases[2]?.closeMs ?? now) + 9000),
    alignment: 'MINOR_DRIFT',
    drift_score: 0.22,
    summary: 'Backfill batches grew from 5000 to 20000 rows without a spec change.',
    findings: ['batch size differs from the spec (5000)', 'no advisory lock around the backfill'],
    recommendations: ['restore the 5000-row batch or amend the spec'],
  });
  writePrettyJson(path.join(swarm, 'drift-report-phase-4.json'), {
    phase: 4,
    timestamp: iso((story.phases[3]?.closeMs ?? now) + 9000),
    alignment: 'ALIGNED',
    drift_score: 0.04,
    summary: 'Refund endpoint matches the spec; one task closed without review.',
    findings: ['task 4.4 closed without a reviewer delegation'],
    recommendations: [],
  });

  const insights: Rec[] = [
    { lesson: 'Run the focused test file after editing a fixture to catch snapshot drift early.', category: 'testing', tags: ['testing'], source: { kind: 'micro_reflection', task_id: '5.1', agent: 'coder', outcome: 'test_failure', trajectory_steps: 14 }, created_at: iso(now - 19 * HOUR), applies_to_agents: ['coder'], required_actions: ['run the focused test file after editing fixtures'] },
    { lesson: 'Check the reconciliation export against the partner schema before wiring the scheduler.', category: 'integration', tags: ['integration', 'export'], source: { kind: 'micro_reflection', task_id: '5.2', agent: 'coder', outcome: 'success', trajectory_steps: 22 }, created_at: iso(now - 9 * HOUR) },
    { lesson: 'Ask the reviewer for the exact failing predicate before rewriting a whole task.', category: 'process', tags: ['process', 'review'], source: { kind: 'micro_reflection', task_id: '4.3', agent: 'architect', outcome: 'reviewer_rejection', trajectory_steps: 9 }, created_at: iso(now - 2 * DAY - 20 * HOUR), applies_to_agents: ['architect'], forbidden_actions: ['rewrite a task without the failing predicate'] },
    { lesson: 'Stub the clock in payout schedule tests; the cutoff logic depends on the UTC day.', category: 'testing', tags: ['testing', 'time'], source: { kind: 'micro_reflection', task_id: '5.2', agent: 'test_engineer', outcome: 'test_failure', trajectory_steps: 17 }, created_at: iso(now - 5 * HOUR), applies_to_agents: ['test_engineer'], verification_checks: ['payout tests use a fixed clock'] },
  ];
  writeJsonLines(path.join(swarm, 'insight-candidates.jsonl'), insights);

  writePrettyJson(path.join(swarm, 'synonym-map.json'), {
    version: 1,
    cursor: lastEventId.id,
    pairs: { 'backoff|retry': 6, 'dedupe|idempotency': 4, 'ledger|balance': 5, 'migration|schema': 7, 'pan|card': 3, 'secret|credential': 4 },
  });
  writePrettyJson(path.join(swarm, 'verdict-feedback-last-processed.json'), { lastProcessedTimestamp: lastEventId.timestamp, lastProcessedEventId: lastEventId.id });
  writePrettyJson(path.join(swarm, '.knowledge-migrated'), {
    migrated_at: iso(now - 120 * DAY),
    source_version: '7.62.4',
    target_version: '7.63.0',
    entries_migrated: 41,
    entries_dropped: 2,
    schema_version: 1,
    migration_tool: 'knowledge-migrate',
  });
  writePrettyJson(path.join(projectDir, '.opencode', 'opencode-swarm.json'), {
    knowledge: { enabled: true, swarm_max_entries: DEMO_SWARM_MAX_ENTRIES, hive_max_entries: 1000, rejected_max_entries: 50, scope_filter: ['global', 'stack:node'], dedup_threshold: 0.6, receipt_close_grace_days: 7 },
    knowledge_application: { enabled: true, mode: 'enforce', min_confidence: 0.85, critical_requires_ack: true, high_risk_tools: ['save_plan', 'update_task_status', 'phase_complete', 'task', 'Task'], max_gate_denials: 5, gate_staleness_ms: 600000 },
    curator: { enabled: true, skill_generation_enabled: true, skill_generation_mode: 'draft', min_skill_confidence: 0.7, min_skill_confirmations: 2 },
    skill_improver: { enabled: true, max_calls_per_day: 10, quota_window: 'utc' },
    skills: { enabled: true },
    skillPropagation: { enabled: true, enforce: false },
  });
}
