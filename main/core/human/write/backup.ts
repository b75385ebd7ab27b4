import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { signManifest } from './backup-signature';
import { observeStep } from './pause-points';
import { sha256Hex } from './store-snapshot';

/**
 * Backups written and hash-verified BEFORE any change to a store: each file's exact bytes plus a
 * `manifest.json` naming their sha256, signed with this install's key (backup-signature.ts; null
 * only where a test recreates a backup from before signing). A backup that does not read back identically is removed
 * and the write aborts. `result.json` is added after the commit (or rollback) says what happened.
 */
class BackupVerifyError extends Error {
  readonly code = 'backup_verify_failed';
}

/** `YYYYMMDDTHHMMSSmmmZ`: sortable, and without `:` so the name is valid on Windows. */
const backupTimestamp = (at: Date): string => at.toISOString().replace(/[-:]/g, '').replace('.', '');

export const backupName = (at: Date, token12: string): string => `${backupTimestamp(at)}-${token12}-${crypto.randomBytes(4).toString('hex')}`;

export interface WrittenBackup {
  dir: string;
  name: string;
  files: Record<string, string>;
}

export function writeBackup(rootDir: string, name: string, files: Record<string, Buffer>, manifest: Record<string, unknown>, signingKey: Buffer | null): WrittenBackup {
  const dir = path.join(rootDir, name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const hashes: Record<string, string> = {};
  try {
    for (const [file, bytes] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, file), bytes, { mode: 0o600 });
      hashes[file] = sha256Hex(bytes);
    }
    const complete = { ...manifest, files: hashes };
    const manifestText = `${JSON.stringify(signingKey ? signManifest(complete, signingKey) : complete, null, 2)}\n`;
    fs.writeFileSync(path.join(dir, 'manifest.json'), manifestText, { mode: 0o400 });
    observeStep('backup-written', dir);
    const problems = verifyBackupFiles(dir, hashes);
    if (problems.length) throw new BackupVerifyError(`The backup in ${dir} did not read back identically (${problems.join('; ')}); nothing was changed.`);
    return { dir, name, files: hashes };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The files whose bytes no longer hash to the manifest's value (empty: the backup is intact). */
export function verifyBackupFiles(dir: string, hashes: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, sha] of Object.entries(hashes)) {
    try {
      if (sha256Hex(fs.readFileSync(path.join(dir, file))) !== sha) problems.push(`${file} differs from its manifest hash`);
    } catch (error) {
      problems.push(`${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return problems;
}

export function writeResult(dir: string, result: Record<string, unknown>): void {
  fs.writeFileSync(path.join(dir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });
}

export function readJsonFile<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}
