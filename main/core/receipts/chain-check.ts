import { canonicalJson, GENESIS_PREV, sha256Hex } from '../rules/canonical-json';
import { RECEIPT_SCHEMA, RECORD_TYPES_BY_FILE, type ChainFileKind } from '../rules/receipt-format';
import { bytesSpell } from './envelope-bytes';

/**
 * The per-record rules of a V2 hash chain (journal, archive, quarantine): schema, envelope,
 * record hash, sequence contiguity, `prev` linkage and checkpoint generations. It never looks
 * at bytes or files; `verify-file.ts` feeds it parsed records with their location.
 */

export type DefectCode =
  | 'invalid_json'
  | 'not_object'
  | 'empty_line'
  | 'line_too_long'
  | 'missing_field'
  | 'hash_mismatch'
  | 'sequence_break'
  | 'prev_mismatch'
  | 'genesis_mismatch'
  | 'generation_mismatch'
  | 'checkpoint_mismatch'
  | 'state_hash_mismatch'
  | 'unknown_record_type'
  | 'unsupported_schema';

export interface ChainBreak {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the start of the line. */
  byteOffset: number;
  /** Bytes of the line without its `\n`. */
  byteLength: number;
  /** The record's `seq` when it could be read. */
  seq: number | null;
  defect: DefectCode;
  /** Which field disagrees (`hash`, `seq`, `prev`, `gen`, `type`, `schema`…), when one does. */
  field: string | null;
  expected: string;
  found: string;
  message: string;
}

export type RecordLocation = Pick<ChainBreak, 'line' | 'byteOffset' | 'byteLength'>;

const HEX64 = /^[0-9a-f]{64}$/;

function describe(value: unknown): string {
  if (value === undefined) return '(missing)';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export class ChainChecker {
  private lastSeq: number | null = null;
  private lastHash: string | null = null;
  private gen: number | null = null;
  /** Where the file's chain started (seq of its first record, checkpoint or genesis). */
  firstSeq: number | null = null;
  records = 0;
  checkpoints = 0;
  nonCanonicalLines = 0;
  firstNonCanonicalLine: number | null = null;
  private readonly knownTypes: ReadonlySet<string>;
  private readonly withGen: boolean;

  constructor(readonly kind: ChainFileKind) {
    this.knownTypes = new Set(RECORD_TYPES_BY_FILE[kind]);
    this.withGen = kind === 'journal';
  }

  get last(): { seq: number | null; hash: string | null; gen: number | null } {
    return { seq: this.lastSeq, hash: this.lastHash, gen: this.gen };
  }

  /**
   * Checks one parsed record. `rawHashMatches` says whether SHA-256 over the line's own bytes
   * (minus the hash member) already equals `hash` — the common case, because every line is
   * written as canonical JSON; only when it does not is the canonical form recomputed.
   */
  check(record: Record<string, unknown>, at: RecordLocation, rawHashMatches: boolean): ChainBreak | null {
    const seqValue = Number.isInteger(record.seq) ? (record.seq as number) : null;
    const fail = (defect: DefectCode, field: string | null, expected: string, found: string, message: string): ChainBreak => ({
      ...at,
      seq: seqValue,
      defect,
      field,
      expected,
      found,
      message,
    });

    if (typeof record.schema !== 'string') return fail('missing_field', 'schema', RECEIPT_SCHEMA, describe(record.schema), 'record has no schema');
    if (record.schema !== RECEIPT_SCHEMA) {
      return fail('unsupported_schema', 'schema', RECEIPT_SCHEMA, record.schema, `record uses schema ${describe(record.schema)}, which this console does not know`);
    }
    if (seqValue === null || seqValue < 1) return fail('missing_field', 'seq', 'an integer ≥ 1', describe(record.seq), 'record has no valid seq');
    if (typeof record.prev !== 'string' || !HEX64.test(record.prev)) return fail('missing_field', 'prev', '64 lowercase hex', describe(record.prev), 'record has no valid prev');
    if (typeof record.hash !== 'string' || !HEX64.test(record.hash)) return fail('missing_field', 'hash', '64 lowercase hex', describe(record.hash), 'record has no valid hash');
    if (typeof record.type !== 'string') return fail('missing_field', 'type', 'a record type', describe(record.type), 'record has no type');
    const gen = record.gen;
    if (this.withGen && (!Number.isInteger(gen) || (gen as number) < 1)) return fail('missing_field', 'gen', 'an integer ≥ 1', describe(gen), 'record has no valid gen');

    if (!rawHashMatches) {
      const { hash: stored, ...rest } = record;
      const expected = sha256Hex(canonicalJson(rest));
      if (expected !== stored) {
        return fail('hash_mismatch', 'hash', expected, stored as string, 'record hash does not match SHA-256 of its canonical JSON (the record was altered)');
      }
      this.nonCanonicalLines++;
      this.firstNonCanonicalLine ??= at.line;
    }

    if (!this.knownTypes.has(record.type)) {
      return fail('unknown_record_type', 'type', [...this.knownTypes].join('|'), record.type, `unknown record type ${describe(record.type)}`);
    }

    const isCheckpoint = this.withGen && record.type === 'checkpoint';
    if (isCheckpoint) {
      const broken = this.checkCheckpoint(record, fail);
      if (broken) return broken;
    } else if (this.lastSeq === null) {
      if (seqValue !== 1) return fail('sequence_break', 'seq', '1', String(seqValue), 'first record of a fresh file must have seq 1 (or be a checkpoint)');
      if (record.prev !== GENESIS_PREV) return fail('genesis_mismatch', 'prev', GENESIS_PREV, record.prev, 'first record of a fresh file must carry the genesis prev (64 zeros)');
      if (this.withGen && gen !== 1) return fail('generation_mismatch', 'gen', '1', describe(gen), 'a fresh journal starts at generation 1');
    } else {
      if (seqValue !== this.lastSeq + 1) {
        const why = seqValue <= this.lastSeq ? 'repeats or goes back (a duplicated or reordered record)' : 'skips ahead (a record is missing)';
        return fail('sequence_break', 'seq', String(this.lastSeq + 1), String(seqValue), `sequence ${why}`);
      }
      if (record.prev !== this.lastHash) return fail('prev_mismatch', 'prev', this.lastHash as string, record.prev, "prev does not equal the previous record's hash");
      if (this.withGen && gen !== this.gen) return fail('generation_mismatch', 'gen', String(this.gen), describe(gen), 'generation changes without a checkpoint');
    }

    this.records++;
    this.firstSeq ??= seqValue;
    this.lastSeq = seqValue;
    this.lastHash = record.hash;
    if (this.withGen) this.gen = gen as number;
    return null;
  }

  /**
   * The fast path for an ordinary record: does its envelope continue the chain exactly? `prev`
   * is compared in place, as the 64 bytes at `prevAt` in `buf`. Changes nothing; after the
   * caller has also confirmed the record hash, `commitFast` records it. Anything else goes to
   * `check()` with the parsed record, for an exact report.
   */
  continuesFastAt(seq: number, buf: Uint8Array, prevAt: number, gen: number | null, type: string): boolean {
    if (!this.knownTypes.has(type) || type === 'checkpoint') return false;
    if (this.withGen && (gen === null || gen < 1)) return false;
    if (this.lastSeq === null) return seq === 1 && bytesSpell(buf, prevAt, GENESIS_PREV) && (!this.withGen || gen === 1);
    return seq === this.lastSeq + 1 && bytesSpell(buf, prevAt, this.lastHash as string) && (!this.withGen || gen === this.gen);
  }

  /** Whether a record of this type can continue the chain on the fast path at all. */
  fastType(type: string): boolean {
    return this.knownTypes.has(type) && type !== 'checkpoint';
  }

  /** `commitFast` for `count` records in a row that each continued the one before; the last is given. */
  commitFast(seq: number, hash: string, gen: number | null, count = 1): void {
    this.records += count;
    this.firstSeq ??= seq - count + 1;
    this.lastSeq = seq;
    this.lastHash = hash;
    if (this.withGen) this.gen = gen;
  }

  private checkCheckpoint(
    record: Record<string, unknown>,
    fail: (defect: DefectCode, field: string | null, expected: string, found: string, message: string) => ChainBreak,
  ): ChainBreak | null {
    const { prior_gen: priorGen, prior_last_seq: priorSeq, prior_last_hash: priorHash, gen, seq, prev } = record;
    if (!Number.isInteger(priorGen) || !Number.isInteger(priorSeq) || typeof priorHash !== 'string') {
      return fail('missing_field', 'prior_gen', 'prior_gen, prior_last_seq and prior_last_hash', describe({ priorGen, priorSeq, priorHash }), 'checkpoint lacks its prior-generation fields');
    }
    if (gen !== (priorGen as number) + 1) return fail('generation_mismatch', 'gen', String((priorGen as number) + 1), describe(gen), 'checkpoint gen must be prior_gen + 1');
    if (seq !== (priorSeq as number) + 1) return fail('checkpoint_mismatch', 'seq', String((priorSeq as number) + 1), describe(seq), 'checkpoint seq must follow prior_last_seq');
    if (prev !== priorHash) return fail('checkpoint_mismatch', 'prev', priorHash, describe(prev), 'checkpoint prev must equal prior_last_hash');
    if (this.lastSeq !== null) {
      // A checkpoint inside a file must continue the generation before it.
      if (priorGen !== this.gen) return fail('generation_mismatch', 'prior_gen', String(this.gen), describe(priorGen), 'checkpoint prior_gen is not the current generation');
      if (priorSeq !== this.lastSeq) return fail('sequence_break', 'seq', String(this.lastSeq + 1), describe(seq), 'checkpoint does not follow the previous record');
      if (priorHash !== this.lastHash) return fail('prev_mismatch', 'prev', this.lastHash as string, priorHash, "checkpoint prev does not equal the previous record's hash");
    }
    if (typeof record.state_sha256 === 'string' && record.live !== undefined) {
      const stateHash = sha256Hex(canonicalJson(record.live));
      if (stateHash !== record.state_sha256) {
        return fail('state_hash_mismatch', 'state_sha256', stateHash, record.state_sha256, 'checkpoint state_sha256 does not match its live state');
      }
    }
    this.checkpoints++;
    return null;
  }
}
