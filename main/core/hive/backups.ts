import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { HiveQuarantineStatus } from '../../../shared/contract/commands';
import { readJsonFile, verifyBackupFiles } from '../human/write/backup';
import { readStoreSnapshot } from '../human/write/store-snapshot';
import { manifestTrust, TRUST_LABELS, type ManifestTrust } from '../human/write/backup-signature';
import { containmentProblem } from '../human/write/containment';
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

/** Who made the backup, for status and rollback (backup-signature.ts). */
export const trustOf = (backup: BackupInfo, key: Buffer): ManifestTrust => manifestTrust(backup.manifest, key);

/** How a rollback names its backup, and whether the person chose to allow one this console did not sign. */
export interface BackupChoice {
  prefix: string | null;
  allowUnsigned: boolean;
}

/**
 * By token12 prefix (must be unique), or the newest quarantine that was committed. A backup this
 * console did not sign is refused unless the person chose so explicitly (`allowUnsigned`): "latest"
 * never silently picks an older signed one instead, and never a planted newer one.
 */
export function findBackup(hive: HivePaths, choice: BackupChoice, key: Buffer): BackupInfo & { trust: ManifestTrust } {
  const all = listBackups(hive);
  let found: BackupInfo;
  if (choice.prefix === null) {
    const latest = all.find((b) => b.result === null || b.result.state === 'committed');
    if (!latest) throw new ConsoleError('not_found', `No committed hive quarantine to roll back in ${hive.backups}.`);
    found = latest;
  } else {
    const prefix = choice.prefix;
    const matches = all.filter((b) => (BACKUP_NAME.exec(b.name)?.[1] ?? '').startsWith(prefix));
    if (matches.length === 0) throw new ConsoleError('not_found', `No hive quarantine backup has a token starting ${prefix}.`);
    if (matches.length > 1) throw new ConsoleError('invalid_input', `The prefix ${prefix} names ${matches.length} backups (${matches.map((m) => m.name).join(', ')}); give more characters.`);
    found = matches[0] as BackupInfo;
  }
  const trust = trustOf(found, key);
  if (trust.state !== 'signed' && !choice.allowUnsigned) {
    const why = trust.state === 'foreign' ? ` (${trust.why})` : ' (its manifest has no signature)';
    throw new ConsoleError(
      'forbidden',
      `The backup ${found.name} is ${trust.label}${why}; it is not rolled back without a separate, explicit choice to roll back a backup this console did not sign.`,
    );
  }
  return { ...found, trust };
}

export function hiveQuarantineStatus(hive: HivePaths, key: Buffer, workspace: readonly string[]): z.infer<typeof HiveQuarantineStatus> {
  const sidecar = readStoreSnapshot(hive.sidecar);
  const folderProblem = containmentProblem(hive.backups, { workspace });
  if (folderProblem) return { hive: hive.store, sidecarEntries: sidecar.fingerprint.entry_count, backups: [], notes: [`No backups listed: ${folderProblem}`] };
  return {
    hive: hive.store,
    sidecarEntries: sidecar.fingerprint.entry_count,
    notes: [],
    backups: listBackups(hive).map((b) => {
      const outside = containmentProblem(b.dir, { workspace });
      const problems = outside ? [outside] : b.manifest ? verifyBackupFiles(b.dir, b.manifest.files ?? {}) : ['manifest.json is missing or unreadable'];
      const trust = outside ? null : trustOf(b, key);
      const reverted = b.result?.post_check?.reverted_ids ?? [];
      return {
        name: b.name,
        token12: b.manifest?.token12 ?? null,
        createdAt: b.manifest?.created_at ?? null,
        reason: b.manifest?.reason ?? null,
        ids: (b.manifest?.selected ?? []).map((s) => s.id),
        state: b.result?.state ?? 'interrupted',
        verified: problems.length === 0,
        trust: trust?.state ?? 'foreign',
        trustLabel: trust?.label ?? TRUST_LABELS.foreign,
        problems: trust?.state === 'foreign' ? [...problems, `not made by this console: ${trust.why}`] : problems,
        warnings: reverted.length ? [`${reverted.length} ${reverted.length === 1 ? 'entry was' : 'entries were'} back in the hive at ${b.result?.post_check?.at}: a concurrent plugin rewrite reverted the quarantine.`] : [],
      };
    }),
  };
}
