/**
 * The stores history records (entry stores of every tier, and the event logs its reasons and
 * phases come from): a history query refetches when one of them changes.
 */
export const HISTORY_STORES = ['knowledge', 'hive', 'events'] as const;
