import crypto from 'node:crypto';
import { RECEIPT_SCHEMA } from '../rules/receipt-schema';

/**
 * The fast path of chain verification. Every V2 line is written as canonical JSON, so a record's
 * hash normally equals SHA-256 of the line's own bytes with the `"hash":"…"` member cut out, and
 * its envelope (seq, gen, prev, type) sits at places canonical key order predicts, readable
 * without parsing the line. Nothing here rejects a record: whenever a
 * line does not look exactly as expected the caller takes the exact path (parse, re-serialise
 * canonically, explain the problem).
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const HASH_KEY = Buffer.from('"hash":"');
const SCHEMA_VALUE = `${RECEIPT_SCHEMA}"`;
const SCHEMA_MEMBER = `"schema":"${RECEIPT_SCHEMA}",`;
const SCHEMA_THEN_SEQ = `${SCHEMA_MEMBER}"seq":`;
/** Types whose content the report needs (uncertainty, checkpoints, repairs) are always parsed. */
export const FAST_TYPES = ['terminal', 'membership', 'gate_release', 'phase_close', 'closed_summary', 'capture'] as const;
const FAST_TYPE_VALUES = FAST_TYPES.map((type) => ({ type, value: `${type}"` }));

/** Bytes of the member `"hash":"<64 hex>"` plus one neighbouring comma. */
export const HASH_MEMBER_BYTES = 74;

/** One-shot `crypto.hash` where the runtime has it (much less setup per call than `createHash`). */
export const sha256HexOf: (data: Uint8Array) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => crypto.createHash('sha256').update(data).digest('hex');

function readInt(text: string, at: number, end: number): number {
  let value = 0;
  let i = at;
  for (; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    value = value * 10 + c;
  }
  const next = text.charCodeAt(i);
  return i === at || i - at > 15 || (next !== COMMA && next !== CLOSE_BRACE) ? -1 : value;
}

/** `buf[at, at + 64)` spells `hex` (a 64-char lowercase hex string)? */
function bytesEqualHex(buf: Uint8Array, at: number, hex: string): boolean {
  for (let k = 0; k < 64; k++) if (buf[at + k] !== hex.charCodeAt(k)) return false;
  return true;
}

/**
 * Where to cut the member `"hash":"<64>"` whose key starts at `at` (with the comma before it,
 * or after it when it is the first member), given the bytes around it; -1 when it is not a
 * whole member. The cut is always `HASH_MEMBER_BYTES` long.
 */
function hashMemberCut(at: number, before: number, valueEndQuote: number, after: number): number {
  if (valueEndQuote !== QUOTE) return -1;
  if (before === COMMA) return at - 1;
  if (before === OPEN_BRACE && after === COMMA) return at;
  return -1;
}

/** One line's envelope; positions are indices into the text searched. */
export class FastEnvelope {
  seq = 0;
  gen: number | null = null;
  type = '';
  /** `type`'s index in FAST_TYPES (a worker reports types by number). */
  typeIndex = 0;
  /** Where the prev value starts. */
  prevAt = 0;
  /** Where the stored hash value starts. */
  hashAt = 0;
  /** Where the hash member (with one comma) starts; it is `HASH_MEMBER_BYTES` long. */
  cutStart = 0;
}

/**
 * Reads the envelope of one canonical line, `text[start, end)`: bytes decoded as latin1 (often a
 * block of several lines), so string indices are byte offsets. The verifier reads envelopes on
 * the bytes (`readEnvelopeBytes`, envelope-bytes.ts), making exactly this reader's decisions;
 * this one is their reference. Canonical JSON sorts top-level keys, so `gen` < `hash` <
 * `prev` < `schema` < `seq` < `type` appear in that order; they are looked for backwards from
 * the end (the engine's native search), since the bulky members (entries, evidence) sort early.
 * Fills `out` and returns true, or returns false when anything looks unexpected.
 */
export function readEnvelope(text: string, start: number, end: number, withGen: boolean, out: FastEnvelope): boolean {
  const last = end - 1;
  if (text.charCodeAt(start) !== OPEN_BRACE || text.charCodeAt(last) !== CLOSE_BRACE) return false;
  const typeAt = text.lastIndexOf('"type":"', last);
  if (typeAt < start) return false;
  let type: string | undefined;
  let typeIndex = 0;
  for (; typeIndex < FAST_TYPE_VALUES.length; typeIndex++) {
    const candidate = FAST_TYPE_VALUES[typeIndex]!;
    if (text.startsWith(candidate.value, typeAt + 8)) {
      type = candidate.type;
      break;
    }
  }
  if (type === undefined) return false;
  // `schema` and `seq` are neighbours in every record type: one search finds both.
  let schemaAt = text.lastIndexOf(SCHEMA_THEN_SEQ, typeAt);
  let seqAt: number;
  if (schemaAt >= start) seqAt = schemaAt + SCHEMA_MEMBER.length;
  else {
    seqAt = text.lastIndexOf('"seq":', typeAt);
    schemaAt = text.lastIndexOf('"schema":"', seqAt);
    if (seqAt < start || schemaAt < start || !text.startsWith(SCHEMA_VALUE, schemaAt + 10)) return false;
  }
  const seq = readInt(text, seqAt + 6, end);
  if (seq < 1) return false;
  const prevAt = text.lastIndexOf('"prev":"', schemaAt);
  // Fixed-width values must end inside the line: in a block of lines, the bytes after `end`
  // belong to the next line (the bounds a one-line string gives for free).
  if (prevAt < start || prevAt + 72 >= end || text.charCodeAt(prevAt + 72) !== QUOTE) return false;
  const hashAt = text.lastIndexOf('"hash":"', prevAt);
  if (hashAt < start || hashAt + 72 >= end) return false;
  const cut = hashMemberCut(hashAt, text.charCodeAt(hashAt - 1), text.charCodeAt(hashAt + 72), text.charCodeAt(hashAt + 73));
  if (cut === -1) return false;
  let gen: number | null = null;
  if (withGen) {
    // Usually `"gen":N,"hash":…`; look right before the hash first.
    let digits = hashAt - 2;
    while (digits > start && text.charCodeAt(digits) >= 48 && text.charCodeAt(digits) <= 57) digits--;
    const genAt = digits - 5 >= start && text.startsWith('"gen":', digits - 5) ? digits - 5 : text.lastIndexOf('"gen":', hashAt);
    if (genAt < start) return false;
    gen = readInt(text, genAt + 6, end);
    if (gen < 1) return false;
  }
  out.seq = seq;
  out.gen = gen;
  out.type = type;
  out.typeIndex = typeIndex;
  out.prevAt = prevAt + 8;
  out.hashAt = hashAt + 8;
  out.cutStart = cut;
  return true;
}

export class LineHasher {
  private buf = Buffer.allocUnsafe(64 * 1024);

  /** SHA-256 of `source[start, end)` without the bytes `[cutStart, cutEnd)` (source untouched). */
  hashWithout(source: Buffer, start: number, end: number, cutStart: number, cutEnd: number): string {
    const length = end - start - (cutEnd - cutStart);
    if (this.buf.length < length) this.buf = Buffer.allocUnsafe(Math.max(length, this.buf.length * 2));
    source.copy(this.buf, 0, start, cutStart);
    source.copy(this.buf, cutStart - start, cutEnd, end);
    return sha256HexOf(this.buf.subarray(0, length));
  }
}

/** SHA-256 over `line` minus its top-level `"hash":"<stored>"` member equals `stored`? */
export function rawHashMatches(buf: Buffer, start: number, end: number, stored: string, hasher: LineHasher): boolean {
  let at = buf.indexOf(HASH_KEY, start);
  while (at !== -1 && at + 73 <= end) {
    if (bytesEqualHex(buf, at + 8, stored)) {
      const cut = hashMemberCut(at, buf[at - 1] ?? 0, buf[at + 72] ?? 0, buf[at + 73] ?? 0);
      return cut !== -1 && hasher.hashWithout(buf, start, end, cut, cut + HASH_MEMBER_BYTES) === stored;
    }
    at = buf.indexOf(HASH_KEY, at + 1);
  }
  return false;
}
