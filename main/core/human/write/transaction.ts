import fs from 'node:fs';
import path from 'node:path';
import { CommitAbort } from '../runner';
import { TokenRefusal } from '../tokens';
import { replaceFile } from './atomic-write';
import { writeBackup, writeResult, type WrittenBackup } from './backup';
import { pausePoint } from './pause-points';
import { LockLostError, LockTimeoutError, withStoreLock } from './store-lock';
import { readStoreSnapshot, sha256Hex, type StoreSnapshot } from './store-snapshot';

/**
 * A locked, backed-up change to several files of one store directory (the swarm knowledge family,
 * a link store, the hive): the generic form of the hive quarantine's steps, for any human-only
 * command whose files share one plugin lock.
 *
 * 1. read every file; `check` the token's bindings against them (outside the lock);
 * 2. back up every file (hash-verified, before any change);
 * 3. take the lock, re-read, require every file to be byte-identical to its backup, `check` again;
 * 4. write each new file by temp + rename (`plan` returns complete new bytes; build them with
 *    `withoutLines`/`withAppended` so every untouched line stays byte for byte);
 * 5. release, then verify each file reads back as planned (another writer may only have appended
 *    after it); on a mismatch restore from the backup what still holds our bytes, and say so.
 */
interface TransactionSpec {
  /** The store directory whose plugin lock (`<dir>.lock`) covers every file below. */
  lockTarget: string;
  files: readonly string[];
  backupRoot: string;
  backupName: string;
  manifest: Record<string, unknown>;
  check(snapshots: ReadonlyMap<string, StoreSnapshot>): void;
  plan(snapshots: ReadonlyMap<string, StoreSnapshot>): Map<string, Buffer>;
  lockWaitMs: number;
  onLockHeld?: ((heldMs: number, lockDir: string) => void) | undefined;
}

interface TransactionOutcome {
  state: 'committed' | 'verify_failed_restored' | 'verify_failed_restore_failed';
  backup: WrittenBackup;
  before: Map<string, StoreSnapshot>;
  after: Map<string, StoreSnapshot>;
  messages: string[];
}

const readAll = (files: readonly string[]) => new Map(files.map((file) => [file, readStoreSnapshot(file)]));

/** `bytes` plus whole lines, never gluing the first one to a torn last line. */
export function withAppended(bytes: Buffer, lines: readonly string[]): Buffer {
  if (lines.length === 0) return bytes;
  const separator = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? '\n' : '';
  return Buffer.concat([bytes, Buffer.from(separator + lines.map((l) => `${l}\n`).join(''))]);
}

export async function runTransaction(spec: TransactionSpec): Promise<TransactionOutcome> {
  const before = readAll(spec.files);
  spec.check(before);
  const names = new Map(spec.files.map((file) => [file, path.basename(file)]));
  if (new Set(names.values()).size !== names.size) throw new Error('a transaction backs up files with distinct names only');
  let backup: WrittenBackup;
  try {
    backup = writeBackup(
      spec.backupRoot,
      spec.backupName,
      Object.fromEntries([...before].filter(([, s]) => s.exists).map(([file, s]) => [names.get(file) as string, s.bytes])),
      { ...spec.manifest, absent_files: [...before].filter(([, s]) => !s.exists).map(([file]) => names.get(file)) },
    );
  } catch (error) {
    throw new CommitAbort('backup_verify_failed', (error as Error).message);
  }
  await pausePoint('after-backup');

  let planned = new Map<string, Buffer>();
  let written = false;
  try {
    await withStoreLock(
      spec.lockTarget,
      async (lock) => {
        await pausePoint('holding-lock');
        const live = readAll(spec.files);
        for (const [file, snapshot] of live) {
          const was = before.get(file) as StoreSnapshot;
          if (snapshot.exists !== was.exists || snapshot.fingerprint.file_sha256 !== was.fingerprint.file_sha256) {
            spec.check(live);
            throw new CommitAbort('store_changed', `${path.basename(file)} changed while the console waited for the lock; nothing was changed.`);
          }
        }
        spec.check(live);
        planned = spec.plan(live);
        for (const [file, bytes] of planned) {
          written = true;
          await replaceFile(file, bytes, lock);
        }
        await pausePoint('after-rename');
      },
      { waitMs: spec.lockWaitMs, ...(spec.onLockHeld ? { onHeld: spec.onLockHeld } : {}) },
    );
  } catch (error) {
    if (!written) {
      fs.rmSync(backup.dir, { recursive: true, force: true });
      if (error instanceof LockTimeoutError || error instanceof LockLostError) throw new CommitAbort(error.code, error.message);
      if (error instanceof TokenRefusal || error instanceof CommitAbort) throw error;
      throw new CommitAbort('write_failed', (error as Error).message);
    }
    throw error;
  }

  const after = readAll(spec.files);
  const mismatched = [...planned].filter(([file, bytes]) => !(after.get(file) as StoreSnapshot).bytes.subarray(0, bytes.length).equals(bytes));
  if (mismatched.length === 0) {
    writeResult(backup.dir, { state: 'committed', at: new Date().toISOString(), post: Object.fromEntries([...after].map(([f, s]) => [names.get(f), s.fingerprint])) });
    return { state: 'committed', backup, before, after, messages: [] };
  }
  const restore = await restoreFiles(spec, before, planned);
  const state = restore.ok ? 'verify_failed_restored' : 'verify_failed_restore_failed';
  writeResult(backup.dir, { state, at: new Date().toISOString(), mismatched: mismatched.map(([f]) => names.get(f)), restore });
  return { state, backup, before, after: readAll(spec.files), messages: [`${mismatched.map(([f]) => path.basename(f)).join(', ')} did not read back as written. ${restore.message}`] };
}

/** Puts the original bytes back into each planned file that still holds exactly what we wrote. */
async function restoreFiles(spec: TransactionSpec, before: Map<string, StoreSnapshot>, planned: Map<string, Buffer>): Promise<{ ok: boolean; message: string }> {
  try {
    return await withStoreLock(
      spec.lockTarget,
      async (lock) => {
        const skipped: string[] = [];
        for (const [file, bytes] of planned) {
          const live = readStoreSnapshot(file);
          const original = before.get(file) as StoreSnapshot;
          if (live.fingerprint.file_sha256 === original.fingerprint.file_sha256) continue;
          if (live.fingerprint.file_sha256 !== sha256Hex(bytes)) {
            skipped.push(path.basename(file));
            continue;
          }
          if (original.exists) await replaceFile(file, original.bytes, lock);
          else fs.rmSync(file, { force: true });
        }
        return skipped.length
          ? { ok: false, message: `Not restored (another writer changed them meanwhile): ${skipped.join(', ')}. The backup is intact.` }
          : { ok: true, message: 'Every file was restored from the backup.' };
      },
      { waitMs: spec.lockWaitMs },
    );
  } catch (error) {
    return { ok: false, message: `The restore from the backup failed: ${(error as Error).message}` };
  }
}
