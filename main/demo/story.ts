import { DAY, HOUR, MINUTE } from './clock';
import type { Priority } from './entry-model';
import { DEMO_IDS as ID, DEMO_SESSIONS as S, DEMO_TRACES as T } from './ids';
import type { Displayed, Evidence, Story, Terminal, Trace } from './story-types';
import { MAX_GATE_DENIALS } from './story-types';

const evidence = (summary: string, parts: Partial<Evidence> = {}): Evidence => ({ files: [], commands: [], tests: [], summary, ...parts });

function shown(entryId: string, priority: Priority, score: number, tier: 'swarm' | 'hive' = 'swarm'): Displayed {
  return { entryId, tier, priority, obligation: priority === 'critical' ? 'ack_required' : 'advisory', score };
}

/**
 * The hand-written timeline the views are tested against (phases 1–5 of the current plan,
 * anchored on `now`). Seeded filler traces are added around it by story-filler.ts.
 *
 * Phase 1 closed 18 d ago and Phase 2 13 d ago (both archived); Phase 3 closed 6 d ago and
 * Phase 4 2 d ago (both in the 7-day grace window); Phase 5 is open.
 */
export function notableStory(now: number): Story {
  const at = (offset: number) => now - offset;
  const phases: Story['phases'] = [
    { label: 'Phase 1', number: 1, sessionId: S.phase1, startMs: at(21 * DAY), closeMs: at(18 * DAY), outcome: 'success' },
    { label: 'Phase 2', number: 2, sessionId: S.phase2, startMs: at(16 * DAY), closeMs: at(13 * DAY), outcome: 'success' },
    { label: 'Phase 3', number: 3, sessionId: S.phase3, startMs: at(10 * DAY), closeMs: at(6 * DAY), outcome: 'success' },
    { label: 'Phase 4', number: 4, sessionId: S.phase4, startMs: at(5 * DAY), closeMs: at(2 * DAY), outcome: 'partial' },
    { label: 'Phase 5', number: 5, sessionId: S.phase5, startMs: at(1 * DAY), closeMs: null, outcome: null },
  ];
  const traces: Trace[] = [];
  const terminals: Terminal[] = [];
  const story: Story = { phases, traces, terminals, denials: [], releases: [], closes: [], warns: [], escalations: [] };
  const trace = (t: Omit<Trace, 'entries'>, entries: Displayed[]) => traces.push({ ...t, entries });
  const term = (t: Terminal) => terminals.push(t);
  const deny = (atMs: number, sessionId: string, phase: string, tool: string, entryIds: string[], traceIds: string[], denialCount: number) =>
    story.denials.push({ atMs, sessionId, phase, tool, agent: 'architect', entryIds, traceIds, denialCount });

  // Phase 2: the secrets directive is violated twice and escalated high → critical; the gate was still in warn mode.
  const t2a = at(15 * DAY);
  trace({ traceId: T.phase2Secrets, phase: 'Phase 2', sessionId: S.phase2, taskId: '2.1', agent: 'architect', mode: 'auto_injection', query: 'add payout provider sandbox fixtures', atMs: t2a }, [
    shown(ID.secretsRemediated, 'high', 1.38),
    shown(ID.idempotencyKeys, 'high', 1.12),
    shown(ID.migrationLockViolated, 'high', 0.94),
    shown(ID.webhookRetry, 'medium', 0.61),
  ]);
  term({ traceId: T.phase2Secrets, entryId: ID.migrationLockViolated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t2a + 10 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  term({ traceId: T.phase2Secrets, entryId: ID.idempotencyKeys, outcome: 'applied', source: 'delegate', agent: 'coder', atMs: t2a + 2 * HOUR, reason: null, evidence: evidence('request id used as key', { files: ['src/payouts/client.ts'] }), legacy: 'events' });
  term({ traceId: T.phase2Secrets, entryId: ID.webhookRetry, outcome: 'n_a', source: 'unknown', agent: 'architect', atMs: t2a + 4 * HOUR, reason: 'legacy knowledge_ack without session attribution', evidence: null, legacy: 'application' });
  term({
    traceId: T.phase2Secrets, entryId: ID.secretsRemediated, outcome: 'violated', source: 'reviewer', agent: 'reviewer', atMs: at(14 * DAY),
    reason: 'fixture test/fixtures/stripe.json contains a live-format key', evidence: evidence('secret scan failed', { files: ['test/fixtures/stripe.json'] }),
    predicateCheck: { predicate: 'file_not_modified:.env', result: 'pass', detail: '.env untouched; key found in a fixture instead' }, legacy: 'events', legacySource: 'reviewer',
  });
  const t2b = at(13 * DAY + 14 * HOUR);
  trace({ traceId: T.phase2CoderViolation, phase: 'Phase 2', sessionId: S.phase2, taskId: '2.3', agent: 'coder', mode: 'delegate_inject', query: 'wire payout webhook secret', atMs: t2b }, [shown(ID.secretsRemediated, 'high', 1.21)]);
  term({ traceId: T.phase2CoderViolation, entryId: ID.secretsRemediated, outcome: 'violated', source: 'delegate', agent: 'coder', atMs: at(13 * DAY + 12 * HOUR), reason: 'wrote STRIPE_KEY into .env.test and committed it', evidence: null, legacy: 'events' });
  story.escalations.push({ entryId: ID.secretsRemediated, atMs: at(13 * DAY + 12 * HOUR - MINUTE), from: 'high', to: 'critical' });
  const t2c = at(13 * DAY + 10 * HOUR);
  trace({ traceId: T.phase2SecretsCritical, phase: 'Phase 2', sessionId: S.phase2, taskId: '2.4', agent: 'architect', mode: 'auto_injection', query: 'rotate payout webhook secret', atMs: t2c }, [
    shown(ID.secretsRemediated, 'critical', 1.52),
    shown(ID.promotedWithCounterpart, 'medium', 0.83),
  ]);
  story.warns.push({ atMs: t2c + 3 * MINUTE, sessionId: S.phase2, tool: 'save_plan', entryIds: [ID.secretsRemediated] });
  story.warns.push({ atMs: t2c + 5 * MINUTE, sessionId: S.phase2, tool: 'Task', entryIds: [ID.secretsRemediated] });
  story.warns.push({ atMs: at(14 * DAY + 5 * HOUR), sessionId: null, tool: 'phase_complete', entryIds: [] });
  term({ traceId: T.phase2SecretsCritical, entryId: ID.secretsRemediated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t2c + 9 * MINUTE, reason: null, evidence: null, legacy: 'application' });

  // Phase 3: a migration-lock violation (6.5 days ago) and a session reset that released the PAN directive.
  const t3a = at(9 * DAY + 12 * HOUR);
  trace({ traceId: T.phase3Architect, phase: 'Phase 3', sessionId: S.phase3, taskId: '3.1', agent: 'architect', mode: 'auto_injection', query: 'plan ledger balance backfill', atMs: t3a }, [
    shown(ID.openObligation, 'critical', 1.61),
    shown(ID.expiringNodePin, 'critical', 1.17),
    shown(ID.migrationLockViolated, 'high', 1.05),
  ]);
  term({ traceId: T.phase3Architect, entryId: ID.expiringNodePin, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t3a + 4 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  term({ traceId: T.phase3Architect, entryId: ID.openObligation, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t3a + 6 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  const t3d = at(8 * DAY);
  trace({ traceId: T.phase3Reset, phase: 'Phase 3', sessionId: S.phase3, taskId: '3.3', agent: 'architect', mode: 'auto_injection', query: 'log payout failures with context', atMs: t3d }, [
    shown(ID.panReleased, 'critical', 1.44),
    shown(ID.skillIneligibleOnePhase, 'medium', 0.72),
  ]);
  deny(t3d + 2 * MINUTE, S.phase3, 'Phase 3', 'Task', [ID.panReleased], [T.phase3Reset], 1);
  deny(t3d + 4 * MINUTE, S.phase3, 'Phase 3', 'save_plan', [ID.panReleased], [T.phase3Reset], 2);
  story.releases.push({ kind: 'session_reset', source: 'manual', atMs: t3d + 6 * MINUTE, sessionId: S.phase3, phase: 'Phase 3', taskId: '3.3', tool: null, pending: [{ traceId: T.phase3Reset, entryId: ID.panReleased }], denialCount: 2, oldestShownMs: t3d });
  term({ traceId: T.phase3Reset, entryId: ID.panReleased, outcome: 'applied', source: 'manual', agent: 'user', atMs: t3d + 2 * HOUR, reason: 'operator verified maskPan() in the logger middleware', evidence: evidence('manual review', { files: ['src/logging/middleware.ts'] }), legacy: 'none' });
  const t3b = at(7 * DAY);
  trace({ traceId: T.phase3Coder, phase: 'Phase 3', sessionId: S.phase3, taskId: '3.2', agent: 'coder', mode: 'delegate_inject', query: 'backfill ledger balances', atMs: t3b }, [shown(ID.migrationLockViolated, 'high', 1.31)]);
  term({ traceId: T.phase3Coder, entryId: ID.migrationLockViolated, outcome: 'applied', source: 'delegate', agent: 'coder', atMs: t3b + 30 * MINUTE, reason: null, evidence: null, legacy: 'events' });
  const t3c = at(6 * DAY + 12 * HOUR);
  trace({ traceId: T.phase3Reviewer, phase: 'Phase 3', sessionId: S.phase3, taskId: '3.2', agent: 'reviewer', mode: 'review_context', query: 'review ledger backfill migration', atMs: t3c }, [shown(ID.migrationLockViolated, 'high', 1.4)]);
  term({
    traceId: T.phase3Reviewer, entryId: ID.migrationLockViolated, outcome: 'violated', source: 'reviewer', agent: 'reviewer', atMs: t3c + 10 * MINUTE,
    reason: 'migration 0042 backfills 48k rows without pg_advisory_lock', evidence: evidence('predicate failed', { files: ['db/migrations/0042_backfill_balances.sql'] }),
    predicateCheck: { predicate: 'grep:pg_advisory_lock:db/migrations/*.sql', result: 'fail', detail: 'no match in 0042_backfill_balances.sql' }, legacy: 'events', legacySource: 'reviewer',
  });

  // Phase 4: denial-limit release, two violations and the escalation of the scope directive, the open obligation.
  const t4a = at(5 * DAY - HOUR);
  trace({ traceId: T.phase4Architect, phase: 'Phase 4', sessionId: S.phase4, taskId: '4.1', agent: 'architect', mode: 'auto_injection', query: 'implement refund endpoint', atMs: t4a }, [
    shown(ID.panReleased, 'critical', 1.57),
    shown(ID.scopeEscalated, 'high', 1.42),
    shown(ID.idempotencyKeys, 'high', 1.2),
    shown(ID.hiveStream, 'medium', 0.77, 'hive'),
  ]);
  term({ traceId: T.phase4Architect, entryId: ID.scopeEscalated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t4a + 4 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  term({ traceId: T.phase4Architect, entryId: ID.hiveStream, outcome: 'n_a', source: 'architect_marker', agent: 'architect', atMs: t4a + 4 * MINUTE + 5000, reason: 'no stream processing in this task', evidence: null, legacy: 'application' });
  const denyTools = ['Task', 'Task', 'save_plan', 'Task', 'Task'];
  denyTools.forEach((tool, i) => deny(t4a + [1, 2, 3, 5, 6][i]! * MINUTE, S.phase4, 'Phase 4', tool, [ID.panReleased], [T.phase4Architect], i + 1));
  story.releases.push({ kind: 'denial_limit', source: 'application_gate_denial_limit_release', atMs: t4a + 7 * MINUTE, sessionId: S.phase4, phase: 'Phase 4', taskId: '4.1', tool: 'Task', pending: [{ traceId: T.phase4Architect, entryId: ID.panReleased }], denialCount: MAX_GATE_DENIALS, oldestShownMs: t4a });
  term({ traceId: T.phase4Architect, entryId: ID.idempotencyKeys, outcome: 'applied', source: 'architect', agent: 'architect', atMs: t4a + 20 * MINUTE, reason: 'refund handler keys on X-Request-Id', evidence: evidence('verified_by=reviewer', { files: ['src/refunds/handler.ts'] }), legacy: 'events' });

  const t4b = at(4 * DAY);
  trace({ traceId: T.phase4Coder, phase: 'Phase 4', sessionId: S.phase4, taskId: '4.2', agent: 'coder', mode: 'delegate_inject', query: 'refund endpoint persistence', atMs: t4b }, [
    shown(ID.scopeEscalated, 'high', 1.36),
    shown(ID.idempotencyKeys, 'high', 1.18),
    shown(ID.focusedTests, 'high', 0.98),
  ]);
  term({ traceId: T.phase4Coder, entryId: ID.idempotencyKeys, outcome: 'applied', source: 'delegate', agent: 'coder', atMs: t4b + 35 * MINUTE, reason: null, evidence: null, legacy: 'events' });
  term({ traceId: T.phase4Coder, entryId: ID.focusedTests, outcome: 'ignored', source: 'delegate', agent: 'coder', atMs: t4b + 36 * MINUTE, reason: 'already_satisfied: test_engineer runs the focused file in 4.3', evidence: null, legacy: 'events' });
  term({ traceId: T.phase4Coder, entryId: ID.scopeEscalated, outcome: 'violated', source: 'delegate', agent: 'coder', atMs: t4b + 40 * MINUTE, reason: 'edited src/refunds/util.ts without declare_scope', evidence: null, legacy: 'events' });
  term({ traceId: T.phase4Coder, entryId: ID.scopeEscalated, outcome: 'applied', source: 'reviewer', agent: 'reviewer', atMs: at(3 * DAY - 5 * HOUR), reason: 'scope declared retroactively; diff limited to src/refunds/**', evidence: evidence('verified_by=reviewer', { files: ['src/refunds/util.ts'] }), legacy: 'events', legacySource: 'reviewer' });

  const t4c = at(3 * DAY);
  trace({ traceId: T.phase4Reviewer, phase: 'Phase 4', sessionId: S.phase4, taskId: '4.3', agent: 'reviewer', mode: 'review_context', query: 'review refund endpoint', atMs: t4c }, [
    shown(ID.scopeEscalated, 'high', 1.45),
    shown(ID.focusedTests, 'high', 1.01),
  ]);
  term({
    traceId: T.phase4Reviewer, entryId: ID.scopeEscalated, outcome: 'violated', source: 'reviewer', agent: 'reviewer', atMs: t4c + 20 * MINUTE,
    reason: 'coder wrote files via bash heredoc', evidence: evidence('predicate failed', { files: ['src/refunds/util.ts'] }),
    predicateCheck: { predicate: 'grep:cat <<:src/**/*.ts', result: 'fail', detail: '1 match in src/refunds/util.ts' }, legacy: 'events', legacySource: 'reviewer',
  });
  story.escalations.push({ entryId: ID.scopeEscalated, atMs: t4c + 21 * MINUTE, from: 'high', to: 'critical' });
  term({ traceId: T.phase4Reviewer, entryId: ID.focusedTests, outcome: 'applied', source: 'reviewer', agent: 'reviewer', atMs: t4c + 22 * MINUTE, reason: null, evidence: evidence('verified_by=reviewer', { tests: ['test/refunds/handler.test.ts'] }), legacy: 'events', legacySource: 'reviewer' });

  const t4d = at(2 * DAY + 19 * HOUR);
  trace({ traceId: T.phase4TestEngineer, phase: 'Phase 4', sessionId: S.phase4, taskId: '4.3', agent: 'test_engineer', mode: 'coder_context', query: 'refund repository tests', atMs: t4d }, [
    shown(ID.focusedTests, 'high', 1.33),
    shown(ID.sqliteContradicted, 'medium', 0.92),
  ]);
  term({ traceId: T.phase4TestEngineer, entryId: ID.focusedTests, outcome: 'applied', source: 'test_engineer', agent: 'test_engineer', atMs: t4d + 30 * MINUTE, reason: null, evidence: evidence('verified_by=test_engineer', { commands: ['npx vitest run test/refunds/handler.test.ts'], tests: ['test/refunds/handler.test.ts'] }), legacy: 'events', legacySource: 'test_engineer' });
  term({ traceId: T.phase4TestEngineer, entryId: ID.sqliteContradicted, outcome: 'contradicted', source: 'test_engineer', agent: 'test_engineer', atMs: t4d + 40 * MINUTE, reason: 'revise: JSONB containment (@>) is unsupported on SQLite; 3 repository tests pass on SQLite and fail on Postgres', evidence: evidence('contradicting test run', { tests: ['test/refunds/repository.test.ts'] }), legacy: 'events', legacySource: 'test_engineer' });

  const t4f = at(2 * DAY + 5 * HOUR);
  trace({ traceId: T.phase4Unacked, phase: 'Phase 4', sessionId: S.phase4, taskId: '4.4', agent: 'coder', mode: 'delegate_inject', query: 'refund webhook signature check', atMs: t4f }, [shown(ID.secretsRemediated, 'critical', 1.5)]);
  term({ traceId: T.phase4Unacked, entryId: ID.secretsRemediated, outcome: 'violated', source: 'delegate', agent: 'coder', atMs: t4f + 25 * MINUTE, reason: 'unacknowledged', evidence: null, legacy: 'events' });

  const t4e = at(2 * DAY + 12 * HOUR);
  trace({ traceId: T.phase4Open, phase: 'Phase 4', sessionId: S.phase4Aborted, taskId: '4.4', agent: 'architect', mode: 'auto_injection', query: 'add refund reason column to ledger', atMs: t4e }, [
    shown(ID.openObligation, 'critical', 1.66),
    shown(ID.scopeEscalated, 'critical', 1.49),
    shown(ID.webhookRetry, 'medium', 0.58),
  ]);
  term({ traceId: T.phase4Open, entryId: ID.scopeEscalated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t4e + 3 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  deny(t4e + 5 * MINUTE, S.phase4Aborted, 'Phase 4', 'Task', [ID.openObligation], [T.phase4Open], 1);
  deny(t4e + 8 * MINUTE, S.phase4Aborted, 'Phase 4', 'save_plan', [ID.openObligation], [T.phase4Open], 2);

  const close4 = at(2 * DAY);
  const panOverride = 'PAN masking verified in the logger middleware; no card data paths changed in 4.x';
  term({ traceId: T.phase4Architect, entryId: ID.panReleased, outcome: 'n_a', source: 'phase_override', agent: 'architect', atMs: close4 - MINUTE, reason: `override: ${panOverride}`, evidence: null, legacy: 'override', legacySource: 'reviewer' });
  story.closes.push({
    phase: 'Phase 4', sessionId: S.phase4, atMs: close4, outcome: 'partial',
    unresolved: [
      { traceId: T.phase4Open, entryId: ID.openObligation, reason: 'no_verdict' },
      { traceId: T.phase4Unacked, entryId: ID.secretsRemediated, reason: 'unremediated_violation' },
    ],
    overrides: [{ entryId: ID.panReleased, justification: panOverride }],
  });
  for (const phase of phases.slice(0, 3)) {
    story.closes.push({ phase: phase.label, sessionId: phase.sessionId, atMs: phase.closeMs as number, outcome: 'success', unresolved: [], overrides: [] });
  }

  // Phase 5 (open): a violation within the last day, a staleness release, and a directive blocking right now.
  const t5a = at(20 * HOUR);
  trace({ traceId: T.phase5Architect, phase: 'Phase 5', sessionId: S.phase5, taskId: '5.1', agent: 'architect', mode: 'auto_injection', query: 'payout reconciliation report', atMs: t5a }, [
    shown(ID.scopeEscalated, 'critical', 1.58),
    shown(ID.secretsRemediated, 'critical', 1.51),
    shown(ID.expiringStaleness, 'critical', 1.29),
    shown(ID.focusedTests, 'high', 0.97),
  ]);
  term({ traceId: T.phase5Architect, entryId: ID.scopeEscalated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t5a + 2 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  term({ traceId: T.phase5Architect, entryId: ID.secretsRemediated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t5a + 3 * MINUTE, reason: null, evidence: null, legacy: 'application' });
  deny(t5a + 4 * MINUTE, S.phase5, 'Phase 5', 'Task', [ID.expiringStaleness], [T.phase5Architect], 1);
  story.releases.push({ kind: 'staleness', source: 'application_gate_staleness_release', atMs: t5a + 13 * MINUTE, sessionId: S.phase5, phase: 'Phase 5', taskId: '5.1', tool: 'update_task_status', pending: [{ traceId: T.phase5Architect, entryId: ID.expiringStaleness }], denialCount: 1, oldestShownMs: t5a });
  term({
    traceId: T.phase5Architect, entryId: ID.secretsRemediated, outcome: 'violated', source: 'reviewer', agent: 'reviewer', atMs: at(18 * HOUR),
    reason: 'test/fixtures/payout.json contains an sk_live_-shaped key', evidence: evidence('secret scan failed', { files: ['test/fixtures/payout.json'] }),
    predicateCheck: { predicate: 'grep:sk_live_[0-9a-zA-Z]{8,}:test/fixtures/**', result: 'fail', detail: '1 match in test/fixtures/payout.json' }, legacy: 'events', legacySource: 'reviewer',
  });
  term({ traceId: T.phase5Architect, entryId: ID.secretsRemediated, outcome: 'applied', source: 'test_engineer', agent: 'test_engineer', atMs: at(15 * HOUR), reason: 'fixture key replaced with the vault stub; secret scan passes', evidence: evidence('verified_by=test_engineer', { commands: ['npm run scan:secrets'], files: ['test/fixtures/payout.json'] }), legacy: 'events', legacySource: 'test_engineer' });

  const t5b = at(10 * HOUR);
  trace({ traceId: T.phase5Coder, phase: 'Phase 5', sessionId: S.phase5, taskId: '5.2', agent: 'coder', mode: 'delegate_inject', query: 'reconciliation export job', atMs: t5b }, [
    shown(ID.secretsRemediated, 'critical', 1.47),
    shown(ID.idempotencyKeys, 'high', 0.88),
  ]);
  term({ traceId: T.phase5Coder, entryId: ID.secretsRemediated, outcome: 'applied', source: 'delegate', agent: 'coder', atMs: t5b + 20 * MINUTE, reason: null, evidence: null, legacy: 'events' });
  term({ traceId: T.phase5Coder, entryId: ID.idempotencyKeys, outcome: 'n_a', source: 'delegate', agent: 'coder', atMs: t5b + 21 * MINUTE, reason: 'no refund code touched in 5.2', evidence: null, legacy: 'events' });

  const t5c = at(6 * HOUR);
  trace({ traceId: T.phase5Recall, phase: 'Phase 5', sessionId: S.phase5, taskId: '5.2', agent: 'architect', mode: 'manual', query: 'webhook retry policy', atMs: t5c }, [
    shown(ID.webhookRetry, 'medium', 1.12),
    shown(ID.contradictionTagged, 'medium', 0.81),
  ]);
  term({ traceId: T.phase5Recall, entryId: ID.webhookRetry, outcome: 'applied', source: 'architect', agent: 'architect', atMs: t5c + 10 * MINUTE, reason: 'export retries respect Retry-After and park in webhook_dead_letters', evidence: evidence('verified_by=architect', { files: ['src/reconciliation/export.ts'] }), legacy: 'events' });
  term({ traceId: T.phase5Recall, entryId: ID.contradictionTagged, outcome: 'ignored', source: 'architect', agent: 'architect', atMs: t5c + 11 * MINUTE, reason: 'superseded: conflicts with the Retry-After budget', evidence: null, legacy: 'events' });

  const t5e = at(35 * MINUTE);
  trace({ traceId: T.phase5Blocking, phase: 'Phase 5', sessionId: S.phase5, taskId: '5.3', agent: 'architect', mode: 'auto_injection', query: 'handle payout.failed webhook', atMs: t5e }, [
    shown(ID.expiringBlocking, 'critical', 1.63),
    shown(ID.scopeEscalated, 'critical', 1.5),
    shown(ID.webhookRetry, 'medium', 0.9),
  ]);
  term({ traceId: T.phase5Blocking, entryId: ID.scopeEscalated, outcome: 'applied', source: 'architect_marker', agent: 'architect', atMs: t5e + MINUTE, reason: null, evidence: null, legacy: 'application' });
  ['Task', 'save_plan', 'Task', 'Task'].forEach((tool, i) => deny(t5e + (2 + 2 * i) * MINUTE, S.phase5, 'Phase 5', tool, [ID.expiringBlocking], [T.phase5Blocking], i + 1));
  return story;
}
