import { FastEnvelope, HASH_MEMBER_BYTES, LineHasher, readEnvelope } from './fast-envelope';

/**
 * The part of chain verification that needs no earlier line: for each line of a block, read its
 * envelope (fast-envelope.ts) and check its own record hash. It runs in a worker thread
 * (receipt-hash-worker.ts) or in-thread, on whole batches, while the thread that reads the file
 * checks the links between records in order (line-verifier.ts). It never decides a line is
 * bad: a line it cannot confirm is marked for the exact path, exactly as the single-threaded
 * verifier sends it there.
 */

/** Numbers per line in `HashedLines.meta`. */
export const META_FIELDS = 6;
/** Chars per line in `HashedLines.hex`: the `prev` value, then the record's own hash. */
export const HEX_PER_LINE = 128;
/** `status` of a line whose envelope was read and whose stored hash equals SHA-256 of its bytes without it. */
export const HASHED = 1;

export interface HashedLines {
  /** Lines in the block (each ended by `\n`). */
  count: number;
  /**
   * Per line: status (HASHED or 0 = take the exact path), seq, gen (0 when the file has none),
   * index in FAST_TYPES, and the line's start and end (without `\n`) relative to the block.
   */
  meta: Float64Array;
  /** Per line HEX_PER_LINE latin1 chars (blank for lines not HASHED). */
  hex: string;
}

const BLANK = ' '.repeat(HEX_PER_LINE);
const NEWLINE = 0x0a;
type LatinSlicer = Buffer & { latin1Slice(start: number, end: number): string };

/** Hashes every line of `block`, which holds whole lines, each ended by `\n`. The bytes are left as they were. */
export function hashLines(block: Uint8Array, withGen: boolean): HashedLines {
  const buf = Buffer.from(block.buffer, block.byteOffset, block.length);
  // One latin1 decode of the whole block: string indices are byte offsets.
  const text = (buf as LatinSlicer).latin1Slice(0, buf.length);
  const envelope = new FastEnvelope();
  const hasher = new LineHasher();
  let count = 0;
  for (let at = buf.indexOf(NEWLINE); at !== -1; at = buf.indexOf(NEWLINE, at + 1)) count++;
  const meta = new Float64Array(count * META_FIELDS);
  const hex: string[] = new Array<string>(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = text.indexOf('\n', start);
    const m = i * META_FIELDS;
    meta[m + 4] = start;
    meta[m + 5] = end;
    hex[i] = BLANK;
    if (end > start && readEnvelope(text, start, end, withGen, envelope)) {
      const digest = hasher.hashWithout(buf, start, end, envelope.cutStart, envelope.cutStart + HASH_MEMBER_BYTES);
      if (text.startsWith(digest, envelope.hashAt)) {
        meta[m] = HASHED;
        meta[m + 1] = envelope.seq;
        meta[m + 2] = envelope.gen ?? 0;
        meta[m + 3] = envelope.typeIndex;
        hex[i] = text.slice(envelope.prevAt, envelope.prevAt + 64) + digest;
      }
    }
    start = end + 1;
  }
  return { count, meta, hex: hex.join('') };
}
