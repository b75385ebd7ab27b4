import { z } from 'zod';
import { NoInput, query, subscription } from './define';

/**
 * Operations of the receipts area (issue 5): integrity of the V2 receipt files, retrieval traces
 * and their fate, open obligations and gate releases, per-directive funnels, per-phase summaries
 * and the status of every receipt source. Read-only: nothing here writes a receipt file.
 */

// Enumerations of the (proposed) V2 ledger, docs/plugin-formats.md#v2-receipts.
export const OUTCOMES = ['applied', 'ignored', 'n_a', 'contradicted', 'violated'] as const;
const AUDIT_KINDS = ['unacknowledged', 'no_relevant', 'override'] as const;
export const TERMINAL_SOURCES = [
  'delegate',
  'reviewer',
  'architect',
  'architect_marker',
  'test_engineer',
  'phase_override',
  'manual',
  'migration',
  'unknown',
] as const;
export const RELEASE_KINDS = ['denial_limit', 'staleness', 'session_reset'] as const;
const RECEIPT_FILE_KINDS = ['journal', 'snapshot', 'archive', 'quarantine'] as const;
const FILE_STATES = ['ok', 'absent', 'incomplete_tail', 'corrupt', 'unsupported_schema', 'unreadable', 'legacy_unverifiable', 'stale'] as const;
const ORIGINS = ['v2', 'archive', 'knowledge-events', 'knowledge-application', 'unacknowledged-criticals', 'swarm-events'] as const;

const Outcome = z.enum(OUTCOMES);
const TerminalSource = z.enum(TERMINAL_SOURCES);
const ReleaseKind = z.enum(RELEASE_KINDS);
const Origin = z.enum(ORIGINS);
const FileState = z.enum(FILE_STATES);

const Text = z.string().max(200);
const Offset = z.number().int().min(0).max(10_000_000).default(0);
const nullableString = z.string().nullable();
const nullableInt = z.number().int().nullable();

const ChainBreak = z.object({
  line: z.number().int(),
  byteOffset: z.number().int(),
  byteLength: z.number().int(),
  seq: nullableInt,
  defect: z.string(),
  field: nullableString,
  expected: z.string(),
  found: z.string(),
  message: z.string(),
});

export const FileIntegrity = z.object({
  kind: z.enum(RECEIPT_FILE_KINDS),
  name: z.string(),
  path: z.string(),
  state: FileState,
  /** One line an operator can act on. */
  reason: z.string(),
  bytes: nullableInt,
  lines: z.number().int(),
  records: z.number().int(),
  firstSeq: nullableInt,
  lastSeq: nullableInt,
  lastHash: nullableString,
  generation: nullableInt,
  checkpoints: z.number().int(),
  nonCanonicalLines: z.number().int(),
  break: ChainBreak.nullable(),
  tail: z
    .object({ line: z.number().int(), byteOffset: z.number().int(), byteLength: z.number().int(), parses: z.boolean(), pluginView: z.string() })
    .nullable(),
  osError: z.object({ code: z.string(), message: z.string() }).nullable(),
  uncertainty: z.array(
    z.object({ seq: z.number().int(), kind: z.string(), detail: nullableString, phase: nullableString, sessionId: nullableString, repairId: nullableString }),
  ),
  /** Snapshot only: what it covers and how it differs from a rebuild from the journal. */
  snapshot: z
    .object({ coversSeq: nullableInt, coversGen: nullableInt, journalLastSeq: nullableInt, builtAt: nullableString, difference: nullableString })
    .nullable(),
  /** What the plugin would do about it (the console never repairs). */
  recovery: z.object({ tool: z.string(), phase: nullableString, sessionId: nullableString, text: z.string() }).nullable(),
});
export type FileIntegrity = z.infer<typeof FileIntegrity>;

export const Integrity = z.object({
  checkedAt: z.string(),
  swarmDir: z.string(),
  /** ok: every file ok or absent; attention: nothing corrupt but something to look at; corrupt: fails closed. */
  verdict: z.enum(['ok', 'attention', 'corrupt']),
  summary: z.string(),
  files: z.array(FileIntegrity),
});
export type Integrity = z.infer<typeof Integrity>;

const Evidence = z.object({
  files: z.array(z.string()),
  commands: z.array(z.string()),
  tests: z.array(z.string()),
  summary: nullableString,
});

export const Terminal = z.object({
  outcome: Outcome,
  source: TerminalSource,
  /** True when the legacy log carried no source and the console inferred it from the writer. */
  sourceInferred: z.boolean(),
  agent: nullableString,
  reason: nullableString,
  evidence: Evidence.nullable(),
  ts: nullableString,
  seq: nullableInt,
  msFromDisplay: z.number().nullable(),
  origin: Origin,
});
export type Terminal = z.infer<typeof Terminal>;

export const Release = z.object({
  kind: ReleaseKind,
  source: z.string(),
  ts: nullableString,
  seq: nullableInt,
  tool: nullableString,
  denialCount: nullableInt,
  maxGateDenials: nullableInt,
  gateStalenessMs: z.number().nullable(),
  msFromDisplay: z.number().nullable(),
  origin: Origin,
});
export type Release = z.infer<typeof Release>;

export const AuditEvent = z.object({
  kind: z.enum(AUDIT_KINDS),
  agent: nullableString,
  reason: nullableString,
  ts: nullableString,
  seq: nullableInt,
  origin: Origin,
});
export type AuditEvent = z.infer<typeof AuditEvent>;

const EntryStatus = z.enum(['answered', 'released', 'open', 'unanswered']);
export const TraceEntry = z.object({
  entryId: z.string(),
  tier: nullableString,
  rank: nullableInt,
  priority: nullableString,
  obligation: z.enum(['ack_required', 'advisory']).nullable(),
  entrySha256: nullableString,
  /** answered: has a terminal; released: a gate release and no terminal; open: ack_required with neither; unanswered: advisory with none. */
  status: EntryStatus,
  /** The outcome the gate would use (precedence reviewer/test_engineer > architect > delegate > others). */
  effective: z.object({ outcome: Outcome, source: TerminalSource }).nullable(),
  terminals: z.array(Terminal),
  releases: z.array(Release),
  audit: z.array(AuditEvent),
  /**
   * Priority and obligation taken from the knowledge entry, not from a V2 membership: the released
   * plugin's legacy logs record displays without either ("derived from legacy logs").
   */
  derived: z.boolean(),
});
export type TraceEntry = z.infer<typeof TraceEntry>;

export const Trace = z.object({
  traceId: z.string(),
  origin: Origin,
  sessionId: nullableString,
  phase: nullableString,
  taskId: nullableString,
  mode: nullableString,
  agent: nullableString,
  displayedAt: nullableString,
  seq: nullableInt,
  /** False for outcomes recorded without a matching retrieval (the displayed set is unknown). */
  displayedSetKnown: z.boolean(),
  entries: z.array(TraceEntry),
});
export type Trace = z.infer<typeof Trace>;

export const TracesInput = z
  .object({
    phase: Text.optional(),
    agent: Text.optional(),
    session: Text.optional(),
    entry: Text.optional(),
    outcome: z.enum([...OUTCOMES, 'released', 'open', 'unanswered', 'audit']).optional(),
    origin: Origin.optional(),
    offset: Offset,
    limit: z.number().int().min(1).max(500).default(50),
  })
  .strict();

export const TracesPage = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  traces: z.array(Trace),
  facets: z.object({ phases: z.array(z.string()), agents: z.array(z.string()), sessions: z.array(z.string()) }),
});
export type TracesPage = z.infer<typeof TracesPage>;

export const EscapeHatches = z.object({
  maxGateDenials: z.number().int(),
  gateStalenessMs: z.number(),
  receiptCloseGraceDays: z.number(),
  /** Where the values came from: the merged plugin config files, or the documented defaults. */
  source: z.enum(['config', 'default']),
  configFiles: z.array(z.string()),
  problems: z.array(z.string()),
});
export type EscapeHatches = z.infer<typeof EscapeHatches>;

export const Obligation = z.object({
  traceId: z.string(),
  entryId: z.string(),
  phase: nullableString,
  sessionId: nullableString,
  taskId: nullableString,
  agent: nullableString,
  mode: nullableString,
  priority: nullableString,
  displayedAt: nullableString,
  /** open: no terminal, no release; released: a gate let it through (nonterminal, not application); answered: a terminal exists. */
  status: z.enum(['open', 'released', 'answered']),
  /** How long it has been open (open) or took to resolve (released/answered). */
  ageMs: z.number().nullable(),
  releases: z.array(Release),
  answer: Terminal.nullable(),
  answeredAfterRelease: z.boolean(),
  /** Gate denials logged for this entry in `.swarm/events.jsonl` (if the plugin logs them). */
  denials: nullableInt,
  /** Open and older than gate_staleness_ms: the next high-risk tool call would release it. */
  stalenessDue: z.boolean(),
  stalenessDueAt: nullableString,
  /** The phase closed with this display listed as unresolved (reason: no_verdict | unremediated_violation). */
  closedUnresolved: nullableString,
  /** Derived from legacy logs: a legacy display of an entry whose knowledge record says critical. */
  derived: z.boolean(),
  /** The entry's `enforcement_mode` (warn | enforce), when the knowledge record has one. */
  enforcement: nullableString,
  /** `knowledge_application_gate_warn` lines in `.swarm/events.jsonl` naming this entry (warn mode). */
  gateWarnings: z.number().int(),
});
export type Obligation = z.infer<typeof Obligation>;

const ObligationsInput = z
  .object({ phase: Text.optional(), status: z.enum(['open', 'released', 'answered', 'all']).default('all') })
  .strict();

const Obligations = z.object({
  now: z.string(),
  escapeHatches: EscapeHatches,
  /** released: released and never answered; releasedThenAnswered: answered after a gate release (counted in answered). */
  counts: z.object({ open: z.number().int(), released: z.number().int(), answered: z.number().int(), releasedThenAnswered: z.number().int() }),
  obligations: z.array(Obligation),
});

export const FunnelCounts = z.object({
  shown: z.number().int(),
  /** Displays that got any answer (applied, ignored, N/A, contradicted or violated), each display once: never more than `shown`. */
  answered: z.number().int(),
  /** Answers that name no recorded display (counted apart from `answered`; any outcome, and `acknowledged` events). */
  unlinkedAnswers: z.number().int(),
  applied: z.number().int(),
  ignored: z.number().int(),
  n_a: z.number().int(),
  contradicted: z.number().int(),
  violated: z.number().int(),
  /** Legacy `knowledge-application.jsonl` stores an N/A ack as `acknowledged`. */
  naStoredAsAcknowledged: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  partial: z.number().int(),
  released: z.number().int(),
  open: z.number().int(),
  unacknowledged: z.number().int(),
  noRelevant: z.number().int(),
});
export type FunnelCounts = z.infer<typeof FunnelCounts>;

export const FunnelRow = z.object({
  entryId: z.string(),
  priority: nullableString,
  /** The priority came from the knowledge entry (no V2 membership recorded it): derived from legacy logs. */
  priorityDerived: z.boolean(),
  enforcement: nullableString,
  /**
   * The plugin's effective `acknowledged_count` (docs/plugin-formats.md#effective-counters): explicit acknowledgements only,
   * from the counter baseline, knowledge-events.jsonl and knowledge-application.jsonl. Null when the
   * knowledge entry is not in this workspace.
   */
  acknowledged: nullableInt,
  total: FunnelCounts,
  bySource: z.array(z.object({ origin: Origin, counts: FunnelCounts })),
});
export type FunnelRow = z.infer<typeof FunnelRow>;

const FunnelInput = z
  .object({ entry: Text.optional(), offset: Offset, limit: z.number().int().min(1).max(500).default(100) })
  .strict();
const Funnel = z.object({ total: z.number().int(), rows: z.array(FunnelRow), notes: z.array(z.string()) });

export const PhaseSummary = z.object({
  phase: z.string(),
  origin: z.enum(['v2', 'archive', 'legacy']),
  sessions: z.array(z.string()),
  traces: z.number().int(),
  displayed: z.number().int(),
  ackRequired: z.number().int(),
  answered: z.number().int(),
  released: z.number().int(),
  open: z.number().int(),
  outcomes: z.object({ applied: z.number().int(), ignored: z.number().int(), n_a: z.number().int(), contradicted: z.number().int(), violated: z.number().int() }),
  /** open: no phase_close yet; in_grace: closed, kept until archive_eligible_after; archive_eligible: grace over, not yet archived. */
  state: z.enum(['open', 'in_grace', 'archive_eligible', 'archived', 'no_close_record', 'completed_legacy']),
  closedAt: nullableString,
  phaseOutcome: nullableString,
  graceDays: z.number().nullable(),
  archiveEligibleAfter: nullableString,
  unresolved: z.array(z.object({ traceId: z.string(), entryId: z.string(), reason: z.string() })),
  overrides: z.array(z.object({ entryId: z.string(), justification: z.string() })),
  /** completed_legacy: no phase_close, but legacy `outcome` events say the phase completed (derived from legacy logs). */
  derived: z.boolean(),
});
export type PhaseSummary = z.infer<typeof PhaseSummary>;

const Phases = z.object({ now: z.string(), escapeHatches: EscapeHatches, phases: z.array(PhaseSummary) });

export const SourceStatus = z.object({
  id: z.enum(['journal', 'snapshot', 'archive', 'quarantine', 'knowledge-application', 'knowledge-events', 'unacknowledged-criticals', 'swarm-events']),
  label: z.string(),
  path: z.string(),
  present: z.boolean(),
  /** V2 files follow no link; the two knowledge logs follow `.swarm/link.json`. */
  linkRedirected: z.boolean(),
  bytes: nullableInt,
  lines: z.number().int(),
  records: z.number().int(),
  defects: z.number().int(),
  firstDefect: z.object({ line: z.number().int(), offset: z.number().int(), kind: z.string(), reason: z.string() }).nullable(),
  summary: z.string(),
  notes: z.array(z.string()),
});
export type SourceStatus = z.infer<typeof SourceStatus>;

const Sources = z.object({ sources: z.array(SourceStatus) });

export const ReceiptsEvent = z.object({
  kind: z.literal('reverified'),
  /** Receipt files whose change triggered this (empty on the initial push). */
  changed: z.array(z.string()),
  integrity: Integrity,
});

export const receiptOps = {
  'receipts.integrity': query('Verify every V2 receipt file (read-only) and compare the snapshot with a rebuild.', NoInput, Integrity),
  'receipts.traces': query('Retrieval traces with the fate of each displayed entry, paged and filtered.', TracesInput, TracesPage),
  'receipts.obligations': query('Displayed ack-required directives: open, released by the gate, or answered.', ObligationsInput, Obligations),
  'receipts.funnel': query('Per-directive funnel: shown → answered → outcome → succeeded/failed after shown, with the plugin’s acknowledged count.', FunnelInput, Funnel),
  'receipts.phases': query('Per-phase summaries with phase-close state and grace period.', NoInput, Phases),
  'receipts.sources': query('Every receipt source (V2 files and legacy logs) and what it holds.', NoInput, Sources),
  'receipts.changes': subscription('Pushed after a receipt file changed and was verified again.', NoInput, ReceiptsEvent),
} as const;
