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

  const accept = (line: number, offset: number, bytes: number, text: string, raw: Record<string, unknown>) => {
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
    const record: StoreRecord = { line, offset, bytes, text, raw, value: check.value, notes: check.notes, problems: check.problems, id, duplicateOfLine };
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
      onDefect: (d) => {
        collected++;
        options.onDefect?.(d);
      },
      onLine: (l) => accept(l.line, l.offset, l.bytes, l.text, l.value),
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

async function readWholeFile(
  def: StoreDef,
  file: string,
  accept: Accept,
  defect: (d: JsonlDefect) => void,
  confineTo: readonly string[] | undefined,
): Promise<Omit<StoreFileRead, 'defectCount' | 'defects'>> {
  const base = { path: file, identity: null, endOffset: 0, nextLine: 1, lines: 0, records: 0, pendingTail: null };
  const outside = confineTo ? outsideTarget(file, confineTo) : null;
  if (outside !== null) return { ...base, status: 'unreadable', message: outsideMessage(file, outside) };
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ...base, status: 'missing', message: `${file} does not exist` };
    if (code === 'EISDIR') return { ...base, status: 'not_a_file', message: `${file} is a directory, not a file` };
    return { ...base, status: 'unreadable', message: `${file} could not be read (${code ?? 'error'})` };
  }
  try {
    const stat = await handle.stat();
    if (confineTo && !sameFile(stat, file)) return { ...base, status: 'unreadable', message: `${file} changed while it was being opened; not read` };
    if (!stat.isFile()) return { ...base, status: 'not_a_file', message: `${file} is ${stat.isDirectory() ? 'a directory' : 'not a regular file'}, not a file` };
    const identity = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    if (stat.size > MAX_WHOLE_FILE_BYTES) {
      defect({ file, line: 1, offset: 0, kind: 'line_too_long', reason: `file is ${stat.size} bytes, over the ${MAX_WHOLE_FILE_BYTES}-byte limit; not parsed` });
      return { ...base, status: 'ok', message: null, identity, endOffset: stat.size };
    }
    const buffer = await handle.readFile();
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
  } catch (error) {
    return { ...base, status: 'unreadable', message: `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
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
