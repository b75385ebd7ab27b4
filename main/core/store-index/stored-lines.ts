import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { bytesHash } from '../stores/line-hash';

/** A connection to the index (open-index.ts's IndexDb, named here without importing it: no cycle). */
type IndexDb = Database.Database;

/**
 * The index keeps no copy of a JSONL line: a row holds where its line sits in the store file
 * (byte offset, byte count with the newline) and a 32-bit hash of its bytes. The text is read back
 * from the file on demand, through the SQL function `stored_line(path, offset, bytes, hash)`, and
 * served only when it still hashes to what was indexed; otherwise the file changed behind the
 * index and `StaleLineError` names it, so the caller re-reads that file and asks again (see
 * StoreIndexService.fresh). Whole-file records (JSON, markdown) keep their text in `records_raw`.
 */

// Re-exported: a line's hash is defined in the stores layer, where the reader takes it.
export { lineHash } from '../stores/line-hash';

/** A stored line no longer matches its row: the file changed since it was indexed. */
export class StaleLineError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed since it was indexed; it is being read again`);
    this.name = 'StaleLineError';
  }
}

const NEWLINE = 0x0a;
const CR = 0x0d;
/** Consecutive rows (a model load, an export, a text filter) are served from one read of this many bytes. */
const BLOCK_BYTES = 256 * 1024;
/** Open store files kept between reads. */
const MAX_OPEN_FILES = 32;

interface OpenFile {
  fd: number;
  block: Buffer;
  blockStart: number;
  blockLength: number;
  /** Where the last read ended: a read starting here is part of a scan and gets a whole block. */
  lastEnd: number;
}

/** Reads indexed lines back from their files (sync: SQLite calls it inside a query). */
export class LineReader {
  private readonly open = new Map<string, OpenFile>();
  /** Told about a file whose lines no longer match (the index service re-reads it). */
  onStale: ((path: string) => void) | null = null;

  /** The text of the line at `offset` (`bytes` with its newline), if it still hashes to `hash`. */
  read(path: string, offset: number, bytes: number, hash: number): string {
    const cached = this.open.get(path);
    if (cached) {
      const text = this.fromFile(cached, offset, bytes, hash);
      if (text !== null) return text;
      // The block (or the descriptor: a file replaced by rename) may be older than the row.
      this.forget(path);
    }
    const file = this.openFile(path);
    const text = file ? this.fromFile(file, offset, bytes, hash) : null;
    if (text !== null) return text;
    this.forget(path);
    this.onStale?.(path);
    throw new StaleLineError(path);
  }

  private openFile(path: string): OpenFile | null {
    let fd: number;
    try {
      fd = fs.openSync(path, 'r');
    } catch {
      return null;
    }
    if (this.open.size >= MAX_OPEN_FILES) this.forget(this.open.keys().next().value as string);
    const file = { fd, block: Buffer.alloc(0), blockStart: 0, blockLength: 0, lastEnd: -1 };
    this.open.set(path, file);
    return file;
  }

  /** The line's text as the JSONL reader decoded it (BOM at byte 0 and a final `\r` dropped), or null unless its bytes hash to `hash`. */
  private fromFile(file: OpenFile, offset: number, bytes: number, hash: number): string | null {
    const end = offset + bytes;
    if (offset < file.blockStart || end > file.blockStart + file.blockLength) {
      const scanning = offset >= file.lastEnd && offset - file.lastEnd < BLOCK_BYTES;
      const length = scanning ? Math.max(bytes, BLOCK_BYTES) : bytes;
      if (file.block.length < length) file.block = Buffer.allocUnsafe(Math.max(length, scanning ? BLOCK_BYTES : 0));
      let read = 0;
      try {
        read = fs.readSync(file.fd, file.block, 0, length, offset);
      } catch {
        return null;
      }
      file.blockStart = offset;
      file.blockLength = read;
      if (read < bytes) return null;
    }
    file.lastEnd = end;
    const at = offset - file.blockStart;
    const buffer = file.block;
    if (buffer[at + bytes - 1] !== NEWLINE) return null;
    let start = at;
    let stop = at + bytes - 1;
    if (offset === 0 && stop - start >= 3 && buffer[start] === 0xef && buffer[start + 1] === 0xbb && buffer[start + 2] === 0xbf) start += 3;
    if (stop > start && buffer[stop - 1] === CR) stop--;
    if (bytesHash(buffer.subarray(start, stop)) !== hash) return null;
    return buffer.toString('utf8', start, stop);
  }

  /** Closes the file (after it was re-read, replaced or removed). */
  forget(path: string): void {
    const file = this.open.get(path);
    if (!file) return;
    this.open.delete(path);
    try {
      fs.closeSync(file.fd);
    } catch {
      // already closed
    }
  }

  close(): void {
    for (const path of [...this.open.keys()]) this.forget(path);
  }
}

const readers = new WeakMap<IndexDb, LineReader>();

/** Registers `stored_line()` on a connection to the index and returns its reader. */
export function registerStoredLine(db: IndexDb): LineReader {
  const existing = readers.get(db);
  if (existing) return existing;
  const reader = new LineReader();
  db.function('stored_line', { deterministic: false }, (path: unknown, offset: unknown, bytes: unknown, hash: unknown) =>
    reader.read(String(path), Number(offset), Number(bytes), Number(hash)),
  );
  readers.set(db, reader);
  return reader;
}

/** The reader of a connection (registering `stored_line()` on it first if needed). */
export const lineReaderOf = (db: IndexDb): LineReader => registerStoredLine(db);

/** The SQL expression of a row's line text, for a row alias and a files alias. */
export const storedLineSql = (row: string, file: string) => `stored_line(${file}.path, ${row}.offset, ${row}.bytes, ${row}.hash)`;
