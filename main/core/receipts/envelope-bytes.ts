import { RECEIPT_SCHEMA } from '../rules/receipt-schema';
import { FAST_TYPES, type FastEnvelope, HASH_MEMBER_BYTES, sha256HexOf } from './fast-envelope';

/**
 * `readEnvelope` (fast-envelope.ts) on the bytes themselves: the same decisions, made without a
 * string per line (its latin1 copy cost about as much as the rest of the reading). Positions are
 * indices into the buffer, and nothing is read outside the line `[start, end)` — in a block,
 * the bytes next to it belong to other lines. `envelope-bytes.test.ts` checks it against the
 * string reader on real and mutated lines.
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const SCHEMA_MEMBER_LENGTH = `"schema":"${RECEIPT_SCHEMA}",`.length;
const SCHEMA_VALUE = ascii(`${RECEIPT_SCHEMA}"`);
const FAST_TYPE_VALUES = FAST_TYPES.map((type) => ascii(`${type}"`));

/** A needle with, per byte value, how far a backward window may move when it starts with that byte (Horspool, mirrored). */
interface Needle {
  bytes: Uint8Array;
  shift: Uint8Array;
}
function needle(text: string): Needle {
  const bytes = ascii(text);
  const shift = new Uint8Array(256).fill(bytes.length);
  for (let k = bytes.length - 1; k >= 1; k--) shift[bytes[k]!] = k;
  return { bytes, shift };
}
const TYPE_KEY = needle('"type":"');
const SCHEMA_THEN_SEQ = needle(`"schema":"${RECEIPT_SCHEMA}","seq":`);
const SCHEMA_KEY = needle('"schema":"');
const SEQ_KEY = needle('"seq":');
const PREV_KEY = needle('"prev":"');
const HASH_KEY = needle('"hash":"');
const GEN_KEY = needle('"gen":');

/** `needle` starts at `at` and ends by `end`? */
export function bytesAt(buf: Uint8Array, at: number, end: number, needle: Uint8Array): boolean {
  if (at < 0 || at + needle.length > end) return false;
  for (let k = 0; k < needle.length; k++) if (buf[at + k] !== needle[k]) return false;
  return true;
}

/**
 * `String#lastIndexOf(needle, from)` on the line `[start, end)`: the last index ≤ `from` where
 * the whole needle lies inside the line, or -1. Windows move back by the distance to the
 * previous place their first byte occurs in the needle, as a backward Horspool search does.
 */
export function lastIndexOfBytes(buf: Uint8Array, needle: Needle, from: number, start: number, end: number): number {
  const { bytes, shift } = needle;
  const length = bytes.length;
  const first = bytes[0]!;
  let at = from < end - length ? from : end - length;
  while (at >= start) {
    const b = buf[at]!;
    if (b === first) {
      let k = 1;
      while (k < length && buf[at + k] === bytes[k]) k++;
      if (k === length) return at;
    }
    at -= shift[b]!;
  }
  return -1;
}

/** A decimal of 1–15 digits at `at`, followed by `,` or `}` inside the line; -1 otherwise. */
function readInt(buf: Uint8Array, at: number, end: number): number {
  let value = 0;
  let i = at;
  for (; i < end; i++) {
    const c = buf[i]! - 48;
    if (c < 0 || c > 9) break;
    value = value * 10 + c;
  }
  const next = i < end ? buf[i] : -1;
  return i === at || i - at > 15 || (next !== COMMA && next !== CLOSE_BRACE) ? -1 : value;
}

/** The byte at `i` if it is inside the line, else -1 (what `charCodeAt` outside a one-line string gives: no byte). */
const byteIn = (buf: Uint8Array, i: number, start: number, end: number) => (i >= start && i < end ? buf[i]! : -1);

/** As `readEnvelope(latin1 of buf[start, end), …)`, with positions in `buf`. */
export function readEnvelopeBytes(buf: Uint8Array, start: number, end: number, withGen: boolean, out: FastEnvelope): boolean {
  const last = end - 1;
  if (end <= start || buf[start] !== OPEN_BRACE || buf[last] !== CLOSE_BRACE) return false;
  const typeAt = lastIndexOfBytes(buf, TYPE_KEY, last, start, end);
  if (typeAt < start) return false;
  let typeIndex = 0;
  for (; typeIndex < FAST_TYPE_VALUES.length; typeIndex++) if (bytesAt(buf, typeAt + 8, end, FAST_TYPE_VALUES[typeIndex]!)) break;
  if (typeIndex === FAST_TYPE_VALUES.length) return false;
  let schemaAt = lastIndexOfBytes(buf, SCHEMA_THEN_SEQ, typeAt, start, end);
  let seqAt: number;
  if (schemaAt >= start) seqAt = schemaAt + SCHEMA_MEMBER_LENGTH;
  else {
    seqAt = lastIndexOfBytes(buf, SEQ_KEY, typeAt, start, end);
    // String#lastIndexOf from a negative position still looks at index 0.
    schemaAt = lastIndexOfBytes(buf, SCHEMA_KEY, Math.max(seqAt, start), start, end);
    if (seqAt < start || schemaAt < start || !bytesAt(buf, schemaAt + 10, end, SCHEMA_VALUE)) return false;
  }
  const seq = readInt(buf, seqAt + 6, end);
  if (seq < 1) return false;
  const prevAt = lastIndexOfBytes(buf, PREV_KEY, schemaAt, start, end);
  if (prevAt < start || prevAt + 72 >= end || buf[prevAt + 72] !== QUOTE) return false;
  const hashAt = lastIndexOfBytes(buf, HASH_KEY, prevAt, start, end);
  if (hashAt < start || hashAt + 72 >= end) return false;
  const before = byteIn(buf, hashAt - 1, start, end);
  const after = buf[hashAt + 73];
  if (buf[hashAt + 72] !== QUOTE) return false;
  let cut: number;
  if (before === COMMA) cut = hashAt - 1;
  else if (before === OPEN_BRACE && after === COMMA) cut = hashAt;
  else return false;
  let gen: number | null = null;
  if (withGen) {
    let digits = hashAt - 2;
    while (digits > start && buf[digits]! >= 48 && buf[digits]! <= 57) digits--;
    const genAt = digits - 5 >= start && bytesAt(buf, digits - 5, end, GEN_KEY.bytes) ? digits - 5 : lastIndexOfBytes(buf, GEN_KEY, hashAt, start, end);
    if (genAt < start) return false;
    gen = readInt(buf, genAt + 6, end);
    if (gen < 1) return false;
  }
  out.seq = seq;
  out.gen = gen;
  out.type = FAST_TYPES[typeIndex]!;
  out.typeIndex = typeIndex;
  out.prevAt = prevAt + 8;
  out.hashAt = hashAt + 8;
  out.cutStart = cut;
  return true;
}

/** `buf[at, at + 64)` spells `hex`? */
export function bytesSpell(buf: Uint8Array, at: number, hex: string): boolean {
  for (let k = 0; k < 64; k++) if (buf[at + k] !== hex.charCodeAt(k)) return false;
  return true;
}

/** Buffer's own latin1 decoder (what `toString('latin1', …)` calls after checking its arguments). */
type LatinSlicer = Buffer & { latin1Slice(start: number, end: number): string };

const KEPT_SCRATCH_BYTES = 1024 * 1024;
let scratch = new Uint8Array(64 * 1024);

/**
 * The hash the line `buf[start, end)` stores (its envelope read by `readEnvelopeBytes` into
 * `envelope`) when it equals SHA-256 of the line's bytes without the hash member; else null.
 * The bytes around the member are copied side by side for the one-shot hash (two copies cost
 * less than moving the line's tail over the member and back); `buf` is only read.
 */
export function verifiedOwnHash(buf: Buffer, start: number, end: number, envelope: FastEnvelope): string | null {
  const cut = envelope.cutStart;
  const length = end - start - HASH_MEMBER_BYTES;
  // The shared buffer grows for ordinary records only; a rare huge one gets memory of its own.
  if (scratch.length < length && length <= KEPT_SCRATCH_BYTES) scratch = new Uint8Array(Math.min(KEPT_SCRATCH_BYTES, Math.max(length, scratch.length * 2)));
  const into = scratch.length >= length ? scratch : new Uint8Array(length);
  const bytes = buf.buffer;
  const offset = buf.byteOffset;
  into.set(new Uint8Array(bytes, offset + start, cut - start));
  into.set(new Uint8Array(bytes, offset + cut + HASH_MEMBER_BYTES, end - cut - HASH_MEMBER_BYTES), cut - start);
  const digest = sha256HexOf(new Uint8Array(into.buffer, 0, length));
  return (buf as LatinSlicer).latin1Slice(envelope.hashAt, envelope.hashAt + 64) === digest ? digest : null;
}
