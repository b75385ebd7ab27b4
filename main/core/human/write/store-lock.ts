import fs from 'node:fs';
import lockfile from 'proper-lockfile';

/**
 * The plugin's lock protocol (proper-lockfile 4: `mkdir <realpath(dir)>.lock`, mtime refreshed
 * while held). The console never breaks a live lock: it only treats a lock as stale after 10 s
 * (the largest `stale` the plugin uses), refreshes its own every second (the plugin's
 * knowledge writers break locks older than 5 s), and waits on a back-off until its deadline.
 */
const CONSOLE_LOCK_STALE_MS = 10_000;
const CONSOLE_LOCK_UPDATE_MS = 1_000;
export const DEFAULT_LOCK_WAIT_MS = 5_000;

export class LockTimeoutError extends Error {
  readonly code = 'lock_timeout';
  constructor(readonly lockDir: string, waitedMs: number) {
    super(`Another process held ${lockDir} for ${(waitedMs / 1000).toFixed(1)} s; nothing was changed. Try again when the agents are idle.`);
  }
}

export class LockLostError extends Error {
  readonly code = 'lock_lost';
  constructor(readonly lockDir: string) {
    super(`The lock ${lockDir} was taken over by another process while the console held it; nothing was renamed into place.`);
  }
}

export interface HeldLock {
  readonly lockDir: string;
  /** Throws LockLostError when the lock was compromised or removed: call right before the rename. */
  assertHeld(): void;
}

export interface LockOptions {
  /** How long to wait for a busy lock before giving up cleanly. */
  waitMs?: number;
  /** Told how long the lock was held (the benchmark's figure; the plugin gives up after ≈1.7 s). */
  onHeld?: (heldMs: number, lockDir: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `<realpath(dir)>.lock`, the directory the plugin itself creates for a store directory. */
const lockDirFor = (storeDir: string): string => `${fs.realpathSync(storeDir)}.lock`;

/** Runs `critical` while holding the plugin's lock on `storeDir` (which must exist). */
export async function withStoreLock<T>(storeDir: string, critical: (lock: HeldLock) => Promise<T>, options: LockOptions = {}): Promise<T> {
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const lockDir = lockDirFor(storeDir);
  let compromised = false;
  const started = Date.now();
  let delay = 100;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(storeDir, {
        stale: CONSOLE_LOCK_STALE_MS,
        update: CONSOLE_LOCK_UPDATE_MS,
        realpath: true,
        retries: 0,
        onCompromised: () => {
          compromised = true;
        },
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const waited = Date.now() - started;
      if (waited >= waitMs) throw new LockTimeoutError(lockDir, waited);
      await sleep(Math.min(delay, waitMs - waited));
      delay = Math.min(delay * 2, 500);
    }
  }
  const held: HeldLock = {
    lockDir,
    assertHeld() {
      if (compromised || !fs.existsSync(lockDir)) throw new LockLostError(lockDir);
    },
  };
  const acquiredAt = performance.now();
  try {
    return await critical(held);
  } finally {
    if (!compromised) await release().catch(() => undefined);
    options.onHeld?.(performance.now() - acquiredAt, lockDir);
  }
}
