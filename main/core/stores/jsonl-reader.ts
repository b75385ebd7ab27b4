/**
 * The line-oriented reader shared by every JSONL store (knowledge, events, receipts, skills…).
 *
 * API (keep it small — other areas import it):
 *
 *   readJsonl(file, options?) → Promise<JsonlReadResult>
 *     Streams `file` from `options.fromOffset` (a line start, default 0) in chunks, never holding
 *     more than one chunk plus one line in memory. Each `\n`-terminated line is parsed on its
 *     own and handed to `options.onLine` (a parsed JSON object) or reported as a defect through
 *     `options.onDefect` and `result.defects`. It never writes anything.
 *
 *   - CRLF and a UTF-8 BOM at byte 0 are tolerated; blank (whitespace-only) lines are skipped.
 *   - Defect kinds: invalid_json, not_object, invalid_utf8, line_too_long, incomplete_tail.
 *     Each carries the file, the 1-based physical line number, the byte offset of the line
 *     start and a reason an operator can act on. A defect never hides the lines around it.
 *   - A final line without `\n` is NOT ingested (the plugin may be mid-append): it is reported
 *     once as `incomplete_tail` and `endOffset` stops before it, so resuming from `endOffset`
 *     with `firstLine: nextLine` yields the completed record exactly once.
 *   - A missing path, a directory, or an unreadable file gives `status` ≠ 'ok' and a message.
 *
 * Store-level checks (schema, unknown enum values, duplicate ids) live in the store layer;
 * they reuse `JsonlDefect` with their own kinds.
 */
import fs from 'node:fs';
import { outsideMessage, outsideTarget, sameFile } from './containment';
import { isUtf8 } from 'node:buffer';
import { bytesHash } from './line-hash';

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
/** How many defects `result.defects` keeps; `defectCount` and `onDefect` still see all of them. */
export const DEFAULT_MAX_COLLECTED_DEFECTS = 1000;

type ReaderDefectKind = 'invalid_json' | 'not_object' | 'invalid_utf8' | 'line_too_long' | 'incomplete_tail';
export type DefectKind = ReaderDefectKind | 'schema' | 'unknown_enum' | 'duplicate_id' | 'unreadable';

export interface JsonlDefect {
  file: string;
  /** 1-based physical line number (blank lines count). */
  line: number;
  /** Byte offset of the start of the line. */
  offset: number;
  kind: DefectKind;
  reason: string;
}

export interface JsonlLine {
  line: number;
  offset: number;
  /** Bytes of the line including its `\n` (so `offset + bytes` is the next line's offset). */
  bytes: number;
  /** The line text without BOM, `\r` and `\n` — what the plugin wrote. */
  text: string;
  value: Record<string, unknown>;
  /** bytesHash of the line's bytes (without BOM, `\r` and `\n`), with `hashLines`. */
  hash?: number;
}

export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

interface JsonlReadOptions {
  /** Byte offset to start at; must be the start of a line (an `endOffset` of an earlier read). */
  fromOffset?: number;
  /** Line number of the line at `fromOffset` (the `nextLine` of an earlier read). */
  firstLine?: number;
  maxLineBytes?: number;
  chunkBytes?: number;
  maxCollectedDefects?: number;
  onLine?: (line: JsonlLine) => void;
  onDefect?: (defect: JsonlDefect) => void;
  /** Give each line the hash of its bytes (line-hash.ts), taken while they are at hand. */
  hashLines?: boolean;
  /** Read only if the file resolves inside one of these folders (see containment.ts). */
  confineTo?: readonly string[];
}

export type JsonlReadStatus = 'ok' | 'missing' | 'not_a_file' | 'unreadable';

export interface JsonlReadResult {
  file: string;
  status: JsonlReadStatus;
  /** Why the file could not be read (null when status is 'ok'). */
  message: string | null;
  /** Identity of the file actually read (fstat of the open handle), null when not opened. */
  identity: FileIdentity | null;
  /** Byte offset just after the last complete line: resume here. */
  endOffset: number;
  /** Line number of the line at `endOffset`. */
  nextLine: number;
  /** Complete (`\n`-terminated) lines read, blank ones included — what `wc -l` counts. */
  lines: number;
  blankLines: number;
  /** Lines that parsed to a JSON object and were handed to `onLine`. */
  records: number;
  defectCount: number;
  defects: JsonlDefect[];
  /** The unterminated final line, if any (not ingested). */
  pendingTail: { line: number; offset: number; bytes: number } | null;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

function describeOpenError(file: string, error: NodeJS.ErrnoException): { status: JsonlReadStatus; message: string } {
  switch (error.code) {
    case 'ENOENT':
      return { status: 'missing', message: `${file} does not exist` };
    case 'EISDIR':
      return { status: 'not_a_file', message: `${file} is a directory, not a file` };
    case 'EACCES':
    case 'EPERM':
      return { status: 'unreadable', message: `${file} is not readable (${error.code}: permission denied)` };
    default:
      return { status: 'unreadable', message: `${file} could not be read (${error.code ?? error.message})` };
  }
}

function shorten(message: string): string {
  return message.length > 160 ? `${message.slice(0, 157)}...` : message;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c && c !== 0xfeff) return false;
  }
  return true;
}

export async function readJsonl(file: string, options: JsonlReadOptions = {}): Promise<JsonlReadResult> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const chunkBytes = Math.max(4096, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const maxCollected = options.maxCollectedDefects ?? DEFAULT_MAX_COLLECTED_DEFECTS;
  const startOffset = options.fromOffset ?? 0;
  const result: JsonlReadResult = {
    file,
    status: 'ok',
    message: null,
    identity: null,
    endOffset: startOffset,
    nextLine: options.firstLine ?? 1,
    lines: 0,
    blankLines: 0,
    records: 0,
    defectCount: 0,
    defects: [],
    pendingTail: null,
  };

  const defect = (line: number, offset: number, kind: DefectKind, reason: string) => {
    const d: JsonlDefect = { file, line, offset, kind, reason };
    result.defectCount++;
    if (result.defects.length < maxCollected) result.defects.push(d);
    options.onDefect?.(d);
  };

  const outside = options.confineTo ? outsideTarget(file, options.confineTo) : null;
  if (outside !== null) {
    Object.assign(result, { status: 'unreadable', message: outsideMessage(file, outside) });
    return result;
  }
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    Object.assign(result, describeOpenError(file, error as NodeJS.ErrnoException));
    return result;
  }

  try {
    const stat = await handle.stat();
    if (options.confineTo && !sameFile(stat, file)) {
      Object.assign(result, { status: 'unreadable', message: `${file} changed while it was being opened; not read` });
      return result;
    }
    if (!stat.isFile()) {
      result.status = 'not_a_file';
      result.message = stat.isDirectory() ? `${file} is a directory, not a file` : `${file} is not a regular file`;
      return result;
    }
    result.identity = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };

    let lineNo = result.nextLine;
    let lineStart = startOffset; // file offset of the line being assembled
    let position = startOffset; // file offset of the next read
    // The part of the current line seen in earlier chunks (dropped once it is too long).
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let tooLong = false;
    const chunk = Buffer.allocUnsafe(chunkBytes);

    const finishLine = (lineBuf: Buffer | null, contentBytes: number) => {
      const offset = lineStart;
      result.lines++;
      if (tooLong || lineBuf === null) {
        defect(lineNo, offset, 'line_too_long', `line is ${contentBytes} bytes, over the ${maxLineBytes}-byte limit; skipped`);
        return;
      }
      let start = 0;
      let end = lineBuf.length;
      if (offset === 0 && end >= 3 && lineBuf[0] === 0xef && lineBuf[1] === 0xbb && lineBuf[2] === 0xbf) start = 3;
      if (end > start && lineBuf[end - 1] === CR) end--;
      const body = lineBuf.subarray(start, end);
      if (!isUtf8(body)) {
        defect(lineNo, offset, 'invalid_utf8', 'line is not valid UTF-8; skipped');
        return;
      }
      const text = body.toString('utf8');
      if (text.length === 0 || (text.charCodeAt(0) <= 0x20 && isBlank(text))) {
        result.blankLines++;
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        defect(lineNo, offset, 'invalid_json', `invalid JSON: ${shorten((error as Error).message)}`);
        return;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
        defect(lineNo, offset, 'not_object', `line is ${what}, not a JSON object`);
        return;
      }
      result.records++;
      options.onLine?.({ line: lineNo, offset, bytes: contentBytes + 1, text, value: value as Record<string, unknown>, hash: options.hashLines ? bytesHash(body) : undefined });
    };

    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let scan = 0;
      while (scan < bytesRead) {
        const nl = chunk.indexOf(NEWLINE, scan);
        const pieceEnd = nl === -1 || nl >= bytesRead ? bytesRead : nl;
        const pieceBytes = pieceEnd - scan;
        if (nl === -1 || nl >= bytesRead) {
          // The line continues in the next chunk: keep a copy unless it is already too long.
          if (!tooLong && carryBytes + pieceBytes > maxLineBytes) {
            tooLong = true;
            carry = [];
          }
          if (!tooLong) carry.push(Buffer.from(chunk.subarray(scan, pieceEnd)));
          carryBytes += pieceBytes;
          break;
        }
        const contentBytes = carryBytes + pieceBytes;
        if (!tooLong && contentBytes > maxLineBytes) tooLong = true;
        let lineBuf: Buffer | null = null;
        if (!tooLong) {
          const piece = chunk.subarray(scan, pieceEnd);
          lineBuf = carry.length === 0 ? piece : Buffer.concat([...carry, piece], contentBytes);
        }
        finishLine(lineBuf, contentBytes);
        lineStart += contentBytes + 1;
        lineNo++;
        result.endOffset = lineStart;
        result.nextLine = lineNo;
        carry = [];
        carryBytes = 0;
        tooLong = false;
        scan = nl + 1;
      }
    }

    if (carryBytes > 0) {
      const tail = tooLong ? null : Buffer.concat(carry, carryBytes).toString('utf8');
      if (tail === null || !isBlank(tail)) {
        result.pendingTail = { line: lineNo, offset: lineStart, bytes: carryBytes };
        defect(
          lineNo,
          lineStart,
          'incomplete_tail',
          `final line has no newline yet (${carryBytes} bytes): not ingested until the writer completes it`,
        );
      }
    }
  } catch (error) {
    const described = describeOpenError(file, error as NodeJS.ErrnoException);
    result.status = described.status;
    result.message = described.message;
  } finally {
    await handle.close().catch(() => undefined);
  }
  return result;
}
