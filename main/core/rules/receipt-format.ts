import { OUTCOMES, RELEASE_KINDS, TERMINAL_SOURCES } from '../../../shared/contract/receipts';

/**
 * Facts about the V2 receipt ledger and the legacy receipt logs, copied from
 * docs/plugin-formats.md (#v2-receipts, #receipt-chain, #legacy-receipts, #event-logs, #configuration).
 * The V2 format is a PROPOSAL that a future plugin version may adopt; the console only ever reads
 * these files.
 */

export { RECEIPT_SCHEMA, SNAPSHOT_SCHEMA } from './receipt-schema';

/** V2 files: always in the canonical project `.swarm/`, never link-redirected. */
export const V2_FILES = {
  journal: 'knowledge-receipts-v2.jsonl',
  snapshot: 'knowledge-receipts-v2.snapshot.json',
  archive: 'knowledge-receipts-v2-archive.jsonl',
  quarantine: 'knowledge-receipts-v2-quarantine.jsonl',
} as const;
export type V2FileKind = keyof typeof V2_FILES;
export type ChainFileKind = Exclude<V2FileKind, 'snapshot'>;

/** Legacy logs: the first two follow a link (knowledge dir); the last stays in the worktree. */
export const LEGACY_FILES = {
  application: 'knowledge-application.jsonl',
  events: 'knowledge-events.jsonl',
  unacknowledged: 'unacknowledged-criticals.jsonl',
} as const;

const JOURNAL_RECORD_TYPES = ['membership', 'terminal', 'gate_release', 'phase_close', 'checkpoint', 'uncertainty', 'repair'] as const;
/** Record types each chained file may hold. */
export const RECORD_TYPES_BY_FILE: Record<ChainFileKind, readonly string[]> = {
  journal: JOURNAL_RECORD_TYPES,
  archive: ['closed_summary'],
  quarantine: ['capture'],
};

export { OUTCOMES, TERMINAL_SOURCES, RELEASE_KINDS } from '../../../shared/contract/receipts';
export type Outcome = (typeof OUTCOMES)[number];
/** Audit-only: recorded, shown, never a terminal outcome. */
const AUDIT_ONLY = ['unacknowledged', 'no_relevant'] as const;
type AuditKind = (typeof AUDIT_ONLY)[number];

export type TerminalSource = (typeof TERMINAL_SOURCES)[number];

export type ReleaseKind = (typeof RELEASE_KINDS)[number];

export const PHASE_OUTCOMES = ['success', 'failure', 'partial'] as const;
export type PhaseOutcome = (typeof PHASE_OUTCOMES)[number];

/**
 * Gate precedence for independent verification: reviewer/test_engineer > architect/architect_marker
 * > delegate > others. Lower rank wins.
 */
export function sourceRank(source: string): number {
  if (source === 'phase_override') return 0;
  if (source === 'reviewer' || source === 'test_engineer') return 1;
  if (source === 'architect' || source === 'architect_marker') return 2;
  if (source === 'delegate') return 3;
  return 4;
}

/** Config defaults (DOC-ONLY keys, docs/plugin-formats.md#configuration). */
export const DEFAULT_MAX_GATE_DENIALS = 5;
export const DEFAULT_GATE_STALENESS_MS = 600_000;
export const DEFAULT_RECEIPT_CLOSE_GRACE_DAYS = 7;

export const REPAIR_TOOL = 'repair_knowledge_receipt_ledger';

export const isOutcome = (value: unknown): value is Outcome => typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value);
export const isAuditKind = (value: unknown): value is AuditKind => typeof value === 'string' && (AUDIT_ONLY as readonly string[]).includes(value);
export const isTerminalSource = (value: unknown): value is TerminalSource =>
  typeof value === 'string' && (TERMINAL_SOURCES as readonly string[]).includes(value);
export const isReleaseKind = (value: unknown): value is ReleaseKind => typeof value === 'string' && (RELEASE_KINDS as readonly string[]).includes(value);
