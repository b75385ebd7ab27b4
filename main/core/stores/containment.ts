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

const isLink = (file: string): boolean => {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
};

/**
 * Where `file` really is: the realpath of its nearest existing ancestor joined with the part that
 * does not exist yet (a file a write is about to create lands there). A dangling symlink is
 * followed to where it points, so a link to a not-yet-existing file outside is still outside.
 */
export function realLocation(file: string, depth = 0): string {
  let existing = path.resolve(file);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest);
    } catch {
      if (isLink(existing) && depth < 40) return path.join(realLocation(path.resolve(path.dirname(existing), fs.readlinkSync(existing)), depth + 1), ...rest);
      const parent = path.dirname(existing);
      if (parent === existing) return path.join(existing, ...rest);
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** The symlink through which `file` leads out of every root, and where it really leads. */
export interface Escape {
  /** The path that is a symlink: the file itself or a folder on its way (or the file, if no link is to blame). */
  link: string;
  target: string;
}

/**
 * THE containment rule, for readers and human-only writes alike: a path is inside when it really
 * resolves inside one of `roots` (the project, the plugin's data folder, the link store). Symlinks
 * that stay inside, such as the plugin's own link symlinks, pass.
 */
export function escapeOf(file: string, roots: readonly string[]): Escape | null {
  const target = realLocation(file);
  if (realRoots(roots).some((root) => inside(target, root))) return null;
  for (let at = path.resolve(file); ; at = path.dirname(at)) {
    if (isLink(at)) return { link: at, target };
    if (path.dirname(at) === at) return { link: path.resolve(file), target };
  }
}

/** Where `file` really leads when that is outside every root; null when inside (or not there: the reader says so). */
export function outsideTarget(file: string, roots: readonly string[]): string | null {
  if (!fs.existsSync(file)) return null;
  return escapeOf(file, roots)?.target ?? null;
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
