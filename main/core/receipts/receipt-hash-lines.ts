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

const NEWLINE = 0x0a;
/** Buffer's own latin1 codecs (what `toString`/`write` call after checking their arguments). */
type LatinSlicer = Buffer & { latin1Slice(start: number, end: number): string; latin1Write(text: string, offset: number, length: number): number };

/** Hashes every line of `block`, which holds whole lines, each ended by `\n`. The bytes are left as they were. */
export function hashLines(block: Uint8Array, withGen: boolean): HashedLines {
  const buf = Buffer.from(block.buffer, block.byteOffset, block.length) as LatinSlicer;
  const envelope = new FastEnvelope();
  const hasher = new LineHasher();
  let meta = new Float64Array((Math.ceil(buf.length / 256) + 8) * META_FIELDS);
  // Written in place (a string per line, concatenated and joined, would cost more than the hash).
  let hex = Buffer.alloc((Math.ceil(buf.length / 256) + 8) * HEX_PER_LINE, 0x20) as LatinSlicer;
  let count = 0;
  for (let start = 0, end = buf.indexOf(NEWLINE); end !== -1; start = end + 1, end = buf.indexOf(NEWLINE, start), count++) {
    const m = count * META_FIELDS;
    if (m + META_FIELDS > meta.length) {
      const grown = new Float64Array(meta.length * 2);
      grown.set(meta);
      meta = grown;
      const wider = Buffer.alloc(hex.length * 2, 0x20) as LatinSlicer;
      wider.set(hex);
      hex = wider;
    }
    meta[m + 4] = start;
    meta[m + 5] = end;
    if (end === start) continue;
    // One short string per line, as the single-threaded path reads it: V8 searches a short string
    // faster than the same bytes inside a 4 MiB one.
    const text = buf.latin1Slice(start, end);
    if (!readEnvelope(text, 0, text.length, withGen, envelope)) continue;
    const cut = start + envelope.cutStart;
    const digest = hasher.hashCutInPlace(buf, start, end, cut);
    // Put the member back (the reading thread may still need the exact bytes of any line).
    buf.copyWithin(cut + HASH_MEMBER_BYTES, cut, end - HASH_MEMBER_BYTES);
    for (let k = 0; k < HASH_MEMBER_BYTES; k++) buf[cut + k] = text.charCodeAt(envelope.cutStart + k);
    if (text.startsWith(digest, envelope.hashAt)) {
      meta[m] = HASHED;
      meta[m + 1] = envelope.seq;
      meta[m + 2] = envelope.gen ?? 0;
      meta[m + 3] = envelope.typeIndex;
      hex.latin1Write(text.slice(envelope.prevAt, envelope.prevAt + 64), count * HEX_PER_LINE, 64);
      hex.latin1Write(digest, count * HEX_PER_LINE + 64, 64);
    }
  }
  return { count, meta: meta.subarray(0, count * META_FIELDS), hex: hex.latin1Slice(0, count * HEX_PER_LINE) };
}
