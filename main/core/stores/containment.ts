import fs from 'node:fs';
import path from 'node:path';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';

/**
 * Store files are read only where they resolve inside the workspace: the project folder or the
 * plugin's data folder (which holds the hive and the link stores, `links/<id>/`). A store path
 * that is a symlink (or lies in a symlinked folder) leading anywhere else is not read at all — a
 * cloned repository could point `.swarm/knowledge.jsonl` at a credentials file, and its first
 * bytes would show up in defect reasons. Symlinks that stay inside (e.g. a later plugin's
 * `.swarm/knowledge.jsonl` → `<dataDir>/links/<id>/knowledge.jsonl`, docs/plugin-formats.md#link-symlinks) are followed.
 */
/**
 * The project, the plugin's data folder, and the link store wherever it really is (the operator may
 * have made `links/<id>` a symlink to a shared folder; the plugin writes through it too).
 */
export function workspaceRoots(paths: Pick<WorkspacePaths, 'projectDir' | 'hiveDir' | 'link'>): string[] {
  return [paths.projectDir, paths.hiveDir, ...(paths.link.dir ? [paths.link.dir] : [])];
}

/** What readers confine to for a workspace: nothing when the operator allowed symlinks outside. */
export const confinementOf = (paths: Pick<WorkspacePaths, 'projectDir' | 'hiveDir' | 'link' | 'allowSymlinksOutside'>): string[] | undefined =>
  paths.allowSymlinksOutside ? undefined : workspaceRoots(paths);

function realRoots(roots: readonly string[]): string[] {
  return roots.map((root) => {
    try {
      return fs.realpathSync(root);
    } catch {
      return path.resolve(root);
    }
  });
}

const inside = (real: string, root: string) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** Where `file` really leads when that is outside every root; null when inside (or not there). */
export function outsideTarget(file: string, roots: readonly string[]): string | null {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return null; // missing or unreadable: the reader says so
  }
  return realRoots(roots).some((root) => inside(real, root)) ? null : real;
}

export const outsideMessage = (file: string, target: string) => `${file} is a symlink outside the workspace — not read (it leads to ${target})`;

/**
 * After opening: the handle must be the file that was checked (a symlink swapped in between the
 * check and the open would otherwise be read).
 */
export function sameFile(a: { dev: number; ino: number }, file: string): boolean {
  try {
    const stat = fs.statSync(fs.realpathSync(file));
    return stat.dev === a.dev && stat.ino === a.ino;
  } catch {
    return false;
  }
}
