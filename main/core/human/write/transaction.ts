import fs from 'node:fs';
import path from 'node:path';
import { CommitAbort } from '../runner';
import { TokenRefusal } from '../tokens';
import { appendLines, replaceFile } from './atomic-write';
import { writeBackup, writeResult, type WrittenBackup } from './backup';
import { firstContainmentProblem, type Containment } from './containment';
import { withStoreLocks } from './multi-lock';
import { pausePoint } from './pause-points';
import { restoreWritten, type RestoreOutcome } from './restore';
import { LockLostError, LockTimeoutError } from './store-lock';
import { readStoreSnapshot, sha256Hex, type StoreSnapshot } from './store-snapshot';

/**
 * THE write protocol: every human-only command that changes a plugin store (hive quarantine and
 * rollback, swarm/link quarantine and restore, promote, skill apply/reject) goes through here.
 *
 * 1. every file, every log it appends to and a backup kept in the workspace must obey the read
 *    side's containment rule (containment.ts), and every rewritten file must lie inside a locked
 *    store directory (or a named unlocked root), not through a symlink; read every file; `check`
 *    the token's bindings against them (outside the lock);
 * 2. back up every file (hash-verified, signed, before any change), plus any `extra` backup files;
 * 3. take every lock (one global order), check containment again (a symlink swapped in while the
 *    console waited is refused), require every file to be byte-identical to its backup
 *    (else `check` again for a precise refusal, or abort `store_changed`), `check` again;
 * 4. write each planned file by temp + rename (`plan` returns complete new bytes, or null to
 *    remove; build them with `withoutLines`/`withAppended` so untouched lines stay byte for byte),
 *    then append to the logs the plugin only appends to (never to a file it also rewrites);
 * 5. release, then verify each file reads back as planned (by default: another writer may only
 *    have appended after it); on a mismatch restore from the backup — only if every written file
 *    still holds our bytes — and say so. A failure part-way through the writes restores too.
 */
export type Snapshots = ReadonlyMap<string, StoreSnapshot>;

export interface TransactionSpec {
  /** Store directories whose plugin locks (`<dir>.lock`) the commit holds while it writes. */
  locks: readonly string[];
  /** The workspace roots (`workspaceRoots`): nothing the commit reads or writes may lead out of them. */
  workspace: readonly string[];
  /** Files the commit reads but does not write (e.g. an event log for previous statuses): the workspace rule only. */
  reads?: readonly string[];
  /** Folders a file may lie in without a lock of its own (skill files the plugin writes unlocked). */
  unlockedRoots?: readonly string[];
  /** Every file the commit may write, and those it reads and needs unchanged (all backed up). */
  files: readonly string[];
  /** A file's name inside the backup, when not its basename. */
  backupAs?: Readonly<Record<string, string>>;
  backup: {
    root: string;
    name: string;
    manifest: Record<string, unknown> | ((before: Snapshots) => Record<string, unknown>);
    /** More files for the backup folder (e.g. the selected lines on their own). */
    extra?: (before: Snapshots) => Record<string, Buffer>;
    /** Signs manifest.json (`HumanServices.backupSigningKey()`): rollback trusts only what verifies. */
    signingKey: Buffer;
  };
  check(snapshots: Snapshots): void;
  plan(snapshots: Snapshots): Map<string, Buffer | null>;
  /** Whole lines for append-only logs, written after every rename (not restored on failure); computed from the snapshots before any write. */
  append?(snapshots: Snapshots): { file: string; lines: string[] }[];
  /** Whether a written file reads back as planned (default: it starts with the planned bytes). */
  readsBack?(file: string, planned: Buffer | null, after: StoreSnapshot): boolean;
  lockWaitMs: number;
  onLockHeld?: ((heldMs: number, lockDir: string) => void) | undefined;
}

/** Where a command's backup goes and what its manifest says. */
export type BackupPlace = TransactionSpec['backup'];

export interface TransactionOutcome {
  state: 'committed' | 'verify_failed_restored' | 'verify_failed_restore_failed';
  backup: WrittenBackup;
  before: Map<string, StoreSnapshot>;
  after: Map<string, StoreSnapshot>;
  /** What was written to each file (null: removed). */
  written: Map<string, Buffer | null>;
  /** Files that did not read back as planned, and the restore that followed. */
  mismatched: string[];
  restore: RestoreOutcome | null;
  messages: string[];
}

const isLexicallyInside = (root: string, target: string): boolean => target === root || target.startsWith(root + path.sep);

const readAll = (files: readonly string[]) => new Map(files.map((file) => [file, readStoreSnapshot(file)]));

const liveSha = (file: string): string | null => {
  try {
    return sha256Hex(fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** `bytes` plus whole lines, never gluing the first one to a torn last line. */
export function withAppended(bytes: Buffer, lines: readonly string[]): Buffer {
  if (lines.length === 0) return bytes;
  const separator = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? '\n' : '';
  return Buffer.concat([bytes, Buffer.from(separator + lines.map((l) => `${l}\n`).join(''))]);
}

const defaultReadsBack = (_file: string, planned: Buffer | null, after: StoreSnapshot): boolean =>
  planned === null ? !after.exists : after.exists && after.bytes.subarray(0, planned.length).equals(planned);

function takeBackup(spec: TransactionSpec, before: Snapshots): WrittenBackup {
  const nameOf = (file: string) => spec.backupAs?.[file] ?? path.basename(file);
  const names = spec.files.map(nameOf);
  if (new Set(names).size !== names.length) throw new Error('a transaction backs up files with distinct names only');
  const files: Record<string, Buffer> = {};
  for (const [file, snapshot] of before) if (snapshot.exists) files[nameOf(file)] = snapshot.bytes;
  const manifest = typeof spec.backup.manifest === 'function' ? spec.backup.manifest(before) : spec.backup.manifest;
  try {
    return writeBackup(spec.backup.root, spec.backup.name, { ...files, ...(spec.backup.extra?.(before) ?? {}) }, { ...manifest, absent_files: [...before].filter(([, s]) => !s.exists).map(([file]) => nameOf(file)) }, spec.backup.signingKey);
  } catch (error) {
    throw new CommitAbort('backup_verify_failed', (error as Error).message);
  }
}

export async function runTransaction(spec: TransactionSpec): Promise<TransactionOutcome> {
  const rewritten: Containment = { workspace: spec.workspace, writable: [...spec.locks, ...(spec.unlockedRoots ?? [])] };
  // A backup kept in the plugin's data folder (the hive's quarantine-backups/) is part of the
  // workspace and obeys its rule; the console's own user-data backups are not.
  const backupDir = path.join(spec.backup.root, spec.backup.name);
  const backupInWorkspace = spec.workspace.some((root) => isLexicallyInside(path.resolve(root), path.resolve(backupDir)));
  const contained = (logs: readonly string[]) => {
    const problem = firstContainmentProblem(spec.files, rewritten) ?? firstContainmentProblem([...(spec.reads ?? []), ...logs, ...(backupInWorkspace ? [spec.backup.root, backupDir] : [])], { workspace: spec.workspace });
    if (problem) throw new CommitAbort('outside_store', `${problem} Nothing was changed.`);
  };
  contained([]);
  const before = readAll(spec.files);
  spec.check(before);
  const appends = spec.append?.(before) ?? [];
  contained(appends.map((a) => a.file));
  const backup = takeBackup(spec, before);
  await pausePoint('after-backup');

  const written = new Map<string, Buffer | null>();
  const messages: string[] = [];
  const lockOptions = { waitMs: spec.lockWaitMs, ...(spec.onLockHeld ? { onHeld: spec.onLockHeld } : {}) };
  try {
    await withStoreLocks(
      spec.locks,
      async (lock) => {
        await pausePoint('holding-lock');
        contained(appends.map((a) => a.file));
        // Identical bytes prove every binding at once; only a difference needs the slow per-line reasons.
        for (const [file, was] of before) {
          if (liveSha(file) === (was.exists ? was.fingerprint.file_sha256 : null)) continue;
          spec.check(readAll(spec.files));
          throw new CommitAbort('store_changed', `${path.basename(file)} changed while the console waited for the lock; nothing was changed.`);
        }
        spec.check(before);
        const planned = spec.plan(before);
        for (const file of planned.keys()) if (!before.has(file)) throw new Error(`${file} is not among the transaction's backed-up files`);
        for (const [file, bytes] of planned) {
          if (bytes === null) {
            lock.assertHeld();
            fs.rmSync(file, { force: true });
          } else {
            fs.mkdirSync(path.dirname(file), { recursive: true });
            await replaceFile(file, bytes, lock);
          }
          written.set(file, bytes);
        }
        await pausePoint('after-rename');
        await pausePoint('before-audit');
        for (const { file, lines } of appends) {
          try {
            appendLines(file, lines);
          } catch (error) {
            messages.push(`The change was written, but appending to ${path.basename(file)} failed: ${(error as Error).message}.`);
          }
        }
      },
      lockOptions,
    );
  } catch (error) {
    if (written.size === 0) {
      fs.rmSync(backup.dir, { recursive: true, force: true });
      if (error instanceof LockTimeoutError || error instanceof LockLostError) throw new CommitAbort(error.code, error.message);
      if (error instanceof TokenRefusal || error instanceof CommitAbort) throw error;
      throw new CommitAbort('write_failed', (error as Error).message);
    }
    const restore = await restoreWritten(spec.locks, before, written, lockOptions);
    const state = restore.ok ? 'write_failed_restored' : 'write_failed_restore_failed';
    writeResult(backup.dir, { state, at: new Date().toISOString(), error: (error as Error).message, restore });
    throw new CommitAbort(state, `Writing failed part-way (${(error as Error).message}). ${restore.message}`);
  }

  const after = readAll(spec.files);
  const readsBack = spec.readsBack ?? defaultReadsBack;
  const mismatched = [...written].filter(([file, bytes]) => !readsBack(file, bytes, after.get(file) as StoreSnapshot)).map(([file]) => file);
  const post = (snapshots: Snapshots) => Object.fromEntries([...snapshots].map(([f, s]) => [spec.backupAs?.[f] ?? path.basename(f), s.fingerprint]));
  if (mismatched.length === 0) {
    writeResult(backup.dir, { state: 'committed', at: new Date().toISOString(), post: post(after) });
    return { state: 'committed', backup, before, after, written, mismatched, restore: null, messages };
  }
  const restore = await restoreWritten(spec.locks, before, written, lockOptions);
  const state = restore.ok ? 'verify_failed_restored' : 'verify_failed_restore_failed';
  const now = readAll(spec.files);
  writeResult(backup.dir, { state, at: new Date().toISOString(), mismatched: mismatched.map((f) => path.basename(f)), restore, post: post(now) });
  messages.push(`${mismatched.map((f) => path.basename(f)).join(', ')} did not read back as written. ${restore.message}`);
  return { state, backup, before, after: now, written, mismatched, restore, messages };
}
