import crypto from 'node:crypto';
import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { SwarmPreview, WriteResult } from '../../../shared/contract/commands';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { cleanReason } from '../hive/hive-paths';
import { selectExact } from '../hive/quarantine';
import { mintForLines, previewHeader } from '../human/preview-header';
import type { HumanCommitInput, HumanServices } from '../human/runner';
import { checkLiveBindings } from '../human/tokens';
import { backupName } from '../human/write/backup';
import { readStoreSnapshot, withReplacedLines, type StoreLine, type StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, withAppended } from '../human/write/transaction';
import { refuseImportedStores } from '../stores/imported';
import { workspaceRoots } from '../stores/containment';
import { refuseOutsideWorkspace } from '../human/write/containment';
import { backupRoot, finish } from './quarantine-restore';
import { knowledgeFamily, str, SWARM_ARCHIVE_OP, type KnowledgeFamily } from './swarm-store';

type Preview = z.infer<typeof SwarmPreview>;
type Result = z.infer<typeof WriteResult>;

/** Statuses that are already out of use: archiving them again would overwrite the status a restore needs. */
const INACTIVE = new Set(['archived', 'quarantined', 'quarantined_unactionable']);

/**
 * The entries to archive, exact ids only. An entry already inactive is refused: its tombstone's
 * previous_status would become `archived` (or `quarantined`) and Restore could not bring back
 * the status it had before.
 */
function select(knowledge: StoreSnapshot, ids: readonly string[]): StoreLine[] {
  const selected = selectExact(knowledge, ids);
  for (const line of selected) {
    const status = str(line.value?.status) ?? 'candidate';
    if (INACTIVE.has(status)) throw new ConsoleError('failed', `The entry ${line.id} is already ${status}; there is nothing to archive.`);
  }
  return selected;
}

/**
 * The plugin's `archived` tombstone (docs/plugin-formats.md#knowledge-events), as its
 * `knowledge_archive` tool writes it in mode `archive`: `previous_status` is what a restore
 * sets back (docs/plugin-formats.md#swarm-quarantine-and-restore).
 */
const tombstone = (line: StoreLine, reason: string, at: string) =>
  JSON.stringify({ schema_version: 1, type: 'archived', entry_id: line.id, tier: 'swarm', actor: 'human:console', reason, mode: 'archive', previous_status: str(line.value?.status) ?? 'candidate', event_id: crypto.randomUUID(), timestamp: at });

const effects = (family: KnowledgeFamily, count: number) => [
  `knowledge.jsonl: ${count} entr${count === 1 ? 'y' : 'ies'} set to status archived in place, with a new updated_at; every other line kept byte for byte`,
  `knowledge-events.jsonl: append ${count} archived event(s) (mode archive, actor human:console, previous_status = the status now), which Restore sets back`,
  'Nothing is quarantined and no rejected fingerprint is written: the lesson can still be re-learned, and Restore brings the entry back.',
  `The plugin's knowledge_archive tool also retires or marks stale the generated skills built from archived entries; the console does not (retire them from the Skills view). Store: ${path.basename(family.dir)}.`,
];

export async function previewSwarmArchive(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, ids: readonly string[]): Promise<Preview> {
  const family = knowledgeFamily(paths);
  refuseImportedStores(paths, family.knowledge, family.events);
  refuseOutsideWorkspace(workspaceRoots(paths), [family.knowledge, family.events]);
  const knowledge = readStoreSnapshot(family.knowledge);
  const selected = select(knowledge, ids);
  // Not bound: the events log (the plugin appends to it all the time, and the commit only appends).
  const minted = await mintForLines(services, caller, SWARM_ARCHIVE_OP, knowledge, selected);
  return {
    ...previewHeader(services, minted, knowledge),
    action: 'archive',
    tier: family.tier,
    linkId: family.linkId,
    storeDir: family.dir,
    entries: selected.map((l) => ({ id: l.id as string, from: 'active' as const, status: str(l.value?.status), restoreTo: str(l.value?.status) ?? 'candidate', lineSha256: l.sha256, lesson: str(l.value?.lesson) ?? '' })),
    effects: effects(family, selected.length),
  };
}

/** Archives as the plugin's `knowledge_archive` (mode archive) does, on the human-only write protocol. */
export function commitSwarmArchive(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SWARM_ARCHIVE_OP, async (payload, token12) => {
    const family = knowledgeFamily(paths);
    refuseImportedStores(paths, family.knowledge, family.events);
    const reason = cleanReason(input.reason);
    const at = new Date().toISOString();
    const outcome = await runTransaction({
      locks: [family.dir],
      files: [family.knowledge, family.events],
      workspace: workspaceRoots(paths),
      backup: { root: backupRoot(services), name: backupName(new Date(), token12), signingKey: services.backupSigningKey(), manifest: { manifest_version: 1, op: 'swarm-archive', token12, store_dir: family.dir, tier: family.tier, link_id: family.linkId, ids: payload.ids, reason, created_at: at } },
      check(s) {
        const knowledge = s.get(family.knowledge) as StoreSnapshot;
        checkLiveBindings(payload, { target: knowledge.path, store: knowledge.fingerprint, lineShasOf: (id) => (knowledge.byId.get(id) ?? []).map((l) => l.sha256), bind: {} }, token12);
      },
      plan(s) {
        const knowledge = s.get(family.knowledge) as StoreSnapshot;
        const selected = select(knowledge, payload.ids);
        // The tombstone first: a crash between the two renames leaves a restorable record, never an archived entry without one.
        return new Map<string, Buffer | null>([
          [family.events, withAppended((s.get(family.events) as StoreSnapshot).bytes, selected.map((l) => tombstone(l, reason, at)))],
          [family.knowledge, withReplacedLines(knowledge.bytes, new Map(selected.map((l) => [l, JSON.stringify({ ...l.value, status: 'archived', updated_at: at })])))],
        ]);
      },
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    return finish(services, caller, SWARM_ARCHIVE_OP, outcome, family, payload.ids, token12, reason, `Archived ${payload.ids.length} entr${payload.ids.length === 1 ? 'y' : 'ies'} of ${family.tier === 'link' ? `link store ${family.linkId}` : 'the project'} (status archived; Restore sets the previous status back).`);
  });
}
