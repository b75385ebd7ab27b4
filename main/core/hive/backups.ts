import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { HiveQuarantineStatus } from '../../../shared/contract/commands';
import { readJsonFile, verifyBackupFiles } from '../human/write/backup';
import { readStoreSnapshot } from '../human/write/store-snapshot';
import type { HivePaths } from './hive-paths';

export interface Manifest {
  token12?: string;
  created_at?: string;
  reason?: string;
  hive_path?: string;
  store?: { file_sha256?: string; entry_count?: number };
  selected?: { id: string; line_index: number; line_sha256: string }[];
  files?: Record<string, string>;
}

export interface BackupResult {
  state?: string;
  post?: { file_sha256?: string; entry_count?: number };
  post_check?: { at: string; reverted_ids: string[] };
  rollback?: unknown;
  [key: string]: unknown;
}

export interface BackupInfo {
  name: string;
  dir: string;
  manifest: Manifest | null;
  result: BackupResult | null;
}

const BACKUP_NAME = /^\d{8}T\d{9}Z-([0-9a-f]{12})-[0-9a-f]{8}$/;

/** Newest first: the names start with a sortable UTC timestamp. */
function listBackups(hive: HivePaths): BackupInfo[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(hive.backups).filter((name) => BACKUP_NAME.test(name));
  } catch {
    return [];
  }
  return names
    .sort()
    .reverse()
    .map((name) => {
      const dir = path.join(hive.backups, name);
      return { name, dir, manifest: readJsonFile<Manifest>(path.join(dir, 'manifest.json')), result: readJsonFile<BackupResult>(path.join(dir, 'result.json')) };
    });
}

/** By token12 prefix (must be unique), or the newest quarantine that was committed. */
export function findBackup(hive: HivePaths, prefix: string | null): BackupInfo {
  const all = listBackups(hive);
  if (prefix === null) {
    const latest = all.find((b) => b.result === null || b.result.state === 'committed');
    if (!latest) throw new ConsoleError('not_found', `No committed hive quarantine to roll back in ${hive.backups}.`);
    return latest;
  }
  const matches = all.filter((b) => (BACKUP_NAME.exec(b.name)?.[1] ?? '').startsWith(prefix));
  if (matches.length === 0) throw new ConsoleError('not_found', `No hive quarantine backup has a token starting ${prefix}.`);
  if (matches.length > 1) throw new ConsoleError('invalid_input', `The prefix ${prefix} names ${matches.length} backups (${matches.map((m) => m.name).join(', ')}); give more characters.`);
  return matches[0] as BackupInfo;
}

export function hiveQuarantineStatus(hive: HivePaths): z.infer<typeof HiveQuarantineStatus> {
  const sidecar = readStoreSnapshot(hive.sidecar);
  return {
    hive: hive.store,
    sidecarEntries: sidecar.fingerprint.entry_count,
    backups: listBackups(hive).map((b) => {
      const problems = b.manifest ? verifyBackupFiles(b.dir, b.manifest.files ?? {}) : ['manifest.json is missing or unreadable'];
      const reverted = b.result?.post_check?.reverted_ids ?? [];
      return {
        name: b.name,
        token12: b.manifest?.token12 ?? null,
        createdAt: b.manifest?.created_at ?? null,
        reason: b.manifest?.reason ?? null,
        ids: (b.manifest?.selected ?? []).map((s) => s.id),
        state: b.result?.state ?? 'interrupted',
        verified: problems.length === 0,
        problems,
        warnings: reverted.length ? [`${reverted.length} ${reverted.length === 1 ? 'entry was' : 'entries were'} back in the hive at ${b.result?.post_check?.at}: a concurrent plugin rewrite reverted the quarantine.`] : [],
      };
    }),
  };
}
