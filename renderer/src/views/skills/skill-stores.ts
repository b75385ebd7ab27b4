/**
 * The stores whose changes can alter what the Skills area shows, as families (see
 * state/freshness-reducer): skill files and their logs, curator and insight outputs, the
 * knowledge and hive entries skills cite (with their event logs and receipts), and the gate log.
 */
export const SKILL_STORES = ['skill', 'skills', 'curator', 'insight', 'knowledge', 'hive', 'events', 'receipts'] as const;
