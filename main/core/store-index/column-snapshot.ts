import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { IndexDb } from './open-index';

/**
 * A column cache (column-cache.ts) kept in the index between sessions, so a re-opened index
 * answers its first counted page without reading every row's columns again (at 90,000 entries
 * that read is about 0.4 s, at a million events several seconds).
 *
 * Kept as one blob in `derived_values` (name `columns:<table>`): a JSON header (format, the
 * column list it was made for, sizes, dictionaries) and the typed arrays' bytes; the entries' one
 * deflated (DEFLATED_TABLES). It is trusted for
 * the rows it holds only while none of them left the table. That is checkable in two cheap counts
 * because rows are only ever inserted (with AUTOINCREMENT rids, never reused) or deleted, never
 * updated in place (writer.ts): the table still has every kept row exactly when its row count
 * minus the rows above the kept last rid equals the kept row count. Rows above it are loaded as
 * appended ones.
 */

/** 2: since some tables' snapshots are deflated (a format-1 snapshot of those is read again from the rows). */
const FORMAT = 2;
/**
 * Tables whose snapshot is kept deflated, at level 1: the entries', a fifth of its size (7.3 → 1.6
 * MB at 90,000 lessons, inflated in about 7 ms), which keeps a knowledge-heavy workspace's index
 * nearer the data's size. The events' shrinks 2.4× only and its first counted page at 30,000
 * entries (300,000 events) took 74 ms deflated vs 26 kept as is; event-heavy indexes are well
 * under the data's size (0.57×) anyway.
 */
const DEFLATED_TABLES = new Set(['entries']);
const nameOf = (table: string) => `columns:${table}`;

/** What a column cache holds, as the snapshot keeps it. */
export interface ColumnState<B extends ArrayBufferLike = ArrayBufferLike> {
  size: number;
  lastRid: number;
  rids: Uint32Array<B>;
  codes: Map<string, Uint32Array<B>>;
  numbers: Map<string, Float64Array<B>>;
  dictionaries: Map<string, (string | null)[]>;
  tagStarts: Uint32Array<B> | null;
  tagCodes: Uint32Array<B> | null;
  tagCount: number;
  tagValues: string[] | null;
}

interface Header {
  format: number;
  /** Hash of the column specs the state was made for. */
  spec: string;
  size: number;
  lastRid: number;
  tagCount: number;
  codes: { name: string; width: 1 | 2 | 4; values: (string | null)[] }[];
  /** Number columns, each as 64-bit floats or, when every value is a whole number that fits, as narrower integers. */
  numbers: { name: string; as: NumberWidth }[];
  tagValues: string[] | null;
}

/** A hash of what the columns are (names, SQL, types, tags): a snapshot of other columns is never read. */
export const specHash = (parts: unknown): string => createHash('sha1').update(JSON.stringify(parts)).digest('hex');

const widthFor = (values: number): 1 | 2 | 4 => (values <= 0x100 ? 1 : values <= 0x10000 ? 2 : 4);

type NumberWidth = 'f64' | 'i8' | 'i16' | 'i32';
const INTEGER_TYPES = { i8: Int8Array, i16: Int16Array, i32: Int32Array } as const;

/** The narrowest integer type that holds every value exactly, else 64-bit floats (NaN, fractions, large values). */
function numberWidth(values: Float64Array): NumberWidth {
  let min = 0;
  let max = 0;
  for (const value of values) {
    if (!Number.isInteger(value) || Object.is(value, -0)) return 'f64';
    if (value < min) min = value;
    else if (value > max) max = value;
  }
  return min >= -0x80 && max < 0x80 ? 'i8' : min >= -0x8000 && max < 0x8000 ? 'i16' : min >= -0x80000000 && max < 0x80000000 ? 'i32' : 'f64';
}

function narrowed(codes: Uint32Array, size: number, width: 1 | 2 | 4): Uint8Array {
  const view = codes.subarray(0, size);
  const narrow = width === 1 ? Uint8Array.from(view) : width === 2 ? Uint16Array.from(view) : Uint32Array.from(view);
  return new Uint8Array(narrow.buffer, narrow.byteOffset, narrow.byteLength);
}

/** The snapshot's bytes (codes as narrow as their dictionary allows). */
export function encodeColumns(state: ColumnState, spec: string): Buffer {
  const { size } = state;
  const codes = [...state.codes].map(([name, array]) => {
    const values = state.dictionaries.get(name)!;
    return { name, width: widthFor(values.length), values, array };
  });
  const numbers = [...state.numbers].map(([name, array]) => {
    const values = array.subarray(0, size);
    const as = numberWidth(values);
    return { name, as, values: as === 'f64' ? values : INTEGER_TYPES[as].from(values) };
  });
  const header: Header = {
    format: FORMAT,
    spec,
    size,
    lastRid: state.lastRid,
    tagCount: state.tagCount,
    codes: codes.map(({ name, width, values }) => ({ name, width, values })),
    numbers: numbers.map(({ name, as }) => ({ name, as })),
    tagValues: state.tagValues,
  };
  const bytes = (array: Uint32Array | Float64Array, length: number) => new Uint8Array(array.buffer, array.byteOffset, length * array.BYTES_PER_ELEMENT);
  const parts: Uint8Array[] = [bytes(state.rids, size)];
  for (const { width, array } of codes) parts.push(narrowed(array, size, width));
  for (const { values } of numbers) parts.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  if (state.tagStarts && state.tagCodes) parts.push(bytes(state.tagStarts, size + 1), bytes(state.tagCodes, state.tagCount));
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length);
  return Buffer.concat([length, headerBytes, ...parts]);
}

/** The state kept in `blob`, or null when it is of another format or other columns. */
export function decodeColumns(blob: Buffer, spec: string): ColumnState<ArrayBuffer> | null {
  const headerLength = blob.readUInt32LE(0);
  const header = JSON.parse(blob.subarray(4, 4 + headerLength).toString()) as Header;
  if (header.format !== FORMAT || header.spec !== spec) return null;
  let at = 4 + headerLength;
  // Copies: the blob's offsets are not aligned for 4- and 8-byte views.
  const take = (bytesPerElement: number, count: number): ArrayBuffer => {
    const length = count * bytesPerElement;
    const out = new ArrayBuffer(length);
    new Uint8Array(out).set(blob.subarray(at, at + length));
    at += length;
    return out;
  };
  const { size } = header;
  const rids = new Uint32Array(take(4, size));
  const codes = new Map<string, Uint32Array<ArrayBuffer>>();
  const dictionaries = new Map<string, (string | null)[]>();
  for (const { name, width, values } of header.codes) {
    const narrow = take(width, size);
    codes.set(name, width === 4 ? new Uint32Array(narrow) : Uint32Array.from(width === 1 ? new Uint8Array(narrow) : new Uint16Array(narrow)));
    dictionaries.set(name, values);
  }
  const numbers = new Map(
    header.numbers.map(({ name, as }) => {
      if (as === 'f64') return [name, new Float64Array(take(8, size))] as const;
      const Type = INTEGER_TYPES[as];
      return [name, Float64Array.from(new Type(take(Type.BYTES_PER_ELEMENT, size)))] as const;
    }),
  );
  const tags = header.tagValues !== null;
  const tagStarts = tags ? new Uint32Array(take(4, size + 1)) : null;
  const tagCodes = tags ? new Uint32Array(take(4, header.tagCount)) : null;
  if (at !== blob.length) return null;
  return { size, lastRid: header.lastRid, rids, codes, numbers, dictionaries, tagStarts, tagCodes, tagCount: header.tagCount, tagValues: header.tagValues };
}

/** The kept state of `table`, when it still holds only rows the table has (see above). */
export function readColumns(db: IndexDb, table: string, spec: string): ColumnState<ArrayBuffer> | null {
  const blob = db.prepare('SELECT value FROM derived_values WHERE name = ? AND part = 0').pluck().get(nameOf(table)) as Buffer | string | undefined;
  if (!Buffer.isBuffer(blob)) return null;
  let state: ColumnState<ArrayBuffer> | null;
  try {
    // In 1 MiB chunks: 7.3 MB in 7 ms, 15 ms in zlib's 16 KiB ones.
    state = decodeColumns(DEFLATED_TABLES.has(table) ? inflateRawSync(blob, { chunkSize: 1024 * 1024 }) : blob, spec);
  } catch {
    return null; // not a snapshot this code can read: the rows are read instead
  }
  if (!state) return null;
  const rows = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  const above = db.prepare(`SELECT count(*) FROM ${table} WHERE rid > ?`).pluck().get(state.lastRid) as number;
  return rows - above === state.size ? state : null;
}

/** Keeps `state` for the next session (replacing what was kept). */
export function writeColumns(db: IndexDb, table: string, state: ColumnState, spec: string): void {
  const bytes = encodeColumns(state, spec);
  // Level 1: 1 % larger than the default level at 20,000 entries, in a quarter of the time (this runs on the thread that answers the page).
  db.prepare('INSERT OR REPLACE INTO derived_values(name, part, value) VALUES (?, 0, ?)').run(nameOf(table), DEFLATED_TABLES.has(table) ? deflateRawSync(bytes, { level: 1 }) : bytes);
}
