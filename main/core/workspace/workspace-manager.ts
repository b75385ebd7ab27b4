import fs from 'node:fs';
import path from 'node:path';
import { ConsoleError } from '../../../shared/contract';
import { resolvePluginDataDir, type PlatformEnv, currentPlatformEnv } from '../platform/paths/platform-data-dir';
import type { DemoWorkspaces } from './demo-port';
import { Workspace } from './workspace';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { ensurePrivateDir, writePrivateFileAtomic } from '../platform/paths/private-files';

/** Names that mark a folder as this console's user-data folder. */
const CONSOLE_FILES = ['recent-projects.json', 'workspaces', 'bridge.db', 'demo'];

export interface OpenRequest {
  /** null: the demo workspace. */
  project: string | null;
  hive?: string | undefined;
  /** See `allowSymlinksOutside` in the workspace.open contract. */
  allowSymlinksOutside?: boolean | undefined;
}

interface RecentProject {
  path: string;
  name: string;
  isDemo: boolean;
  /** The hive it was opened with when that was named (--hive, the switcher) or carried; absent: as the plugin resolves it. */
  hive?: string;
}

const MAX_RECENT = 12;

/** Owns the one open workspace and the list of recent ones (the console's own state, never a store). */
export class WorkspaceManager {
  private currentWorkspace: Workspace | null = null;
  private readonly listeners = new Set<(workspace: Workspace) => void>();
  private readonly recentFile: string;
  /** Workspaces still closing, by project folder (see open). */
  private readonly closing = new Map<string, Promise<void>>();

  constructor(
    readonly userDataDir: string,
    /** The seeded demo, when the host provides one (`main/demo/`); without it only real projects open. */
    private readonly demo: DemoWorkspaces | null = null,
    private readonly platformEnv: PlatformEnv = currentPlatformEnv(),
  ) {
    // A folder already holding the console's files is tightened too: it may predate this rule.
    ensurePrivateDir(userDataDir, { tighten: CONSOLE_FILES.some((name) => fs.existsSync(path.join(userDataDir, name))) });
    this.recentFile = path.join(userDataDir, 'recent-projects.json');
  }

  get current(): Workspace {
    if (!this.currentWorkspace) throw new ConsoleError('unavailable', 'No workspace is open');
    return this.currentWorkspace;
  }

  onOpened(listener: (workspace: Workspace) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async open(request: OpenRequest): Promise<Workspace> {
    const demoRoot = path.join(this.userDataDir, 'demo');
    const isDemo = request.project === null || path.resolve(request.project).startsWith(demoRoot + path.sep);
    let projectDir: string;
    let hiveDir: string;
    let hiveSource: 'flag' | 'env' | 'demo' | 'carried';
    if (isDemo) {
      if (!this.demo) throw new ConsoleError('invalid_input', 'No project folder was given, and this console was started without its demo workspace');
      const demo = await this.demo.ensure(this.userDataDir);
      projectDir = request.project === null ? demo.defaultProject : path.resolve(request.project);
      if (!fs.existsSync(projectDir)) throw new ConsoleError('not_found', `Demo project does not exist: ${projectDir}`);
      hiveDir = request.hive ?? demo.hiveFor(projectDir);
      hiveSource = request.hive ? 'flag' : 'demo';
    } else {
      projectDir = path.resolve(request.project as string);
      const stat = fs.statSync(projectDir, { throwIfNoEntry: false });
      if (!stat) throw new ConsoleError('not_found', `Project folder does not exist: ${projectDir}`);
      if (!stat.isDirectory()) throw new ConsoleError('invalid_input', `Project path is not a folder: ${projectDir}`);
      const carried = request.hive ? null : this.carriedHive(projectDir);
      hiveDir = request.hive ? path.resolve(request.hive) : (carried ?? resolvePluginDataDir(this.platformEnv));
      hiveSource = request.hive ? 'flag' : carried ? 'carried' : 'env';
    }
    const paths = resolveWorkspacePaths(projectDir, hiveDir, hiveSource, isDemo, request.allowSymlinksOutside ?? false);
    const next = new Workspace(paths, Workspace.cacheDirFor(this.userDataDir, paths));
    const previous = this.currentWorkspace;
    this.currentWorkspace = next;
    if (previous) this.closeInBackground(previous);
    // The same project waits for its earlier opening to close: one process never holds two indexes,
    // two history recorders or two demo replays of one project.
    await this.closing.get(paths.projectDir);
    const atWork = isDemo ? (this.demo?.atWork?.(this.userDataDir, paths.projectDir) ?? null) : null;
    if (atWork) next.service('demo-plugin-at-work', () => ({ value: atWork, dispose: () => atWork.stop() }));
    const chosenHive = hiveSource === 'flag' || hiveSource === 'carried' ? { hive: paths.hiveDir } : {};
    this.remember({ path: paths.projectDir, name: path.basename(paths.projectDir), isDemo, ...chosenHive });
    for (const listener of this.listeners) listener(next);
    return next;
  }

  /**
   * The hive a project opened without one keeps: the one it was last opened with, else the one the
   * operator is working in now (a linked worktree opened from the switcher shares its main
   * checkout's hive; resolving it from the environment instead showed "0 entries" and empty inboxes).
   * Only when switching (the first opening follows --hive or the environment); never the demo's hive,
   * and never one only resolved from the environment (that is resolved again).
   */
  private carriedHive(projectDir: string): string | null {
    // The first opening (the command line) resolves the hive as documented: --hive or the environment.
    if (!this.currentWorkspace) return null;
    const remembered = this.recentProjects().find((p) => p.path === projectDir && !p.isDemo)?.hive;
    if (remembered) return remembered;
    const current = this.currentWorkspace?.paths;
    if (current && !current.isDemo && (current.hiveSource === 'flag' || current.hiveSource === 'carried')) return current.hiveDir;
    return null;
  }

  recentProjects(): RecentProject[] {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.recentFile, 'utf8'));
      return Array.isArray(parsed)
        ? parsed
            .filter((p) => typeof p?.path === 'string')
            .map((p) => ({ path: p.path, name: String(p.name ?? ''), isDemo: p.isDemo === true, ...(typeof p.hive === 'string' ? { hive: p.hive } : {}) }))
            .slice(0, MAX_RECENT)
        : [];
    } catch {
      return [];
    }
  }

  /** The generated demo's projects (each folder under `<userData>/demo` that holds a `.swarm/`). */
  demoProjects(): { path: string; name: string; note: string }[] {
    const demoRoot = path.join(this.userDataDir, 'demo');
    const demo = this.demo;
    if (!demo || !fs.existsSync(demoRoot)) return [];
    return fs
      .readdirSync(demoRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(demoRoot, entry.name, '.swarm')))
      .map((entry) => ({ path: path.join(demoRoot, entry.name), name: entry.name, note: demo.noteFor(entry.name) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private remember(project: RecentProject): void {
    const list = [project, ...this.recentProjects().filter((p) => p.path !== project.path)].slice(0, MAX_RECENT);
    writePrivateFileAtomic(this.recentFile, JSON.stringify(list, null, 2) + '\n');
  }

  /**
   * Closing a workspace first finishes its history catch-up and pending recording (seconds on a
   * large or busy store, bounded); another project opens meanwhile rather than after it.
   */
  private closeInBackground(workspace: Workspace): void {
    const key = workspace.paths.projectDir;
    const earlier = this.closing.get(key);
    const closing: Promise<void> = (async () => {
      await earlier;
      await workspace.dispose();
    })()
      .catch((error: unknown) => console.warn(`[workspace] closing ${key} failed:`, (error as Error).message))
      .finally(() => {
        if (this.closing.get(key) === closing) this.closing.delete(key);
      });
    this.closing.set(key, closing);
  }

  /** Whether a workspace of this project is still closing (tests read it). */
  isClosing(projectDir: string): boolean {
    return this.closing.has(projectDir);
  }

  async close(): Promise<void> {
    const previous = this.currentWorkspace;
    this.currentWorkspace = null;
    if (previous) this.closeInBackground(previous);
    while (this.closing.size > 0) await Promise.all([...this.closing.values()]);
  }
}
