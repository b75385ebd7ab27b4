import crypto from 'node:crypto';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { HiveQuarantinePreview, WriteResult } from '../../../shared/contract/commands';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { checkLiveBindings, type LiveBindings, type TokenPayload } from '../human/tokens';
import { backupName } from '../human/write/backup';
import { readStoreSnapshot, sha256Hex, withoutLines, type StoreLine, type StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, withAppended, type Snapshots } from '../human/write/transaction';
import { blastRadius } from './blast-radius';
import { cleanReason, HIVE_QUARANTINE_OP, hivePaths, type HivePaths } from './hive-paths';
import { scheduleRevertCheck } from './revert-check';
import { mintForLines, previewHeader } from '../human/preview-header';
import { refuseImportedStores } from '../stores/imported';
import { workspaceRoots } from '../stores/containment';
import { refuseOutsideWorkspace } from '../human/write/containment';

type Preview = z.infer<typeof HiveQuarantinePreview>;
type Result = z.infer<typeof WriteResult>;

export const liveBindings = (snapshot: StoreSnapshot, bind: Record<string, string> = {}): LiveBindings => ({
  target: snapshot.path,
  store: snapshot.fingerprint,
  lineShasOf: (id) => (snapshot.byId.get(id) ?? []).map((line) => line.sha256),
  bind,
});

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function lineageActor(value: Record<string, unknown> | null): string | null {
  const lineage = value?.lineage;
  if (lineage && typeof lineage === 'object' && typeof (lineage as { actor?: unknown }).actor === 'string') return (lineage as { actor: string }).actor;
  return str(value?.lineage_actor);
}

/** Which store a snapshot is, in words: selectExact serves the hive, the project and the link tiers. */
function storeLabel(snapshot: StoreSnapshot): { entry: string; store: string } {
  const file = snapshot.path.split(/[\\/]/);
  if (file.at(-1) === 'shared-learnings.jsonl') return { entry: 'hive entry', store: 'the hive' };
  const linked = file.at(-3) === 'links';
  const store = linked ? `the linked worktree's knowledge (${snapshot.path})` : `the project's knowledge (${snapshot.path})`;
  return { entry: `entry in ${store}`, store };
}

/** The selected lines, exactly one per id, in store order; any missing or doubled id refuses. */
export function selectExact(snapshot: StoreSnapshot, ids: readonly string[]): StoreLine[] {
  const unique = new Set(ids);
  if (unique.size !== ids.length) throw new ConsoleError('invalid_input', 'Each id may be selected once.');
  const label = storeLabel(snapshot);
  return ids
    .map((id) => {
      const lines = snapshot.byId.get(id) ?? [];
      if (lines.length === 0) throw new ConsoleError('not_found', `No ${label.entry} has the exact id ${id}.`);
      if (lines.length > 1) throw new ConsoleError('failed', `The id ${id} occurs ${lines.length} times in ${label.store}; an ambiguous selection cannot be quarantined.`);
      return lines[0] as StoreLine;
    })
    .sort((a, b) => a.index - b.index);
}

export async function previewHiveQuarantine(services: HumanServices, caller: CallerContext, workspace: WorkspacePaths, ids: readonly string[]): Promise<Preview> {
  const hive = hivePaths(workspace.hiveDir);
  refuseImportedStores(workspace, hive.store, hive.sidecar);
  refuseOutsideWorkspace(workspaceRoots(workspace), [hive.store, hive.sidecar, hive.events, hive.backups]);
  const snapshot = readStoreSnapshot(hive.store);
  if (!snapshot.exists) throw new ConsoleError('not_found', `There is no hive store at ${hive.store}.`);
  const selected = selectExact(snapshot, ids);
  const minted = await mintForLines(services, caller, HIVE_QUARANTINE_OP, snapshot, selected);
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

const linesToBytes = (lines: readonly StoreLine[]) => Buffer.concat(lines.flatMap((l) => [l.raw, Buffer.from('\n')]));

/** The commit: token and confirmation are checked by the runner; this is `execute` on the one write protocol. */
export function commitHiveQuarantine(services: HumanServices, caller: CallerContext, workspace: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, HIVE_QUARANTINE_OP, async (payload, token12) => {
    const hive = hivePaths(workspace.hiveDir);
    refuseImportedStores(workspace, hive.store, hive.sidecar);
    const reason = cleanReason(input.reason);
    const name = backupName(new Date(), token12);
    const quarantinedAt = new Date().toISOString();
    const storeOf = (s: Snapshots) => s.get(hive.store) as StoreSnapshot;
    const selectedOf = (s: Snapshots) => selectExact(storeOf(s), payload.ids);
    const sidecarLines = (selected: StoreLine[]) =>
      selected.map((line) =>
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
    const eventLines = (selected: StoreLine[]) =>
      selected.map((line) =>
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
    const outcome = await runTransaction({
      locks: [hive.dataDir],
      workspace: workspaceRoots(workspace),
      files: [hive.store, hive.sidecar],
      backup: {
        root: hive.backups,
        name,
        signingKey: services.backupSigningKey(),
        manifest: (s) => manifestFor(services, hive, storeOf(s), selectedOf(s), payload, token12, reason, caller.host),
        extra: (s) => ({ 'selected.jsonl': linesToBytes(selectedOf(s)) }),
      },
      check: (s) => {
        checkLiveBindings(payload, liveBindings(storeOf(s)), token12);
        selectedOf(s);
      },
      plan: (s) => {
        const selected = selectedOf(s);
        // The sidecar first: a crash between the two renames leaves the entry in both files, never in neither.
        return new Map([
          [hive.sidecar, withAppended((s.get(hive.sidecar) as StoreSnapshot).bytes, sidecarLines(selected))],
          [hive.store, withoutLines(storeOf(s).bytes, selected)],
        ]);
      },
      append: (s) => [{ file: hive.events, lines: eventLines(selectedOf(s)) }],
      // Another writer may append after our commit, but never bring a quarantined id back.
      readsBack: (file, planned, after) => after.exists && planned !== null && after.bytes.subarray(0, planned.length).equals(planned) && (file !== hive.store || after.bytes.length === planned.length || payload.ids.every((id) => !after.byId.has(id))),
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    const before = storeOf(outcome.before);
    const after = storeOf(outcome.after);
    if (outcome.state !== 'committed') {
      const message = outcome.restore?.message ?? '';
      await services.record(caller, { event: 'commit', op: HIVE_QUARANTINE_OP, outcome: outcome.restore?.ok ? 'restored' : 'restore_failed', token12, ids: payload.ids, reason, backup: name, message });
      throw new CommitAbort(outcome.state, `The store did not read back as written. ${message}`);
    }
    const messages = [...outcome.messages];
    const expectedLength = (outcome.written.get(hive.store) as Buffer).length;
    if (after.bytes.length !== expectedLength) messages.push('Another writer appended to the hive right after the commit; the quarantined entries stay out.');
    await services.record(caller, { event: 'commit', op: HIVE_QUARANTINE_OP, outcome: 'ok', token12, ids: payload.ids, reason, backup: name, detail: { before: before.fingerprint, after: after.fingerprint } });
    const revertCheckAt = scheduleRevertCheck(services, caller, { op: HIVE_QUARANTINE_OP, store: hive.store, backupDir: outcome.backup.dir, ids: payload.ids, token12 });
    const count = payload.ids.length;
    messages.unshift(
      `Quarantined ${count} ${count === 1 ? 'entry' : 'entries'}: the hive went from ${before.fingerprint.entry_count} to ${after.fingerprint.entry_count} entries, every other line kept byte for byte.`,
      `Backup ${name} (verified) holds the original store; the entries are in shared-learnings-quarantined.jsonl.`,
    );
    return {
      state: 'committed',
      token12,
      backup: name,
      ids: payload.ids,
      before: { entryCount: before.fingerprint.entry_count, fileSha256: before.fingerprint.file_sha256 },
      after: { entryCount: after.fingerprint.entry_count, fileSha256: after.fingerprint.file_sha256 },
      messages,
      revertCheckAt,
    };
  });
}
