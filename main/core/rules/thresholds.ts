/**
 * The knowledge thresholds the console evaluates against. Defaults are the plugin's schema
 * defaults (opencode-swarm 7.103.2, `src/config/schema.ts`); the handlers overlay the values
 * in force from the project/user config.
 */
export interface KnowledgeThresholds {
  default_max_phases: number;
  todo_max_phases: number;
  evergreen_confidence: number;
  evergreen_utility: number;
  low_utility_threshold: number;
  min_retrievals_for_utility: number;
  dedup_threshold: number;
  max_inject_count: number;
  inject_char_budget: number;
  max_lesson_display_chars: number;
  directive_min_confidence: number;
  /** Unset in the plugin's defaults; the injector then uses 300 chars of headroom as the skip floor. */
  context_budget_threshold: number | null;
  scope_filter: string[];
  hive_enabled: boolean;
  auto_promote_days: number;
  /** `curator.min_skill_confidence` */
  min_skill_confidence: number;
  /** `curator.min_skill_confirmations` */
  min_skill_confirmations: number;
}

export const DEFAULT_THRESHOLDS: Readonly<KnowledgeThresholds> = Object.freeze({
  default_max_phases: 10,
  todo_max_phases: 3,
  evergreen_confidence: 0.9,
  evergreen_utility: 0.8,
  low_utility_threshold: 0.3,
  min_retrievals_for_utility: 3,
  dedup_threshold: 0.6,
  max_inject_count: 5,
  inject_char_budget: 2000,
  max_lesson_display_chars: 120,
  directive_min_confidence: 0.75,
  context_budget_threshold: null,
  scope_filter: ['global'],
  hive_enabled: true,
  auto_promote_days: 90,
  min_skill_confidence: 0.7,
  min_skill_confirmations: 2,
});

/** Statuses the plugin treats as inactive: excluded from injection, reinforcement and promotion. */
const INACTIVE_STATUSES: ReadonlySet<string> = new Set(['archived', 'quarantined', 'quarantined_unactionable']);

export const isActiveStatus = (status: unknown): boolean => !INACTIVE_STATUSES.has(String(status ?? ''));

/** Overlays whatever numeric/array values a config object carries onto the defaults, ignoring junk. */
export function resolveThresholds(overrides: Partial<Record<keyof KnowledgeThresholds, unknown>> = {}): KnowledgeThresholds {
  const out: KnowledgeThresholds = { ...DEFAULT_THRESHOLDS, scope_filter: [...DEFAULT_THRESHOLDS.scope_filter] };
  for (const key of Object.keys(DEFAULT_THRESHOLDS) as (keyof KnowledgeThresholds)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (key === 'scope_filter') {
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out.scope_filter = [...value];
    } else if (key === 'hive_enabled') {
      if (typeof value === 'boolean') out.hive_enabled = value;
    } else if (key === 'context_budget_threshold') {
      if (value === null || (typeof value === 'number' && Number.isFinite(value))) out.context_budget_threshold = value;
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      (out as unknown as Record<string, number>)[key] = value;
    }
  }
  return out;
}
