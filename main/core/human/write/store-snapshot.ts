import crypto from 'node:crypto';
import fs from 'node:fs';

export const sha256Hex = (data: string | Buffer): string => crypto.createHash('sha256').update(data).digest('hex');

/** One non-blank line of a JSONL store, kept as its exact bytes. */
export interface StoreLine {
  /** 0-based over non-blank lines (the plugin's and the manifest's `line_index`). */
  index: number;
  /** The exact bytes without the trailing `\n`. */
  raw: Buffer;
  sha256: string;
  /** The parsed object when the line is a JSON object, else null (kept byte for byte anyway). */
  value: Record<string, unknown> | null;
  /** `value.id` when it is a non-empty string. */
  id: string | null;
}

/** What a confirmation token binds about a store: enough to notice any append, removal, edit or reorder. */
export interface StoreFingerprint {
  entry_count: number;
  line_count: number;
  byte_length: number;
  file_sha256: string;
}

export interface StoreSnapshot {
  path: string;
  exists: boolean;
  bytes: Buffer;
  lines: StoreLine[];
  fingerprint: StoreFingerprint;
  /** id → every line carrying it (more than one means the id is ambiguous). */
  byId: Map<string, StoreLine[]>;
}

const NEWLINE = 0x0a;

function parseObject(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Splits store bytes into lines, keeping each line's exact bytes (a `\r` stays part of its line). */
export function snapshotBytes(filePath: string, bytes: Buffer, exists = true): StoreSnapshot {
  const lines: StoreLine[] = [];
  const byId = new Map<string, StoreLine[]>();
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    const raw = bytes.subarray(start, end);
    if (raw.toString('utf8').trim() !== '') {
      const value = parseObject(raw);
      const id = value && typeof value.id === 'string' && value.id !== '' ? value.id : null;
      const line: StoreLine = { index: lines.length, raw, sha256: sha256Hex(raw), value, id };
      lines.push(line);
      if (id !== null) byId.set(id, [...(byId.get(id) ?? []), line]);
    }
    start = end + 1;
  }
  return {
    path: filePath,
    exists,
    bytes,
    lines,
    byId,
    fingerprint: {
      entry_count: lines.filter((l) => l.id !== null).length,
      line_count: lines.length,
      byte_length: bytes.length,
      file_sha256: sha256Hex(bytes),
    },
  };
}

/** Reads the whole store in one go (a missing file is an empty store). */
export function readStoreSnapshot(filePath: string): StoreSnapshot {
  try {
    return snapshotBytes(filePath, fs.readFileSync(filePath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return snapshotBytes(filePath, Buffer.alloc(0), false);
    throw error;
  }
}

/**
 * The store's bytes without the given lines. Every other byte stays exactly where it was: blank
 * lines, unparseable lines and a final line without `\n` included.
 */
export function withoutLines(bytes: Buffer, remove: readonly StoreLine[]): Buffer {
  const ranges = remove
    .map((line) => {
      const start = line.raw.byteOffset - bytes.byteOffset;
      const end = start + line.raw.length;
      return { start, end: end < bytes.length && bytes[end] === NEWLINE ? end + 1 : end };
    })
    .sort((a, b) => a.start - b.start);
  const parts: Buffer[] = [];
  let cursor = 0;
  for (const range of ranges) {
    parts.push(bytes.subarray(cursor, range.start));
    cursor = range.end;
  }
  parts.push(bytes.subarray(cursor));
  return Buffer.concat(parts);
}

export const describeFingerprint = (f: StoreFingerprint): string => `${f.entry_count} entries, ${f.byte_length} bytes, sha256 ${f.file_sha256.slice(0, 12)}…`;

/** The store's bytes with some lines replaced by new text; every other byte stays where it was. */
export function withReplacedLines(bytes: Buffer, replacements: ReadonlyMap<StoreLine, string>): Buffer {
  const sorted = [...replacements].sort(([a], [b]) => a.index - b.index);
  const parts: Buffer[] = [];
  let cursor = 0;
  for (const [line, text] of sorted) {
    const start = line.raw.byteOffset - bytes.byteOffset;
    parts.push(bytes.subarray(cursor, start), Buffer.from(text));
    cursor = start + line.raw.length;
  }
  parts.push(bytes.subarray(cursor));
  return Buffer.concat(parts);
}
