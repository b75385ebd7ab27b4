import { ChainChecker, type ChainBreak, type RecordLocation } from './chain-check';
import { collect, type ChainFileReport } from './chain-report';
import { readEnvelopeBytes, verifiedOwnHash } from './envelope-bytes';
import { FAST_TYPES, FastEnvelope, LineHasher, rawHashMatches } from './fast-envelope';
import { HASHED, hashLines, LINKED, META_FIELDS, type HashedLines } from './receipt-hash-lines';

/**
 * Checks the lines of one chained file in order, counting them (every line, also after a
 * break). Ordinary records take the fast path: a block's envelopes, own hashes and links inside
 * the block are read by `hashLines` (receipt-hash-lines.ts, in a worker or in this thread), and
 * `hashed` checks the chain in order; a line joined across chunks goes through `line`, with the
 * same byte-level reader. Anything unusual is parsed and checked exactly by `ChainChecker`.
 */

export type OnRecord = (record: Record<string, unknown>, at: RecordLocation) => void;

const NEWLINE = 0x0a;
/** Buffer's own latin1 decoder (what `toString('latin1', …)` calls after checking its arguments). */
type LatinSlicer = Buffer & { latin1Slice(start: number, end: number): string };

export function parseLine(text: string): { value: Record<string, unknown> } | { error: 'invalid_json' | 'not_object'; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: 'invalid_json', message: (error as Error).message };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'not_object', message: 'line is not a JSON object' };
  return { value: value as Record<string, unknown> };
}

function lineBreak(at: RecordLocation, defect: ChainBreak['defect'], expected: string, found: string, message: string): ChainBreak {
  return { ...at, seq: null, defect, field: null, expected, found, message };
}

export class LineVerifier {
  readonly checker: ChainChecker;
  private readonly hasher = new LineHasher();
  private readonly withGen: boolean;
  private readonly envelope = new FastEnvelope();
  /** Per index in FAST_TYPES: may a record of it continue this file's chain on the fast path? */
  private readonly fastTypes: boolean[];
  broken: ChainBreak | null = null;
  lastGoodOffset = -1;
  lastGoodLength = 0;
  /** Lines seen so far; the next line's number is `lines + 1`. */
  lines = 0;

  constructor(
    private readonly report: ChainFileReport,
    private readonly onRecord: OnRecord | undefined,
  ) {
    this.checker = new ChainChecker(report.kind);
    this.withGen = report.kind === 'journal';
    this.fastTypes = FAST_TYPES.map((type) => this.checker.fastType(type));
  }

  /** Every line of `buf[start, end)`, which ends with `\n`; the block starts at file offset `fileOffset`. */
  block(buf: Buffer, start: number, end: number, fileOffset: number): void {
    if (!this.onRecord) {
      // The same byte-level batch a worker runs, in this thread.
      const block = buf.subarray(start, end);
      this.hashed(block, hashLines(block, this.withGen), fileOffset);
      return;
    }
    const base = fileOffset - start;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1 && nl < end; nl = buf.indexOf(NEWLINE, start)) {
      this.line(buf, start, nl, base + start);
      start = nl + 1;
    }
  }

  /** Checks the line `buf[start, end)` (no `\n`) found at file offset `fileOffset`. */
  line(buf: Buffer, start: number, end: number, fileOffset: number): void {
    const lineNo = ++this.lines;
    if (this.broken) return;
    const envelope = this.envelope;
    let hash: string | null = null;
    if (
      !this.onRecord &&
      readEnvelopeBytes(buf, start, end, this.withGen, envelope) &&
      this.checker.continuesFastAt(envelope.seq, buf, envelope.prevAt, envelope.gen, envelope.type) &&
      (hash = verifiedOwnHash(buf, start, end, envelope)) !== null
    ) {
      this.checker.commitFast(envelope.seq, hash, envelope.gen);
      this.good(fileOffset, end - start);
      return;
    }
    this.exactAt(buf, start, end, lineNo, fileOffset);
  }

  /**
   * The lines of `block` (starting at file offset `fileOffset`), whose envelopes and own hashes
   * `hashLines` has read and checked (`hashed`): what is left is the chain, in order. A line the
   * batch found LINKED to the line before, once that line continued the chain, continues it too
   * if its type may (seq, gen and prev were compared there), so a run of them is committed at
   * once; the first line of a run is compared with the chain so far here.
   */
  hashed(block: Buffer, hashed: HashedLines, fileOffset: number): void {
    const { meta, count } = hashed;
    const fast = this.fastTypes;
    let run = 0; // lines that continued the chain, not yet committed; the last one's meta is at `last`
    let last = 0;
    for (let i = 0; i < count; i++) {
      const lineNo = ++this.lines;
      if (this.broken) continue;
      const m = i * META_FIELDS;
      if (meta[m] === HASHED) {
        if (run > 0 && meta[m + 8] === LINKED && fast[meta[m + 3]!]) {
          run++;
          last = m;
          continue;
        }
        if (run > 0) this.commitRun(block, meta, last, run, fileOffset);
        run = 0;
        if (this.checker.continuesFastAt(meta[m + 1]!, block, meta[m + 6]!, this.withGen ? meta[m + 2]! : null, FAST_TYPES[meta[m + 3]!]!)) {
          run = 1;
          last = m;
          continue;
        }
      } else if (run > 0) {
        this.commitRun(block, meta, last, run, fileOffset);
        run = 0;
      }
      this.exactAt(block, meta[m + 4]!, meta[m + 5]!, lineNo, fileOffset + meta[m + 4]!);
    }
    if (run > 0) this.commitRun(block, meta, last, run, fileOffset);
  }

  private commitRun(block: Buffer, meta: Float64Array, last: number, run: number, fileOffset: number): void {
    const hashAt = meta[last + 7]!;
    this.checker.commitFast(meta[last + 1]!, (block as LatinSlicer).latin1Slice(hashAt, hashAt + 64), this.withGen ? meta[last + 2]! : null, run);
    this.good(fileOffset + meta[last + 4]!, meta[last + 5]! - meta[last + 4]!);
  }

  /** A line longer than the longest record accepted, starting at `fileOffset` (it is counted when its end is seen). */
  tooLong(fileOffset: number, length: number, maxLine: number): void {
    if (this.broken) return;
    this.broken = lineBreak({ line: this.lines + 1, byteOffset: fileOffset, byteLength: length }, 'line_too_long', `at most ${maxLine} bytes`, `${length}+ bytes`, 'line exceeds the maximum record size');
  }

  private good(fileOffset: number, length: number): void {
    this.lastGoodOffset = fileOffset;
    this.lastGoodLength = length;
  }

  private exactAt(buf: Buffer, start: number, end: number, lineNo: number, fileOffset: number): void {
    this.broken = this.exact(buf, start, end, { line: lineNo, byteOffset: fileOffset, byteLength: end - start });
    if (!this.broken) this.good(fileOffset, end - start);
  }

  private exact(buf: Buffer, start: number, end: number, at: RecordLocation): ChainBreak | null {
    if (end === start) return lineBreak(at, 'empty_line', 'a record', 'an empty line', 'empty line inside the chain');
    const parsed = parseLine(buf.toString('utf8', start, end));
    if ('error' in parsed) {
      const found = buf.toString('utf8', start, Math.min(end, start + 80));
      return lineBreak(at, parsed.error, 'a canonical JSON object', found, `line is not a JSON record (${parsed.message})`);
    }
    const record = parsed.value;
    const stored = record.hash;
    const rawOk = typeof stored === 'string' && stored.length === 64 && rawHashMatches(buf, start, end, stored, this.hasher);
    const problem = this.checker.check(record, at, rawOk);
    if (problem) return problem;
    collect(record, this.report);
    this.onRecord?.(record, at);
    return null;
  }
}
