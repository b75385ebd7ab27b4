import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pausePoint } from './pause-points';
import type { HeldLock } from './store-lock';

/**
 * Replaces `target` by temp file + rename in the same directory (rule 5.6.6: a `.tmp.` name the
 * plugin's readers ignore). Under a lock, the lock is re-checked right before the rename, so a
 * console that was treated as stale never overwrites what the new holder wrote.
 */
export async function replaceFile(target: string, bytes: Buffer, lock: HeldLock): Promise<void> {
  const temp = tempNameFor(target);
  try {
    fs.writeFileSync(temp, bytes);
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
    fs.writeFileSync(temp, bytes);
    fs.renameSync(temp, target);
  } finally {
    fs.rmSync(temp, { force: true });
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
