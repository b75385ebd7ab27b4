import { z } from 'zod';
import { count, problemsOf, stringList, timestamp, validating, type NormalisationNote, type RecordChecker } from './common';

// Enums of the plugin (opencode-swarm 7.103.2, src/hooks/knowledge-types.ts).
export const CATEGORIES = ['process', 'architecture', 'tooling', 'security', 'testing', 'debugging', 'performance', 'integration', 'todo', 'other'] as const;
const STATUSES = ['candidate', 'established', 'promoted', 'archived', 'quarantined', 'quarantined_unactionable'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
const TIERS = ['swarm', 'hive'] as const;
/** Absent `directive_priority` is treated as `medium`. */
export const DEFAULT_PRIORITY = 'medium';

/** The eight directive list fields; a non-array value is deleted on read. */
const DIRECTIVE_LIST_FIELDS = [
  'triggers',
  'required_actions',
  'forbidden_actions',
  'applies_to_agents',
  'applies_to_tools',
  'verification_checks',
  'source_refs',
  'source_knowledge_ids',
] as const;

const V2_ZERO_COUNTERS = ['acknowledged_count', 'applied_explicit_count', 'ignored_count', 'violated_count', 'contradicted_count'] as const;
const LEGACY_COUNTERS = ['applied_count', 'succeeded_after_count', 'failed_after_count'] as const;

const SCOPE = /^(global|stack:[A-Za-z0-9_-]{1,64})$/;

const retrievalOutcomes = z.object({
  applied_count: z.number().optional(),
  succeeded_after_count: z.number().optional(),
  failed_after_count: z.number().optional(),
  shown_count: z.number(),
  acknowledged_count: z.number(),
  applied_explicit_count: z.number(),
  ignored_count: z.number(),
  violated_count: z.number(),
  contradicted_count: z.number(),
  succeeded_after_shown_count: z.number(),
  failed_after_shown_count: z.number(),
  last_applied_at: timestamp.optional(),
});

const KnowledgeEntrySchema = z.object({
  id: z.string().min(1),
  tier: z.enum(TIERS),
  lesson: z.string(),
  category: z.enum(CATEGORIES),
  tags: stringList,
  scope: z.string().regex(SCOPE, 'expected "global" or "stack:<name>"'),
  confidence: z.number().min(0).max(1),
  status: z.enum(STATUSES),
  confirmed_by: z.array(z.object({ confirmed_at: timestamp.optional() })),
  retrieval_outcomes: retrievalOutcomes,
  schema_version: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
  hive_eligible: z.boolean().optional(),
  auto_generated: z.boolean().optional(),
  phases_alive: count.optional(),
  max_phases: count.optional(),
  project_name: z.string().optional(),
  source_project: z.string().optional(),
  encounter_score: z.number().optional(),
  encounter_count: z.number().optional(),
  triggers: stringList.optional(),
  required_actions: stringList.optional(),
  forbidden_actions: stringList.optional(),
  verification_checks: stringList.optional(),
  applies_to_agents: stringList.optional(),
  applies_to_tools: stringList.optional(),
  source_refs: stringList.optional(),
  source_knowledge_ids: stringList.optional(),
  verification_predicate: z.string().optional(),
  generated_skill_slug: z.string().optional(),
  generated_skill_path: z.string().optional(),
  directive_priority: z.enum(PRIORITIES).optional(),
  enforcement_mode: z.enum(['warn', 'enforce']).optional(),
  escalation_history: z.array(z.object({ from: z.string(), to: z.string(), reason: z.string(), at: timestamp })).optional(),
  last_applied_at: timestamp.optional(),
  last_acknowledged_at: timestamp.optional(),
});

/** `knowledge-quarantined.jsonl` (and the hive sidecar): the full entry plus quarantine fields. */
const QuarantinedEntrySchema = KnowledgeEntrySchema.extend({
  original_status: z.enum(STATUSES).optional(),
  quarantine_reason: z.string(),
  quarantined_at: timestamp,
  reported_by: z.enum(['user', 'architect', 'auto']),
});

const HiveQuarantinedEntrySchema = QuarantinedEntrySchema.extend({
  quarantine_token12: z.string().optional(),
  quarantine_backup: z.string().optional(),
  original_line_sha256: z.string().optional(),
});

const UnactionableEntrySchema = KnowledgeEntrySchema.extend({
  unactionable_reason: z.enum(['missing_predicate', 'missing_scope', 'missing_predicate_and_scope']),
  quarantined_at: timestamp,
  retire_candidate: z.boolean().optional(),
});

const RejectedLessonSchema = z.object({
  id: z.string().min(1),
  lesson: z.string(),
  rejection_reason: z.string(),
  rejected_at: timestamp,
  rejection_layer: z.literal([1, 2, 3]),
});

const RetractionSchema = z.object({
  id: z.string().min(1),
  retracted_lesson: z.string(),
  normalized_lesson: z.string(),
  recorded_at: timestamp,
  reported_by: z.enum(['architect', 'user', 'auto']),
  matched_swarm_ids: stringList,
  matched_hive_ids: stringList,
});

const InsightCandidateSchema = z.object({
  lesson: z.string(),
  category: z.enum(CATEGORIES),
  tags: stringList,
  source: z.object({ kind: z.string(), task_id: z.string().optional(), agent: z.string(), outcome: z.string(), trajectory_steps: z.number().optional() }),
  created_at: timestamp,
});

const isNumber = (v: unknown): v is number => typeof v === 'number';

/**
 * The plugin's `normalizeEntry` (v1→v2), applied in memory on read, with a note for each change
 * so the console can say what it shows and why. Only objects with a `retrieval_outcomes` key
 * are touched; others pass through unchanged.
 */
export function normaliseEntry(raw: Record<string, unknown>): { value: Record<string, unknown>; notes: NormalisationNote[] } {
  if (!Object.hasOwn(raw, 'retrieval_outcomes')) return { value: raw, notes: [] };
  const notes: NormalisationNote[] = [];
  const entry: Record<string, unknown> = { ...raw };
  let ro = raw.retrieval_outcomes;
  if (ro === null || typeof ro !== 'object' || Array.isArray(ro)) {
    notes.push({ field: 'retrieval_outcomes', note: `was ${ro === null ? 'null' : Array.isArray(ro) ? 'an array' : typeof ro}; read as {}` });
    ro = {};
  }
  const outcomes: Record<string, unknown> = { ...(ro as Record<string, unknown>) };
  if (!isNumber(outcomes.shown_count)) {
    if (isNumber(outcomes.applied_count)) {
      outcomes.shown_count = outcomes.applied_count;
      notes.push({ field: 'retrieval_outcomes.shown_count', note: `legacy applied_count ${outcomes.applied_count} shown as shown_count` });
    } else {
      outcomes.shown_count = 0;
    }
  }
  for (const field of V2_ZERO_COUNTERS) if (!isNumber(outcomes[field])) outcomes[field] = 0;
  const carry = (v2: string, legacy: string) => {
    if (isNumber(outcomes[v2])) return;
    if (isNumber(outcomes[legacy])) {
      outcomes[v2] = outcomes[legacy];
      notes.push({ field: `retrieval_outcomes.${v2}`, note: `legacy ${legacy} ${outcomes[legacy]} shown as ${v2}` });
    } else {
      outcomes[v2] = 0;
    }
  };
  carry('succeeded_after_shown_count', 'succeeded_after_count');
  carry('failed_after_shown_count', 'failed_after_count');
  const frozen = LEGACY_COUNTERS.filter((f) => isNumber(outcomes[f]) && (outcomes[f] as number) !== 0);
  if (frozen.length) {
    notes.push({
      field: 'retrieval_outcomes',
      note: `frozen legacy counters kept as written, no longer updated by the plugin: ${frozen.map((f) => `${f}=${outcomes[f]}`).join(', ')}`,
    });
  }
  entry.retrieval_outcomes = outcomes;
  if (typeof entry.encounter_score !== 'number' || !Number.isFinite(entry.encounter_score)) {
    if (entry.encounter_score !== undefined) notes.push({ field: 'encounter_score', note: `was ${JSON.stringify(entry.encounter_score)}; read as 0` });
    entry.encounter_score = 0;
  }
  for (const field of DIRECTIVE_LIST_FIELDS) {
    if (Object.hasOwn(entry, field) && !Array.isArray(entry[field])) {
      notes.push({ field, note: `was ${JSON.stringify(entry[field])?.slice(0, 60)}, not a list; the plugin drops it on read` });
      delete entry[field];
    }
  }
  if (!Array.isArray(entry.tags)) {
    notes.push({ field: 'tags', note: `was ${JSON.stringify(entry.tags) ?? 'missing'}, not a list; read as []` });
    entry.tags = [];
  }
  return { value: entry, notes };
}

function entryChecker(schema: z.ZodType, expectedTier: 'swarm' | 'hive' | null): RecordChecker {
  return (raw) => {
    const { value, notes } = normaliseEntry(raw);
    const problems = problemsOf(schema, value);
    if (expectedTier && typeof value.tier === 'string' && value.tier !== expectedTier && (TIERS as readonly string[]).includes(value.tier)) {
      notes.push({ field: 'tier', note: `says "${value.tier}" but the entry lives in the ${expectedTier} store` });
    }
    return { value, problems, notes };
  };
}

export const checkSwarmEntry = entryChecker(KnowledgeEntrySchema, 'swarm');
export const checkHiveEntry = entryChecker(KnowledgeEntrySchema, 'hive');
export const checkQuarantinedEntry = entryChecker(QuarantinedEntrySchema, null);
export const checkHiveQuarantinedEntry = entryChecker(HiveQuarantinedEntrySchema, null);
export const checkUnactionableEntry = entryChecker(UnactionableEntrySchema, null);
export const checkRejectedLesson = validating(RejectedLessonSchema);
export const checkRetraction = validating(RetractionSchema);
export const checkInsightCandidate = validating(InsightCandidateSchema);
