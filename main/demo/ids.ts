/**
 * Fixed identities of the demo's notable records. They do not depend on the seed, so view and
 * e2e tests can import them and assert on exactly these rows; everything else is seeded filler.
 */
export const DEMO_PROJECT = 'billing-api';
export const DEMO_SECOND_PROJECT = 'payments-worker';
export const DEMO_LINK_ID = 'payments-cohort';

/** `project_id` of the V2 ledger: first 12 hex of SHA-256 over the demo's pretend origin URL. */
export const DEMO_REMOTE_URL = 'git@github.com:acme/billing-api.git';

export const DEMO_IDS = {
  /** Critical + enforce, escalated high→critical after two violations in Phase 4; active skill scope-discipline. */
  scopeEscalated: '9b1d7e52-0c3a-4e8f-a6b2-71d4c9e0f385',
  /** Critical directive displayed in Phase 4 (trace phase4Open) with ack_required: no terminal, no release. */
  openObligation: '75a1f7fd-1db6-4423-a42b-627e97d456f2',
  /** Critical; Phase 4 gate denied it 5 times, then a denial_limit release; overridden at Phase 4 close. Phase 3: session reset + manual terminal. */
  panReleased: '6b914e58-5c7b-4bb6-9481-ecbedf759abf',
  /** Critical; escalated in Phase 2; violated by the reviewer in Phase 5 (within 24 h), then applied by the test engineer. */
  secretsRemediated: '2f3bc0d1-4382-49ef-ae74-9246b0d666d9',
  /** Critical, phases_alive 9 / max_phases 10; staleness-released in Phase 5. */
  expiringStaleness: '22cff7c6-cd76-478f-acdf-7568048714c0',
  /** Critical, phases_alive 5 / max_phases 6; blocking right now (4 denials in the last hour, Phase 5 open obligation). */
  expiringBlocking: 'd773c7aa-5fe2-42f7-9b51-4a4dcfae2ea4',
  /** Critical, stack:node, phases_alive 7 / max_phases 8. */
  expiringNodePin: '5a1b23b0-dda2-43fc-9727-b47860be1641',
  /** High; violated by the reviewer in Phase 3 (6.5 days before now). */
  migrationLockViolated: '39d769d4-e913-4cec-9447-fb9d4262fa81',
  /** High; draft skill idempotent-refunds. */
  idempotencyKeys: 'f866fbd0-f128-493b-8edd-109275a788f1',
  /** High; active skill focused-test-runs; applied by the test engineer. */
  focusedTests: 'b15fecc5-8a2f-49b8-94f1-77ad3a65fbd2',
  /** Contradicted by the test engineer in Phase 4 (proposed_action revise). */
  sqliteContradicted: '529ae636-4d18-49f2-bdab-7fd8f338a55d',
  /** Not skill-eligible: confidence 0.76 but only one confirmed phase, medium priority. */
  skillIneligibleOnePhase: '7fea0f4c-e741-4327-a4a0-ac0435f66ab5',
  /** Not skill-eligible: negative outcome signal (mostly ignored); also a low-utility entry. */
  skillIneligibleNegative: '0f813548-1676-459c-adb5-9c0d384a798e',
  /** Skill-eligible by the high-priority fast track (one phase, confidence 0.62); draft secret-hygiene cites it. */
  skillFastTrack: 'fc33c0b0-da70-404e-99f3-9170b3e1008d',
  /** Candidate entry whose lesson contains `<img src=x onerror=alert(1)>`. */
  xssImgLesson: '5ef28f7b-d993-4caf-972d-b1fd86f89089',
  /** Rejected lesson (layer 2) whose text contains `<script>alert(1)</script>`. */
  xssScriptRejected: '3fc166f2-2fcf-4fc8-aa94-8c4f7c5f4afb',
  /** Carries a `contradiction:` tag from a curator flag. */
  contradictionTagged: '1b3303b4-447a-4031-8290-a921f6571856',
  /** Near-duplicate pair (word-bigram Jaccard ≥ 0.6). */
  nearDuplicateA: '6654406c-d734-4e95-8cc8-7bfa6160f8bb',
  nearDuplicateB: '52ca7840-522d-4851-9b35-aef8f5dd88be',
  /** Promoted swarm entry whose hive counterpart is hiveCounterpart (same lesson text). */
  promotedWithCounterpart: '0e5d9aa4-73d6-42c6-8232-4e8804b5d34c',
  hiveCounterpart: '3bf66629-ee82-4690-aef9-756117072a15',
  /** Archived by knowledge_archive; its skill legacy-fixture-mocks carries retired.marker. */
  archivedRetiredSkill: 'bbe034f0-2b65-4c37-bd8d-b50db06df0c9',
  /** Archived by knowledge_archive; its skill webhook-retry-backoff carries stale.marker. */
  archivedStaleSkill: '758947ba-45f0-4cde-aa6a-bcd03c4d7d3c',
  /** Quarantined in place by knowledge_archive mode quarantine. */
  quarantinedInPlace: '825d7f8e-821b-4e98-ac8b-3005e30fb5dc',
  /** In knowledge-quarantined.jsonl after a RETRACT: line (matches the retraction record). */
  retractedQuarantined: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  /** In knowledge-unactionable.jsonl (missing_predicate_and_scope, retire_candidate). */
  unactionableTimezone: '8c7d6e5f-4a3b-4c2d-9e1f-0a9b8c7d6e5f',
  /** Webhook retry advice shown by a manual recall in Phase 5. */
  webhookRetry: 'c6c9897c-eb81-4a03-b0f4-fb60776ad3de',
  /** v1 legacy entry (retrieval_outcomes holds only the frozen counters). */
  legacyV1: '3f6c2a1e-8d4b-4f7a-9c21-5b0e7d9a4c12',
  evergreen: '995b159c-72cb-459e-b984-13aef2d7c952',
  lowUtility: 'f29932db-b463-4eb5-b3a9-e9043c83fef7',
  todo: 'f492a01f-a504-43de-9234-aa311f8ac997',
  /** Hive entry (ingest-svc) displayed in Phase 4 from the hive tier. */
  hiveStream: 'c2e8a4f0-5b6d-4c1e-8f93-2a7b0d6e4f18',
  /** Hive entries moved to the PROPOSED hive-quarantine sidecar. */
  hiveQuarantinedA: '15681f3c-c55f-461e-93ef-85803899c6af',
  hiveQuarantinedB: '1b7cb98d-a014-4809-8c20-10e8aa8e2855',
  /** Hive entry archived by knowledge_archive tier hive (tombstone in shared-knowledge-events). */
  hiveArchived: '293e0ff3-6080-4fb9-a128-069cb6ae0ba9',
} as const;

export const DEMO_SESSIONS = {
  phase1: 'ses_1Aq7Zr4kP2nW',
  phase2: 'ses_2Bd8Ys5mQ3oX',
  phase3: 'ses_3Ce9Xt6nR4pY',
  phase4: 'ses_4Fq9xk2Lw7Tz',
  /** Second Phase 4 session, aborted by the operator after two gate denials. */
  phase4Aborted: 'ses_4Gr0yl3Mx8Ua',
  phase5: 'ses_5Hs1zm4Ny9Vb',
} as const;

export const DEMO_TRACES = {
  phase2Secrets: '46bf5c06-1491-41df-90b7-925193064a67',
  phase2SecretsCritical: 'af473d03-9e66-4f40-b336-564b6e1d856b',
  phase2CoderViolation: '0c4a8d16-7e2f-4b3a-9d5c-6e7f8a9b0c1d',
  phase3Architect: '32fe98bc-b0c4-4611-b57b-eff7e122779c',
  phase3Coder: '2d5b9e27-8f3a-4c4b-8e6d-7f8a9b0c1d2e',
  phase3Reviewer: '9ec9be21-8381-41f8-ab9d-53f6952e95c4',
  phase3Reset: 'f91bb610-bca3-4f0d-bf7c-49f6ac5149f0',
  /** Phase 4 architect injection: PAN directive denial-limit released here. */
  phase4Architect: 'e32922cd-a213-49ea-89ca-cc46fa1359c4',
  phase4Coder: 'b05efee9-6e28-4b44-980f-f18098d7b337',
  phase4Reviewer: '1c7c7cd5-4e87-4387-863b-31e9ea6e137f',
  phase4TestEngineer: 'aa1ef8f6-006a-41a3-a353-08f0eb78bf89',
  /** Phase 4 architect injection (aborted session) holding the open obligation. */
  phase4Open: 'a058feda-77f1-46f0-84be-22b0aadf14ac',
  /** Phase 4 delegate injection where the secrets directive went unacknowledged (unremediated violation at close). */
  phase4Unacked: 'c15a8b06-7cdf-4eb6-8d9c-5fa0b1c2d3e6',
  phase5Architect: '7c0b3e51-2d8a-4f61-9e47-0a5b6c7d8e91',
  phase5Coder: '8d1c4f62-3e9b-4a72-8f58-1b6c7d8e9fa2',
  phase5Recall: '9e2d5a73-4fac-4b83-9a69-2c7d8e9fa0b3',
  phase5Curator: 'af3e6b84-5abd-4c94-8b7a-3d8e9fa0b1c4',
  /** Phase 5 architect injection 35 minutes before now: expiringBlocking is denied here. */
  phase5Blocking: 'b04f7c95-6bce-4da5-9c8b-4e9fa0b1c2d5',
} as const;

export const DEMO_SKILLS = {
  active: ['scope-discipline', 'migration-dry-run', 'focused-test-runs'],
  retired: 'legacy-fixture-mocks',
  stale: 'webhook-retry-backoff',
  drafts: ['idempotent-refunds', 'secret-hygiene'],
  motif: 'motif-flaky-retry-loop',
  /** A success-motif (workflow) proposal from the macro reflector. */
  workflow: 'workflow-refund-endpoint',
  /** An active SKILL.md a person edited (no generator marker) with a fresh draft of the same slug. */
  handEdited: 'pan-masking',
  /** An active skill with a revised draft of the same slug (a diff to review; its evals strictly improve). */
  revised: 'scope-discipline',
} as const;
