import crypto from 'node:crypto';
import fs from 'node:fs';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { HiveQuarantinePreview, WriteResult } from '../../../shared/contract/commands';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { checkLiveBindings, TokenRefusal, type LiveBindings, type TokenPayload } from '../human/tokens';
import { appendLines, replaceFile } from '../human/write/atomic-write';
import { backupName, writeBackup, writeResult, type WrittenBackup } from '../human/write/backup';
import { pausePoint } from '../human/write/pause-points';
import { LockLostError, LockTimeoutError, withStoreLock } from '../human/write/store-lock';
import { readStoreSnapshot, sha256Hex, snapshotBytes, withoutLines, type StoreLine, type StoreSnapshot } from '../human/write/store-snapshot';
import { blastRadius } from './blast-radius';
import { cleanReason, HIVE_QUARANTINE_OP, hivePaths, type HivePaths } from './hive-paths';
import { scheduleRevertCheck } from './revert-check';
import { previewHeader } from '../human/preview-header';
import { refuseImportedStores } from '../stores/imported';

type Preview = z.infer<typeof HiveQuarantinePreview>;
type Result = z.infer<typeof WriteResult>;

export const liveBindings = (snapshot: StoreSnapshot, bind: Record<string, string> = {}): LiveBindings => ({
  target: snapshot.path,
  store: snapshot.fingerprint,
  lineShasOf: (id) => (snapshot.byId.get(id) ?? []).map((line) => line.sha256),
  bind,
});

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function lineageActor(value: Record<string, unknown> | null): string | null {
  const lineage = value?.lineage;
  if (lineage && typeof lineage === 'object' && typeof (lineage as { actor?: unknown }).actor === 'string') return (lineage as { actor: string }).actor;
  return str(value?.lineage_actor);
}

export { fingerprintShape } from '../human/preview-header';

/** The selected lines, exactly one per id, in store order; any missing or doubled id refuses. */
export function selectExact(snapshot: StoreSnapshot, ids: readonly string[]): StoreLine[] {
  const unique = new Set(ids);
  if (unique.size !== ids.length) throw new ConsoleError('invalid_input', 'Each id may be selected once.');
  return ids
    .map((id) => {
      const lines = snapshot.byId.get(id) ?? [];
      if (lines.length === 0) throw new ConsoleError('not_found', `No hive entry has the exact id ${id}.`);
      if (lines.length > 1) throw new ConsoleError('failed', `The id ${id} occurs ${lines.length} times in the hive; an ambiguous selection cannot be quarantined.`);
      return lines[0] as StoreLine;
    })
    .sort((a, b) => a.index - b.index);
}

export async function previewHiveQuarantine(services: HumanServices, caller: CallerContext, workspace: WorkspacePaths, ids: readonly string[]): Promise<Preview> {
  const hive = hivePaths(workspace.hiveDir);
  refuseImportedStores(workspace, hive.store, hive.sidecar);
  const snapshot = readStoreSnapshot(hive.store);
  if (!snapshot.exists) throw new ConsoleError('not_found', `There is no hive store at ${hive.store}.`);
  const selected = selectExact(snapshot, ids);
  const minted = await services.preview(caller, {
    op: HIVE_QUARANTINE_OP,
    target: snapshot.path,
    ids: selected.map((l) => l.id as string),
    lines: Object.fromEntries(selected.map((l) => [l.id as string, l.sha256])),
    store: snapshot.fingerprint,
    bind: {},
  });
  return {
    ...previewHeader(services, minted, snapshot),
    entries: selected.map((line) => ({
      id: line.id as string,
      status: str(line.value?.status),
      confidence: typeof line.value?.confidence === 'number' ? line.value.confidence : null,
      sourceProject: str(line.value?.source_project),
      lineageActor: lineageActor(line.value),
      lineSha256: line.sha256,
      lineIndex: line.index,
      lesson: str(line.value?.lesson) ?? '',
    })),
    blastRadius: blastRadius(workspace, hive.dataDir, selected),
  };
}

function manifestFor(services: HumanServices, hive: HivePaths, snapshot: StoreSnapshot, selected: StoreLine[], payload: TokenPayload, token12: string, reason: string, host: string) {
  return {
    manifest_version: 1,
    op: 'hive-quarantine',
    created_at: new Date().toISOString(),
    token12,
    token_exp: new Date(payload.exp).toISOString(),
    console_version: services.consoleVersion,
    platform: process.platform,
    hive_path: hive.store,
    store: snapshot.fingerprint,
    selected: selected.map((line) => ({
      id: line.id,
      line_index: line.index,
      line_sha256: line.sha256,
      status: str(line.value?.status),
      confidence: typeof line.value?.confidence === 'number' ? line.value.confidence : null,
      source_project: str(line.value?.source_project),
      lineage_actor: lineageActor(line.value),
      lesson_sha256: sha256Hex(str(line.value?.lesson) ?? ''),
    })),
    reason,
    actor: { kind: 'human-console', host, host_user: services.hostUser },
  };
}

/** The store as written, without parsing it again: its bytes were just verified to be exactly `expected`. */
function expectedSnapshot(before: StoreSnapshot, removed: number, bytes: Buffer): StoreSnapshot {
  return {
    path: before.path,
    exists: true,
    bytes,
    lines: [],
    byId: new Map(),
    fingerprint: { entry_count: before.fingerprint.entry_count - removed, line_count: before.fingerprint.line_count - removed, byte_length: bytes.length, file_sha256: sha256Hex(bytes) },
  };
}

const linesToBytes = (lines: readonly StoreLine[]) => Buffer.concat(lines.flatMap((l) => [l.raw, Buffer.from('\n')]));

/** The commit: token and confirmation are checked by the runner; this is `execute`. */
export function commitHiveQuarantine(services: HumanServices, caller: CallerContext, workspace: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, HIVE_QUARANTINE_OP, async (payload, token12) => {
    const hive = hivePaths(workspace.hiveDir);
    refuseImportedStores(workspace, hive.store, hive.sidecar);
    const reason = cleanReason(input.reason);
    const snapshot = readStoreSnapshot(hive.store);
    checkLiveBindings(payload, liveBindings(snapshot), token12);
    const selected = selectExact(snapshot, payload.ids);
    const name = backupName(new Date(), token12);
    let backup: WrittenBackup;
    try {
      backup = writeBackup(hive.backups, name, { 'shared-learnings.jsonl': snapshot.bytes, 'selected.jsonl': linesToBytes(selected) }, manifestFor(services, hive, snapshot, selected, payload, token12, reason, caller.host));
    } catch (error) {
      throw new CommitAbort('backup_verify_failed', (error as Error).message);
    }
    await pausePoint('after-backup');

    const quarantinedAt = new Date().toISOString();
    const sidecarLines = selected.map((line) =>
      JSON.stringify({
        ...line.value,
        status: 'quarantined',
        original_status: str(line.value?.status) ?? 'candidate',
        quarantine_reason: reason,
        quarantined_at: quarantinedAt,
        reported_by: 'user',
        quarantine_token12: token12,
        quarantine_backup: name,
        original_line_sha256: line.sha256,
      }),
    );
    const eventLines = selected.map((line) =>
      JSON.stringify({
        schema_version: 1,
        event_id: crypto.randomUUID(),
        timestamp: quarantinedAt,
        type: 'quarantined',
        tier: 'hive',
        entry_id: line.id,
        actor: 'human:hive-quarantine',
        reason,
        previous_status: str(line.value?.status),
        op: 'commit',
        token12,
        line_sha256: line.sha256,
        backup: name,
      }),
    );
    const expected = withoutLines(snapshot.bytes, selected);
    const messages: string[] = [];
    let renamed = false;
    let sidecarAppended = false;
    let eventsAppended = false;
    try {
      await withStoreLock(
        hive.dataDir,
        async (lock) => {
          await pausePoint('holding-lock');
          // Anything appended, edited or reordered since the backup: abort with no change. Identical
          // bytes prove every binding at once; only a difference needs the slow per-line reasons.
          const liveBytes = fs.readFileSync(hive.store);
          if (sha256Hex(liveBytes) !== snapshot.fingerprint.file_sha256) {
            checkLiveBindings(payload, liveBindings(snapshotBytes(hive.store, liveBytes)), token12);
            throw new CommitAbort('store_changed', 'The hive changed while the console waited for its lock; nothing was changed.');
          }
          await replaceFile(hive.store, expected, lock);
          renamed = true;
          await pausePoint('after-rename');
          appendLines(hive.sidecar, sidecarLines);
          sidecarAppended = true;
          await pausePoint('before-audit');
          appendLines(hive.events, eventLines);
          eventsAppended = true;
        },
        services.lockOptions(),
      );
    } catch (error) {
      if (!renamed) {
        fs.rmSync(backup.dir, { recursive: true, force: true });
        if (error instanceof LockTimeoutError || error instanceof LockLostError) throw new CommitAbort(error.code, error.message);
        if (error instanceof TokenRefusal) throw error;
        throw new CommitAbort('store_changed', (error as Error).message);
      }
      messages.push(`The store was changed, but writing the quarantine records failed: ${(error as Error).message}.`);
    }

    const afterBytes = fs.readFileSync(hive.store);
    const exact = sha256Hex(afterBytes) === sha256Hex(expected);
    const after = exact ? expectedSnapshot(snapshot, selected.length, afterBytes) : snapshotBytes(hive.store, afterBytes);
    const verified = exact || (payload.ids.every((id) => !after.byId.has(id)) && after.bytes.subarray(0, expected.length).equals(expected));
    const before = { entryCount: snapshot.fingerprint.entry_count, fileSha256: snapshot.fingerprint.file_sha256 };
    if (!verified) {
      const restored = await restoreFromBackup(hive, snapshot.bytes, expected, services.lockWaitMs);
      const state = restored.ok ? 'verify_failed_restored' : 'verify_failed_restore_failed';
      writeResult(backup.dir, { state, at: new Date().toISOString(), post: readStoreSnapshot(hive.store).fingerprint, sidecar_appended: sidecarAppended, restore: restored });
      await services.record(caller, { event: 'commit', op: HIVE_QUARANTINE_OP, outcome: restored.ok ? 'restored' : 'restore_failed', token12, ids: payload.ids, reason, backup: name, message: restored.message });
      throw new CommitAbort(state, `The store did not read back as written. ${restored.message}`);
    }
    if (!exact) messages.push('Another writer appended to the hive right after the commit; the quarantined entries stay out.');
    writeResult(backup.dir, { state: 'committed', at: new Date().toISOString(), post: after.fingerprint, sidecar_appended: sidecarAppended, events_appended: eventsAppended });
    await services.record(caller, { event: 'commit', op: HIVE_QUARANTINE_OP, outcome: 'ok', token12, ids: payload.ids, reason, backup: name, detail: { before: snapshot.fingerprint, after: after.fingerprint } });
    const revertCheckAt = scheduleRevertCheck(services, caller, { op: HIVE_QUARANTINE_OP, store: hive.store, backupDir: backup.dir, ids: payload.ids, token12 });
    messages.unshift(
      `Quarantined ${selected.length} ${selected.length === 1 ? 'entry' : 'entries'}: the hive went from ${snapshot.fingerprint.entry_count} to ${after.fingerprint.entry_count} entries, every other line kept byte for byte.`,
      `Backup ${name} (verified) holds the original store; the entries are in shared-learnings-quarantined.jsonl.`,
    );
    return {
      state: 'committed',
      token12,
      backup: name,
      ids: payload.ids,
      before,
      after: { entryCount: after.fingerprint.entry_count, fileSha256: after.fingerprint.file_sha256 },
      messages,
      revertCheckAt,
    };
  });
}

/** Puts the backup bytes back, but only over exactly what the commit wrote (never over another writer's change). */
async function restoreFromBackup(hive: HivePaths, original: Buffer, written: Buffer, waitMs: number): Promise<{ ok: boolean; message: string }> {
  try {
    return await withStoreLock(
      hive.dataDir,
      async (lock) => {
        const live = readStoreSnapshot(hive.store);
        if (live.fingerprint.file_sha256 !== sha256Hex(written) && live.fingerprint.file_sha256 !== sha256Hex(original)) {
          return { ok: false, message: 'The restore was not attempted: another writer changed the store meanwhile. The backup is intact; roll back from it.' };
        }
        await replaceFile(hive.store, original, lock);
        const check = readStoreSnapshot(hive.store);
        return check.fingerprint.file_sha256 === sha256Hex(original)
          ? { ok: true, message: 'The original store was restored from the backup and verified.' }
          : { ok: false, message: 'The restore from the backup did not verify; the backup is intact.' };
      },
      { waitMs },
    );
  } catch (error) {
    return { ok: false, message: `The restore from the backup failed: ${(error as Error).message}` };
  }
}
