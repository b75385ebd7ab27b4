import { FastEnvelope } from './fast-envelope';
import { readEnvelopeBytes, verifiedOwnHash } from './envelope-bytes';

/**
 * The part of chain verification that needs no earlier block: for each line of a block, read its
 * envelope (envelope-bytes.ts), check its own record hash, and whether it links to the line
 * before it in the block. It runs in a worker thread (receipt-hash-worker.ts) or in-thread, on
 * whole batches, while the thread that reads the file checks the chain in order
 * (line-verifier.ts), where a linked line costs it almost nothing. It never decides a line is
 * bad: a line it cannot confirm is marked for the exact path, exactly as the single-threaded
 * verifier sends it there.
 */

/**
 * Numbers per line in `HashedLines.meta`: status (HASHED or 0 = take the exact path), seq, gen
 * (0 when the file has none), index in FAST_TYPES, the line's start and end (without `\n`), where
 * its `prev` value and its stored hash start (all relative to the block), and LINKED or 0.
 */
export const META_FIELDS = 9;
/** `status` of a line whose envelope was read and whose stored hash equals SHA-256 of its bytes without it. */
export const HASHED = 1;
/**
 * `linked` of a HASHED line whose line before (in the block) is HASHED too, with the same gen,
 * the seq before, and the hash its `prev` names: what remains to continue the chain is its type.
 */
export const LINKED = 1;

export interface HashedLines {
  /** Lines in the block (each ended by `\n`). */
  count: number;
  meta: Float64Array;
}

const NEWLINE = 0x0a;
const HEX = 64;

/** Meta of the block being hashed, reused from block to block (only its used part is handed back, as a copy). */
let work = new Float64Array(0);

/** Hashes every line of `block`, which holds whole lines, each ended by `\n`. The bytes are left as they were. */
export function hashLines(bytes: Uint8Array, withGen: boolean): HashedLines {
  // Buffer#indexOf is memchr; a plain Uint8Array's (what a worker receives) compares byte by byte.
  const block = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const envelope = new FastEnvelope();
  let meta = work.length >= (block.length / 256 + 8) * META_FIELDS ? work : new Float64Array((Math.ceil(block.length / 256) + 8) * META_FIELDS);
  let count = 0;
  let previous = -1; // meta index of the line before, when it is HASHED
  for (let start = 0, end = block.indexOf(NEWLINE); end !== -1; start = end + 1, end = block.indexOf(NEWLINE, start), count++) {
    const m = count * META_FIELDS;
    if (m + META_FIELDS > meta.length) {
      const grown = new Float64Array(meta.length * 2);
      grown.set(meta);
      meta = grown;
    }
    const hash = readEnvelopeBytes(block, start, end, withGen, envelope) ? verifiedOwnHash(block, start, end, envelope) : null;
    if (hash === null) {
      meta.fill(0, m, m + META_FIELDS);
      meta[m + 4] = start;
      meta[m + 5] = end;
      previous = -1;
      continue;
    }
    const gen = envelope.gen ?? 0;
    meta[m] = HASHED;
    meta[m + 1] = envelope.seq;
    meta[m + 2] = gen;
    meta[m + 3] = envelope.typeIndex;
    meta[m + 4] = start;
    meta[m + 5] = end;
    meta[m + 6] = envelope.prevAt;
    meta[m + 7] = envelope.hashAt;
    meta[m + 8] = previous !== -1 && meta[previous + 1] === envelope.seq - 1 && meta[previous + 2] === gen && sameHex(view, envelope.prevAt, meta[previous + 7]!) ? LINKED : 0;
    previous = m;
  }
  work = meta;
  return { count, meta: meta.slice(0, count * META_FIELDS) };
}

/** The 64 bytes at `a` equal those at `b`? (16 four-byte loads: a byte loop costs a tenth of a µs.) */
function sameHex(view: DataView, a: number, b: number): boolean {
  for (let k = 0; k < HEX; k += 4) if (view.getUint32(a + k) !== view.getUint32(b + k)) return false;
  return true;
}
