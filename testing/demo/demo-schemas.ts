// A compact validator of the plugin's on-disk records, written from the facts in
// docs/plugin-formats.md. Used by the demo generator's tests only.
import { z } from 'zod';

const isoTs = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
export const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
const hex = (n: number) => z.string().regex(new RegExp(`^[0-9a-f]{${n}}$`));
const nat = z.number().int().min(0);

const CATEGORY = z.enum(['process', 'architecture', 'tooling', 'security', 'testing', 'debugging', 'performance', 'integration', 'todo', 'other']);
const STATUS = z.enum(['candidate', 'established', 'promoted', 'archived', 'quarantined', 'quarantined_unactionable']);
const PRIORITY = z.enum(['low', 'medium', 'high', 'critical']);
const RETRIEVAL_MODE = z.enum(['manual', 'auto_injection', 'coder_context', 'review_context', 'curator', 'delegate_inject']);
const scope = z.string().regex(/^(global|stack:[A-Za-z0-9_-]{1,64})$/);
// eslint-disable-next-line no-control-regex
const listItem = z.string().min(1).max(200).regex(/^[^\u0000-\u001f\u007f]*$/);
const list = z.array(listItem).max(20);
const identList = z.array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/)).max(20);
const predicate = z.string().regex(/^(grep:.+:.+|tool:.+|file_not_modified:.+|file_modified:.+)$/);

const legacyCounters = { applied_count: nat, succeeded_after_count: nat, failed_after_count: nat };
const v2Counters = {
  ...legacyCounters, shown_count: nat, acknowledged_count: nat, applied_explicit_count: nat, ignored_count: nat, violated_count: nat,
  contradicted_count: nat, succeeded_after_shown_count: nat, failed_after_shown_count: nat,
};

const directiveFields = {
  triggers: list.optional(),
  required_actions: list.optional(),
  forbidden_actions: list.optional(),
  verification_checks: list.optional(),
  applies_to_agents: identList.optional(),
  applies_to_tools: identList.optional(),
  verification_predicate: predicate.optional(),
  source_refs: z.array(listItem.refine((s) => !s.includes('../') && !s.includes('..\\'))).max(20).optional(),
  source_knowledge_ids: z.array(z.string().min(1).max(64)).optional(),
  generated_skill_slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/).optional(),
  generated_skill_path: z.string().max(256).regex(/^(\.opencode\/skills\/generated\/|\.swarm\/skills\/proposals\/|\.swarm\/skills\/candidates\/)/).refine((p) => !p.includes('..')).optional(),
  directive_priority: PRIORITY.optional(),
  enforcement_mode: z.enum(['warn', 'enforce']).optional(),
  escalation_history: z.array(z.object({ from: PRIORITY, to: PRIORITY, reason: z.string().min(1), at: isoTs }).strict()).optional(),
  last_applied_at: isoTs.optional(),
  last_acknowledged_at: isoTs.optional(),
};

const entryShape = {
  id: uuid,
  lesson: z.string().min(15).max(280),
  category: CATEGORY,
  tags: z.array(z.string().min(1)).max(20),
  scope,
  confidence: z.number().min(0).max(1),
  status: STATUS,
  retrieval_outcomes: z.union([z.object(legacyCounters).strict(), z.object(v2Counters).strict()]),
  schema_version: z.literal(1),
  created_at: isoTs,
  updated_at: isoTs,
  hive_eligible: z.boolean().optional(),
  auto_generated: z.boolean().optional(),
  phases_alive: nat.optional(),
  max_phases: z.number().int().min(1).optional(),
  encounter_score: z.number().min(0).max(10).optional(),
  ...directiveFields,
};

const swarmShape = {
  ...entryShape,
  tier: z.literal('swarm'),
  project_name: z.string(),
  confirmed_by: z.array(z.object({ phase_number: z.number().int().min(1), confirmed_at: isoTs, project_name: z.string() }).strict()),
};
const hiveShape = {
  ...entryShape,
  tier: z.literal('hive'),
  source_project: z.string().min(1),
  encounter_count: nat.optional(),
  confirmed_by: z.array(z.object({ project_name: z.string(), confirmed_at: isoTs, phase_number: z.number().int().optional() }).strict()),
};

export const swarmEntry = z
  .object(swarmShape)
  .strict()
  .refine((e) => new Set(e.confirmed_by.map((c) => c.phase_number)).size === e.confirmed_by.length, 'one confirmation per phase_number')
  .refine((e) => e.updated_at >= e.created_at, 'updated_at before created_at');

export const hiveEntry = z
  .object(hiveShape)
  .strict()
  .refine((e) => e.updated_at >= e.created_at, 'updated_at before created_at');

const quarantineFields = { original_status: STATUS, quarantine_reason: z.string().min(1).max(500), quarantined_at: isoTs };
export const swarmQuarantined = z.object({ ...swarmShape, ...quarantineFields, status: z.literal('quarantined'), reported_by: z.enum(['user', 'architect', 'auto']) }).strict();
export const swarmUnactionable = z
  .object({ ...swarmShape, status: z.literal('quarantined_unactionable'), unactionable_reason: z.enum(['missing_predicate', 'missing_scope', 'missing_predicate_and_scope']), quarantined_at: isoTs, retire_candidate: z.literal(true).optional() })
  .strict();
export const hiveSidecar = z
  .object({ ...hiveShape, ...quarantineFields, status: z.literal('quarantined'), reported_by: z.literal('user'), quarantine_token12: hex(12), quarantine_backup: z.string().regex(/^\d{8}T\d{9}Z-[0-9a-f]{12}-[0-9a-f]{8}$/), original_line_sha256: hex(64) })
  .strict();

export const rejectedLesson = z.object({ id: uuid, lesson: z.string(), rejection_reason: z.string().min(1).max(500), rejected_at: isoTs, rejection_layer: z.union([z.literal(1), z.literal(2), z.literal(3)]) }).strict();
export const retraction = z
  .object({ id: uuid, retracted_lesson: z.string(), normalized_lesson: z.string(), recorded_at: isoTs, reported_by: z.enum(['architect', 'user', 'auto']), matched_swarm_ids: z.array(z.string()), matched_hive_ids: z.array(z.string()) })
  .strict();

const envelope = { schema_version: z.literal(1).optional(), event_id: uuid, timestamp: isoTs };
const evidence = z.object({ files: z.array(z.string()).optional(), commands: z.array(z.string()).optional(), tests: z.array(z.string()).optional(), summary: z.string().optional() }).strict();
export const knowledgeEvent = z.union([
  z
    .object({
      ...envelope, type: z.literal('retrieved'), trace_id: uuid, session_id: z.string(), phase: z.string().optional(), task_id: z.string().optional(), agent: z.string(), query: z.string(),
      retrieval_mode: RETRIEVAL_MODE, result_ids: z.array(z.string()), ranks: z.record(z.string(), z.number().int().min(1)), scores: z.record(z.string(), z.number()),
      score_breakdown: z.object({ synonyms_expanded: z.array(z.string()), synonym_matches: z.record(z.string(), z.array(z.string())) }).strict().optional(),
    })
    .strict()
    .refine((e) => e.result_ids.every((id, i) => e.ranks[id] === i + 1), 'ranks follow result_ids'),
  z
    .object({
      ...envelope, type: z.enum(['acknowledged', 'applied', 'ignored', 'contradicted', 'violated', 'n_a', 'override']), trace_id: z.string(), knowledge_id: z.string(), session_id: z.string(),
      phase: z.string().optional(), task_id: z.string().optional(), agent: z.string(), reason: z.string().max(280).optional(), source: z.string().optional(),
      predicate_check: z.object({ predicate, result: z.enum(['pass', 'fail', 'error']), detail: z.string() }).strict().optional(), evidence: evidence.optional(),
    })
    .strict(),
  z.object({ ...envelope, type: z.literal('outcome'), trace_id: z.string().optional(), knowledge_id: z.string().optional(), task_id: z.string().optional(), phase: z.string(), outcome: z.enum(['success', 'failure', 'partial']), evidence_summary: z.string() }).strict(),
  z.object({ ...envelope, type: z.literal('archived'), entry_id: z.string(), tier: z.enum(['swarm', 'hive']).optional(), actor: z.string(), reason: z.string(), mode: z.enum(['archive', 'quarantine', 'purge']), evidence: z.string().optional(), previous_status: STATUS.optional() }).strict(),
  z.object({ ...envelope, type: z.literal('escalation'), entry_id: z.string(), from: PRIORITY, to: PRIORITY, reason: z.string(), enforcement_mode: z.enum(['warn', 'enforce']).optional() }).strict(),
  z.object({ schema_version: z.literal(1).optional(), event_id: uuid.optional(), timestamp: isoTs.optional(), type: z.literal('skill-stale-batch'), skillIds: z.array(z.string()), archivedIds: z.array(z.string()), retiredCount: nat, staleCount: nat }).strict(),
]);
export const hiveAuditEvent = z.union([
  knowledgeEvent,
  z.object({ ...envelope, type: z.literal('quarantined'), tier: z.literal('hive'), entry_id: z.string(), actor: z.literal('human:hive-quarantine'), reason: z.string(), previous_status: STATUS, op: z.literal('commit'), token12: hex(12), line_sha256: hex(64), backup: z.string() }).strict(),
]);

export const applicationLine = z
  .object({
    timestamp: isoTs, phase: z.string().optional(), taskId: z.string().optional(), action: z.string().optional(), tool: z.string().optional(), targetAgent: z.string().optional(), knowledgeId: z.string(),
    result: z.enum(['shown', 'acknowledged', 'applied', 'ignored', 'violated']), reason: z.string().max(280).optional(), generatedSkillPath: z.string().optional(), sessionId: z.string().optional(),
  })
  .strict();

const gateSet = { sessionID: z.string(), tool: z.string(), agent: z.string(), entry_ids: z.array(z.string()).min(1), trace_ids: z.array(z.string()).min(1), entry_set_key: hex(16), denial_count: z.number().int().min(1), max_gate_denials: z.number().int().min(1) };
export const swarmEvent = z.union([
  z.object({ timestamp: isoTs, event: z.literal('knowledge_application_gate_warn'), tool: z.string(), agent: z.string(), sessionID: z.string(), unacknowledged_critical_ids: z.array(z.string()) }).strict(),
  z.object({ timestamp: isoTs, event: z.literal('knowledge_application_gate_warn'), tool: z.string(), agent: z.string(), reason: z.literal('missing_sessionID'), mode: z.string() }).strict(),
  z.object({ timestamp: isoTs, event: z.literal('curator_skipped'), entry_id: z.string(), lesson: z.string().max(200), reason: z.enum(['missing_predicate', 'missing_scope', 'missing_predicate_and_scope']) }).strict(),
  z.object({ type: z.literal('curator_compliance'), timestamp: isoTs, phase: z.number().int(), observation_type: z.enum(['missing_reviewer', 'missing_retro', 'missing_sme', 'skipped_test', 'workflow_deviation']), severity: z.enum(['info', 'warning']), description: z.string() }).strict(),
  z.object({ type: z.literal('skill_propagation_warn'), timestamp: isoTs, tool: z.string(), agent: z.string(), target_agent: z.string(), sessionID: z.string(), skills_missing: z.literal(true), available_skills: z.array(z.string()) }).strict(),
  z.object({ timestamp: isoTs, event: z.literal('knowledge_application_gate_deny'), ...gateSet }).strict(),
  z.object({ timestamp: isoTs, event: z.literal('knowledge_application_gate_denial_limit_clear'), ...gateSet, release: z.literal('nonterminal'), receipt_seq: z.number().int().min(1).optional() }).strict(),
  z.object({ timestamp: isoTs, event: z.literal('knowledge_application_gate_staleness_clear'), ...gateSet, oldest_shown_at: isoTs, age_ms: nat, gate_staleness_ms: nat, release: z.literal('nonterminal'), receipt_seq: z.number().int().min(1).optional() }).strict(),
  z.object({ timestamp: isoTs, event: z.literal('knowledge_application_gate_session_reset_clear'), sessionID: z.string(), actor: z.literal('user'), command: z.literal('/swarm reset-session'), cleared_entry_ids: z.array(z.string()) }).strict(),
]);

export const unackCritical = z.object({ timestamp: isoTs, knowledge_id: z.string(), agent: z.string(), session_id: z.string(), task_id: z.string().optional(), reason: z.literal('unacknowledged') }).strict();
export const counterRollup = z
  .object({
    shown_count: nat, acknowledged_count: nat, applied_explicit_count: nat, ignored_count: nat, violated_count: nat, contradicted_count: nat, n_a_count: nat,
    succeeded_after_shown_count: nat, failed_after_shown_count: nat, partial_after_shown_count: nat, last_applied_at: isoTs.optional(), last_acknowledged_at: isoTs.optional(), violation_timestamps: z.array(isoTs).max(10),
  })
  .strict();

export const skillUsage = z.union([
  z.object({ id: uuid, skillPath: z.string(), agentName: z.string(), taskID: z.string(), timestamp: isoTs, complianceVerdict: z.enum(['compliant', 'partial', 'violated', 'not_checked', 'violation']), reviewerNotes: z.string().optional(), sessionID: z.string(), skillVersion: z.number().int().optional() }).strict(),
  z.object({ type: z.literal('feedback_applied'), timestamp: isoTs, processedEntryIds: z.array(z.string()) }).strict(),
]);
export const rejectedEdit = z
  .object({ timestamp: isoTs, slug: z.string(), operation: z.string(), reason: z.string(), candidateHash: hex(64), candidateNormalizedHash: hex(64), incumbentHash: hex(64).optional(), candidateScore: z.number(), incumbentScore: z.number(), evalFiles: z.array(z.string()), caseCount: nat, candidatePreview: z.string().max(800) })
  .strict();
export const changelogLine = z
  .object({ version: z.number().int().min(1), timestamp: isoTs, action: z.enum(['generated', 'regenerated', 'revised', 'promoted']), reason: z.string(), triggeringVerdicts: z.array(z.object({ taskId: z.string(), verdict: z.string(), agent: z.string() }).strict()).optional(), sectionsChanged: z.array(z.string()).optional() })
  .strict();
const evalCase = z.object({ id: z.string().optional(), task: z.string().optional(), required_phrases: z.array(z.string().max(160)).max(40).optional(), forbidden_phrases: z.array(z.string().max(160)).max(40).optional() }).strict();
export const evalFixture = z.union([evalCase, z.array(evalCase), z.object({ cases: z.array(evalCase) }).strict()]);
export const quota = z.object({ date: z.string().regex(/^\d{4}-\d\d-\d\d$/), calls_used: nat, max_calls: z.number().int().min(1), last_run_at: isoTs.optional(), window: z.enum(['utc', 'local']) }).strict();
export const linkPointer = z.object({ version: z.literal(1), linkId: z.string().min(1), name: z.string().optional(), createdAt: isoTs, source: z.enum(['manual', 'auto']) }).strict();
export const findings = z
  .object({ findings: z.array(z.object({ knowledge_id: z.string(), expected_behavior: z.string().max(500), observed_behavior: z.string().max(500), verdict: z.enum(['applied', 'ignored', 'violated', 'not_applicable']), evidence_refs: z.array(z.string()).max(20) }).strict()) })
  .strict();
export const insightCandidate = z
  .object({
    lesson: z.string().min(15).max(280), category: CATEGORY, tags: z.array(z.string()),
    source: z.object({ kind: z.literal('micro_reflection'), task_id: z.string().optional(), agent: z.string(), outcome: z.string(), trajectory_steps: nat }).strict(), created_at: isoTs, ...directiveFields,
  })
  .strict();
