import fs from 'node:fs';
import path from 'node:path';

/** Entries whose presence makes a folder the plugin's `<dataDir>` (docs/plugin-formats.md#data-folder). */
const HIVE_MARKERS = ['shared-learnings.jsonl', 'shared-learnings-rejected.jsonl', 'shared-knowledge-events.jsonl', 'hive-knowledge.jsonl', 'links'] as const;

export interface HiveFolderCheck {
  /** hive: holds at least one hive file or `links/`; parent: holds none but the data folder is one level down; empty/missing: no hive. */
  state: 'hive' | 'parent' | 'empty' | 'missing' | 'not_a_folder';
  /** The plugin's data folder inside the given one (`…/opencode-swarm`), offered instead. */
  suggestion: string | null;
  /** One line for the status bar, the switcher and the CLI; null when the folder is a hive. */
  message: string | null;
}

const isDir = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
const holdsHive = (dir: string) => HIVE_MARKERS.some((name) => fs.existsSync(path.join(dir, name)));

/** Where an operator who named the folder *above* the data folder meant to point (Linux/macOS, then Windows' `…\opencode-swarm\Data`). */
function dataFolderInside(dir: string): string | null {
  const candidates = [path.join(dir, 'opencode-swarm'), path.join(dir, 'opencode-swarm', 'Data')];
  if (path.basename(dir) === 'opencode-swarm') candidates.push(path.join(dir, 'Data'));
  return candidates.find((c) => isDir(c) && holdsHive(c)) ?? candidates.find((c) => path.basename(c) === 'opencode-swarm' && isDir(c)) ?? null;
}

/**
 * Is this the plugin's hive folder? A wrong `--hive` otherwise loads no hive and no link store
 * without a word, and a linked worktree then looks as if its local files were all orphaned.
 */
export function checkHiveFolder(dir: string): HiveFolderCheck {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat) return { state: 'missing', suggestion: null, message: `no hive here: ${dir} does not exist` };
  if (!stat.isDirectory()) return { state: 'not_a_folder', suggestion: null, message: `no hive here: ${dir} is not a folder` };
  if (holdsHive(dir)) return { state: 'hive', suggestion: null, message: null };
  const suggestion = dataFolderInside(dir);
  if (suggestion) {
    return { state: 'parent', suggestion, message: `no hive here: ${dir} holds the plugin's data folder ${suggestion} — use that as the hive folder` };
  }
  return { state: 'empty', suggestion: null, message: `no hive here: ${dir} holds no shared-learnings.jsonl and no links/ folder` };
}
