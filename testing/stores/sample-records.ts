/**
 * Realistic store records in the plugin's on-disk shapes (values invented), for tests and the
 * bench's fallback data writer. Each builder returns a fresh object.
 */
const SAMPLE_IDS = {
  v1: '3f6c2a1e-8d4b-4f7a-9c21-5b0e7d9a4c12',
  v2: '9b1d7e52-0c3a-4e8f-a6b2-71d4c9e0f385',
  hive: 'c2e8a4f0-5b6d-4c1e-8f93-2a7b0d6e4f18',
  quarantined: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  unactionable: '8c7d6e5f-4a3b-4c2d-9e1f-0a9b8c7d6e5f',
} as const;

export function swarmEntryV1(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: SAMPLE_IDS.v1,
    tier: 'swarm',
    lesson: 'Run bun test on the single changed file before delegating review to avoid full-suite timeouts.',
    category: 'testing',
    tags: ['testing', 'runtime'],
    scope: 'global',
    confidence: 0.6,
    status: 'candidate',
    confirmed_by: [{ phase_number: 2, confirmed_at: '2026-06-20T10:15:02.118Z', project_name: 'billing-api' }],
    retrieval_outcomes: { applied_count: 4, succeeded_after_count: 1, failed_after_count: 0 },
    schema_version: 1,
    created_at: '2026-06-20T10:15:02.118Z',
    updated_at: '2026-06-20T10:15:02.118Z',
    project_name: 'billing-api',
    auto_generated: true,
    ...overrides,
  };
}

export function swarmEntryV2(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: SAMPLE_IDS.v2,
    tier: 'swarm',
    lesson: 'Call declare_scope before any coder delegation that modifies source files.',
    category: 'process',
    tags: ['opencode-swarm'],
    scope: 'global',
    confidence: 0.8,
    status: 'established',
    confirmed_by: [{ phase_number: 1, confirmed_at: '2026-06-18T08:00:00.000Z', project_name: 'billing-api' }],
    retrieval_outcomes: {
      applied_count: 0,
      succeeded_after_count: 0,
      failed_after_count: 0,
      shown_count: 12,
      acknowledged_count: 5,
      applied_explicit_count: 4,
      ignored_count: 0,
      violated_count: 1,
      contradicted_count: 0,
      succeeded_after_shown_count: 3,
      failed_after_shown_count: 1,
    },
    schema_version: 1,
    created_at: '2026-06-18T08:00:00.000Z',
    updated_at: '2026-06-22T16:40:10.003Z',
    project_name: 'billing-api',
    auto_generated: false,
    phases_alive: 0,
    encounter_score: 0,
    triggers: ['coder delegation modifying source files'],
    required_actions: ['call declare_scope before coder delegation'],
    forbidden_actions: ['bash/eval/heredoc file writes'],
    applies_to_agents: ['architect', 'coder'],
    applies_to_tools: ['task'],
    verification_checks: ['reviewer must reject scope bypass'],
    directive_priority: 'critical',
    enforcement_mode: 'enforce',
    ...overrides,
  };
}

export function hiveEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: SAMPLE_IDS.hive,
    tier: 'hive',
    lesson: 'Prefer stream.Readable.from(generator) over async iterators for backpressure in node pipelines.',
    category: 'performance',
    tags: ['runtime', 'performance'],
    scope: 'global',
    confidence: 0.5,
    status: 'established',
    confirmed_by: [{ project_name: 'ingest-svc', confirmed_at: '2026-05-02T11:00:00.000Z' }],
    retrieval_outcomes: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    schema_version: 1,
    created_at: '2026-04-28T10:00:00.000Z',
    updated_at: '2026-06-25T14:05:00.000Z',
    source_project: 'ingest-svc',
    encounter_score: 1.15,
    ...overrides,
  };
}

export function rejectedLesson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '71aa0c3e-2f4d-4b9e-8e1a-0d5c6b7f8a90',
    lesson: 'Just run rm -rf node_modules whenever the build acts up.',
    rejection_reason: 'dangerous command pattern detected',
    rejected_at: '2026-06-21T12:00:03.222Z',
    rejection_layer: 2,
    ...overrides,
  };
}

export function quarantinedEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return swarmEntryV1({
    id: SAMPLE_IDS.quarantined,
    lesson: 'Always mock the database layer in integration tests.',
    status: 'quarantined',
    original_status: 'candidate',
    quarantine_reason: 'Retracted by architect: Always mock the database layer in integration tests.',
    quarantined_at: '2026-06-23T09:00:00.120Z',
    reported_by: 'architect',
    ...overrides,
  });
}

export function unactionableEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return swarmEntryV1({
    id: SAMPLE_IDS.unactionable,
    lesson: 'Be careful with timezone handling in the reporting module.',
    category: 'debugging',
    tags: [],
    status: 'quarantined_unactionable',
    unactionable_reason: 'missing_predicate_and_scope',
    quarantined_at: '2026-06-21T18:00:00.010Z',
    retire_candidate: true,
    ...overrides,
  });
}

export function knowledgeEvent(type: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    schema_version: 1,
    type,
    trace_id: '1f2e3d4c-5b6a-4789-8a9b-0c1d2e3f4a5b',
    session_id: 'ses_4Fq9xk2',
    phase: 'Phase 4',
    task_id: '4.2',
    agent: 'architect',
    event_id: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
    timestamp: '2026-07-01T10:00:00.000Z',
  };
  if (type === 'retrieved') Object.assign(base, { query: 'implement refund endpoint', retrieval_mode: 'auto_injection', result_ids: [SAMPLE_IDS.v2] });
  else base.knowledge_id = SAMPLE_IDS.v2;
  return { ...base, ...overrides };
}

export function gateWarnEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timestamp: '2026-07-01T10:07:00.000Z',
    event: 'knowledge_application_gate_warn',
    tool: 'save_plan',
    agent: 'architect',
    sessionID: 'ses_4Fq9xk2',
    unacknowledged_critical_ids: [SAMPLE_IDS.v2],
    ...overrides,
  };
}

export function gateDenyEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timestamp: '2026-07-01T10:09:00.000Z',
    event: 'knowledge_application_gate_deny',
    sessionID: 'ses_4Fq9xk2',
    tool: 'Task',
    agent: 'architect',
    entry_ids: [SAMPLE_IDS.v2],
    trace_ids: ['1f2e3d4c-5b6a-4789-8a9b-0c1d2e3f4a5b'],
    entry_set_key: '5d41402abc4b2a76',
    denial_count: 2,
    max_gate_denials: 5,
    ...overrides,
  };
}

export const line = (record: unknown) => `${JSON.stringify(record)}\n`;
export const lines = (records: unknown[]) => records.map(line).join('');
