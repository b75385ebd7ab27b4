import fs from 'node:fs';
import { canonicalJson, GENESIS_PREV, receiptRecordHash, sha256Hex } from '../../main/core/rules/canonical-json';
import { RECEIPT_SCHEMA, type Outcome, type PhaseOutcome, type ReleaseKind, type TerminalSource } from '../../main/core/receipts/receipt-format';

/**
 * Builds valid V2 receipt journals (and archive/quarantine chains) for tests, the benchmark and
 * anyone who needs a well-formed chain: it fills the envelope (schema, seq, gen, prev, hash) and
 * serialises each record as canonical JSON plus `\n`, exactly as the proposed format says.
 */

export type ReceiptRecord = Record<string, unknown>;

interface ChainStart {
  seq?: number;
  gen?: number;
  prev?: string;
}

interface EnvelopeDefaults {
  projectId?: string;
  sessionId?: string;
  phase?: string;
  taskId?: string | null;
  /** ISO time of the first record; later records advance by `stepMs`. */
  startTs?: string;
  stepMs?: number;
}

interface MembershipEntry {
  entry_id: string;
  tier?: 'swarm' | 'link' | 'hive';
  priority?: string;
  obligation?: 'ack_required' | 'advisory';
  entry_sha256?: string;
}

export class ChainBuilder {
  readonly records: ReceiptRecord[] = [];
  private nextSeq: number;
  private gen: number;
  private prev: string;
  private clock: number;
  private readonly defaults: Required<Omit<EnvelopeDefaults, 'startTs'>>;

  /** `withGen: false` builds an archive/quarantine chain: schema/seq/prev/hash envelope, no gen. */
  constructor(
    defaults: EnvelopeDefaults = {},
    start: ChainStart = {},
    private readonly withGen = true,
  ) {
    this.nextSeq = start.seq ?? 1;
    this.gen = start.gen ?? 1;
    this.prev = start.prev ?? GENESIS_PREV;
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
    return this.prev;
  }
  get lastSeq(): number {
    return this.nextSeq - 1;
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

  /** Appends a record; envelope fields given in `fields` win over the defaults. */
  append(fields: ReceiptRecord): ReceiptRecord {
    const base: ReceiptRecord = this.withGen
      ? {
          schema: RECEIPT_SCHEMA,
          gen: this.gen,
          ts: this.now,
          project_id: this.defaults.projectId,
          session_id: this.defaults.sessionId,
          phase: this.defaults.phase,
          task_id: this.defaults.taskId,
        }
      : { schema: RECEIPT_SCHEMA };
    const record: ReceiptRecord = { ...base, ...fields, seq: this.nextSeq, prev: this.prev };
    if (this.withGen && typeof record.gen === 'number') this.gen = record.gen;
    record.hash = receiptRecordHash(record);
    this.records.push(record);
    this.prev = record.hash as string;
    this.nextSeq++;
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
    const source =
      kind === 'denial_limit' ? 'application_gate_denial_limit_release' : kind === 'staleness' ? 'application_gate_staleness_release' : 'manual';
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
      prior_last_hash: this.prev,
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
