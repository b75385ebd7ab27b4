import fs from 'node:fs';
import path from 'node:path';
import { replaceFile } from './atomic-write';
import { withStoreLocks } from './multi-lock';
import type { LockOptions } from './store-lock';
import { sha256Hex, type StoreSnapshot } from './store-snapshot';

export interface RestoreOutcome {
  ok: boolean;
  message: string;
}

const shaOrAbsent = (file: string): string | null => {
  try {
    return sha256Hex(fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/**
 * Puts the backed-up bytes back into every file the commit wrote, under the same locks — but only
 * when each of them still holds exactly what the commit wrote (or already its original bytes).
 * If another writer changed any of them meanwhile, nothing is restored: a half-restored store
 * family is worse than a whole one the backup can roll back.
 */
export async function restoreWritten(locks: readonly string[], before: ReadonlyMap<string, StoreSnapshot>, written: ReadonlyMap<string, Buffer | null>, options: LockOptions): Promise<RestoreOutcome> {
  try {
    return await withStoreLocks(
      locks,
      async (lock) => {
        const changed: string[] = [];
        const toRestore: string[] = [];
        for (const [file, bytes] of written) {
          const original = before.get(file) as StoreSnapshot;
          const live = shaOrAbsent(file);
          if (live === (original.exists ? original.fingerprint.file_sha256 : null)) continue;
          if (live !== (bytes === null ? null : sha256Hex(bytes))) changed.push(path.basename(file));
          else toRestore.push(file);
        }
        if (changed.length) return { ok: false, message: `The restore was not attempted: another writer changed the store meanwhile (${changed.join(', ')}). The backup is intact; roll back from it.` };
        for (const file of toRestore) {
          const original = before.get(file) as StoreSnapshot;
          if (original.exists) await replaceFile(file, original.bytes, lock);
          else fs.rmSync(file, { force: true });
        }
        const unverified = [...written.keys()].filter((file) => {
          const original = before.get(file) as StoreSnapshot;
          return shaOrAbsent(file) !== (original.exists ? original.fingerprint.file_sha256 : null);
        });
        return unverified.length
          ? { ok: false, message: `The restore from the backup did not verify (${unverified.map((f) => path.basename(f)).join(', ')}); the backup is intact.` }
          : { ok: true, message: 'The original store was restored from the backup and verified.' };
      },
      options,
    );
  } catch (error) {
    return { ok: false, message: `The restore from the backup failed: ${(error as Error).message}` };
  }
}
