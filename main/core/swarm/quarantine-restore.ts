import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { SwarmPreview, WriteResult } from '../../../shared/contract/commands';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { cleanReason } from '../hive/hive-paths';
import { selectExact } from '../hive/quarantine';
import { mintForLines, previewHeader } from '../human/preview-header';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { checkLiveBindings, type TokenPayload } from '../human/tokens';
import { scheduleRevertCheck } from '../hive/revert-check';
import { backupName } from '../human/write/backup';
import { readStoreSnapshot, withoutLines, withReplacedLines, type StoreLine, type StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, withAppended } from '../human/write/transaction';
import { fileBindings, knowledgeFamily, previousStatuses, str, SWARM_QUARANTINE_OP, SWARM_RESTORE_OP, type KnowledgeFamily } from './swarm-store';
import { refuseImportedStores } from '../stores/imported';
import { workspaceRoots } from '../stores/containment';
import { refuseOutsideWorkspace } from '../human/write/containment';

type Preview = z.infer<typeof SwarmPreview>;
type Result = z.infer<typeof WriteResult>;

const QUARANTINE_FIELDS = ['quarantine_reason', 'quarantined_at', 'reported_by', 'original_status', 'status'] as const;
const IN_PLACE = new Set(['archived', 'quarantined']);

export const backupRoot = (services: HumanServices) => path.join(services.paths.dir, 'backups');

function entryView(line: StoreLine, from: 'active' | 'quarantined' | 'archived', restoreTo: string | null) {
  return { id: line.id as string, from, status: str(line.value?.status), restoreTo, lineSha256: line.sha256, lesson: str(line.value?.lesson) ?? '' };
}

const previewBase = (services: HumanServices, minted: { token: string; token12: string; payload: TokenPayload }, snapshot: StoreSnapshot) => ({
  ...previewHeader(services, minted, snapshot),
});

function result(services: HumanServices, token12: string, backup: string, ids: string[], before: StoreSnapshot, after: StoreSnapshot, messages: string[]): Result {
  return {
    state: 'committed',
    token12,
    backup,
    ids,
    before: { entryCount: before.fingerprint.entry_count, fileSha256: before.fingerprint.file_sha256 },
    after: { entryCount: after.fingerprint.entry_count, fileSha256: after.fingerprint.file_sha256 },
    messages: [...messages, `Backup ${backup} (verified) in ${backupRoot(services)}.`],
    revertCheckAt: null,
  };
}

// ---- quarantine ------------------------------------------------------------------------------

export async function previewSwarmQuarantine(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, ids: readonly string[]): Promise<Preview> {
  const family = knowledgeFamily(paths);
  refuseImportedStores(paths, family.knowledge, family.quarantined, family.rejected);
  refuseOutsideWorkspace(workspaceRoots(paths), [family.knowledge, family.quarantined, family.rejected]);
  const knowledge = readStoreSnapshot(family.knowledge);
  const selected = selectExact(knowledge, ids);
  const minted = await mintForLines(services, caller, SWARM_QUARANTINE_OP, knowledge, selected, fileBindings([readStoreSnapshot(family.quarantined), readStoreSnapshot(family.rejected)]));
  return {
    ...previewBase(services, minted, knowledge),
    action: 'quarantine',
    tier: family.tier,
    linkId: family.linkId,
    storeDir: family.dir,
    entries: selected.map((l) => entryView(l, 'active', null)),
    effects: [
      `knowledge.jsonl: remove ${selected.length} line(s), every other line kept byte for byte`,
      `knowledge-quarantined.jsonl: append ${selected.length} record(s) with status quarantined, original_status, quarantine_reason, quarantined_at, reported_by user`,
      `knowledge-rejected.jsonl: append ${selected.length} fingerprint(s) (layer 3) so the lesson is not re-learned`,
    ],
  };
}

export function commitSwarmQuarantine(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SWARM_QUARANTINE_OP, async (payload, token12) => {
    const family = knowledgeFamily(paths);
    refuseImportedStores(paths, family.knowledge, family.quarantined, family.rejected);
    const reason = cleanReason(input.reason);
    const at = new Date().toISOString();
    const name = backupName(new Date(), token12);
    const check = (s: ReadonlyMap<string, StoreSnapshot>) => {
      const knowledge = s.get(family.knowledge) as StoreSnapshot;
      checkLiveBindings(payload, { target: knowledge.path, store: knowledge.fingerprint, lineShasOf: (id) => (knowledge.byId.get(id) ?? []).map((l) => l.sha256), bind: fileBindings([s.get(family.quarantined) as StoreSnapshot, s.get(family.rejected) as StoreSnapshot]) }, token12);
    };
    const outcome = await runTransaction({
      locks: [family.dir],
      files: [family.knowledge, family.quarantined, family.rejected],
      workspace: workspaceRoots(paths),
      backup: { root: backupRoot(services), name, signingKey: services.backupSigningKey(), manifest: { manifest_version: 1, op: 'swarm-quarantine', token12, store_dir: family.dir, tier: family.tier, link_id: family.linkId, ids: payload.ids, reason, created_at: at } },
      check,
      plan(s) {
        const knowledge = s.get(family.knowledge) as StoreSnapshot;
        const selected = selectExact(knowledge, payload.ids);
        // Destination files first: a crash between two renames leaves the entry in both places, never in neither.
        return new Map<string, Buffer | null>([
          [
            family.quarantined,
            withAppended(
              (s.get(family.quarantined) as StoreSnapshot).bytes,
              selected.map((l) => JSON.stringify({ ...l.value, status: 'quarantined', original_status: str(l.value?.status) ?? 'candidate', quarantine_reason: reason, quarantined_at: at, reported_by: 'user' })),
            ),
          ],
          [
            family.rejected,
            withAppended(
              (s.get(family.rejected) as StoreSnapshot).bytes,
              selected.map((l) => JSON.stringify({ id: l.id, lesson: str(l.value?.lesson) ?? '', rejection_reason: reason, rejected_at: at, rejection_layer: 3 })),
            ),
          ],
          [family.knowledge, withoutLines(knowledge.bytes, selected)],
        ]);
      },
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    return finish(services, caller, SWARM_QUARANTINE_OP, outcome, family, payload.ids, token12, reason, `Quarantined ${payload.ids.length} entr${payload.ids.length === 1 ? 'y' : 'ies'} of ${family.tier === 'link' ? `link store ${family.linkId}` : 'the project'}.`);
  });
}

export async function finish(services: HumanServices, caller: CallerContext, op: string, outcome: Awaited<ReturnType<typeof runTransaction>>, family: KnowledgeFamily, ids: string[], token12: string, reason: string, summary: string): Promise<Result> {
  const before = outcome.before.get(family.knowledge) as StoreSnapshot;
  const after = outcome.after.get(family.knowledge) as StoreSnapshot;
  if (outcome.state !== 'committed') {
    await services.record(caller, { event: 'commit', op, outcome: outcome.state === 'verify_failed_restored' ? 'restored' : 'restore_failed', token12, ids, reason, backup: outcome.backup.name, message: outcome.messages.join(' ') });
    throw new CommitAbort(outcome.state, outcome.messages.join(' '));
  }
  await services.record(caller, { event: 'commit', op, outcome: 'ok', token12, ids, reason, backup: outcome.backup.name, detail: { store_dir: family.dir, tier: family.tier } });
  const done = result(services, token12, outcome.backup.name, ids, before, after, [summary]);
  // A quarantine removes lines a concurrent plugin rewrite could put back; watch for that.
  if (op === SWARM_QUARANTINE_OP) done.revertCheckAt = scheduleRevertCheck(services, caller, { op, store: family.knowledge, backupDir: outcome.backup.dir, ids, token12 });
  return done;
}

// ---- restore ---------------------------------------------------------------------------------

interface RestorePlan {
  quarantined: StoreLine[];
  archived: StoreLine[];
  restoreTo: Map<string, string>;
}

function planRestore(family: KnowledgeFamily, knowledge: StoreSnapshot, quarantine: StoreSnapshot, ids: readonly string[]): RestorePlan {
  const plan: RestorePlan = { quarantined: [], archived: [], restoreTo: new Map() };
  const tombstones = previousStatuses(family.events, ids);
  for (const id of ids) {
    const q = quarantine.byId.get(id) ?? [];
    const k = knowledge.byId.get(id) ?? [];
    if (q.length > 1 || k.length > 1) throw new ConsoleError('failed', `The id ${id} occurs more than once; an ambiguous restore is refused.`);
    if (q.length === 1 && k.length === 0) {
      plan.quarantined.push(q[0] as StoreLine);
      plan.restoreTo.set(id, str(q[0]?.value?.original_status) ?? 'candidate');
    } else if (k.length === 1 && IN_PLACE.has(str(k[0]?.value?.status) ?? '')) {
      plan.archived.push(k[0] as StoreLine);
      plan.restoreTo.set(id, tombstones.get(id) ?? 'candidate');
    } else if (k.length === 1) {
      throw new ConsoleError('failed', `The entry ${id} is already active (status ${str(k[0]?.value?.status)}); there is nothing to restore.`);
    } else {
      throw new ConsoleError('not_found', `No quarantined or archived entry has the exact id ${id}.`);
    }
  }
  return plan;
}

const restoreBindings = (plan: RestorePlan, rejected: StoreSnapshot, quarantine: StoreSnapshot) => ({
  ...fileBindings([quarantine, rejected]),
  ...Object.fromEntries([...plan.restoreTo].map(([id, status]) => [`restore:${id}`, status])),
});

export async function previewSwarmRestore(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, ids: readonly string[]): Promise<Preview> {
  if (new Set(ids).size !== ids.length) throw new ConsoleError('invalid_input', 'Each id may be selected once.');
  const family = knowledgeFamily(paths);
  refuseImportedStores(paths, family.knowledge, family.quarantined, family.rejected);
  refuseOutsideWorkspace(workspaceRoots(paths), [family.knowledge, family.quarantined, family.rejected, family.events]);
  const knowledge = readStoreSnapshot(family.knowledge);
  const quarantine = readStoreSnapshot(family.quarantined);
  const plan = planRestore(family, knowledge, quarantine, ids);
  const all = [...plan.quarantined, ...plan.archived];
  const minted = await mintForLines(services, caller, SWARM_RESTORE_OP, knowledge, all, restoreBindings(plan, readStoreSnapshot(family.rejected), quarantine));
  return {
    ...previewBase(services, minted, knowledge),
    action: 'restore',
    tier: family.tier,
    linkId: family.linkId,
    storeDir: family.dir,
    entries: [...plan.quarantined.map((l) => entryView(l, 'quarantined', plan.restoreTo.get(l.id as string) ?? null)), ...plan.archived.map((l) => entryView(l, 'archived', plan.restoreTo.get(l.id as string) ?? null))],
    effects: [
      ...(plan.quarantined.length
        ? [
            `knowledge-quarantined.jsonl: remove ${plan.quarantined.length} record(s); knowledge.jsonl: append them with their original status (not re-validated, unlike /swarm knowledge restore)`,
            'knowledge-rejected.jsonl: remove the fingerprints with the same ids',
          ]
        : []),
      ...(plan.archived.length ? [`knowledge.jsonl: ${plan.archived.length} archived entr${plan.archived.length === 1 ? 'y' : 'ies'} set back to the status before archiving, in place, with a new updated_at`] : []),
    ],
  };
}

export function commitSwarmRestore(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SWARM_RESTORE_OP, async (payload, token12) => {
    const family = knowledgeFamily(paths);
    refuseImportedStores(paths, family.knowledge, family.quarantined, family.rejected);
    const reason = cleanReason(input.reason);
    const at = new Date().toISOString();
    const snapshots = (s: ReadonlyMap<string, StoreSnapshot>) => ({ knowledge: s.get(family.knowledge) as StoreSnapshot, quarantine: s.get(family.quarantined) as StoreSnapshot, rejected: s.get(family.rejected) as StoreSnapshot });
    const check = (s: ReadonlyMap<string, StoreSnapshot>) => {
      const { knowledge, quarantine, rejected } = snapshots(s);
      const plan = planRestore(family, knowledge, quarantine, payload.ids);
      const lineOf = new Map([...plan.quarantined, ...plan.archived].map((l) => [l.id as string, l.sha256]));
      checkLiveBindings(payload, { target: knowledge.path, store: knowledge.fingerprint, lineShasOf: (id) => (lineOf.has(id) ? [lineOf.get(id) as string] : []), bind: restoreBindings(plan, rejected, quarantine) }, token12);
    };
    const outcome = await runTransaction({
      locks: [family.dir],
      files: [family.knowledge, family.quarantined, family.rejected],
      reads: [family.events],
      workspace: workspaceRoots(paths),
      backup: { root: backupRoot(services), name: backupName(new Date(), token12), signingKey: services.backupSigningKey(), manifest: { manifest_version: 1, op: 'swarm-restore', token12, store_dir: family.dir, tier: family.tier, link_id: family.linkId, ids: payload.ids, reason, created_at: at } },
      check,
      plan(s) {
        const { knowledge, quarantine, rejected } = snapshots(s);
        const plan = planRestore(family, knowledge, quarantine, payload.ids);
        const restoredIds = new Set(plan.quarantined.map((l) => l.id as string));
        const replaced = withReplacedLines(knowledge.bytes, new Map(plan.archived.map((l) => [l, JSON.stringify({ ...l.value, status: plan.restoreTo.get(l.id as string), updated_at: at })])));
        const appended = plan.quarantined.map((l) => {
          const entry: Record<string, unknown> = { ...l.value };
          for (const field of QUARANTINE_FIELDS) delete entry[field];
          entry.status = plan.restoreTo.get(l.id as string);
          return JSON.stringify(entry);
        });
        const files = new Map<string, Buffer | null>([[family.knowledge, withAppended(replaced, appended)]]);
        if (plan.quarantined.length) {
          files.set(family.quarantined, withoutLines(quarantine.bytes, plan.quarantined));
          const fingerprints = rejected.lines.filter((l) => l.id !== null && restoredIds.has(l.id));
          if (fingerprints.length) files.set(family.rejected, withoutLines(rejected.bytes, fingerprints));
        }
        return files;
      },
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    return finish(services, caller, SWARM_RESTORE_OP, outcome, family, payload.ids, token12, reason, `Restored ${payload.ids.length} entr${payload.ids.length === 1 ? 'y' : 'ies'} to their prior status.`);
  });
}
