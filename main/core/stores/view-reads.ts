import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { patternRegex, readableStoreDef, type StoreDef } from './catalog';
import type { JsonlDefect, JsonlReadStatus } from './jsonl-reader';
import { discoverFiles, type StoreFile } from './locate';
import { readStoreFile, readWholeBytes } from './read-store-file';

/**
 * The reads of the area views (skills, curator) that look at one project file on request.
 * Every one goes through the store reader, so a view gets the same containment (a store
 * symlinked outside the workspace is not read), size caps and defect reporting as the Stores
 * view and the index — never a bare `readFileSync` of a plugin file.
 */

/** Which project the view reads and where its files may lead (`confinementOf` the workspace). */
export interface StoreScope {
  projectDir: string;
  /** Undefined only when the operator allowed symlinks outside for this opening of the workspace. */
  confineTo: readonly string[] | undefined;
}

export interface ViewRecord {
  line: number;
  /** What the plugin wrote (not normalised): the views show the file as it is. */
  value: Record<string, unknown>;
}

export interface ViewRead {
  status: JsonlReadStatus;
  message: string | null;
  records: ViewRecord[];
  defects: JsonlDefect[];
  defectCount: number;
}

function defOf(key: string): StoreDef {
  const def = readableStoreDef(key);
  if (!def) throw new Error(`no store ${key} in the catalog`);
  return def;
}

/** Every record of one store file, with its defects (a defective line is reported, never thrown). */
export async function readViewRecords(key: string, file: string, scope: StoreScope): Promise<ViewRead> {
  const records: ViewRecord[] = [];
  const read = await readStoreFile(defOf(key), file, { confineTo: scope.confineTo, onRecord: (r) => records.push({ line: r.line, value: r.raw }) });
  return { status: read.status, message: read.message, records, defects: read.defects, defectCount: read.defectCount };
}

/** A whole-file JSON store as the views used it: absent, the parsed value, or why it could not be used. */
export interface ViewDocument {
  present: boolean;
  value: Record<string, unknown> | null;
  problem: string | null;
}

export async function readViewDocument(key: string, file: string, scope: StoreScope): Promise<ViewDocument> {
  const read = await readViewRecords(key, file, scope);
  if (read.status === 'missing') return { present: false, value: null, problem: null };
  if (read.status !== 'ok') return { present: true, value: null, problem: read.message };
  const record = read.records[0];
  if (!record) return { present: true, value: null, problem: read.defects[0]?.reason ?? 'no JSON document in the file' };
  return { present: true, value: record.value, problem: null };
}

export type ViewText = { present: false; text: null; problem: string | null } | { present: true; text: string; problem: null };

/** A markdown or text store file (SKILL.md, a proposal, a marker) as text; refused like any other store file. */
export async function readViewText(file: string, scope: StoreScope): Promise<ViewText> {
  const read = await readWholeBytes(file, scope.confineTo);
  if (read.status === 'missing') return { present: false, text: null, problem: null };
  if (read.status !== 'ok') return { present: false, text: null, problem: read.message };
  if (read.buffer === null) return { present: false, text: null, problem: `${file} is ${read.size} bytes, over the size limit; not read` };
  if (!isUtf8(read.buffer)) return { present: false, text: null, problem: `${file} is not valid UTF-8; not read` };
  return { present: true, text: read.buffer.toString('utf8').replace(/^\uFEFF/, ''), problem: null };
}

/** The files of a project store that exist now (temp files excluded), in name order. */
export function projectStoreFiles(key: string, projectDir: string): StoreFile[] {
  const def = defOf(key);
  if (def.root !== 'project') throw new Error(`${key} is not a per-project store`);
  return discoverFiles({ def, tier: 'swarm', rootDir: projectDir, displayPrefix: '', matcher: patternRegex(def.pattern) });
}

/**
 * Defects of a view read as lines an operator can act on (`file: line N: reason`), leaving out a
 * final line still being appended; a file that was not read is one line with the reason.
 */
export function defectLines(projectDir: string, file: string, read: Pick<ViewRead, 'status' | 'message' | 'defects' | 'defectCount'>): string[] {
  const name = path.relative(projectDir, file).split(path.sep).join('/');
  if (read.status === 'unreadable' || read.status === 'not_a_file') return [`${name}: ${read.message}`];
  const shown = read.defects.filter((d) => d.kind !== 'incomplete_tail');
  const lines = shown.map((d) => `${name}: line ${d.line}: ${d.reason}`);
  const unlisted = read.defectCount - read.defects.length;
  if (unlisted > 0) lines.push(`${name}: ${unlisted} more defect(s); the Stores view lists them`);
  return lines;
}
