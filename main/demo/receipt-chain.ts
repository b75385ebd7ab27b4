import fs from 'node:fs';
import { GENESIS_PREV, canonicalJson, sha256Hex } from '../core/rules/canonical-json';
import { RECEIPT_SCHEMA, SNAPSHOT_SCHEMA, type Outcome, type PhaseOutcome, type ReleaseKind, type TerminalSource } from '../core/rules/receipt-format';
import type { LineWriter } from './line-writer';

/**
 * The one builder of V2 receipt chains (the proposed format): `ReceiptChain` seals and streams
 * records for the demo generator and the benchmark; `ChainBuilder` on top of it fills the
 * envelope and keeps the records, for tests that need a well-formed chain (or one they break).
 */

export { RECEIPT_SCHEMA };
export const RECEIPT_SNAPSHOT_SCHEMA = SNAPSHOT_SCHEMA;

type Rec = Record<string, unknown>;

/**
 * Canonical line and hash of a record in one pass: each top-level value is serialised once,
 * the hash covers the pieces without `hash`, and the line is the same pieces with `hash`
 * spliced in at its sorted position. Equal to `canonicalJson`/`receiptRecordHash` (tested).
 */
export function sealRecord(record: Rec): { hash: string; line: string } {
  const keys = Object.keys(record)
    .filter((key) => key !== 'hash' && record[key] !== undefined)
    .sort();
  const pieces = keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  const hash = sha256Hex(`{${pieces.join(',')}}`);
  let at = keys.findIndex((key) => key > 'hash');
  if (at < 0) at = keys.length;
  pieces.splice(at, 0, `"hash":"${hash}"`);
  return { hash, line: `{${pieces.join(',')}}` };
}

/**
 * Appends records to a hash-chained receipt file (journal, archive or quarantine): assigns
 * `seq` (contiguous from `startSeq`) and `prev`, seals each record and streams its canonical
 * line. Keeps the first `keepLines` lines in memory for callers that quote a prefix.
 */
export class ReceiptChain {
  seq: number;
  prev: string;
  lastTs: string | null = null;
  readonly keptLines: string[] = [];

  constructor(
    private readonly writer: Pick<LineWriter, 'line'>,
    options: { startSeq?: number; prev?: string; keepLines?: number } = {},
  ) {
    this.seq = (options.startSeq ?? 1) - 1;
    this.prev = options.prev ?? GENESIS_PREV;
    this.keepLines = options.keepLines ?? 0;
  }

  private readonly keepLines: number;

  append(record: Rec): { seq: number; hash: string } {
    const seq = this.seq + 1;
    const { hash, line } = sealRecord({ ...record, seq, prev: this.prev });
    this.writer.line(line);
    if (this.keptLines.length < this.keepLines) this.keptLines.push(line);
    this.seq = seq;
    this.prev = hash;
    if (typeof record.ts === 'string') this.lastTs = record.ts;
    return { seq, hash };
  }

  /**
   * Fast path for records built with every key in canonical order, including `hash`, `prev`
   * and `seq` slots, and values JSON.stringify already writes canonically (plain strings,
   * integers, null, arrays, sorted objects). One stringify gives the line; the hash covers it
   * without the `hash` member.
   */
  appendSorted(record: Rec): { seq: number; hash: string } {
    const seq = this.seq + 1;
    record.seq = seq;
    record.prev = this.prev;
    record.hash = HASH_SLOT;
    const json = JSON.stringify(record);
    const hash = sha256Hex(json.replace(HASH_MEMBER, ''));
    const line = json.replace(HASH_SLOT, hash);
    record.hash = hash;
    this.writer.line(line);
    if (this.keptLines.length < this.keepLines) this.keptLines.push(line);
    this.seq = seq;
    this.prev = hash;
    if (typeof record.ts === 'string') this.lastTs = record.ts;
    return { seq, hash };
  }
}

/** Never valid hex, so it cannot collide with any hash or id in a record. */
const HASH_SLOT = 'z'.repeat(64);
const HASH_MEMBER = `"hash":"${HASH_SLOT}",`;

/** `entry_set_key`: the first 16 hex of SHA-256 over the sorted unique entry ids joined by `\n`. */
export const entrySetKey = (entryIds: readonly string[]): string => sha256Hex([...new Set(entryIds)].sort().join('\n')).slice(0, 16);

export type ReceiptRecord = Record<string, unknown>;

export interface ChainStart {
  seq?: number;
  gen?: number;
  prev?: string;
}

export interface EnvelopeDefaults {
  projectId?: string;
  sessionId?: string;
  phase?: string;
  taskId?: string | null;
  /** ISO time of the first record; later records advance by `stepMs`. */
  startTs?: string;
  stepMs?: number;
}

export interface MembershipEntry {
  entry_id: string;
  tier?: 'swarm' | 'link' | 'hive';
  priority?: string;
  obligation?: 'ack_required' | 'advisory';
  entry_sha256?: string;
}

/** ChainBuilder keeps records rather than lines: a test may change one and write the file after. */
const NO_LINES = { line: () => undefined };

/**
 * Builds V2 receipt chains record by record through `ReceiptChain` (so seq, prev and hash are
 * sealed exactly as the demo's are), filling the envelope (schema, gen, ts, project, session,
 * phase, task) from defaults. `text()` serialises the kept records as canonical JSON lines.
 */
export class ChainBuilder {
  readonly records: ReceiptRecord[] = [];
  private readonly chain: ReceiptChain;
  private gen: number;
  private clock: number;
  private readonly defaults: Required<Omit<EnvelopeDefaults, 'startTs'>>;

  /** `withGen: false` builds an archive/quarantine chain: schema/seq/prev/hash envelope, no gen. */
  constructor(
    defaults: EnvelopeDefaults = {},
    start: ChainStart = {},
    private readonly withGen = true,
  ) {
    this.chain = new ReceiptChain(NO_LINES, { startSeq: start.seq ?? 1, prev: start.prev ?? GENESIS_PREV });
    this.gen = start.gen ?? 1;
    this.clock = Date.parse(defaults.startTs ?? '2026-07-01T10:00:00.000Z');
    this.defaults = {
      projectId: defaults.projectId ?? 'a1b2c3d4e5f6',
      sessionId: defaults.sessionId ?? 'ses_4Fq9xk2',
      phase: defaults.phase ?? 'Phase 4',
      taskId: defaults.taskId ?? '4.2',
      stepMs: defaults.stepMs ?? 60_000,
    };
  }

  get lastHash(): string {
    return this.chain.prev;
  }
  get lastSeq(): number {
    return this.chain.seq;
  }
  get currentGen(): number {
    return this.gen;
  }
  /** The time the next record will carry. */
  get now(): string {
    return new Date(this.clock).toISOString();
  }
  advance(ms: number): this {
    this.clock += ms;
    return this;
  }

  /** Appends a record; envelope fields given in `fields` win over the defaults (seq and prev never do). */
  append(fields: ReceiptRecord): ReceiptRecord {
    const base: ReceiptRecord = this.withGen
      ? { schema: RECEIPT_SCHEMA, gen: this.gen, ts: this.now, project_id: this.defaults.projectId, session_id: this.defaults.sessionId, phase: this.defaults.phase, task_id: this.defaults.taskId }
      : { schema: RECEIPT_SCHEMA };
    const prev = this.chain.prev;
    const fieldsIn: ReceiptRecord = { ...base, ...fields };
    const { seq, hash } = this.chain.append(fieldsIn);
    const record: ReceiptRecord = { ...fieldsIn, seq, prev, hash };
    if (this.withGen && typeof record.gen === 'number') this.gen = record.gen;
    this.records.push(record);
    this.clock += this.defaults.stepMs;
    return record;
  }

  membership(traceId: string, entries: MembershipEntry[], extra: ReceiptRecord = {}): ReceiptRecord {
    return this.append({
      type: 'membership',
      trace_id: traceId,
      retrieval_mode: 'auto_injection',
      agent: 'architect',
      entries: entries.map((entry, index) => ({
        entry_id: entry.entry_id,
        tier: entry.tier ?? 'swarm',
        rank: index + 1,
        priority: entry.priority ?? 'high',
        obligation: entry.obligation ?? (entry.priority === 'critical' ? 'ack_required' : 'advisory'),
        entry_sha256: entry.entry_sha256 ?? '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
      })),
      ...extra,
    });
  }

  terminal(traceId: string, entryId: string, outcome: Outcome | string, source: TerminalSource | string, extra: ReceiptRecord = {}): ReceiptRecord {
    return this.append({
      type: 'terminal',
      trace_id: traceId,
      entry_id: entryId,
      outcome,
      source,
      agent: 'architect',
      reason: outcome === 'applied' ? null : `reason for ${outcome}`,
      evidence: null,
      receipt_semantics: 2,
      idempotency_key: `${traceId}:${entryId}:${source}`,
      ...extra,
    });
  }

  gateRelease(kind: ReleaseKind, pending: { trace_id: string; entry_id: string }[], extra: ReceiptRecord = {}): ReceiptRecord {
    const source = kind === 'denial_limit' ? 'application_gate_denial_limit_release' : kind === 'staleness' ? 'application_gate_staleness_release' : 'manual';
    return this.append({
      type: 'gate_release',
      release_kind: kind,
      source,
      pending,
      entry_set_key: '5d41402abc4b2a76',
      denial_count: kind === 'denial_limit' ? 5 : 1,
      max_gate_denials: 5,
      oldest_shown_at: this.now,
      gate_staleness_ms: 600_000,
      tool: 'Task',
      ...extra,
    });
  }

  phaseClose(phase: string, outcome: PhaseOutcome, extra: ReceiptRecord = {}): ReceiptRecord {
    const closedAt = this.now;
    const graceDays = typeof extra.grace_days === 'number' ? extra.grace_days : 7;
    return this.append({
      type: 'phase_close',
      phase,
      closed_phase: phase,
      phase_outcome: outcome,
      unresolved: [],
      overrides: [],
      grace_days: graceDays,
      archive_eligible_after: new Date(Date.parse(closedAt) + graceDays * 86_400_000).toISOString(),
      task_id: null,
      ...extra,
    });
  }

  /** A checkpoint record starting the next generation (as the first line of a rewritten file). */
  checkpoint(live: ReceiptRecord, extra: ReceiptRecord = {}): ReceiptRecord {
    const priorGen = this.gen;
    return this.append({
      type: 'checkpoint',
      gen: priorGen + 1,
      reason: 'threshold_2000',
      prior_gen: priorGen,
      prior_last_seq: this.lastSeq,
      prior_last_hash: this.lastHash,
      live,
      state_sha256: sha256Hex(canonicalJson(live)),
      folded_records: this.lastSeq,
      archived_summaries: 0,
      task_id: null,
      ...extra,
    });
  }

  /** The file text: one canonical JSON line per record, each ending in `\n`. */
  text(): string {
    return this.records.map((record) => canonicalJson(record) + '\n').join('');
  }

  write(file: string): void {
    fs.writeFileSync(file, this.text());
  }
}
