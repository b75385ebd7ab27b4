import { OUTCOMES, TERMINAL_SOURCES } from '../../shared/contract/receipts';
import type { Priority } from './entry-model';

export type Outcome = (typeof OUTCOMES)[number];
export type TerminalSource = (typeof TERMINAL_SOURCES)[number];
export type RetrievalMode = 'manual' | 'auto_injection' | 'coder_context' | 'review_context' | 'curator' | 'delegate_inject';
type PhaseOutcome = 'success' | 'failure' | 'partial';

export { OUTCOMES, TERMINAL_SOURCES };

export interface Evidence {
  files: string[];
  commands: string[];
  tests: string[];
  summary: string;
}

/**
 * Which legacy log a terminal also left behind before the V2 ledger existed:
 * - `events`: knowledge-events.jsonl (`knowledge_receipt`, reviewer parser, delegate collector);
 * - `application`: knowledge-application.jsonl (architect chat markers, old knowledge_ack);
 * - `override`: an `override` event at phase completion;
 * - `none`: only the V2 journal knows it.
 */
export type LegacyRoute = 'events' | 'application' | 'override' | 'none';

export interface StoryPhase {
  label: string;
  number: number;
  sessionId: string;
  startMs: number;
  closeMs: number | null;
  outcome: PhaseOutcome | null;
}

export interface Displayed {
  entryId: string;
  tier: 'swarm' | 'hive';
  /** Priority at display time (an entry escalated later shows its older priority here). */
  priority: Priority;
  obligation: 'ack_required' | 'advisory';
  score: number;
}

export interface Trace {
  traceId: string;
  phase: string;
  sessionId: string;
  taskId: string | null;
  agent: string;
  mode: RetrievalMode;
  query: string;
  atMs: number;
  entries: Displayed[];
}

export interface Terminal {
  traceId: string;
  entryId: string;
  outcome: Outcome;
  source: TerminalSource;
  agent: string;
  atMs: number;
  reason: string | null;
  evidence: Evidence | null;
  predicateCheck?: { predicate: string; result: 'pass' | 'fail' | 'error'; detail: string };
  legacy: LegacyRoute;
  /** The legacy event's `source` field (`reviewer`, `delegate`, …); absent for the delegate ack collector. */
  legacySource?: string;
}

export interface GateDenial {
  atMs: number;
  sessionId: string;
  phase: string;
  tool: string;
  agent: string;
  entryIds: string[];
  traceIds: string[];
  denialCount: number;
}

export interface GateRelease {
  kind: 'denial_limit' | 'staleness' | 'session_reset';
  source: 'application_gate_denial_limit_release' | 'application_gate_staleness_release' | 'manual';
  atMs: number;
  sessionId: string;
  phase: string;
  taskId: string | null;
  /** The tool the release let through; null for a session reset. */
  tool: string | null;
  pending: Array<{ traceId: string; entryId: string }>;
  denialCount: number;
  oldestShownMs: number;
}

export interface PhaseClose {
  phase: string;
  sessionId: string;
  atMs: number;
  outcome: PhaseOutcome;
  unresolved: Array<{ traceId: string; entryId: string; reason: 'no_verdict' | 'unremediated_violation' }>;
  overrides: Array<{ entryId: string; justification: string }>;
}

export interface GateWarn {
  atMs: number;
  sessionId: string | null;
  tool: string;
  entryIds: string[];
}

export interface Story {
  phases: StoryPhase[];
  traces: Trace[];
  terminals: Terminal[];
  denials: GateDenial[];
  releases: GateRelease[];
  closes: PhaseClose[];
  warns: GateWarn[];
  escalations: Array<{ entryId: string; atMs: number; from: Priority; to: Priority }>;
}

export const MAX_GATE_DENIALS = 5;
export const GATE_STALENESS_MS = 600_000;
export const RECEIPT_GRACE_DAYS = 7;
