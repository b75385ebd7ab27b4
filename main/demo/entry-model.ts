import type { StoredCounters } from '../core/rules/counters';
import type { Category } from './lesson-corpus';

export type Status = 'candidate' | 'established' | 'promoted' | 'archived' | 'quarantined' | 'quarantined_unactionable';
export type Priority = 'low' | 'medium' | 'high' | 'critical';

export const STATUSES: readonly Status[] = ['candidate', 'established', 'promoted', 'archived', 'quarantined', 'quarantined_unactionable'];
export const PRIORITIES: readonly Priority[] = ['low', 'medium', 'high', 'critical'];

/** The v2 counters a rollup can produce (n_a and partial never reach an entry). */
export type Counters = StoredCounters;

export const zeroCounters = (): Counters => ({
  shown_count: 0,
  acknowledged_count: 0,
  applied_explicit_count: 0,
  ignored_count: 0,
  violated_count: 0,
  contradicted_count: 0,
  succeeded_after_shown_count: 0,
  failed_after_shown_count: 0,
});

export interface DirectiveFields {
  triggers?: string[];
  required_actions?: string[];
  forbidden_actions?: string[];
  verification_checks?: string[];
  applies_to_agents?: string[];
  applies_to_tools?: string[];
  verification_predicate?: string;
  source_refs?: string[];
  source_knowledge_ids?: string[];
  generated_skill_slug?: string;
  generated_skill_path?: string;
  directive_priority?: Priority;
  enforcement_mode?: 'warn' | 'enforce';
  escalation_history?: Array<{ from: Priority; to: Priority; reason: string; at: string }>;
}

/**
 * A knowledge entry before serialisation. `shape` decides whether it is written as a v1
 * legacy line (frozen counters only) or as a v2 line after normalize-on-write.
 */
export interface EntryDraft extends DirectiveFields {
  id: string;
  tier: 'swarm' | 'hive';
  lesson: string;
  category: Category;
  tags: string[];
  scope: string;
  confidence: number;
  status: Status;
  confirmed_by: Array<Record<string, unknown>>;
  created_at: string;
  updated_at: string;
  shape: 'v1' | 'v2';
  counters: Counters;
  /** Frozen legacy counters (applied_count was bumped on every "shown" before v2). */
  legacy: { applied_count: number; succeeded_after_count: number; failed_after_count: number };
  project_name?: string;
  source_project?: string;
  encounter_score?: number;
  encounter_count?: number;
  auto_generated?: boolean;
  hive_eligible?: boolean;
  phases_alive?: number;
  max_phases?: number;
  last_applied_at?: string;
  last_acknowledged_at?: string;
  /** Extra keys the plugin would carry through untouched (unknown to the schema). */
  extra?: Record<string, unknown>;
}

const DIRECTIVE_KEYS: Array<keyof DirectiveFields> = [
  'triggers',
  'required_actions',
  'forbidden_actions',
  'applies_to_agents',
  'applies_to_tools',
  'verification_checks',
  'verification_predicate',
  'source_refs',
  'source_knowledge_ids',
  'directive_priority',
  'enforcement_mode',
  'escalation_history',
  'generated_skill_slug',
  'generated_skill_path',
];

/** The on-disk object, keys in the order the plugin's spreads produce. */
export function entryRecord(draft: EntryDraft): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: draft.id,
    tier: draft.tier,
    lesson: draft.lesson,
    category: draft.category,
    tags: draft.tags,
    scope: draft.scope,
    confidence: draft.confidence,
    status: draft.status,
    confirmed_by: draft.confirmed_by,
    retrieval_outcomes:
      draft.shape === 'v1' ? { ...draft.legacy } : { ...draft.legacy, ...draft.counters },
    schema_version: 1,
    created_at: draft.created_at,
    updated_at: draft.updated_at,
  };
  if (draft.project_name !== undefined) record.project_name = draft.project_name;
  if (draft.source_project !== undefined) record.source_project = draft.source_project;
  if (draft.auto_generated !== undefined) record.auto_generated = draft.auto_generated;
  if (draft.hive_eligible !== undefined) record.hive_eligible = draft.hive_eligible;
  if (draft.phases_alive !== undefined) record.phases_alive = draft.phases_alive;
  if (draft.max_phases !== undefined) record.max_phases = draft.max_phases;
  if (draft.encounter_count !== undefined) record.encounter_count = draft.encounter_count;
  if (draft.encounter_score !== undefined) record.encounter_score = draft.encounter_score;
  else if (draft.shape === 'v2') record.encounter_score = 0;
  for (const key of DIRECTIVE_KEYS) if (draft[key] !== undefined) record[key] = draft[key];
  if (draft.last_applied_at !== undefined) record.last_applied_at = draft.last_applied_at;
  if (draft.last_acknowledged_at !== undefined) record.last_acknowledged_at = draft.last_acknowledged_at;
  if (draft.extra) Object.assign(record, draft.extra);
  return record;
}

export const entryLine = (draft: EntryDraft): string => JSON.stringify(entryRecord(draft));

/** Swarm confirmations: one record per phase number, oldest first. */
export function phaseConfirmations(project: string, phases: Array<[number, number]>, iso: (ms: number) => string): Array<Record<string, unknown>> {
  return phases.map(([phase_number, at]) => ({ phase_number, confirmed_at: iso(at), project_name: project }));
}

/** `computeConfidence`: min(1, 0.5 + 0.1·min(n,3) + (auto_generated ? 0 : 0.1)). */
export const computeConfidence = (distinctPhases: number, autoGenerated: boolean): number =>
  Math.round(Math.min(1, 0.5 + 0.1 * Math.min(distinctPhases, 3) + (autoGenerated ? 0 : 0.1)) * 100) / 100;

export const isActiveStatus = (status: Status): boolean => status === 'candidate' || status === 'established' || status === 'promoted';
