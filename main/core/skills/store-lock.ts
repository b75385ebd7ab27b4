import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * Runs `work` holding the plugin's lock on a store directory (section 5): `mkdir` of
 * `<realpath(dir)>.lock` through proper-lockfile, never breaking a lock younger than 10 s,
 * refreshing every 2 s. `work` receives `stillHeld()` to check right before its final rename:
 * if another process took the lock as stale, the write is abandoned.
 */
export async function withStoreLock<T>(dir: string, work: (stillHeld: () => boolean) => Promise<T> | T): Promise<T> {
  let compromised: Error | null = null;
  const release = await lockfile.lock(dir, {
    stale: 10_000,
    update: 2_000,
    realpath: true,
    retries: { retries: 40, minTimeout: 50, maxTimeout: 250, factor: 1.5 },
    onCompromised: (error) => {
      compromised = error;
    },
  });
  try {
    return await work(() => compromised === null);
  } finally {
    if (!compromised) await release().catch(() => undefined);
  }
}

export class LockLostError extends Error {
  constructor(dir: string) {
    super(`lost the lock on ${dir} before writing (another process treated it as stale); nothing was written`);
  }
}

/** Temp + rename in the same directory with a `.tmp.` name, as rule 5.6.6 asks. */
export function writeViaTemp(target: string, content: string, stillHeld: () => boolean = () => true): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.tmp.${process.pid}.${Date.now()}.${Math.floor(Math.random() * 1e9)}`);
  try {
    fs.writeFileSync(temp, content);
    if (!stillHeld()) throw new LockLostError(path.dirname(target));
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
