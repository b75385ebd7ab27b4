import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pausePoint } from './pause-points';
import type { HeldLock } from './store-lock';

/**
 * Replaces `target` by temp file + rename in the same directory
 * (docs/plugin-formats.md#second-process-writes, rule 6: a `.tmp.` name the plugin's readers
 * ignore). Under a lock, the lock is re-checked right before the rename, so a console that was
 * treated as stale never overwrites what the new holder wrote.
 */
export async function replaceFile(target: string, bytes: Buffer, lock: HeldLock): Promise<void> {
  const temp = tempNameFor(target);
  try {
    writeLike(temp, bytes, target);
    await pausePoint('after-temp-write');
    lock.assertHeld();
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** The same temp + rename without a lock, for the skill files the plugin itself writes unlocked (retired.marker); creates the folder. */
export function replaceUnlockedFile(target: string, bytes: Buffer): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = tempNameFor(target);
  try {
    writeLike(temp, bytes, target);
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Writes the temp file with the mode (and, where the process may, the owner) of the file it will
 * replace: a rename puts the temp file's inode in place, so without this a 0600 store would come
 * back 0644 (the umask's default) and a 0444 one writable, on every commit, restore and rollback.
 */
function writeLike(temp: string, bytes: Buffer, target: string): void {
  let current: fs.Stats | null = null;
  try {
    current = fs.statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // A new file gets the default mode, as the plugin's own writes do.
  if (!current) return fs.writeFileSync(temp, bytes);
  // Never more open than the target, not even for a moment: 0600 first, then the target's mode.
  fs.writeFileSync(temp, bytes, { mode: 0o600 });
  fs.chmodSync(temp, current.mode & 0o7777);
  try {
    fs.chownSync(temp, current.uid, current.gid);
  } catch {
    // Only root (or the owner, for a group it belongs to) may: otherwise the file becomes ours, as any rewrite would.
  }
}

const tempNameFor = (target: string): string => path.join(path.dirname(target), `${path.basename(target)}.tmp.${Date.now()}.${crypto.randomInt(1e9)}`);

/** Appends whole lines (each ending in `\n`) under a lock the caller holds. */
export function appendLines(target: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  // A torn last line (no `\n`) must not swallow the first appended record.
  const size = fs.existsSync(target) ? fs.statSync(target).size : 0;
  let separator = '';
  if (size > 0) {
    const last = Buffer.alloc(1);
    const fd = fs.openSync(target, 'r');
    try {
      fs.readSync(fd, last, 0, 1, size - 1);
    } finally {
      fs.closeSync(fd);
    }
    if (last[0] !== 0x0a) separator = '\n';
  }
  fs.appendFileSync(target, separator + lines.map((line) => `${line}\n`).join(''));
}
