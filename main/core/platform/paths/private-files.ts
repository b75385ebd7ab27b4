import fs from 'node:fs';
import path from 'node:path';

/**
 * The console's user-data folder holds copies of lesson text (the index), the live feed and
 * recent projects: only its owner may read it. Folders are 0700, files 0600.
 */
const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) 0700; an existing folder is tightened only when `tighten` says it is ours. */
export function ensurePrivateDir(dir: string, options: { tighten?: boolean } = {}): void {
  const existed = fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (existed && options.tighten) tightenMode(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates `file` empty with mode 0600 before SQLite opens it, or tightens it if it exists. SQLite
 * gives its -wal and -shm files the database file's mode, so those follow; existing ones are
 * tightened too (they may date from before this rule).
 */
export function ensurePrivateDatabaseFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_WRONLY, PRIVATE_FILE_MODE));
  for (const suffix of ['', '-wal', '-shm', '-journal']) tightenMode(file + suffix, PRIVATE_FILE_MODE);
}

/** Writes `text` to `file` through a private temp file and a rename, so no reader sees half of it. */
export function writePrivateFileAtomic(file: string, text: string): void {
  const temp = `${file}.tmp.${process.pid}`;
  fs.writeFileSync(temp, text, { mode: PRIVATE_FILE_MODE });
  fs.chmodSync(temp, PRIVATE_FILE_MODE);
  fs.renameSync(temp, file);
}

function tightenMode(target: string, mode: number): void {
  try {
    const stat = fs.statSync(target);
    if ((stat.mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
