import crypto from 'node:crypto';
import fs from 'node:fs';
import type { StoreDef } from '../stores/catalog';
import type { JsonlDefect } from '../stores/jsonl-reader';
import type { StoreFile } from '../stores/locate';
import { outsideMessage, outsideTarget } from '../stores/containment';
import type { FileState, IndexWriter } from './writer';
import { RowBatch } from './row-batch';
import { collectRows } from './collect-rows';
import { ParseWorkerLost, type ParseRunner } from './parse-runner';

export type ChangeKind = 'appended' | 'rewritten' | 'removed' | 'defects';

export interface StoreChange {
  storeKey: string;
  /** Root-relative name, e.g. `.swarm/knowledge.jsonl`. */
  file: string;
  path: string;
  kind: ChangeKind;
  /** Records appended / now in the file after a rewrite / no longer shown after removal; defects for `defects`. */
  count: number;
  /**
   * Which index rows this pass wrote: the file's row id and the first line read (1 after a re-read or
   * removal; the first appended line after an append). The history recorder reads only these rows,
   * so recording costs work proportional to the lines that changed. Not part of the contract's event.
   */
  fileId?: number;
  fromLine?: number;
  /**
   * Every row this pass wrote has a larger rid (a table's rids only grow, never reused), so a reader
   * of those rows can walk the rid range instead of the file's rows: the event tables keep no index
   * by file, and finding an append's rows by (file, line) once scanned the whole log.
   */
  afterRid?: number;
}

/**
 * A file is trusted unchanged when its size, mtime and the SHA-1 of its first and last 64 KiB of
 * indexed bytes are what the index recorded (git's index trusts size and mtime alone). What this
 * cannot see: a rewrite inside the middle of a big file that keeps its size, its mtime (to the
 * filesystem's resolution) and both windows. The plugin only appends, or rewrites a whole file
 * through temp + rename (docs/plugin-formats.md#temp-and-rename), which changes the inode; and a
 * line read back from such a file is checked against its hash anyway (stored-lines.ts).
 */
const HASH_WINDOW = 64 * 1024;
export { MAX_STORED_DEFECTS } from './collect-rows';

interface Fingerprint {
  head: string | null;
  tail: string | null;
}

/** SHA-1 of the first and last HASH_WINDOW bytes before `end`, read from the file only if it is still inode `ino`. */
async function fingerprint(path: string, end: number, ino: number | null): Promise<Fingerprint | null> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(path, 'r');
    const stat = await handle.stat();
    if (ino !== null && stat.ino !== ino) return null;
    const hash = async (start: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle!.read(buffer, 0, length, start);
      return crypto.createHash('sha1').update(buffer.subarray(0, bytesRead)).digest('hex');
    };
    const headLength = Math.min(HASH_WINDOW, end);
    const tailStart = Math.max(0, end - HASH_WINDOW);
    return { head: await hash(0, headLength), tail: await hash(tailStart, end - tailStart) };
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The status of a file whose pass has committed rows but not ended (see `flush` in syncFile). */
const READING = 'reading';
/** Whether a file's rows were shown (complete, or a pass's rows over a complete state). */
const hadRows = (state: FileState) => state.status === 'ok' || state.status === READING;

type Mode = { kind: 'unchanged' } | { kind: 'full'; why: string } | { kind: 'append' };

async function decide(def: StoreDef, state: FileState, stat: fs.Stats): Promise<Mode> {
  if (state.status === READING) return { kind: 'full', why: 'its last read was interrupted' };
  if (state.status !== 'ok' || state.ino === null) return { kind: 'full', why: 'first read' };
  if (stat.ino !== state.ino || stat.dev !== state.dev) return { kind: 'full', why: 'replaced (rename-over)' };
  if (stat.size < state.end_offset) return { kind: 'full', why: 'truncated' };
  const sameStat = stat.size === state.size && stat.mtimeMs === state.mtime_ms;
  // Whole-file formats keep no fingerprint: size and mtime decide (they are small, re-read whole).
  if (def.format !== 'jsonl') return sameStat ? { kind: 'unchanged' } : { kind: 'full', why: 'changed' };
  // The bytes indexed so far must still be there, whether the file grew or not.
  const now = await fingerprint(state.path, state.end_offset, state.ino);
  if (!now || now.head !== state.head_sha || now.tail !== state.tail_sha) return { kind: 'full', why: 'rewritten in place' };
  return sameStat ? { kind: 'unchanged' } : { kind: 'append' };
}

/**
 * Brings the index in line with one file: parses only appended bytes when the file grew, re-reads
 * it when it was replaced, truncated or rewritten, and empties it when it is gone. Returns the
 * change to push, or null when nothing visible changed. Callers serialise calls per file.
 */
export async function syncFile(
  writer: IndexWriter,
  def: StoreDef,
  file: StoreFile,
  options: { initialBuild?: boolean; confineTo?: readonly string[]; reread?: boolean; parser?: ParseRunner } = {},
): Promise<StoreChange | null> {
  const state = writer.ensureFile(file);
  // Set before this pass writes rows (rows other passes write meanwhile are told apart by file);
  // the changes before that (a file gone or unreadable) wrote none.
  let afterRid: number | undefined;
  const change = (kind: ChangeKind, count: number, fromLine = 1): StoreChange => ({ storeKey: file.storeKey, file: file.name, path: file.path, kind, count, fileId: state.id, fromLine, afterRid });
  const empty = { dev: null, ino: null, size: null, mtime_ms: null, head_sha: null, tail_sha: null, end_offset: 0, next_line: 1, lines: 0, records: 0, defects: 0, pending_tail: 0 };

  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hadContent = hadRows(state) || state.status === 'not_a_file';
    const message =
      code === 'ENOENT'
        ? hadContent
          ? `${file.name} was deleted: its ${state.records} records are no longer shown`
          : `${file.name} does not exist`
        : `${file.name} cannot be read (${code})`;
    writer.resetFile(state.id, { ...empty, status: code === 'ENOENT' ? 'missing' : 'unreadable', message });
    return hadContent ? change('removed', state.records) : null;
  }
  if (!stat.isFile()) {
    const wasFile = state.status !== 'not_a_file';
    const message = `${file.name} is ${stat.isDirectory() ? 'a directory' : 'not a regular file'} where the store file should be; nothing read`;
    writer.resetFile(state.id, { ...empty, status: 'not_a_file', message });
    return wasFile && state.status !== 'new' ? change('removed', state.records) : change('defects', 1);
  }

  // Checked before anything is judged unchanged: rows indexed while the operator allowed symlinks
  // out of the workspace must go once the workspace is opened without that.
  const outside = options.confineTo ? outsideTarget(file.path, options.confineTo) : null;
  if (outside !== null) {
    const message = outsideMessage(file.path, outside);
    if (state.status === 'unreadable' && state.message === message) return null;
    const had = hadRows(state) ? state.records : 0;
    writer.resetFile(state.id, { ...empty, status: 'unreadable', message });
    return change('removed', had);
  }

  // A line read back no longer matched its row: the file changed where the fingerprint cannot see.
  const mode: Mode = options.reread && hadRows(state) ? { kind: 'full', why: 'a line no longer matched the index' } : await decide(def, state, stat);
  if (mode.kind === 'unchanged') return null;
  afterRid = writer.lastRid(def.table);
  const full = mode.kind === 'full';
  // Writes due before the pass's first rows, made in the same transaction as them: during the
  // first build a new file has no rows yet (an interrupted build is discarded whole); a re-read
  // drops the file's rows; an append drops the defect of the tail it completes.
  const clearing = full && !(options.initialBuild && state.status === 'new');
  const tailDefects = !full && state.pending_tail;
  let prelude: (() => void) | null = clearing ? () => writer.clearFile(state.id) : tailDefects ? () => writer.clearDefectsFrom(state.id, state.end_offset) : null;

  const seenIds = full
    ? new Map<string, number>()
    : {
        local: new Map<string, number>(),
        get(id: string) {
          return this.local.get(id) ?? writer.lineOfId(def, state.id, id);
        },
        set(id: string, line: number) {
          this.local.set(id, line);
          return this;
        },
      };

  /**
   * Writes a batch. Before the last one, the file is marked as being read in the same
   * transaction: if the process dies before the pass ends, the next sync sees a file not 'ok'
   * and reads it again whole (its rows dropped first), so a half-read file is never taken for
   * a complete one. The last batch is written with the file's new state (see below).
   */
  const flush = (batch: RowBatch, defects: JsonlDefect[], after: () => void) => {
    writer.write(batch, state.id, file.storeKey, defects, { before: prelude, after });
    prelude = null;
  };
  const flushPartial = (batch: RowBatch, defects: JsonlDefect[]) => flush(batch, defects, () => writer.setStatus(state.id, READING));
  const collectOptions = {
    fromOffset: full ? 0 : state.end_offset,
    firstLine: full ? 1 : state.next_line,
    confineTo: options.confineTo,
    // Rows already stored for the earlier lines (the pending tail's defect is read again).
    storedDefects: full ? 0 : Math.max(0, state.defects - state.pending_tail),
  };
  // A full read of a big JSONL file parses on the worker while this thread writes (parse-runner.ts).
  const onWorker = full && def.format === 'jsonl' && options.parser?.wants(stat.size) === true && (await options.parser.available());
  const inThread = () => collectRows(def, file.tier, state.id, file.path, { ...collectOptions, seenIds: seenIds as Map<string, number> }, flushPartial);
  const { result, records, batch, defects } = onWorker
    ? await options.parser!.collect(def, file.tier, state.id, file.path, collectOptions, flushPartial).catch((error: Error) => {
        if (!(error instanceof ParseWorkerLost)) throw error;
        // The worker died mid-read: read the file again here, its rows written so far dropped first.
        console.warn(`[store-index] ${error.message}; reading ${file.name} in-thread`);
        prelude = () => writer.clearFile(state.id);
        return inThread();
      })
    : await inThread();

  if (result.status !== 'ok') {
    flush(new RowBatch(def.table), [], () => writer.resetFile(state.id, { ...empty, status: result.status, message: result.message }));
    return change('removed', state.records);
  }
  const identity = result.identity;
  const print = identity ? await fingerprint(file.path, result.endOffset, identity.ino) : null;
  const hasTail = result.pendingTail ? 1 : 0;
  const baseDefects = full ? 0 : state.defects - state.pending_tail;
  const symlinkNote = file.symlinkTarget ? `symlink to ${file.symlinkTarget}` : null;
  const orphanNote = file.orphaned ? 'orphaned: the plugin ignores this local file while the worktree is linked' : null;
  flush(batch, defects, () =>
    writer.updateFile(state.id, {
      status: 'ok',
      message: [orphanNote, symlinkNote, full && hadRows(state) ? `re-read: ${mode.why}` : null].filter(Boolean).join('; ') || null,
      dev: identity?.dev ?? null,
      ino: identity?.ino ?? null,
      // The bytes consumed (complete lines + pending tail), so any growth past them is noticed.
      size: identity ? result.endOffset + (result.pendingTail?.bytes ?? 0) : null,
      mtime_ms: identity?.mtimeMs ?? null,
      head_sha: print?.head ?? null,
      tail_sha: print?.tail ?? null,
      end_offset: result.endOffset,
      next_line: result.nextLine,
      lines: (full ? 0 : state.lines) + result.lines,
      records: (full ? 0 : state.records) + records,
      defects: baseDefects + result.defectCount,
      pending_tail: hasTail,
    }),
  );
  if (full) return change(hadRows(state) ? 'rewritten' : 'appended', records);
  if (records > 0) return change('appended', records, state.next_line);
  const newDefects = result.defectCount - hasTail;
  return newDefects > 0 ? change('defects', newDefects) : null;
}

/** A file the index knows that is no longer part of any store (e.g. after unlinking): drop it. */
export function forgetFile(writer: IndexWriter, state: FileState, name: string): StoreChange {
  writer.forgetFile(state.id);
  return { storeKey: state.store_key, file: name, path: state.path, kind: 'removed', count: state.records, fileId: state.id, fromLine: 1 };
}
