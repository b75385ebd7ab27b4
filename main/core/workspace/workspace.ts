import crypto from 'node:crypto';
import path from 'node:path';
import { ensurePrivateDir } from '../platform/paths/private-files';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';

/**
 * One opened project plus its hive. Areas attach their per-workspace services (index,
 * watchers, receipt verifier…) with `service()`; all of them are disposed together when
 * another workspace is opened.
 */
export class Workspace {
  private readonly services = new Map<string, { value: unknown; dispose?: () => void | Promise<void> }>();
  private disposed = false;

  constructor(
    readonly paths: WorkspacePaths,
    /** A private folder for this workspace's caches (e.g. the SQLite index). Deleting it loses nothing. */
    readonly cacheDir: string,
  ) {}

  static cacheDirFor(userDataDir: string, paths: WorkspacePaths): string {
    const dir = Workspace.cacheDirPath(userDataDir, paths);
    ensurePrivateDir(dir, { tighten: true });
    return dir;
  }

  /** Where that folder is, without creating it (for read-only commands such as `history`). */
  static cacheDirPath(userDataDir: string, paths: Pick<WorkspacePaths, 'projectDir' | 'hiveDir'>): string {
    const key = crypto.createHash('sha256').update(`${paths.projectDir}\n${paths.hiveDir}`).digest('hex').slice(0, 16);
    return path.join(userDataDir, 'workspaces', key);
  }

  service<T>(key: string, create: () => { value: T; dispose?: () => void | Promise<void> }): T {
    if (this.disposed) throw new Error(`workspace ${this.paths.projectDir} is closed`);
    let entry = this.services.get(key);
    if (!entry) {
      entry = create();
      this.services.set(key, entry);
    }
    return entry.value as T;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const entries = [...this.services.values()].reverse();
    this.services.clear();
    for (const entry of entries) await entry.dispose?.();
  }
}
