import { z } from 'zod';
import { count, stringList, timestamp, validating, type RecordChecker } from './common';

// knowledge-counter-baseline.json: entryId → CounterRollup (folded history of knowledge-events).
const CounterRollupSchema = z.object({
  shown_count: count,
  acknowledged_count: count,
  applied_explicit_count: count,
  ignored_count: count,
  violated_count: count,
  contradicted_count: count,
  n_a_count: count,
  succeeded_after_shown_count: count,
  failed_after_shown_count: count,
  partial_after_shown_count: count,
  last_applied_at: timestamp.optional(),
  last_acknowledged_at: timestamp.optional(),
  violation_timestamps: z.array(timestamp),
});
export const checkCounterBaseline = validating(z.record(z.string(), CounterRollupSchema));

// .swarm/link.json
const LinkPointerSchema = z.object({
  version: z.literal(1),
  linkId: z.string().min(1),
  name: z.string().optional(),
  createdAt: timestamp.optional(),
  source: z.enum(['manual', 'auto']).optional(),
});
export const checkLinkPointer = validating(LinkPointerSchema);

// .swarm/skill-improver-quota.json and .swarm/knowledge-enrichment-quota.json. The plugin ignores a
// file whose date, calls_used, max_calls or window is invalid.
const QuotaSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
  calls_used: count,
  max_calls: count,
  last_run_at: timestamp.optional(),
  window: z.enum(['utc', 'local']),
});
export const checkQuota: RecordChecker = (value) => {
  const result = validating(QuotaSchema)(value);
  if (result.problems.length) result.notes.push({ field: '(file)', note: 'the plugin ignores this quota file and starts from 0 calls' });
  return result;
};

// .swarm/curator-summary.json (read by the plugin only when schema_version === 1).
const CuratorSummarySchema = z.object({
  schema_version: z.literal(1),
  session_id: z.string(),
  last_updated: timestamp,
  last_phase_covered: z.number(),
  digest: z.string(),
  phase_digests: z.array(
    z.object({
      phase: z.number(),
      timestamp,
      summary: z.string(),
      agents_used: stringList,
      tasks_completed: z.number(),
      tasks_total: z.number(),
      key_decisions: stringList,
      blockers_resolved: stringList,
    }),
  ),
  compliance_observations: z.array(z.object({ phase: z.number(), timestamp, type: z.string(), description: z.string(), severity: z.string() })),
  knowledge_recommendations: z.array(
    z.object({
      action: z.enum(['promote', 'archive', 'flag_contradiction', 'rewrite']),
      entry_id: z.string().optional(),
      lesson: z.string(),
      reason: z.string(),
    }),
  ),
});
export const checkCuratorSummary = validating(CuratorSummarySchema);

// Small per-worktree state files.
export const checkKnowledgeShown = validating(z.record(z.string(), stringList));
export const checkSynonymMap = validating(z.object({ version: z.literal(1), pairs: z.record(z.string(), z.unknown()) }));
export const checkVerdictFeedback = validating(z.object({ lastProcessedTimestamp: z.union([z.string(), z.number()]) }));
export const checkAnyObject = validating(z.object({}));
