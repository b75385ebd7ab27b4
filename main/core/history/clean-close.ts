import fs from 'node:fs';

/**
 * Whether a history file may skip its integrity check on open. `quick_check` reads every page:
 * about 290 ms for the 111 MB history of a 90,000-lesson workspace, on the thread that opens the
 * workspace, so it was most of a re-open. A file the console closed cleanly (the last connection:
 * its WAL was checkpointed into the file and removed) and that nothing has touched since (same
 * inode, size and mtime, no -wal beside it) was checked when it was opened and has been written
 * only through SQLite since; the mark of that close is taken (removed) on the next open, so a
 * session that crashes leaves none and the open after it checks again. The same trust the store
 * index gives an unchanged store file. What it cannot see: bytes changed in place with size and
 * mtime kept (bit rot), which SQLite reports when it reads that page.
 */

const MARK_SUFFIX = '.clean-close';

interface Mark {
  ino: number;
  size: number;
  mtimeMs: number;
}

const markOf = (stat: fs.Stats): Mark => ({ ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs });

/** After the connection closed: marks the file clean when everything is in it (no -wal left). */
export function markCleanClose(file: string): void {
  try {
    if (fs.existsSync(`${file}-wal`)) return;
    fs.writeFileSync(file + MARK_SUFFIX, JSON.stringify(markOf(fs.statSync(file))), { mode: 0o600 });
  } catch {
    /* no mark: the next open checks */
  }
}

/** Before opening: true when the file is as a clean close left it. The mark is removed either way. */
export function takeCleanMark(file: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(file + MARK_SUFFIX, 'utf8');
    fs.rmSync(file + MARK_SUFFIX, { force: true });
  } catch {
    return false;
  }
  try {
    if (fs.existsSync(`${file}-wal`)) return false;
    const mark = JSON.parse(text) as Mark;
    const now = markOf(fs.statSync(file));
    return mark.ino === now.ino && mark.size === now.size && mark.mtimeMs === now.mtimeMs;
  } catch {
    return false;
  }
}
