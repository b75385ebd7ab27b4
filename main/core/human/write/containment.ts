import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a human-only write may land: inside a directory whose plugin lock the commit holds (or an
 * explicitly named unlocked root, for the skill files the plugin itself writes without a lock),
 * never through a symlink. A store file that is a symlink would be read through its target but
 * replaced by a plain file on rename, and a symlinked folder could carry the write anywhere (the
 * check compares resolved paths, as the lock itself does).
 */
const isInside = (root: string, target: string): boolean => target === root || target.startsWith(root + path.sep);

/** The realpath of `target`'s nearest existing ancestor, joined with the not-yet-existing rest. */
function resolvedLocation(target: string): string {
  let existing = path.resolve(target);
  const rest: string[] = [];
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  return path.join(fs.realpathSync(existing), ...rest);
}

/** Why `file` may not be written under `roots`, or null when it may. */
export function containmentProblem(file: string, roots: readonly string[]): string | null {
  const absolute = path.resolve(file);
  try {
    if (fs.lstatSync(absolute).isSymbolicLink()) return `${absolute} is a symlink; the console does not write through it.`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Resolved, so a symlinked folder that leads out of every root is caught here.
  const parent = resolvedLocation(path.dirname(absolute));
  const resolvedRoots = roots.map(resolvedLocation);
  if (!resolvedRoots.some((root) => isInside(root, parent))) return `${absolute} is outside every folder this command may write (${resolvedRoots.join(', ')}).`;
  return null;
}
