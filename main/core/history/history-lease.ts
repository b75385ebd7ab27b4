import fs from 'node:fs';
import lockfile from 'proper-lockfile';
import { PRIVATE_FILE_MODE } from '../platform/paths/private-files';

/** proper-lockfile's fs, making its lock folder 0700 from the start (no moment with a wider mode). */
const PRIVATE_MKDIR_FS = { ...fs, mkdir: (dir: string, callback: (error: NodeJS.ErrnoException | null) => void) => fs.mkdir(dir, { mode: 0o700 }, callback) };

/**
 * The single-writer lease on a workspace's history.db: only the process holding it records. It is
 * proper-lockfile's protocol (`mkdir history.db.lock`, its mtime refreshed while held), as the
 * console uses for the plugin's stores (main/core/human/write/store-lock.ts). A holder that is
 * killed stops refreshing it, and after LEASE_STALE_MS another process takes it over. The holder's
 * pid is kept beside it (`history.db.lock.pid`) so a waiting process can say who records.
 */
export const LEASE_STALE_MS = 10_000;
const LEASE_UPDATE_MS = 1_000;

export class HistoryLease {
  private release: (() => Promise<void>) | null = null;
  private readonly lockDir: string;
  private readonly pidFile: string;

  /** `onLost`: the lease was taken from this process (it stalled longer than the stale time). */
  constructor(
    private readonly dbFile: string,
    private readonly onLost: () => void,
  ) {
    this.lockDir = `${dbFile}.lock`;
    this.pidFile = `${dbFile}.lock.pid`;
  }

  get held(): boolean {
    return this.release !== null;
  }

  /** One attempt; true when this process now holds the lease. */
  async tryAcquire(): Promise<boolean> {
    if (this.release) return true;
    try {
      this.release = await lockfile.lock(this.dbFile, {
        lockfilePath: this.lockDir,
        realpath: false,
        // The lease lives in the console's private user-data folder: its lock folder is 0700 like the rest.
        fs: PRIVATE_MKDIR_FS,
        stale: LEASE_STALE_MS,
        update: LEASE_UPDATE_MS,
        retries: 0,
        onCompromised: () => {
          this.release = null;
          this.onLost();
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return false;
      throw error;
    }
    try {
      fs.writeFileSync(this.pidFile, String(process.pid), { mode: PRIVATE_FILE_MODE });
      fs.chmodSync(this.pidFile, PRIVATE_FILE_MODE);
    } catch {
      /* only used to name the holder */
    }
    return true;
  }

  /** The pid of the process holding the lease, as it wrote it (null: unknown). */
  holderPid(): number | null {
    try {
      const pid = Number(fs.readFileSync(this.pidFile, 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch {
      return null;
    }
  }

  async dispose(): Promise<void> {
    const release = this.release;
    this.release = null;
    if (!release) return;
    try {
      if (this.holderPid() === process.pid) fs.rmSync(this.pidFile, { force: true });
    } catch {
      /* best effort */
    }
    await release().catch(() => undefined);
  }
}
