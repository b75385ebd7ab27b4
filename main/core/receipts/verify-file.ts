import fs from 'node:fs';
import { outsideMessage, outsideTarget, sameFile } from '../stores/containment';
import { ChainChecker, type ChainBreak, type RecordLocation } from './chain-check';
import { FastEnvelope, HASH_MEMBER_BYTES, LineHasher, rawHashMatches, readEnvelope } from './fast-envelope';
import type { ChainFileKind } from '../rules/receipt-format';

/**
 * Verifies one chained V2 file (journal, archive or quarantine) read-only and streaming: the
 * file is opened 'r', read in chunks up to the size it had when opened, and never written.
 * Reads overlap with checking (two buffers), and ordinary records take the fast path of
 * `fast-envelope.ts`; anything unusual is parsed and checked exactly by `ChainChecker`.
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

export interface VerifyOptions {
  /** Called with each verified record, in order (the model builders use it). */
  onRecord?: (record: Record<string, unknown>, at: RecordLocation) => void;
  chunkBytes?: number;
  /** Longest line accepted (checkpoints can be large); longer is reported as corrupt. */
  maxLineBytes?: number;
  /** Read only if the file resolves inside one of these folders (stores/containment.ts). */
  confineTo?: readonly string[];
}

/** The OS-error code a file refused by containment is reported with. */
export const OUTSIDE_WORKSPACE = 'OUTSIDE_WORKSPACE';

const NEWLINE = 0x0a;
/** Buffer's own latin1 decoder (what `toString('latin1', …)` calls after checking its arguments). */
type LatinSlicer = Buffer & { latin1Slice(start: number, end: number): string };
const DEFAULT_CHUNK = 4 * 1024 * 1024;
const DEFAULT_MAX_LINE = 256 * 1024 * 1024;

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

function emptyReport(kind: ChainFileKind, path: string): ChainFileReport {
  return { kind, path, state: 'ok', bytes: 0, verifiedRecords: 0, ...nothingReadYet(), lastPhase: null, lastSessionId: null };
}

function osErrorOf(error: unknown): { code: string; message: string } {
  const e = error as NodeJS.ErrnoException;
  return { code: e.code ?? 'EIO', message: e.message ?? String(error) };
}

function parseLine(text: string): { value: Record<string, unknown> } | { error: 'invalid_json' | 'not_object'; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: 'invalid_json', message: (error as Error).message };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'not_object', message: 'line is not a JSON object' };
  return { value: value as Record<string, unknown> };
}

export async function verifyChainFile(kind: ChainFileKind, path: string, options: VerifyOptions = {}): Promise<ChainFileReport> {
  const report = emptyReport(kind, path);
  const outside = options.confineTo ? outsideTarget(path, options.confineTo) : null;
  if (outside !== null) return { ...report, state: 'unreadable', osError: { code: OUTSIDE_WORKSPACE, message: outsideMessage(path, outside) } };
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...report, state: 'absent' };
    return { ...report, state: 'unreadable', osError: osErrorOf(error) };
  }
  try {
    const stat = await handle.stat();
    if (options.confineTo && !sameFile(stat, path)) {
      return { ...report, state: 'unreadable', osError: { code: OUTSIDE_WORKSPACE, message: `${path} changed while it was being opened; not read` } };
    }
    if (!stat.isFile()) {
      return { ...report, state: 'unreadable', osError: { code: 'EISDIR', message: `${path} is not a regular file` } };
    }
    report.bytes = stat.size;
    await scan(handle, stat.size, report, options);
  } catch (error) {
    report.state = 'unreadable';
    report.osError = osErrorOf(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return report;
}

function lineBreak(at: RecordLocation, defect: ChainBreak['defect'], expected: string, found: string, message: string): ChainBreak {
  return { ...at, seq: null, defect, field: null, expected, found, message };
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * File chunks in order. Reads are synchronous (a page-cache read of one chunk takes about a
 * millisecond, and a thread-pool hop per chunk costs more than that on a busy machine); the
 * event loop gets a turn between chunks so a long verification never starves other work.
 */
async function* readChunks(handle: fs.promises.FileHandle, size: number, chunkBytes: number): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 1), chunkBytes));
  let position = 0;
  while (position < size) {
    const bytesRead = fs.readSync(handle.fd, buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) return; // truncated under us: verify what we have
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
    await yieldToEventLoop();
  }
}

class LineVerifier {
  readonly checker: ChainChecker;
  private readonly hasher = new LineHasher();
  private readonly withGen: boolean;
  private readonly envelope = new FastEnvelope();
  broken: ChainBreak | null = null;
  lastGoodOffset = -1;
  lastGoodLength = 0;

  constructor(
    private readonly report: ChainFileReport,
    private readonly onRecord: VerifyOptions['onRecord'],
  ) {
    this.checker = new ChainChecker(report.kind);
    this.withGen = report.kind === 'journal';
  }

  /** Checks the line `buf[start, end)` (no `\n`) found at file offset `fileOffset`. */
  line(buf: Buffer, start: number, end: number, lineNo: number, fileOffset: number): void {
    if (this.broken) return;
    const envelope = this.envelope;
    // latin1: one char per byte, so string indices are byte offsets within the line.
    const text = end > start && !this.onRecord ? (buf as LatinSlicer).latin1Slice(start, end) : '';
    if (text && readEnvelope(text, 0, text.length, this.withGen, envelope) && this.checker.continuesFast(envelope.seq, text, envelope.prevAt, envelope.gen, envelope.type)) {
      const cut = start + envelope.cutStart;
      const digest = this.hasher.hashCutInPlace(buf, start, end, cut);
      if (text.startsWith(digest, envelope.hashAt)) {
        this.checker.commitFast(envelope.seq, digest, envelope.gen);
        this.lastGoodOffset = fileOffset;
        this.lastGoodLength = end - start;
        return;
      }
      this.hasher.restore(buf, end, cut, text.slice(envelope.cutStart, envelope.cutStart + HASH_MEMBER_BYTES));
    }
    this.broken = this.exact(buf, start, end, { line: lineNo, byteOffset: fileOffset, byteLength: end - start });
    if (!this.broken) {
      this.lastGoodOffset = fileOffset;
      this.lastGoodLength = end - start;
    }
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

async function scan(handle: fs.promises.FileHandle, size: number, report: ChainFileReport, options: VerifyOptions): Promise<void> {
  const verifier = new LineVerifier(report, options.onRecord);
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  let carry: Buffer | null = null; // the start of a line that continues in the next chunk
  let carryOffset = 0;
  let fileOffset = 0; // file offset of the chunk being scanned
  let lineNo = 1;

  for await (const chunk of readChunks(handle, size, options.chunkBytes ?? DEFAULT_CHUNK)) {
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, 0);
    if (carry !== null && nl !== -1) {
      const joined = Buffer.concat([carry, chunk.subarray(0, nl)]);
      verifier.line(joined, 0, joined.length, lineNo, carryOffset);
      report.lines++;
      lineNo++;
      carry = null;
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    while (nl !== -1) {
      verifier.line(chunk, start, nl, lineNo, fileOffset + start);
      report.lines++;
      lineNo++;
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      if (carry === null) {
        carry = Buffer.from(chunk.subarray(start));
        carryOffset = fileOffset + start;
      } else carry = Buffer.concat([carry, chunk]);
      if (carry.length > maxLine && !verifier.broken) {
        verifier.broken = lineBreak(
          { line: lineNo, byteOffset: carryOffset, byteLength: carry.length },
          'line_too_long',
          `at most ${maxLine} bytes`,
          `${carry.length}+ bytes`,
          'line exceeds the maximum record size',
        );
      }
      if (verifier.broken && carry.length > maxLine) carry = carry.subarray(0, 0); // keep counting, stop holding
    }
    fileOffset += chunk.length;
  }
  report.bytes = fileOffset;

  if (carry !== null && fileOffset > carryOffset) {
    report.lines++;
    const length = fileOffset - carryOffset;
    const parsed = carry.length === length ? parseLine(carry.toString('utf8')) : null;
    report.tail = { line: lineNo, byteOffset: carryOffset, byteLength: length, parses: parsed !== null && 'value' in parsed };
  }

  const { checker, broken } = verifier;
  const last = checker.last;
  report.break = broken;
  report.verifiedRecords = checker.records;
  report.firstSeq = checker.firstSeq;
  report.lastSeq = last.seq;
  report.lastHash = last.hash;
  report.generation = last.gen;
  report.checkpoints = checker.checkpoints;
  report.nonCanonicalLines = checker.nonCanonicalLines;
  if (verifier.lastGoodOffset >= 0) await rememberLastContext(handle, { byteOffset: verifier.lastGoodOffset, byteLength: verifier.lastGoodLength }, report);
  if (broken) report.state = broken.defect === 'unsupported_schema' ? 'unsupported_schema' : 'corrupt';
  else if (report.tail) report.state = 'incomplete_tail';
  else if (report.uncertainty.some((u) => u.kind === 'legacy_unverifiable')) report.state = 'legacy_unverifiable';
  else report.state = 'ok';
}

/** Phase and session of the last verified record, read back only when a report needs them. */
async function rememberLastContext(handle: fs.promises.FileHandle, at: { byteOffset: number; byteLength: number }, report: ChainFileReport): Promise<void> {
  const bytes = Buffer.allocUnsafe(at.byteLength);
  await handle.read(bytes, 0, at.byteLength, at.byteOffset);
  const parsed = parseLine(bytes.toString('utf8'));
  if ('value' in parsed) {
    if (typeof parsed.value.phase === 'string') report.lastPhase = parsed.value.phase;
    if (typeof parsed.value.session_id === 'string') report.lastSessionId = parsed.value.session_id;
  }
}

/** Remembers the context the integrity report needs from each verified record. */
function collect(record: Record<string, unknown>, report: ChainFileReport): void {
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
