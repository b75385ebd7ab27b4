import fs from 'node:fs';
import { outsideMessage, outsideTarget, sameFile } from '../stores/containment';
import { emptyReport, type ChainFileReport } from './chain-report';
import { sharedHashPool, type HashedBlock, type HashPool } from './hash-pool';
import { LineVerifier, parseLine, type OnRecord } from './line-verifier';
import type { ChainFileKind } from '../rules/receipt-format';

/**
 * Verifies one chained V2 file (journal, archive or quarantine) read-only and streaming: the
 * file is opened 'r', read in chunks up to the size it had when opened, and never written.
 * Lines are checked in order by `LineVerifier` (line-verifier.ts). With a hash pool, blocks of
 * whole lines go to worker threads, which read each line's envelope, check its own hash and its
 * link to the line before it in the block, while this thread reads ahead and checks the chain in
 * order: same report, every core.
 */

export interface VerifyOptions {
  /** Called with each verified record, in order (the model builders use it). */
  onRecord?: OnRecord;
  chunkBytes?: number;
  /** Longest line accepted (checkpoints can be large); longer is reported as corrupt. */
  maxLineBytes?: number;
  /** Read only if the file resolves inside one of these folders (stores/containment.ts). */
  confineTo?: readonly string[];
  /**
   * Where record hashes are checked: a pool (worker threads, or in-thread batches when it has no
   * worker), null for line by line in this thread, or absent for the process's pool when the
   * file is large enough to gain from it (never with `onRecord`, which parses every record here).
   */
  hashPool?: HashPool | null;
}

/** The OS-error code a file refused by containment is reported with. */
export const OUTSIDE_WORKSPACE = 'OUTSIDE_WORKSPACE';

const NEWLINE = 0x0a;
const DEFAULT_CHUNK = 4 * 1024 * 1024;
const DEFAULT_MAX_LINE = 256 * 1024 * 1024;
/** Below this, starting workers and moving blocks costs more than hashing in-thread. */
const POOL_MIN_BYTES = 16 * 1024 * 1024;

function osErrorOf(error: unknown): { code: string; message: string } {
  const e = error as NodeJS.ErrnoException;
  return { code: e.code ?? 'EIO', message: e.message ?? String(error) };
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
    const pool = options.onRecord ? null : options.hashPool !== undefined ? options.hashPool : stat.size >= POOL_MIN_BYTES ? sharedHashPool() : null;
    await scan(handle, stat.size, report, options, pool);
  } catch (error) {
    report.state = 'unreadable';
    report.osError = osErrorOf(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return report;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * File chunks in order. Reads are synchronous (a page-cache read of one chunk takes about a
 * millisecond, and a thread-pool hop per chunk costs more than that on a busy machine); the
 * event loop gets a turn between chunks so a long verification never starves other work.
 * With `spare` (chunks move to worker threads), each chunk has memory of its own, taken from
 * the blocks already checked when there is one: new memory costs a page fault per 4 KiB on its
 * first read, and dropped chunks keep the collector busy; otherwise one buffer is reused.
 */
async function* readChunks(handle: fs.promises.FileHandle, size: number, chunkBytes: number, spare: ArrayBuffer[] | null): AsyncGenerator<Buffer> {
  const length = chunkBytes;
  let buffer = Buffer.allocUnsafeSlow(length);
  let position = 0;
  while (position < size) {
    if (spare && position > 0) {
      const reused = spare.pop();
      buffer = reused ? Buffer.from(reused, 0, length) : Buffer.allocUnsafeSlow(length);
    }
    const bytesRead = fs.readSync(handle.fd, buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) return; // truncated under us: verify what we have
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
    await yieldToEventLoop();
  }
}

/** What the scan found, in file order: whole-line blocks, a line joined across chunks, a line too long. */
type Piece =
  | { kind: 'block'; buf: Buffer; start: number; end: number; fileOffset: number; hashed: Promise<HashedBlock> | null }
  | { kind: 'joined'; buf: Buffer; fileOffset: number }
  | { kind: 'too_long'; fileOffset: number; length: number };

/**
 * Hands pieces to the verifier in file order. Without a pool each is checked at once; with one,
 * blocks are hashed ahead (up to two per worker in flight) and checked when their turn comes.
 */
class InOrder {
  private readonly queue: Piece[] = [];
  private readonly ahead: number;
  /** Chunk memory back from the workers and checked: `readChunks` reads into it again. */
  readonly spare: ArrayBuffer[] = [];

  constructor(
    private readonly verifier: LineVerifier,
    private readonly pool: HashPool | null,
    private readonly withGen: boolean,
    private readonly maxLine: number,
    private readonly handle: fs.promises.FileHandle,
    private readonly chunkBytes: number,
  ) {
    this.ahead = pool ? 2 * pool.size : 0;
  }

  async add(piece: Piece): Promise<void> {
    if (!this.pool) return this.check(piece);
    if (piece.kind === 'block' && !this.verifier.broken) {
      // The block owns its chunk's memory only up to its end; the carry after it was copied already.
      piece.hashed = this.pool.hash(piece.buf.subarray(piece.start, piece.end), this.withGen, true);
      piece.hashed.catch(() => undefined); // awaited in turn; an early failure must not go unhandled meanwhile
    }
    this.queue.push(piece);
    while (this.queue.length > this.ahead) await this.check(this.queue.shift()!);
  }

  async drain(): Promise<void> {
    while (this.queue.length > 0) await this.check(this.queue.shift()!);
  }

  private async check(piece: Piece): Promise<void> {
    const verifier = this.verifier;
    if (piece.kind === 'joined') verifier.line(piece.buf, 0, piece.buf.length, piece.fileOffset);
    else if (piece.kind === 'too_long') verifier.tooLong(piece.fileOffset, piece.length, this.maxLine);
    else if (!piece.hashed) verifier.block(piece.buf, piece.start, piece.end, piece.fileOffset);
    else {
      let hashed: HashedBlock | null = null;
      try {
        hashed = await piece.hashed;
      } catch {
        // A worker that failed took the block's memory with it: read those bytes again, check in-thread.
      }
      if (hashed) {
        verifier.hashed(hashed.block, hashed.result, piece.fileOffset);
        // Nothing kept refers to these bytes (a report copies what it quotes).
        if (hashed.block.buffer.byteLength === this.chunkBytes) this.spare.push(hashed.block.buffer as ArrayBuffer);
      } else {
        const again = Buffer.allocUnsafe(piece.end - piece.start);
        fs.readSync(this.handle.fd, again, 0, again.length, piece.fileOffset);
        verifier.block(again, 0, again.length, piece.fileOffset);
      }
    }
  }
}

async function scan(handle: fs.promises.FileHandle, size: number, report: ChainFileReport, options: VerifyOptions, pool: HashPool | null): Promise<void> {
  const verifier = new LineVerifier(report, options.onRecord);
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  const chunkBytes = Math.min(Math.max(size, 1), options.chunkBytes ?? DEFAULT_CHUNK);
  const pieces = new InOrder(verifier, pool, report.kind === 'journal', maxLine, handle, chunkBytes);
  let carry: Buffer | null = null; // the start of a line that continues in the next chunk
  let carryOffset = 0;
  let tooLong = false; // the carry outgrew maxLine: reported once, then only counted
  let fileOffset = 0; // file offset of the chunk being scanned

  for await (const chunk of readChunks(handle, size, chunkBytes, pool !== null ? pieces.spare : null)) {
    const chunkLength = chunk.length; // a chunk given to a worker reads as empty here afterwards
    let start = 0;
    const nl = chunk.indexOf(NEWLINE, 0);
    if (carry !== null && nl !== -1) {
      await pieces.add({ kind: 'joined', buf: Buffer.concat([carry, chunk.subarray(0, nl)]), fileOffset: carryOffset });
      carry = null;
      tooLong = false;
      start = nl + 1;
    }
    const lastNl = nl === -1 ? -1 : chunk.lastIndexOf(NEWLINE);
    const blockEnd = lastNl + 1 > start ? lastNl + 1 : start;
    if (blockEnd < chunkLength) {
      // Copied before the block's memory may move to a worker.
      if (carry === null) {
        carry = Buffer.from(chunk.subarray(blockEnd));
        carryOffset = fileOffset + blockEnd;
      } else carry = Buffer.concat([carry, chunk]);
    }
    if (blockEnd > start) await pieces.add({ kind: 'block', buf: chunk, start, end: blockEnd, fileOffset: fileOffset + start, hashed: null });
    if (carry !== null && carry.length > maxLine) {
      if (!tooLong) await pieces.add({ kind: 'too_long', fileOffset: carryOffset, length: carry.length });
      tooLong = true;
      carry = carry.subarray(0, 0); // keep counting, stop holding
    }
    fileOffset += chunkLength;
  }
  await pieces.drain();
  report.bytes = fileOffset;
  report.lines = verifier.lines;

  if (carry !== null && fileOffset > carryOffset) {
    report.lines++;
    const length = fileOffset - carryOffset;
    const parsed = carry.length === length ? parseLine(carry.toString('utf8')) : null;
    report.tail = { line: verifier.lines + 1, byteOffset: carryOffset, byteLength: length, parses: parsed !== null && 'value' in parsed };
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
