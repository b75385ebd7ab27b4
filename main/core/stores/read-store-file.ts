import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import type { StoreDef } from './catalog';
import { outsideMessage, outsideTarget, sameFile } from './containment';
import { parseFrontmatter } from './frontmatter';
import {
  readJsonl,
  DEFAULT_MAX_COLLECTED_DEFECTS,
  type FileIdentity,
  type JsonlDefect,
  type JsonlReadStatus,
} from './jsonl-reader';
import type { NormalisationNote, RecordProblem } from './schemas/common';
import { GENERATOR_MARKER } from './schemas/skills';

/** Whole-file formats (JSON, markdown, markers) larger than this are reported, not parsed. */
const MAX_WHOLE_FILE_BYTES = 32 * 1024 * 1024;

/** One record of a store, as read and checked. */
export interface StoreRecord {
  line: number;
  offset: number;
  bytes: number;
  /** Exactly what the plugin wrote for JSON formats (a JSONL line, a JSON file); for markdown/text, the JSON of `raw`. */
  text: string;
  raw: Record<string, unknown>;
  /** What the plugin reads (v1→v2 normalisation applied for knowledge entries). */
  value: Record<string, unknown>;
  notes: NormalisationNote[];
  problems: RecordProblem[];
  id: string | null;
  /** Line of the earlier record with the same id (the `duplicate_id` defect is on this one). */
  duplicateOfLine: number | null;
  /** JSONL lines read with `hashLines`: the hash of the line's bytes (line-hash.ts). */
  hash?: number;
}

interface StoreFileRead {
  path: string;
  status: JsonlReadStatus;
  message: string | null;
  identity: FileIdentity | null;
  endOffset: number;
  nextLine: number;
  lines: number;
  records: number;
  defectCount: number;
  defects: JsonlDefect[];
  pendingTail: { line: number; offset: number; bytes: number } | null;
}

interface ReadStoreFileOptions {
  fromOffset?: number;
  firstLine?: number;
  maxLineBytes?: number;
  maxCollectedDefects?: number;
  /** Ids seen earlier in this file (id → line), for duplicate detection across incremental reads. Updated in place. */
  seenIds?: Map<string, number>;
  onRecord?: (record: StoreRecord) => void;
  onDefect?: (defect: JsonlDefect) => void;
  /** Read only if the file resolves inside one of these folders (see containment.ts). */
  confineTo?: readonly string[];
  /** JSONL: give each record the hash of its line's bytes (line-hash.ts). */
  hashLines?: boolean;
}

/** Reads one file of a store in its format, checks every record, and reports every defect. Never writes. */
export async function readStoreFile(def: StoreDef, file: string, options: ReadStoreFileOptions = {}): Promise<StoreFileRead> {
  const maxCollected = options.maxCollectedDefects ?? DEFAULT_MAX_COLLECTED_DEFECTS;
  const seen = options.seenIds ?? new Map<string, number>();
  const extraDefects: JsonlDefect[] = [];
  let extraCount = 0;
  let collected = 0;

  const recordDefect = (d: JsonlDefect) => {
    extraCount++;
    if (collected < maxCollected) extraDefects.push(d);
    collected++;
    options.onDefect?.(d);
  };

  const accept = (line: number, offset: number, bytes: number, text: string, raw: Record<string, unknown>, hash?: number) => {
    const check = def.check(raw);
    let id: string | null = null;
    let duplicateOfLine: number | null = null;
    if (def.idField) {
      const candidate = raw[def.idField];
      if (typeof candidate === 'string' && candidate !== '') {
        id = candidate;
        const earlier = seen.get(candidate);
        if (earlier !== undefined) duplicateOfLine = earlier;
        else seen.set(candidate, line);
      }
    }
    const record: StoreRecord = { line, offset, bytes, text, raw, value: check.value, notes: check.notes, problems: check.problems, id, duplicateOfLine, hash };
    for (const problem of check.problems) recordDefect({ file, line, offset, kind: problem.kind, reason: problem.reason });
    if (duplicateOfLine !== null) {
      recordDefect({ file, line, offset, kind: 'duplicate_id', reason: `duplicate ${def.idField} ${JSON.stringify(id)} (first on line ${duplicateOfLine})` });
    }
    options.onRecord?.(record);
  };

  if (def.format === 'jsonl') {
    const result = await readJsonl(file, {
      fromOffset: options.fromOffset,
      firstLine: options.firstLine,
      maxLineBytes: options.maxLineBytes,
      maxCollectedDefects: maxCollected,
      confineTo: options.confineTo,
      hashLines: options.hashLines,
      onDefect: (d) => {
        collected++;
        options.onDefect?.(d);
      },
      onLine: (l) => accept(l.line, l.offset, l.bytes, l.text, l.value, l.hash),
    });
    const defects = [...result.defects, ...extraDefects].sort((a, b) => a.offset - b.offset).slice(0, maxCollected);
    return { ...result, path: file, defectCount: result.defectCount + extraCount, defects };
  }
  const whole = await readWholeFile(def, file, accept, recordDefect, options.confineTo);
  return { ...whole, defectCount: extraCount, defects: extraDefects };
}

type Accept = (line: number, offset: number, bytes: number, text: string, raw: Record<string, unknown>) => void;

function lineOfPosition(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** A whole file read in one piece, or why it was not: confined, capped, never written. */
export type WholeFileRead =
  | { status: 'ok'; message: null; identity: FileIdentity; buffer: Buffer | null; size: number }
  | { status: Exclude<JsonlReadStatus, 'ok'>; message: string; identity: null; buffer: null; size: 0 };

/**
 * Opens `file` if it resolves inside `confineTo`, checks the handle is that file and a regular
 * one, and reads it unless it is over `MAX_WHOLE_FILE_BYTES` (then `buffer` is null).
 */
export async function readWholeBytes(file: string, confineTo: readonly string[] | undefined): Promise<WholeFileRead> {
  const refused = (status: Exclude<JsonlReadStatus, 'ok'>, message: string): WholeFileRead => ({ status, message, identity: null, buffer: null, size: 0 });
  const outside = confineTo ? outsideTarget(file, confineTo) : null;
  if (outside !== null) return refused('unreadable', outsideMessage(file, outside));
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return refused('missing', `${file} does not exist`);
    if (code === 'EISDIR') return refused('not_a_file', `${file} is a directory, not a file`);
    return refused('unreadable', `${file} could not be read (${code ?? 'error'})`);
  }
  try {
    const stat = await handle.stat();
    if (confineTo && !sameFile(stat, file)) return refused('unreadable', `${file} changed while it was being opened; not read`);
    if (!stat.isFile()) return refused('not_a_file', `${file} is ${stat.isDirectory() ? 'a directory' : 'not a regular file'}, not a file`);
    const identity = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    const buffer = stat.size > MAX_WHOLE_FILE_BYTES ? null : await handle.readFile();
    return { status: 'ok', message: null, identity, buffer, size: buffer ? buffer.length : stat.size };
  } catch (error) {
    return refused('unreadable', `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readWholeFile(
  def: StoreDef,
  file: string,
  accept: Accept,
  defect: (d: JsonlDefect) => void,
  confineTo: readonly string[] | undefined,
): Promise<Omit<StoreFileRead, 'defectCount' | 'defects'>> {
  const base = { path: file, identity: null, endOffset: 0, nextLine: 1, lines: 0, records: 0, pendingTail: null };
  const read = await readWholeBytes(file, confineTo);
  if (read.status !== 'ok') return { ...base, status: read.status, message: read.message };
  const { identity, buffer } = read;
  if (buffer === null) {
    defect({ file, line: 1, offset: 0, kind: 'line_too_long', reason: `file is ${read.size} bytes, over the ${MAX_WHOLE_FILE_BYTES}-byte limit; not parsed` });
    return { ...base, status: 'ok', message: null, identity, endOffset: read.size };
  }
  const result = { ...base, status: 'ok' as const, message: null, identity, endOffset: buffer.length };
  if (!isUtf8(buffer)) {
    defect({ file, line: 1, offset: 0, kind: 'invalid_utf8', reason: 'file is not valid UTF-8; not parsed' });
    return result;
  }
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const parsed = parseWhole(def, file, text, defect);
  if (parsed) accept(1, 0, buffer.length, parsed.text, parsed.raw);
  return { ...result, lines, nextLine: lines + 1, records: parsed ? 1 : 0 };
}

function parseWhole(def: StoreDef, file: string, text: string, defect: (d: JsonlDefect) => void): { text: string; raw: Record<string, unknown> } | null {
  const slug = path.basename(path.dirname(file));
  // Non-JSON files are kept as the JSON of what was read from them (the index stores JSON text).
  if (def.format === 'text') {
    const raw = { slug, reason: text.trim() };
    return { text: JSON.stringify(raw), raw };
  }
  if (def.format === 'markdown') {
    const { frontmatter, body, problems } = parseFrontmatter(text);
    for (const problem of problems) defect({ file, line: 1, offset: 0, kind: 'schema', reason: `frontmatter ${problem}` });
    if (!frontmatter) defect({ file, line: 1, offset: 0, kind: 'schema', reason: 'no frontmatter block (--- … ---) at the top of the file' });
    const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? null;
    const raw = {
      fileName: path.basename(file),
      slug: def.key === 'skills-generated' ? slug : path.basename(file, '.md'),
      frontmatter: frontmatter ?? {},
      title,
      generatorMarker: text.includes(GENERATOR_MARKER),
      body,
    };
    return { text: JSON.stringify(raw), raw };
  }
  if (text.trim() === '') {
    defect({ file, line: 1, offset: 0, kind: 'invalid_json', reason: 'file is empty, expected a JSON document' });
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : 0;
    const line = position ? lineOfPosition(text, offset) : 1;
    defect({ file, line, offset: position ? Buffer.byteLength(text.slice(0, offset)) : 0, kind: 'invalid_json', reason: `invalid JSON: ${message.slice(0, 160)}` });
    return null;
  }
  if (value === null || typeof value !== 'object') {
    defect({ file, line: 1, offset: 0, kind: 'not_object', reason: `file holds ${value === null ? 'null' : `a ${typeof value}`}, not a JSON object` });
    return null;
  }
  // A top-level array (eval fixtures may be one) is kept whole as `{ items: [...] }`.
  const raw = Array.isArray(value) ? { items: value } : (value as Record<string, unknown>);
  return { text, raw };
}
