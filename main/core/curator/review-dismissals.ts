import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../platform/paths/private-files';

/**
 * "Reviewed — dismissed: <reason>" for review-queue items that have no store-writing decision
 * (rejected and unactionable lessons, curator recommendations without a command, repeated
 * denials). Kept in the console's user data, one JSONL file per workspace (project + hive path),
 * never in a plugin store. An item's key carries a fingerprint of what was reviewed, so a
 * dismissal stops matching, and the item comes back, when the underlying thing changes.
 */
interface Dismissal {
  v: 1;
  at: string;
  key: string;
  reason: string;
}

const sha12 = (text: string) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The short fingerprint a dismissable item's key ends with (`…@<fingerprint>`). */
export const fingerprint = (value: unknown): string => sha12(JSON.stringify(value) ?? '');

export function dismissalsFile(userDataDir: string, projectDir: string, hiveDir: string | null): string {
  return path.join(userDataDir, 'review', `dismissals-${sha12(`${path.resolve(projectDir)}\0${hiveDir ? path.resolve(hiveDir) : ''}`)}.jsonl`);
}

/** Dismissed keys; a damaged line is skipped (it only brings its item back). */
export function readDismissedKeys(file: string): Set<string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
  const keys = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as Partial<Dismissal>;
      if (typeof record.key === 'string') keys.add(record.key);
    } catch {
      // A torn or hand-edited line: its item simply shows again.
    }
  }
  return keys;
}

export function appendDismissal(file: string, key: string, reason: string): Dismissal {
  ensurePrivateDir(path.dirname(file));
  const record: Dismissal = { v: 1, at: new Date().toISOString(), key, reason };
  fs.appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: PRIVATE_FILE_MODE });
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  return record;
}

/** Repeated denials are built by the view from live counters; their key names the directive and its latest denial. */
export const DENIAL_KEY = /^denial:[^@\s]{1,200}@\d{1,16}$/;
