import fs from 'node:fs';
import path from 'node:path';
import { withStoreLock, type HeldLock, type LockOptions } from './store-lock';

/**
 * Holds several plugin locks at once (promote: the project or link store and the hive). They are
 * taken in one global order — sorted by resolved path, duplicates dropped — so two console commands
 * that need the same pair can never each hold one and wait for the other. Released in reverse.
 * The returned lock's `assertHeld` checks every one of them before a rename.
 */
export async function withStoreLocks<T>(storeDirs: readonly string[], critical: (lock: HeldLock) => Promise<T>, options: LockOptions = {}): Promise<T> {
  const ordered = [...new Set(storeDirs.map((dir) => fs.realpathSync(path.resolve(dir))))].sort();
  const held: HeldLock[] = [];
  const all: HeldLock = {
    get lockDir() {
      return held.map((l) => l.lockDir).join(', ');
    },
    assertHeld() {
      for (const lock of held) lock.assertHeld();
    },
  };
  const take = async (index: number): Promise<T> => {
    if (index === ordered.length) return critical(all);
    return withStoreLock(
      ordered[index] as string,
      async (lock) => {
        held.push(lock);
        try {
          return await take(index + 1);
        } finally {
          held.pop();
        }
      },
      options,
    );
  };
  return take(0);
}
