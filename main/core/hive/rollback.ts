import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { RollbackPreview, WriteResult } from '../../../shared/contract/commands';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { ABSENT, checkLiveBindings } from '../human/tokens';
import { verifyBackupFiles, writeResult } from '../human/write/backup';
import { readStoreSnapshot, sha256Hex, snapshotBytes, withoutLines, type StoreLine, type StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, type Snapshots } from '../human/write/transaction';
import { findBackup, type BackupChoice, type BackupInfo } from './backups';
import { cleanReason, HIVE_ROLLBACK_OP, hivePaths, type HivePaths } from './hive-paths';
import { previewHeader } from '../human/preview-header';
import { liveBindings } from './quarantine';
import { refuseImportedStores } from '../stores/imported';
import { workspaceRoots } from '../stores/containment';
import { firstContainmentProblem, refuseOutsideWorkspace } from '../human/write/containment';
import type { ManifestTrust } from '../human/write/backup-signature';

type Preview = z.infer<typeof RollbackPreview>;
type Result = z.infer<typeof WriteResult>;

interface Plan {
  backup: BackupInfo;
  original: Buffer;
  selected: StoreLine[];
  restore: StoreLine[];
  skipped: string[];
  collisions: { id: string; backupSha256: string; liveSha256: string }[];
  method: 'exact' | 'reinsert' | 'none';
}

/** What a rollback would do to the live store: restore absent ids, skip identical ones, refuse on a collision. */
function planRollback(hive: HivePaths, backup: BackupInfo, live: StoreSnapshot): Plan {
  if (!backup.manifest) throw new ConsoleError('failed', `The backup ${backup.name} has no readable manifest.json; it cannot be rolled back.`);
  const problems = verifyBackupFiles(backup.dir, backup.manifest.files ?? {});
  if (problems.length) throw new ConsoleError('failed', `The backup ${backup.name} no longer matches its manifest (${problems.join('; ')}); nothing can be restored from it.`);
  const original = fs.readFileSync(path.join(backup.dir, 'shared-learnings.jsonl'));
  const selected = snapshotBytes(path.join(backup.dir, 'selected.jsonl'), fs.readFileSync(path.join(backup.dir, 'selected.jsonl'))).lines;
  const restore: StoreLine[] = [];
  const skipped: string[] = [];
  const collisions: Plan['collisions'] = [];
  for (const line of selected) {
    const present = live.byId.get(line.id as string) ?? [];
    if (present.length === 0) restore.push(line);
    else if (present.length === 1 && present[0]?.sha256 === line.sha256) skipped.push(line.id as string);
    else for (const p of present) collisions.push({ id: line.id as string, backupSha256: line.sha256, liveSha256: p.sha256 });
  }
  // The store exactly as the quarantine left it (computed from the backup, so a commit killed
  // before its result.json was written still rolls back to the original bytes).
  const before = snapshotBytes(backup.dir, original);
  const quarantinedBytes = withoutLines(original, selected.flatMap((l) => before.byId.get(l.id as string) ?? []));
  const method = restore.length === 0 ? 'none' : restore.length === selected.length && sha256Hex(quarantinedBytes) === live.fingerprint.file_sha256 ? 'exact' : 'reinsert';
  return { backup, original, selected, restore, skipped, collisions, method };
}

/** What the token binds about the backup: its name, and — for one this console did not sign — the person's explicit choice. */
const trustBindings = (name: string, trust: ManifestTrust): Record<string, string> =>
  trust.state === 'signed' ? { backup: name, trust: 'signed' } : { backup: name, trust: trust.state, trust_label: trust.label, allow_unsigned: 'yes' };

/** Every path a rollback reads or writes, before the backup's own files are opened. */
const rollbackPaths = (hive: HivePaths): string[] => [hive.store, hive.sidecar, hive.events, hive.backups];

export async function previewHiveRollback(services: HumanServices, caller: CallerContext, workspace: WorkspacePaths, choice: BackupChoice): Promise<Preview> {
  const hive = hivePaths(workspace.hiveDir);
  refuseImportedStores(workspace, hive.store, hive.sidecar);
  const roots = workspaceRoots(workspace);
  refuseOutsideWorkspace(roots, rollbackPaths(hive));
  const backup = findBackup(hive, choice, services.backupSigningKey());
  refuseOutsideWorkspace(roots, [backup.dir]);
  const live = readStoreSnapshot(hive.store);
  const plan = planRollback(hive, backup, live);
  const lines = Object.fromEntries(plan.selected.map((l) => [l.id as string, live.byId.get(l.id as string)?.[0]?.sha256 ?? ABSENT]));
  const minted = await services.preview(caller, { op: HIVE_ROLLBACK_OP, target: live.path, ids: Object.keys(lines), lines, store: live.fingerprint, bind: trustBindings(backup.name, backup.trust) });
  return {
    ...previewHeader(services, minted, live),
    backup: backup.name,
    trust: backup.trust.state,
    trustLabel: backup.trust.label,
    restore: plan.restore.map((l) => ({ id: l.id as string, lineSha256: l.sha256, lesson: typeof l.value?.lesson === 'string' ? l.value.lesson : '' })),
    skippedIdentical: plan.skipped,
    collisions: plan.collisions,
    method: plan.method,
  };
}

/** The rolled-back store: the backup's exact bytes when nothing else changed, else the live store plus the restored lines. */
function rolledBack(plan: Plan, live: StoreSnapshot): Buffer {
  if (plan.method === 'exact') return plan.original;
  const tail = live.bytes.length > 0 && live.bytes[live.bytes.length - 1] !== 0x0a ? Buffer.from('\n') : Buffer.alloc(0);
  return Buffer.concat([live.bytes, tail, ...plan.restore.flatMap((l) => [l.raw, Buffer.from('\n')])]);
}

export function commitHiveRollback(services: HumanServices, caller: CallerContext, workspace: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, HIVE_ROLLBACK_OP, async (payload, token12) => {
    const hive = hivePaths(workspace.hiveDir);
    refuseImportedStores(workspace, hive.store, hive.sidecar);
    const reason = cleanReason(input.reason);
    const roots = workspaceRoots(workspace);
    const outside = firstContainmentProblem(rollbackPaths(hive), { workspace: roots });
    if (outside) throw new CommitAbort('outside_store', `${outside} Nothing was changed.`);
    // The choice the person made at the preview travels in the token; the backup is re-verified here.
    const backup = findBackup(hive, { prefix: (payload.bind.backup ?? '').split('-')[1] ?? '', allowUnsigned: payload.bind.allow_unsigned === 'yes' }, services.backupSigningKey());
    if (backup.name !== payload.bind.backup || backup.trust.state !== payload.bind.trust) {
      throw new CommitAbort('store_changed', `The backup ${backup.name} is not the one previewed (now ${backup.trust.label}); nothing was changed.`);
    }
    const backupOutside = firstContainmentProblem([backup.dir], { workspace: roots });
    if (backupOutside) throw new CommitAbort('outside_store', `${backupOutside} Nothing was changed.`);
    const storeOf = (s: Snapshots) => s.get(hive.store) as StoreSnapshot;
    const check = (s: Snapshots): Plan => {
      checkLiveBindings(payload, liveBindings(storeOf(s), trustBindings(backup.name, backup.trust)), token12);
      // Planned again from the backup each time: its files are re-verified against the manifest.
      const plan = planRollback(hive, backup, storeOf(s));
      if (plan.collisions.length) {
        throw new CommitAbort('rollback_collision', `Nothing was restored: ${plan.collisions.map((c) => `${c.id} is in the hive with different content (live ${c.liveSha256.slice(0, 12)}…, backup ${c.backupSha256.slice(0, 12)}…)`).join('; ')}.`);
      }
      return plan;
    };
    const live = readStoreSnapshot(hive.store);
    const plan = check(new Map([[hive.store, live]]));
    const before = { entryCount: live.fingerprint.entry_count, fileSha256: live.fingerprint.file_sha256 };
    if (plan.method === 'none') {
      await services.record(caller, { event: 'rollback', op: HIVE_ROLLBACK_OP, outcome: 'ok', token12, ids: [], reason, backup: backup.name, message: 'nothing to restore: every entry is already in the hive with identical bytes', detail: { trust: backup.trust.state } });
      return { state: 'nothing_to_do', token12, backup: backup.name, ids: [], before, after: before, messages: [`Every entry of ${backup.name} is already in the hive with identical bytes; nothing was changed.`], revertCheckAt: null };
    }
    const restoredIds = plan.restore.map((l) => l.id as string);
    const at = new Date().toISOString();
    // The live files as they are now go in a folder of their own inside the quarantine's backup
    // (not a quarantine backup itself, so status and rollback never list it).
    const outcome = await runTransaction({
      locks: [hive.dataDir],
      workspace: roots,
      files: [hive.store, hive.sidecar],
      backup: { root: backup.dir, name: `pre-rollback-${token12}`, signingKey: services.backupSigningKey(), manifest: { manifest_version: 1, op: 'hive-rollback', token12, rolls_back: backup.name, reason, created_at: at } },
      check: (s) => void check(s),
      plan(s) {
        const current = check(s);
        const sidecar = s.get(hive.sidecar) as StoreSnapshot;
        const ours = sidecar.lines.filter((l) => l.value?.quarantine_token12 === backup.manifest?.token12 && restoredIds.includes(l.id as string));
        // The store first: a crash between the renames leaves the entry in both files, never in neither.
        const files = new Map<string, Buffer | null>([[hive.store, rolledBack(current, storeOf(s))]]);
        if (ours.length) files.set(hive.sidecar, withoutLines(sidecar.bytes, ours));
        return files;
      },
      append: () => [
        {
          file: hive.events,
          lines: plan.selected.map((l) =>
            JSON.stringify({
              schema_version: 1,
              event_id: crypto.randomUUID(),
              timestamp: at,
              type: 'rollback',
              tier: 'hive',
              entry_id: l.id,
              actor: 'human:hive-quarantine',
              op: 'rollback',
              token12: backup.manifest?.token12,
              line_sha256: l.sha256,
              result: restoredIds.includes(l.id as string) ? 'restored' : 'skipped_identical',
            }),
          ),
        },
      ],
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    const after = storeOf(outcome.after);
    const ok = outcome.state === 'committed' && (plan.method === 'exact' ? after.fingerprint.file_sha256 === sha256Hex(plan.original) : plan.restore.every((l) => after.byId.get(l.id as string)?.[0]?.sha256 === l.sha256));
    writeResult(backup.dir, { ...(backup.result ?? {}), state: ok ? 'rolled_back' : 'rollback_unverified', rollback: { at, restored_ids: restoredIds, skipped_identical_ids: plan.skipped, collisions: [], method: plan.method, post: after.fingerprint, protocol: outcome.state } });
    await services.record(caller, { event: 'rollback', op: HIVE_ROLLBACK_OP, outcome: ok ? 'ok' : 'failed', token12, ids: restoredIds, reason, backup: backup.name, detail: { method: plan.method, after: after.fingerprint, trust: backup.trust.state, ...(backup.trust.state === 'signed' ? {} : { allow_unsigned: true, trust_label: backup.trust.label }) } });
    if (outcome.state !== 'committed') throw new CommitAbort(outcome.state, `The rollback did not read back as written. ${outcome.restore?.message ?? ''}`);
    if (!ok) throw new CommitAbort('rollback_unverified', `The rollback was written but the restored lines did not read back as expected; the backup ${backup.name} is intact.`);
    return {
      state: 'rolled_back',
      token12,
      backup: backup.name,
      ids: restoredIds,
      before,
      after: { entryCount: after.fingerprint.entry_count, fileSha256: after.fingerprint.file_sha256 },
      messages: [
        plan.method === 'exact'
          ? `Restored ${restoredIds.length} ${restoredIds.length === 1 ? 'entry' : 'entries'}: the hive is byte for byte the store the quarantine backed up (sha256 ${after.fingerprint.file_sha256.slice(0, 12)}…).`
          : `Restored ${restoredIds.length} ${restoredIds.length === 1 ? 'entry' : 'entries'} at the end of the hive (it changed since the quarantine, so the other lines were left as they are).`,
        ...(plan.skipped.length ? [`${plan.skipped.length} entries were already back with identical bytes and were skipped.`] : []),
        ...outcome.messages,
      ],
      revertCheckAt: null,
    };
  });
}
