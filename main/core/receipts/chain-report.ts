import type { ChainBreak } from './chain-check';
import type { ChainFileKind } from '../rules/receipt-format';

/**
 * What verifying one chained V2 file reports (verify-file.ts), and the context it keeps from
 * verified records (uncertainty, checkpoints, repairs) for the integrity report.
 */

export type ChainFileState = 'ok' | 'absent' | 'incomplete_tail' | 'corrupt' | 'unsupported_schema' | 'unreadable' | 'legacy_unverifiable';

export interface IncompleteTail {
  line: number;
  byteOffset: number;
  byteLength: number;
  /** Whether the unterminated bytes already parse as a whole record (a torn write looks like this too). */
  parses: boolean;
}

export interface UncertaintyRecord {
  seq: number;
  kind: string;
  detail: string | null;
  phase: string | null;
  sessionId: string | null;
  repairId: string | null;
}

export interface ChainFileReport {
  kind: ChainFileKind;
  path: string;
  state: ChainFileState;
  /** Bytes examined (the size when opened). */
  bytes: number;
  /** Lines in the file (terminated ones plus an unterminated tail). */
  lines: number;
  /** Records that verified, in order, before any break. */
  verifiedRecords: number;
  firstSeq: number | null;
  lastSeq: number | null;
  lastHash: string | null;
  generation: number | null;
  checkpoints: number;
  /** Lines whose bytes are not the canonical form but whose canonical hash verifies. */
  nonCanonicalLines: number;
  break: ChainBreak | null;
  tail: IncompleteTail | null;
  osError: { code: string; message: string } | null;
  uncertainty: UncertaintyRecord[];
  /** Phase and session of the last verified record (the repair tool needs them). */
  lastPhase: string | null;
  lastSessionId: string | null;
}

/** What a chain report and a file's integrity say before any line was read (a fresh `uncertainty` list each time). */
export function nothingReadYet() {
  return {
    lines: 0,
    firstSeq: null,
    lastSeq: null,
    lastHash: null,
    generation: null,
    checkpoints: 0,
    nonCanonicalLines: 0,
    break: null,
    tail: null,
    osError: null,
    uncertainty: [] as UncertaintyRecord[],
  };
}

export function emptyReport(kind: ChainFileKind, path: string): ChainFileReport {
  return { kind, path, state: 'ok', bytes: 0, verifiedRecords: 0, ...nothingReadYet(), lastPhase: null, lastSessionId: null };
}

/** Remembers the context the integrity report needs from each verified record. */
export function collect(record: Record<string, unknown>, report: ChainFileReport): void {
  if (record.type === 'checkpoint') {
    // A checkpoint carries forward the uncertainty that is still live.
    const live = record.live as { uncertainty?: unknown } | undefined;
    report.uncertainty = Array.isArray(live?.uncertainty) ? live.uncertainty.map((u) => toUncertainty(u, record.seq as number)) : [];
  } else if (record.type === 'uncertainty') {
    report.uncertainty.push(toUncertainty(record, record.seq as number));
  } else if (record.type === 'repair') {
    const evaluation = record.re_evaluation as { scope_complete?: unknown } | null | undefined;
    if (evaluation && evaluation.scope_complete === true && typeof record.repair_id === 'string') {
      report.uncertainty = report.uncertainty.filter((u) => u.repairId !== record.repair_id);
    }
  }
}

function toUncertainty(value: unknown, seq: number): UncertaintyRecord {
  const u = (value ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    seq: typeof u.seq === 'number' ? u.seq : seq,
    kind: text(u.kind) ?? 'unknown',
    detail: text(u.detail),
    phase: text(u.phase),
    sessionId: text(u.session_id),
    repairId: text(u.repair_id),
  };
}
