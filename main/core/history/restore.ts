import fs from 'node:fs';
import path from 'node:path';
import { ConsoleError } from '../../../shared/contract';
import type { RestorePreview } from '../../../shared/contract/history';
import type { WriteResult } from '../../../shared/contract/commands';
import type { z } from 'zod';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { previewHeader } from '../human/preview-header';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { ABSENT, checkLiveBindings, TokenRefusal, type TokenPayload } from '../human/tokens';
import { backupName } from '../human/write/backup';
import { refuseOutsideWorkspace } from '../human/write/containment';
import { readStoreSnapshot, sha256Hex, withoutLines, type StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, withAppended, type Snapshots } from '../human/write/transaction';
import { refuseImportedStores } from '../stores/imported';
import { workspaceRoots } from '../stores/containment';
import { cleanReason, hivePaths } from '../hive/hive-paths';
import { backupRoot } from '../swarm/quarantine-restore';
import { fileBindings, knowledgeFamily } from '../swarm/swarm-store';
import type { Caps } from './disappearance';
import { capEntries, firstEvicted, rollupsOf, type CounterFiles } from './eviction-order';
import { scheduleRestoreCheck } from './restore-check';
import { chooseVersion, restoredLine, restoredStatus, tombstonesOf, versionText, type HistorySource, type Tier } from './restore-version';

/**
 * Restore of a forgotten entry from history (issue 20), the plugin's restore
 * (docs/plugin-formats.md#history-restore): under the store's lock, APPEND the version's line with
 * its status set back and a new `updated_at` to its tier's active store — plain append, no dedup,
 * no cap — and, for a project or link store, remove rejected fingerprints with that id. Every
 * write goes through THE write protocol (human/write/transaction.ts).
 */
export const HISTORY_RESTORE_OP = 'history.restore.commit';

type Result = z.infer<typeof WriteResult>;

export interface RestoreContext extends HistorySource {
  caps: Caps;
}

/** The files of the tier a version is restored to. */
interface Target {
  tier: Tier;
  linkId: string | null;
  /** The directory whose plugin lock the commit holds. */
  lockDir: string;
  store: string;
  /** The quarantine sidecar: an entry there is restored by Knowledge → Restore, not from history. */
  sidecar: string;
  /** Rejected fingerprints keyed by entry id (swarm and link only; the hive's have random ids). */
  rejected: string | null;
  events: string;
  counters: { events: string; application: string; baseline: string } | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function targetOf(paths: WorkspacePaths, tier: Tier): Target {
  if (tier === 'hive') {
    const hive = hivePaths(paths.hiveDir);
    if (!fs.existsSync(hive.dataDir)) throw new ConsoleError('not_found', `The hive folder ${hive.dataDir} does not exist.`);
    return { tier, linkId: null, lockDir: hive.dataDir, store: hive.store, sidecar: hive.sidecar, rejected: null, events: hive.events, counters: null };
  }
  const family = knowledgeFamily(paths);
  if (family.tier !== tier) {
    const now = family.tier === 'link' ? `link store ${family.linkId}` : "the project's own .swarm/knowledge.jsonl";
    const was = tier === 'link' ? 'a link store' : "the project's own .swarm/knowledge.jsonl";
    throw new ConsoleError('failed', `The entry lived in ${was}, but the project now keeps its knowledge in ${now}; the console will not restore it into another tier's store.`);
  }
  const at = (name: string) => path.join(family.dir, name);
  return {
    tier,
    linkId: family.linkId,
    lockDir: family.dir,
    store: family.knowledge,
    sidecar: family.quarantined,
    rejected: family.rejected,
    events: family.events,
    counters: { events: family.events, application: at('knowledge-application.jsonl'), baseline: at('knowledge-counter-baseline.json') },
  };
}

const writtenFiles = (t: Target) => [t.store, t.sidecar, ...(t.rejected ? [t.rejected] : [])];
const readFiles = (t: Target) => [t.events, ...(t.counters ? [t.counters.application, t.counters.baseline] : [])];

/** Refusals that depend on the live stores: the id present in the active store or in the quarantine sidecar. */
function refusePresent(t: Target, store: StoreSnapshot, sidecar: StoreSnapshot, id: string): void {
  const present = store.byId.get(id);
  if (present?.length) {
    const status = present[0]?.value?.status;
    const archived = status === 'archived' || status === 'quarantined';
    throw new ConsoleError(
      'failed',
      `${id} is already in ${path.basename(store.path)}${typeof status === 'string' ? ` (status ${status})` : ''}; a restore from history appends, and would write the id twice.${archived ? ' To bring back an entry archived in place, use Knowledge → Restore (swarm.restore).' : ''}`,
    );
  }
  if (sidecar.byId.get(id)?.length) {
    const how = t.tier === 'hive' ? 'roll back its hive quarantine (Hive quarantine → Roll back)' : 'use Knowledge → Restore (swarm.restore), which moves it back from the quarantine file as /swarm knowledge restore does';
    throw new ConsoleError('failed', `${id} is in ${path.basename(sidecar.path)} now; to restore it, ${how}.`);
  }
}

const rejectedOf = (rejected: StoreSnapshot | null, id: string) => (rejected ? rejected.lines.filter((l) => l.id === id) : []);

function capWarning(t: Target, store: StoreSnapshot, appended: Record<string, unknown>, caps: Caps, id: string): RestorePreview['cap'] {
  const cap = t.tier === 'hive' ? caps.hive : caps.swarm;
  const records = [...store.lines.flatMap((l) => (l.value ? [l.value] : [])), appended];
  if (records.length < cap) return null;
  const counterFiles: CounterFiles | null = t.counters ? { events: readStoreSnapshot(t.counters.events), application: readStoreSnapshot(t.counters.application), baseline: t.counters.baseline } : null;
  const entries = capEntries(records, rollupsOf(counterFiles));
  const first = firstEvicted(entries);
  const oldest = entries.find((e) => e.status !== 'promoted') ?? entries[0];
  const key = t.tier === 'hive' ? 'hive_max_entries' : 'swarm_max_entries';
  const over = records.length > cap ? `past the plugin's cap of ${cap} (${key})` : `at the plugin's cap of ${cap} (${key})`;
  let text = `After the restore ${path.basename(store.path)} holds ${records.length} entries, ${over}: the restore itself does not evict, but the plugin's next cap enforcement will`;
  if (first === null) text += '.';
  else if (first.id === id) text += `, and by its order (inactive first, then the lowest outcome signal, then the oldest) it would evict the restored entry itself first (outcome signal ${first.signal.toFixed(2)}).`;
  else text += `; by its order (inactive first, then the lowest outcome signal, then the oldest) it evicts ${first.id} first${first.status && first.status !== 'candidate' ? ` (status ${first.status})` : ''}, and may evict the restored entry again later.`;
  if (oldest && first && oldest.id !== first.id && t.tier !== 'hive') text += ` knowledge_add alone evicts the oldest line first: ${oldest.id}.`;
  return { cap, countAfter: records.length, evictFirst: first ? { id: first.id, lesson: first.lesson } : null, text };
}

/** Everything the token binds besides the store: the other files written, and what the line is made of. */
function bindings(t: Target, snapshots: { sidecar: StoreSnapshot; rejected: StoreSnapshot | null }, line: { version: string; status: string; updatedAt: string; sha256: string }): Record<string, string> {
  return {
    ...fileBindings([snapshots.sidecar, ...(snapshots.rejected ? [snapshots.rejected] : [])]),
    tier: t.tier,
    version: line.version,
    restore_status: line.status,
    updated_at: line.updatedAt,
    line_sha256: line.sha256,
  };
}

export async function previewHistoryRestore(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, source: RestoreContext, input: { id: string; sha256?: string | undefined }): Promise<RestorePreview> {
  const version = chooseVersion(source, input.id, input.sha256);
  const t = targetOf(paths, version.tier);
  refuseImportedStores(paths, ...writtenFiles(t));
  refuseOutsideWorkspace(workspaceRoots(paths), [...writtenFiles(t), ...readFiles(t)]);
  const store = readStoreSnapshot(t.store);
  const sidecar = readStoreSnapshot(t.sidecar);
  const rejected = t.rejected ? readStoreSnapshot(t.rejected) : null;
  refusePresent(t, store, sidecar, input.id);
  const status = restoredStatus(version.record, tombstonesOf(source.db, t.events, input.id, t.tier));
  const updatedAt = new Date().toISOString();
  const line = restoredLine(version.text, status.status, updatedAt);
  const fingerprints = rejectedOf(rejected, input.id);
  const minted = await services.preview(caller, {
    op: HISTORY_RESTORE_OP,
    target: store.path,
    ids: [input.id],
    lines: { [input.id]: ABSENT },
    store: store.fingerprint,
    bind: bindings(t, { sidecar, rejected }, { version: version.sha256, status: status.status, updatedAt, sha256: sha256Hex(line) }),
  });
  const storeName = path.basename(t.store);
  const effects = [`${storeName}: append 1 line (version ${version.sha256.slice(0, 12)}… of ${input.id} with status ${status.status} and updated_at ${updatedAt}), every existing line kept byte for byte; no dedup, no cap, as the plugin's restore appends`];
  if (t.rejected) {
    effects.push(
      fingerprints.length
        ? `${path.basename(t.rejected)}: remove ${plural(fingerprints.length, 'fingerprint', 'fingerprints')} with the id ${input.id}, as the plugin's restore does; every other line kept byte for byte`
        : `${path.basename(t.rejected)}: not changed (it holds no fingerprint with the id ${input.id})`,
    );
  }
  const warnings = [
    `A plugin pass that read ${storeName} before this commit can rewrite it without the restored line (docs: second-process writes); restore while no agent session is working on this ${t.tier === 'hive' ? 'hive' : 'project'}, and check the entry afterwards.`,
  ];
  if (!version.isLast) warnings.unshift(`This is not the entry's last active version: history holds a later one.`);
  if (t.tier === 'hive') warnings.push('shared-learnings-rejected.jsonl is not touched: its fingerprints have their own ids, not the entry id.');
  return {
    ...previewHeader(services, minted, store),
    id: input.id,
    tier: t.tier,
    storeFile: store.path,
    versionSha256: version.sha256,
    line,
    lesson: typeof version.record.lesson === 'string' ? version.record.lesson : '',
    reason: version.reason,
    cap: capWarning(t, store, JSON.parse(line) as Record<string, unknown>, source.caps, input.id),
    effects,
    warnings,
    restoreStatus: status.status,
    restoreStatusWhy: status.why,
  };
}

export function commitHistoryRestore(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, source: RestoreContext, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, HISTORY_RESTORE_OP, async (payload, token12) => {
    const id = payload.ids[0] as string;
    const t = targetOf(paths, payload.bind.tier as Tier);
    refuseImportedStores(paths, ...writtenFiles(t));
    const reason = cleanReason(input.reason);
    const at = new Date().toISOString();
    // The line is rebuilt from history exactly as previewed; its hash is bound in the token.
    const text = versionText(source.db, payload.bind.version ?? '');
    const line = text === null ? null : restoredLine(text, payload.bind.restore_status ?? '', payload.bind.updated_at ?? '');
    const snapshots = (s: Snapshots) => ({ store: s.get(t.store) as StoreSnapshot, sidecar: s.get(t.sidecar) as StoreSnapshot, rejected: t.rejected ? (s.get(t.rejected) as StoreSnapshot) : null });
    const check = (s: Snapshots) => {
      const { store, sidecar, rejected } = snapshots(s);
      if (line === null) throw new TokenRefusal('binding', `History no longer holds version ${(payload.bind.version ?? '').slice(0, 12)}… of ${id} (thinned after the preview); run the preview again. Nothing was changed.`, token12);
      if (store.byId.get(id)?.length) throw new TokenRefusal('entry', `${id} is in ${path.basename(store.path)} again (written after the preview); restoring it would write the id twice. Nothing was changed.`, token12);
      const live = { version: payload.bind.version ?? '', status: payload.bind.restore_status ?? '', updatedAt: payload.bind.updated_at ?? '', sha256: sha256Hex(line) };
      checkLiveBindings(payload, { target: store.path, store: store.fingerprint, lineShasOf: (x) => (store.byId.get(x) ?? []).map((l) => l.sha256), bind: bindings(t, { sidecar, rejected }, live) }, token12);
    };
    const outcome = await runTransaction({
      locks: [t.lockDir],
      files: writtenFiles(t),
      reads: readFiles(t),
      workspace: workspaceRoots(paths),
      backup: {
        root: backupRoot(services),
        name: backupName(new Date(), token12),
        signingKey: services.backupSigningKey(),
        manifest: { manifest_version: 1, op: 'history-restore', token12, store_dir: t.lockDir, tier: t.tier, link_id: t.linkId, ids: payload.ids, version_sha256: payload.bind.version, restore_status: payload.bind.restore_status, reason, created_at: at },
      },
      check,
      plan(s) {
        const { store, rejected } = snapshots(s);
        // The active store first: a crash before the second rename leaves a stale fingerprint, never a lost entry.
        const files = new Map<string, Buffer | null>([[t.store, withAppended(store.bytes, [line as string])]]);
        const fingerprints = rejectedOf(rejected, id);
        if (rejected && fingerprints.length) files.set(rejected.path, withoutLines(rejected.bytes, fingerprints));
        return files;
      },
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    return finish(services, caller, outcome, t, payload, token12, reason, source.caps);
  });
}

async function finish(services: HumanServices, caller: CallerContext, outcome: Awaited<ReturnType<typeof runTransaction>>, t: Target, payload: TokenPayload, token12: string, reason: string, caps: Caps): Promise<Result> {
  const ids = payload.ids;
  if (outcome.state !== 'committed') {
    await services.record(caller, { event: 'commit', op: HISTORY_RESTORE_OP, outcome: outcome.state === 'verify_failed_restored' ? 'restored' : 'restore_failed', token12, ids, reason, backup: outcome.backup.name, message: outcome.messages.join(' ') });
    throw new CommitAbort(outcome.state, outcome.messages.join(' '));
  }
  const before = outcome.before.get(t.store) as StoreSnapshot;
  const after = outcome.after.get(t.store) as StoreSnapshot;
  await services.record(caller, {
    event: 'commit',
    op: HISTORY_RESTORE_OP,
    outcome: 'ok',
    token12,
    ids,
    reason,
    backup: outcome.backup.name,
    detail: { store: t.store, tier: t.tier, version_sha256: payload.bind.version, restore_status: payload.bind.restore_status },
  });
  const storeName = path.basename(t.store);
  const messages = [`Appended ${ids[0]} (version ${(payload.bind.version ?? '').slice(0, 12)}…) to ${storeName} with status ${payload.bind.restore_status}; every other line kept byte for byte.`];
  if (t.rejected) {
    const removed = outcome.written.has(t.rejected) ? (outcome.before.get(t.rejected) as StoreSnapshot).lines.filter((l) => l.id === ids[0]).length : 0;
    messages.push(removed ? `Removed ${plural(removed, 'rejected fingerprint', 'rejected fingerprints')} with this id from ${path.basename(t.rejected)}.` : `${path.basename(t.rejected)} held no fingerprint with this id: not changed.`);
  }
  messages.push(`Not written: ${path.basename(t.sidecar)} and the event logs (the plugin's restore writes no event).`);
  const cap = t.tier === 'hive' ? caps.hive : caps.swarm;
  if (after.fingerprint.entry_count >= cap) messages.push(`${storeName} now holds ${after.fingerprint.entry_count} entries, at or past the plugin's cap of ${cap}: the plugin may evict the restored entry again.`);
  messages.push(...outcome.messages, `Backup ${outcome.backup.name} (verified) in ${backupRoot(services)}.`);
  return {
    state: 'committed',
    token12,
    backup: outcome.backup.name,
    ids,
    before: { entryCount: before.fingerprint.entry_count, fileSha256: before.fingerprint.file_sha256 },
    after: { entryCount: after.fingerprint.entry_count, fileSha256: after.fingerprint.file_sha256 },
    messages,
    revertCheckAt: scheduleRestoreCheck(services, caller, { op: HISTORY_RESTORE_OP, store: t.store, backupDir: outcome.backup.dir, id: ids[0] as string, token12 }),
  };
}
