import { z } from 'zod';
import { discriminated, stringList, timestamp, validating } from './common';

// knowledge-events.jsonl (link-aware) and <dataDir>/shared-knowledge-events.jsonl.
const RETRIEVAL_MODES = ['manual', 'auto_injection', 'coder_context', 'review_context', 'curator', 'delegate_inject'] as const;
const RECEIPT_EVENT_TYPES = ['acknowledged', 'applied', 'ignored', 'contradicted', 'violated', 'n_a', 'override'] as const;

const envelope = {
  event_id: z.string().min(1),
  timestamp,
  schema_version: z.number().int().optional(),
};

const retrieved = z.object({
  ...envelope,
  type: z.literal('retrieved'),
  trace_id: z.string(),
  session_id: z.string().optional(),
  phase: z.string().optional(),
  task_id: z.string().optional(),
  agent: z.string().optional(),
  query: z.string().optional(),
  retrieval_mode: z.enum(RETRIEVAL_MODES),
  result_ids: stringList,
  ranks: z.record(z.string(), z.number()).optional(),
  scores: z.record(z.string(), z.number()).optional(),
});

const receiptEvent = z.object({
  ...envelope,
  type: z.enum(RECEIPT_EVENT_TYPES),
  trace_id: z.string(),
  knowledge_id: z.string().min(1),
  session_id: z.string().optional(),
  phase: z.string().optional(),
  task_id: z.string().optional(),
  agent: z.string().optional(),
  reason: z.string().optional(),
  source: z.string().optional(),
  predicate_check: z.object({ predicate: z.string(), result: z.enum(['pass', 'fail', 'error']), detail: z.string().optional() }).optional(),
  evidence: z.object({ files: stringList.optional(), commands: stringList.optional(), tests: stringList.optional(), summary: z.string().optional() }).optional(),
});

const outcome = z.object({
  ...envelope,
  type: z.literal('outcome'),
  trace_id: z.string().optional(),
  knowledge_id: z.string().optional(),
  task_id: z.string().optional(),
  phase: z.string(),
  outcome: z.enum(['success', 'failure', 'partial']),
  evidence_summary: z.string().optional(),
});

const archived = z.object({
  ...envelope,
  type: z.literal('archived'),
  entry_id: z.string().min(1),
  tier: z.enum(['swarm', 'hive']).optional(),
  actor: z.string(),
  reason: z.string(),
  mode: z.enum(['archive', 'quarantine', 'purge']),
  previous_status: z.string().optional(),
});

const escalation = z.object({
  ...envelope,
  type: z.literal('escalation'),
  entry_id: z.string().min(1),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
  enforcement_mode: z.enum(['warn', 'enforce']).optional(),
});

const skillStaleBatch = z.object({
  type: z.literal('skill-stale-batch'),
  event_id: z.string().optional(),
  timestamp: timestamp.optional(),
  skillIds: stringList,
  archivedIds: stringList,
  retiredCount: z.number(),
  staleCount: z.number(),
});

// Hive audit records of the (proposed) hive-quarantine flow.
const hiveQuarantined = z.object({
  ...envelope,
  type: z.literal('quarantined'),
  tier: z.literal('hive'),
  entry_id: z.string().min(1),
  actor: z.string(),
  op: z.literal('commit'),
  token12: z.string(),
});
const hiveRollback = z.object({
  ...envelope,
  type: z.literal('rollback'),
  tier: z.literal('hive'),
  entry_id: z.string().min(1),
  actor: z.string(),
  op: z.literal('rollback'),
  token12: z.string(),
  result: z.enum(['restored', 'skipped_identical', 'collision']),
});

const KNOWLEDGE_EVENT_SCHEMAS: Record<string, z.ZodType> = {
  retrieved,
  ...Object.fromEntries(RECEIPT_EVENT_TYPES.map((t) => [t, receiptEvent])),
  outcome,
  archived,
  escalation,
  'skill-stale-batch': skillStaleBatch,
};

export const checkKnowledgeEvent = discriminated('type', KNOWLEDGE_EVENT_SCHEMAS);
export const checkHiveEvent = discriminated('type', { ...KNOWLEDGE_EVENT_SCHEMAS, quarantined: hiveQuarantined, rollback: hiveRollback });

// knowledge-application.jsonl (legacy audit log). No `n_a`: an N/A ack is stored as `acknowledged`.
const ApplicationLogSchema = z.object({
  timestamp,
  knowledgeId: z.string().min(1),
  result: z.enum(['shown', 'acknowledged', 'applied', 'ignored', 'violated']),
  phase: z.string().optional(),
  taskId: z.string().optional(),
  action: z.string().optional(),
  tool: z.string().optional(),
  targetAgent: z.string().optional(),
  reason: z.string().optional(),
  generatedSkillPath: z.string().optional(),
  sessionId: z.string().optional(),
});
export const checkApplicationLog = validating(ApplicationLogSchema);

// .swarm/events.jsonl: discriminated by `event` on some lines and `type` on others.
const gateEventBase = { timestamp, event: z.string(), sessionID: z.string() };
const gateSet = {
  ...gateEventBase,
  tool: z.string(),
  agent: z.string(),
  entry_ids: stringList,
  trace_ids: stringList.optional(),
  entry_set_key: z.string().optional(),
  denial_count: z.number().int().optional(),
  max_gate_denials: z.number().int().optional(),
};

const SWARM_EVENT_SCHEMAS: Record<string, z.ZodType> = {
  knowledge_application_gate_warn: z.object({
    timestamp,
    tool: z.string(),
    agent: z.string(),
    sessionID: z.string().optional(),
    unacknowledged_critical_ids: stringList.optional(),
    reason: z.string().optional(),
    mode: z.string().optional(),
  }),
  curator_skipped: z.object({ timestamp, entry_id: z.string().optional(), lesson: z.string().optional(), reason: z.string() }),
  curator_compliance: z.object({
    timestamp,
    phase: z.union([z.number(), z.string()]),
    observation_type: z.enum(['missing_reviewer', 'missing_retro', 'missing_sme', 'skipped_test', 'workflow_deviation']),
    severity: z.enum(['info', 'warning']),
    description: z.string(),
  }),
  skill_propagation_warn: z.object({
    timestamp,
    tool: z.string(),
    agent: z.string(),
    target_agent: z.string().optional(),
    sessionID: z.string().optional(),
    skills_missing: z.boolean().optional(),
    available_skills: stringList.optional(),
  }),
  knowledge_application_gate_deny: z.object(gateSet),
  knowledge_application_gate_denial_limit_clear: z.object({ ...gateSet, release: z.literal('nonterminal').optional(), receipt_seq: z.number().optional() }),
  knowledge_application_gate_staleness_clear: z.object({
    ...gateSet,
    oldest_shown_at: timestamp.optional(),
    age_ms: z.number().optional(),
    gate_staleness_ms: z.number().optional(),
    release: z.literal('nonterminal').optional(),
    receipt_seq: z.number().optional(),
  }),
  knowledge_application_gate_session_reset_clear: z.object({ ...gateEventBase, actor: z.string().optional(), command: z.string().optional(), cleared_entry_ids: stringList }),
};

/**
 * events.jsonl is the plugin's general event log: many features write kinds this console does
 * not model, so an unknown `event`/`type` is kept without a defect; known kinds are validated.
 */
export const checkSwarmEvent = discriminated('event', SWARM_EVENT_SCHEMAS, { fallbackField: 'type', unknownKindsAllowed: true });

const UnacknowledgedCriticalSchema = z.object({
  timestamp,
  knowledge_id: z.string().min(1),
  agent: z.string(),
  session_id: z.string(),
  task_id: z.string().optional(),
  reason: z.string(),
});
export const checkUnacknowledgedCritical = validating(UnacknowledgedCriticalSchema);
