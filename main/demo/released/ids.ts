/**
 * Names and fixed ids of the released-plugin demo: a linked worktree pair of one project written
 * only in the shapes opencode-swarm 7.103.2 writes (legacy receipts, no `acknowledged` events,
 * gate warnings in `.swarm/events.jsonl`). Fixed ids let view and e2e tests name what they check.
 */
export const RELEASED_PROJECT = 'inventory-api';
/** The second worktree, linked after it had its own `knowledge.jsonl` (left behind, orphaned). */
export const RELEASED_WORKTREE = 'inventory-api-hotfix';
/** Its own plugin data folder, so nothing of the richer demo hive leaks in. */
export const RELEASED_HIVE = 'released-hive';
export const RELEASED_LINK_ID = 'inventory-api';

export const RELEASED_IDS = {
  /** Critical, escalated to `enforce`, shown 20 times, never answered. */
  criticalEnforced: 'e5c1a9d0-7b2f-4e61-9c3a-51d8f0a2b701',
  /** Critical (warn), shown 15 times, never answered. */
  criticalUnanswered: 'f3b7d2c4-1a9e-4c58-8d07-6e2a9b4c1d02',
  /** Critical, answered only with KNOWLEDGE_N_A markers (stored as "acknowledged" in the application log). */
  criticalAcknowledged: 'a8d4e6f1-3c2b-4a97-b5e0-2f7c8d9a0e03',
  /** Critical, answered with KNOWLEDGE_APPLIED markers only: answered, never acknowledged. */
  criticalApplied: 'b2e9f7a3-6d1c-4b08-a4f2-9c3e5d7b1f04',
  /** High, applied and violated through markers. */
  highViolated: 'c6f0a1b8-2e4d-4f39-96c1-7a5b3e8d2c05',
  /** Medium, answered through the `knowledge_receipt` tool (events, not the application log). */
  mediumReceipt: 'd9a2c5e7-4f6b-4d1a-8e73-0b9f2c4a6e06',
  /** Shown before knowledge-events.jsonl existed: only legacy `shown` lines record its displays. */
  shownOnlyInApplicationLog: '17e3b9c2-8a5d-4e0f-b126-3d4c7f9e1a07',
  /** The archived near-duplicate whose two violations escalated `criticalEnforced`. */
  escalationSource: '2a6c8e0b-9d3f-4b71-a5e4-8c1f6d2b9a08',
  /** Added in Phase 5 with the store at its cap: `knowledge_add` evicted the oldest line (the scripted week's last eviction). */
  addedInPhase5: '5b8d1f3e-0c7a-4e29-b6d4-9f2a7c1e3b09',
} as const;

export const RELEASED_SKILL = 'staging-migration-snapshot';
