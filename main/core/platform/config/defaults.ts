/**
 * Defaults of the plugin's settings that the console shows as "thresholds in force"
 * (opencode-swarm 7.103.2, src/config/schema.ts). Settings marked DOC-ONLY are described by the
 * plugin's later design doc but absent from the released schema; they are listed so views can
 * say so, and never presented as enforced by the installed plugin.
 */
export interface SettingSpec {
  default: unknown;
  /** Inclusive numeric range the plugin's schema accepts. */
  range?: [number, number];
  allowed?: readonly string[];
  docOnly?: boolean;
}

const KNOWLEDGE_SETTINGS: Record<string, SettingSpec> = {
  enabled: { default: true },
  swarm_max_entries: { default: 100, range: [1, 10000] },
  hive_max_entries: { default: 200, range: [1, 100000] },
  auto_promote_days: { default: 90, range: [1, 3650] },
  max_inject_count: { default: 5, range: [0, 50] },
  delegate_max_inject_count: { default: 8 },
  inject_char_budget: { default: 2000, range: [200, 10000] },
  context_budget_threshold: { default: null },
  max_lesson_display_chars: { default: 120, range: [40, 280] },
  dedup_threshold: { default: 0.6 },
  scope_filter: { default: ['global'] },
  hive_enabled: { default: true },
  rejected_max_entries: { default: 20, range: [1, 1000] },
  validation_enabled: { default: true },
  evergreen_confidence: { default: 0.9 },
  evergreen_utility: { default: 0.8 },
  low_utility_threshold: { default: 0.3 },
  min_retrievals_for_utility: { default: 3 },
  schema_version: { default: 1 },
  directive_min_confidence: { default: 0.75 },
  same_project_weight: { default: 1.0 },
  cross_project_weight: { default: 0.5 },
  min_encounter_score: { default: 0.1 },
  initial_encounter_score: { default: 1.0 },
  encounter_increment: { default: 0.1 },
  max_encounter_score: { default: 10 },
  default_max_phases: { default: 10 },
  todo_max_phases: { default: 3 },
  sweep_enabled: { default: true },
  realtime_learning_nudge: { default: { enabled: true, first_after_tool_calls: 10, repeat_after_tool_calls: 25 } },
  retrieval: {
    default: { mmr_lambda: 0.5, cold_start_bonus: 0.08, cold_start_max_age_phases: 3, synonym_min_cooccurrence: 3, synonym_map_max_pairs: 500 },
  },
  enrichment: { default: { max_calls_per_day: 30, quota_window: 'utc' } },
  receipt_close_grace_days: { default: 7, range: [0, 3650], docOnly: true },
};

const KNOWLEDGE_APPLICATION_SETTINGS: Record<string, SettingSpec> = {
  enabled: { default: true },
  mode: { default: 'warn', allowed: ['warn', 'enforce'] },
  min_confidence: { default: 0.85 },
  critical_requires_ack: { default: true },
  require_skill_refs: { default: true },
  high_risk_tools: { default: ['save_plan', 'update_task_status', 'phase_complete', 'task', 'Task'] },
  max_gate_denials: { default: 5, docOnly: true },
  gate_staleness_ms: { default: 600000, docOnly: true },
};

const CURATOR_SETTINGS: Record<string, SettingSpec> = {
  enabled: { default: true },
  init_enabled: { default: true },
  phase_enabled: { default: true },
  postmortem_enabled: { default: true },
  max_summary_tokens: { default: 2000 },
  min_knowledge_confidence: { default: 0.7 },
  compliance_report: { default: true },
  suppress_warnings: { default: true },
  drift_inject_max_chars: { default: 500 },
  llm_timeout_ms: { default: 300000 },
  skill_generation_enabled: { default: true },
  skill_generation_mode: { default: 'draft' },
  min_skill_confidence: { default: 0.7 },
  min_skill_confirmations: { default: 2 },
};

const SKILL_IMPROVER_SETTINGS: Record<string, SettingSpec> = {
  enabled: { default: false },
  max_calls_per_day: { default: 10 },
  trigger: { default: 'manual' },
  consolidation_interval_hours: { default: 24 },
  consolidation_max_calls_per_run: { default: 1 },
  targets: { default: ['skills', 'spec', 'architect_prompt', 'knowledge'] },
  write_mode: { default: 'proposal' },
  require_user_approval: { default: true },
  quota_window: { default: 'utc', allowed: ['utc', 'local'] },
  allow_deterministic_fallback: { default: true },
  model: { default: null },
};

export const SECTIONS = {
  knowledge: KNOWLEDGE_SETTINGS,
  knowledge_application: KNOWLEDGE_APPLICATION_SETTINGS,
  curator: CURATOR_SETTINGS,
  skill_improver: SKILL_IMPROVER_SETTINGS,
} as const;

export type SectionName = keyof typeof SECTIONS;

/** The plugin refuses config files larger than this. */
export const MAX_CONFIG_BYTES = 100 * 1024;
