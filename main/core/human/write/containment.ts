import fs from 'node:fs';
import path from 'node:path';
import { ConsoleError } from '../../../../shared/contract';
import { escapeOf, realLocation } from '../../stores/containment';

/**
 * Where a human-only command may read and write. Two rules, both checked at the preview and again
 * under the plugin's lock:
 *
 * 1. The read side's rule, the same function (`escapeOf` in stores/containment.ts): every path a
 *    command reads or writes — store, sidecar, event log, backup folder, skill file — must really
 *    resolve inside the project, the plugin's data folder or the link store. A symlink leading
 *    anywhere else is refused, naming the link and its target. The "read symlinks outside"
 *    checkbox of the project switcher never extends to writes.
 * 2. Stricter for the files it rewrites: inside a directory whose plugin lock the commit holds (or
 *    an explicitly named unlocked root, for the skill files the plugin itself writes without a
 *    lock), and never a symlink itself, even one that stays inside — rename would replace the link
 *    with a plain file. (The plugin's own link symlinks are never written through: the knowledge
 *    family is addressed by link.json's real folder, docs/plugin-formats.md#link-symlinks.)
 */
const isInside = (root: string, target: string): boolean => target === root || target.startsWith(root + path.sep);

export interface Containment {
  /** The workspace: the project, the plugin's data folder and the link store (`workspaceRoots`). */
  workspace: readonly string[];
  /** Folders a rewritten file must lie in (locked store dirs plus unlocked roots). */
  writable?: readonly string[];
}

const readlinkOrNull = (file: string): string | null => {
  try {
    return fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : null;
  } catch {
    return null;
  }
};

/** Why `file` may not be read or written by a human-only command, or null when it may. */
export function containmentProblem(file: string, rules: Containment): string | null {
  const absolute = path.resolve(file);
  const escape = escapeOf(absolute, rules.workspace);
  if (escape) {
    const behind = escape.link === absolute ? '' : ` (${absolute} lies behind it)`;
    return `${escape.link} is a symlink outside the workspace — not read or written by a human-only command (it leads to ${escape.target})${behind}.`;
  }
  if (!rules.writable) return null;
  const linkTarget = readlinkOrNull(absolute);
  if (linkTarget !== null) return `${absolute} is a symlink (to ${linkTarget}); the console does not write through it.`;
  // Resolved, so a symlinked folder that leads out of every writable root is caught here.
  const parent = realLocation(path.dirname(absolute));
  const resolvedRoots = rules.writable.map((root) => realLocation(root));
  if (!resolvedRoots.some((root) => isInside(root, parent))) return `${absolute} is outside every folder this command may write (${resolvedRoots.join(', ')}).`;
  return null;
}

/** The first problem among `files` (read or written), or null. */
export function firstContainmentProblem(files: readonly string[], rules: Containment): string | null {
  for (const file of files) {
    const problem = containmentProblem(file, rules);
    if (problem) return problem;
  }
  return null;
}

/** For previews: refuse before a token is minted, with the same words the commit would use. */
export function refuseOutsideWorkspace(workspace: readonly string[], files: readonly string[]): void {
  const problem = firstContainmentProblem(files, { workspace });
  if (problem) throw new ConsoleError('failed', `${problem} Nothing can be previewed or written.`);
}
