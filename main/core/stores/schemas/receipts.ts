import { z } from 'zod';
import { discriminated, stringList, timestamp, validating, type RecordChecker } from './common';

/**
 * V2 receipt ledger — record-level shape only ([PROPOSED] format; upstream has not published
 * it). Hash-chain verification (canonical JSON, `prev`/`hash`, `seq` contiguity) belongs to
 * main/core/receipts; here each line is only checked to look like a receipt record.
 */
const RECEIPT_SCHEMA = 'swarm.knowledge-receipt/2';
const RECEIPT_SNAPSHOT_SCHEMA = 'swarm.knowledge-receipt-snapshot/2';
const RECEIPT_OUTCOMES = ['applied', 'ignored', 'n_a', 'contradicted', 'violated'] as const;
const RECEIPT_TERMINAL_SOURCES = ['delegate', 'reviewer', 'architect', 'architect_marker', 'test_engineer', 'phase_override', 'manual', 'migration', 'unknown'] as const;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex characters');

const chained = {
  schema: z.string(),
  seq: z.number().int().min(1),
  prev: hex64,
  hash: hex64,
};

const envelope = {
  ...chained,
  gen: z.number().int().min(1),
  ts: timestamp,
  project_id: z.string(),
  session_id: z.string(),
  phase: z.string(),
  task_id: z.string().nullable(),
};

const traceEntry = z.object({ trace_id: z.string(), entry_id: z.string() });

const JOURNAL_SCHEMAS: Record<string, z.ZodType> = {
  membership: z.object({
    ...envelope,
    trace_id: z.string(),
    retrieval_mode: z.string(),
    agent: z.string(),
    entries: z.array(
      z.object({
        entry_id: z.string(),
        tier: z.enum(['swarm', 'link', 'hive']),
        rank: z.number().int(),
        priority: z.string(),
        obligation: z.enum(['ack_required', 'advisory']),
        entry_sha256: z.string(),
      }),
    ),
  }),
  terminal: z.object({
    ...envelope,
    trace_id: z.string(),
    entry_id: z.string(),
    outcome: z.enum(RECEIPT_OUTCOMES),
    source: z.enum(RECEIPT_TERMINAL_SOURCES),
    agent: z.string(),
    reason: z.string().max(280).nullable(),
    evidence: z.object({}).nullable(),
    receipt_semantics: z.literal(2),
    idempotency_key: z.string(),
  }),
  gate_release: z.object({
    ...envelope,
    release_kind: z.enum(['denial_limit', 'staleness', 'session_reset']),
    source: z.enum(['application_gate_denial_limit_release', 'application_gate_staleness_release', 'manual']),
    pending: z.array(traceEntry),
    entry_set_key: z.string().optional(),
  }),
  phase_close: z.object({
    ...envelope,
    closed_phase: z.string(),
    phase_outcome: z.enum(['success', 'failure', 'partial']),
    unresolved: z.array(z.object({ trace_id: z.string(), entry_id: z.string(), reason: z.enum(['no_verdict', 'unremediated_violation']) })),
    overrides: z.array(z.object({ entry_id: z.string(), justification: z.string() })).optional(),
    grace_days: z.number().optional(),
    archive_eligible_after: timestamp.optional(),
  }),
  checkpoint: z.object({
    ...envelope,
    reason: z.enum(['threshold_2000', 'repair', 'manual']),
    prior_gen: z.number().int(),
    prior_last_seq: z.number().int(),
    prior_last_hash: hex64,
    live: z.object({}),
    state_sha256: z.string(),
  }),
  uncertainty: z.object({ ...envelope, kind: z.enum(['legacy_unverifiable', 'repair_pending']), detail: z.string() }),
  repair: z.object({ ...envelope, repair_id: z.string(), reason: z.string(), quarantine_seq: z.number().int(), valid_prefix_seq: z.number().int() }),
};

const checkJournalShape = discriminated('type', JOURNAL_SCHEMAS);

function withSchemaCheck(expected: string, inner: RecordChecker): RecordChecker {
  return (value) => {
    const result = inner(value);
    if (typeof value.schema === 'string' && value.schema !== expected) {
      result.problems.unshift({ kind: 'unknown_enum', reason: `unknown schema ${JSON.stringify(value.schema)} (expected "${expected}"): unsupported` });
    }
    return result;
  };
}

export const checkReceiptJournal = withSchemaCheck(RECEIPT_SCHEMA, checkJournalShape);

export const checkReceiptArchive = withSchemaCheck(
  RECEIPT_SCHEMA,
  discriminated('type', {
    closed_summary: z.object({
      ...chained,
      archived_at: timestamp,
      phase: z.string(),
      session_id: z.string(),
      closed_at: timestamp,
      from_gen: z.number().int(),
      from_seq: z.tuple([z.number().int(), z.number().int()]),
      traces: z.array(z.object({ trace_id: z.string(), entries: z.array(z.object({ entry_id: z.string() })) })),
      counts: z.record(z.string(), z.number()),
    }),
  }),
);

export const checkReceiptQuarantine = withSchemaCheck(
  RECEIPT_SCHEMA,
  discriminated('type', {
    capture: z.object({
      ...chained,
      repair_id: z.string(),
      captured_at: timestamp,
      defect: z.enum(['unterminated_final_line', 'interior_corruption', 'hash_mismatch', 'unsupported_schema']),
      journal_byte_length: z.number().int(),
      journal_sha256: z.string(),
      bytes_b64: z.string(),
      part: z.number().int().optional(),
      parts: z.number().int().optional(),
    }),
  }),
);

export const checkReceiptSnapshot = withSchemaCheck(
  RECEIPT_SNAPSHOT_SCHEMA,
  validating(
    z.object({
      schema: z.string(),
      gen: z.number().int(),
      seq: z.number().int(),
      hash: hex64,
      built_at: timestamp,
      state_sha256: z.string(),
      live: z.object({ traces: z.array(z.unknown()).optional(), open_phases: stringList.optional() }),
    }),
  ),
);
