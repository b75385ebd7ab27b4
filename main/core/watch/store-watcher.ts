import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isTempName } from '../stores/catalog';

export interface WatchTarget {
  /** A directory to follow; it may not exist yet (it is picked up when created). */
  dir: string;
  depth: number;
  /** Whether a path below `dir` (relative, with `/`) may hold a store or lead to one. */
  relevant: (relative: string) => boolean;
}

export type WatchEvent = { kind: 'file'; path: string } | { kind: 'tree'; path: string };

/**
 * Follows the store folders with chokidar. Temp files (names containing `.tmp`, as the plugin
 * writes them before rename) are ignored; a rename-over arrives as a change of the target.
 * File events name the file (they may repeat: consumers coalesce); folder events ask for a rescan.
 */
export class StoreWatcher {
  private readonly watcher: FSWatcher;
  readonly ready: Promise<void>;

  constructor(targets: WatchTarget[], onEvent: (event: WatchEvent) => void) {
    const ignored = (candidate: string) => {
      if (isTempName(path.basename(candidate))) return true;
      for (const target of targets) {
        const relative = path.relative(target.dir, candidate);
        if (relative === '') return false;
        if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
        if (target.relevant(relative.split(path.sep).join('/'))) return false;
      }
      // An ancestor of a watched dir (chokidar watches parents of missing targets).
      return !targets.some((t) => !path.relative(candidate, t.dir).startsWith('..'));
    };
    this.watcher = watch(
      targets.map((t) => t.dir),
      { ignoreInitial: true, ignored, depth: Math.max(...targets.map((t) => t.depth), 0), atomic: true, followSymlinks: true },
    );
    this.watcher.on('all', (event, changed) => {
      if (event === 'add' || event === 'change' || event === 'unlink') onEvent({ kind: 'file', path: changed });
      else if (event === 'addDir' || event === 'unlinkDir') onEvent({ kind: 'tree', path: changed });
    });
    // chokidar drops a 'change' within 50 ms of the previous one for the same path (and one whose
    // mtime did not move), which loses back-to-back appends; its raw fs.watch events are not
    // filtered, so they are followed too. A sync of an unchanged file costs one stat.
    this.watcher.on('raw', (_event, rawPath, details) => {
      const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!watched || typeof rawPath !== 'string' || rawPath === '') return;
      const candidate = path.isAbsolute(rawPath) ? rawPath : path.basename(watched) === rawPath ? watched : path.join(watched, rawPath);
      if (!ignored(candidate)) onEvent({ kind: 'file', path: candidate });
    });
    this.watcher.on('error', (error) => console.warn('[store-watcher]', (error as Error).message));
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()));
  }

  close(): Promise<void> {
    return this.watcher.close();
  }
}

/** True when `relative` is one of the patterns' paths or a folder on the way to one. */
export function relevantFor(patterns: RegExp[], prefixes: string[][]): (relative: string) => boolean {
  return (relative) => {
    if (patterns.some((re) => re.test(relative))) return true;
    const parts = relative.split('/');
    return prefixes.some((segments) => parts.length < segments.length && parts.every((part, i) => segments[i] === '*' || segments[i] === part));
  };
}
