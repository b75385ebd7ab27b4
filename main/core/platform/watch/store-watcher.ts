import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isTempName } from '../paths/temp-name';

export interface WatchTarget {
  /** A directory to follow; it may not exist yet (it is picked up when created). */
  dir: string;
  depth: number;
  /** Whether a path below `dir` (relative, with `/`) may hold a store or lead to one. */
  relevant: (relative: string) => boolean;
}

export type WatchEvent = { kind: 'file'; path: string } | { kind: 'tree'; path: string };

interface StoreWatcherOptions {
  /** How often each target folder is checked for having gone, come back, or changed access (default 1 s). */
  folderCheckMs?: number;
}

const DEFAULT_FOLDER_CHECK_MS = 1_000;

/**
 * What a target folder is right now: `missing`, `unreadable` (no read or search access),
 * `not-a-folder`, or its `dev:ino` (a folder removed and made again, or moved in, has a new one).
 */
function folderState(dir: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'missing' : 'unreadable';
  }
  if (!stat.isDirectory()) return 'not-a-folder';
  try {
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return 'unreadable';
  }
  return `${stat.dev}:${stat.ino}`;
}

interface TargetWatch {
  target: WatchTarget;
  state: string;
  /** None while the folder cannot be read (chokidar would never be ready): the timer looks again. */
  watcher: FSWatcher | null;
  ready: Promise<void>;
}

/** A folder chokidar can follow (a missing one is waited for through its parent). */
const watchable = (state: string) => state !== 'unreadable' && state !== 'not-a-folder';

/**
 * Follows the store folders with chokidar. Temp files (names containing `.tmp`, as the plugin
 * writes them before rename) are ignored; a rename-over arrives as a change of the target.
 * File events name the file (they may repeat: consumers coalesce); folder events ask for a rescan.
 *
 * A watch on a folder dies with it: once `.swarm/` (or the hive) is removed, moved away or made
 * unreadable, nothing more arrives even after it is back. So every target folder is checked on a
 * timer (one stat each) and, whenever it went, came back as a new folder or changed access, its
 * watch is made again and a folder event asks for a rescan.
 *
 * Each target gets its own chokidar instance, not persistent: chokidar shares one fs.watch per
 * path between persistent instances in a process, so a watch made again after the folder came
 * back would join the other instance's dead one; and its `ready` comes early when one of several
 * paths is missing (it counts that path twice), before the other folders are watched, which lost
 * a write made right after `ready` (issue 13, the link.json test).
 */
export class StoreWatcher {
  private readonly watches: TargetWatch[];
  private readonly checker: NodeJS.Timeout;
  private checking: Promise<void> | null = null;
  private closed = false;
  readonly ready: Promise<void>;

  constructor(
    private readonly targets: WatchTarget[],
    private readonly onEvent: (event: WatchEvent) => void,
    options: StoreWatcherOptions = {},
  ) {
    this.watches = targets.map((target) => {
      const state = folderState(target.dir);
      const watcher = watchable(state) ? this.watchTarget(target) : null;
      return { target, state, watcher, ready: readyOf(watcher) };
    });
    this.ready = Promise.all(this.watches.map((w) => w.ready)).then(() => undefined);
    this.checker = setInterval(() => void this.checkFolders(), options.folderCheckMs ?? DEFAULT_FOLDER_CHECK_MS);
    this.checker.unref();
  }

  /** Re-watches every target folder whose state changed since it was last watched; resolves when done. */
  checkFolders(): Promise<void> {
    if (this.checking) return this.checking;
    this.checking = (async () => {
      for (const watch of this.watches) {
        const state = folderState(watch.target.dir);
        if (this.closed || state === watch.state) continue;
        watch.state = state;
        await watch.watcher?.close();
        watch.watcher = null;
        if (this.closed) return;
        if (watchable(state)) watch.watcher = this.watchTarget(watch.target);
        watch.ready = readyOf(watch.watcher);
        await watch.ready;
        if (!this.closed) this.onEvent({ kind: 'tree', path: watch.target.dir });
      }
    })().finally(() => (this.checking = null));
    return this.checking;
  }

  private ignored = (candidate: string): boolean => {
    if (isTempName(path.basename(candidate))) return true;
    for (const target of this.targets) {
      const relative = path.relative(target.dir, candidate);
      if (relative === '') return false;
      if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
      if (target.relevant(relative.split(path.sep).join('/'))) return false;
    }
    // An ancestor of a watched dir (chokidar watches parents of missing targets).
    return !this.targets.some((t) => !path.relative(candidate, t.dir).startsWith('..'));
  };

  private watchTarget(target: WatchTarget): FSWatcher {
    const watcher = watch(target.dir, { ignoreInitial: true, ignored: this.ignored, depth: target.depth, atomic: true, followSymlinks: true, persistent: false });
    watcher.on('all', (event, changed) => {
      if (this.closed) return;
      if (event === 'add' || event === 'change' || event === 'unlink') this.onEvent({ kind: 'file', path: changed });
      else if (event === 'addDir' || event === 'unlinkDir') {
        this.onEvent({ kind: 'tree', path: changed });
        // The target itself may have gone or come back: look now rather than at the next tick.
        if (changed === target.dir) void this.checkFolders();
      }
    });
    // chokidar drops a 'change' within 50 ms of the previous one for the same path (and one whose
    // mtime did not move), which loses back-to-back appends; its raw fs.watch events are not
    // filtered, so they are followed too. A sync of an unchanged file costs one stat.
    watcher.on('raw', (_event, rawPath, details) => {
      if (this.closed) return;
      const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!watched || typeof rawPath !== 'string' || rawPath === '') return;
      const candidate = path.isAbsolute(rawPath) ? rawPath : path.basename(watched) === rawPath ? watched : path.join(watched, rawPath);
      if (candidate === target.dir) void this.checkFolders();
      if (!this.ignored(candidate)) this.onEvent({ kind: 'file', path: candidate });
    });
    watcher.on('error', (error) => console.warn('[store-watcher]', (error as Error).message));
    return watcher;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.checker);
    // Not waiting for a folder check in progress: it stops at its next step, and a watch it has
    // just made is in `watches` already, so it is closed here (its `ready` then never comes).
    await Promise.all(this.watches.map((w) => w.watcher?.close()));
  }
}

/**
 * chokidar's first scan; bounded, because a folder whose access changes during the scan can leave
 * it without an end (the folder check makes the watch again once the folder is readable).
 */
const READY_WAIT_MS = 15_000;
const readyOf = (watcher: FSWatcher | null) =>
  watcher
    ? new Promise<void>((resolve) => {
        const fallback = setTimeout(resolve, READY_WAIT_MS);
        fallback.unref();
        watcher.once('ready', () => {
          clearTimeout(fallback);
          resolve();
        });
      })
    : Promise.resolve();

/** True when `relative` is one of the patterns' paths or a folder on the way to one. */
export function relevantFor(patterns: RegExp[], prefixes: string[][]): (relative: string) => boolean {
  return (relative) => {
    if (patterns.some((re) => re.test(relative))) return true;
    const parts = relative.split('/');
    return prefixes.some((segments) => parts.length < segments.length && parts.every((part, i) => segments[i] === '*' || segments[i] === part));
  };
}
