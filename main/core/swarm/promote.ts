import crypto from 'node:crypto';
import path from 'node:path';
import type { z } from 'zod';
import { ConsoleError } from '../../../shared/contract';
import type { SwarmPreview, WriteResult } from '../../../shared/contract/commands';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import type { CallerContext } from '../human/confirmation';
import { cleanReason, hivePaths } from '../hive/hive-paths';
import { selectExact } from '../hive/quarantine';
import { previewHeader } from '../human/preview-header';
import { CommitAbort, type HumanCommitInput, type HumanServices } from '../human/runner';
import { checkLiveBindings, type TokenPayload } from '../human/tokens';
import { backupName } from '../human/write/backup';
import { readStoreSnapshot, sha256Hex, type StoreLine, type StoreSnapshot } from '../human/write/store-snapshot';
import { runTransaction, withAppended } from '../human/write/transaction';
import { knowledgeFamily, str, SWARM_PROMOTE_OP } from './swarm-store';
import { PROMOTED_DIRECTIVE_FIELDS } from '../rules/directive-fields';
import { refuseImportedStores } from '../stores/imported';
import { workspaceRoots } from '../stores/containment';
import { refuseOutsideWorkspace } from '../human/write/containment';

type Preview = z.infer<typeof SwarmPreview>;
type Result = z.infer<typeof WriteResult>;

/** The hive entry `/swarm promote --from-swarm <id>` writes: promoted, confidence 1.0, encounter 1.0. */
function hiveEntryFrom(swarm: Record<string, unknown>, projectDir: string, id: string, at: string): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id,
    tier: 'hive',
    lesson: swarm.lesson,
    category: swarm.category ?? 'process',
    tags: Array.isArray(swarm.tags) ? swarm.tags : [],
    scope: swarm.scope ?? 'global',
    confidence: 1,
    status: 'promoted',
    confirmed_by: [],
    retrieval_outcomes: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    schema_version: 1,
    created_at: at,
    updated_at: at,
    source_project: str(swarm.project_name) ?? path.basename(projectDir),
    encounter_score: 1,
  };
  for (const field of PROMOTED_DIRECTIVE_FIELDS) if (swarm[field] !== undefined) entry[field] = swarm[field];
  return entry;
}

function source(paths: WorkspacePaths, id: string): StoreLine {
  return sourceLine(readStoreSnapshot(knowledgeFamily(paths).knowledge), id);
}

function sourceLine(knowledge: StoreSnapshot, id: string): StoreLine {
  const [line] = selectExact(knowledge, [id]) as [StoreLine];
  const status = str(line.value?.status);
  if (status === 'archived' || status === 'quarantined') throw new ConsoleError('failed', `The entry ${id} is ${status}; only a live entry can be promoted.`);
  return line;
}

function refuseDuplicate(hive: StoreSnapshot, lesson: string): void {
  const twin = hive.lines.find((l) => str(l.value?.lesson) === lesson);
  if (twin) throw new ConsoleError('failed', `The hive already holds this lesson (entry ${twin.id ?? `line ${twin.index + 1}`}); promoting it again would duplicate it.`);
}

export async function previewSwarmPromote(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, id: string): Promise<Preview> {
  refuseImportedStores(paths, knowledgeFamily(paths).knowledge, hivePaths(paths.hiveDir).store);
  refuseOutsideWorkspace(workspaceRoots(paths), [knowledgeFamily(paths).knowledge, hivePaths(paths.hiveDir).store]);
  const line = source(paths, id);
  const hive = hivePaths(paths.hiveDir);
  const store = readStoreSnapshot(hive.store);
  const lesson = str(line.value?.lesson) ?? '';
  refuseDuplicate(store, lesson);
  const newId = crypto.randomUUID();
  const minted = await services.preview(caller, {
    op: SWARM_PROMOTE_OP,
    target: store.path,
    ids: [id],
    lines: { [id]: line.sha256 },
    store: store.fingerprint,
    bind: { new_id: newId, source: knowledgeFamily(paths).knowledge },
  });
  return {
    ...previewHeader(services, minted, store),
    action: 'promote',
    tier: 'hive',
    linkId: null,
    storeDir: hive.dataDir,
    entries: [{ id, from: 'active', status: str(line.value?.status), restoreTo: null, lineSha256: line.sha256, lesson }],
    effects: [`shared-learnings.jsonl: append one entry ${newId} (status promoted, confidence 1.0, encounter_score 1.0), under ${hive.dataDir}.lock`],
  };
}

export function commitSwarmPromote(services: HumanServices, caller: CallerContext, paths: WorkspacePaths, input: HumanCommitInput): Promise<Result> {
  return services.commit(caller, input, SWARM_PROMOTE_OP, async (payload: TokenPayload, token12) => {
    const hive = hivePaths(paths.hiveDir);
    refuseImportedStores(paths, knowledgeFamily(paths).knowledge, hive.store);
    const reason = cleanReason(input.reason);
    const id = payload.ids[0] as string;
    const newId = payload.bind.new_id as string;
    const at = new Date().toISOString();
    const family = knowledgeFamily(paths);
    // The swarm line is read from the transaction's snapshot, re-verified under the project (or
    // link) lock as well as the hive's: the person confirmed exactly those bytes.
    const sourceIn = (s: ReadonlyMap<string, StoreSnapshot>) => sourceLine(s.get(family.knowledge) as StoreSnapshot, id);
    const check = (s: ReadonlyMap<string, StoreSnapshot>) => {
      const store = s.get(hive.store) as StoreSnapshot;
      const current = (() => {
        try {
          return [sourceIn(s).sha256];
        } catch {
          return [];
        }
      })();
      checkLiveBindings(payload, { target: store.path, store: store.fingerprint, lineShasOf: () => current, bind: { new_id: newId, source: family.knowledge } }, token12);
    };
    const outcome = await runTransaction({
      locks: [family.dir, hive.dataDir],
      files: [hive.store, family.knowledge],
      workspace: workspaceRoots(paths),
      backup: { root: path.join(services.paths.dir, 'backups'), name: backupName(new Date(), token12), signingKey: services.backupSigningKey(), manifest: { manifest_version: 1, op: 'swarm-promote', token12, source_id: id, new_id: newId, hive_path: hive.store, reason, created_at: at } },
      check,
      plan(s) {
        const line = sourceIn(s);
        const store = s.get(hive.store) as StoreSnapshot;
        refuseDuplicate(store, str(line.value?.lesson) ?? '');
        return new Map([[hive.store, withAppended(store.bytes, [JSON.stringify(hiveEntryFrom(line.value ?? {}, paths.projectDir, newId, at))])]]);
      },
      lockWaitMs: services.lockWaitMs,
      onLockHeld: services.onLockHeld,
    });
    const before = outcome.before.get(hive.store) as StoreSnapshot;
    const after = outcome.after.get(hive.store) as StoreSnapshot;
    if (outcome.state !== 'committed') {
      await services.record(caller, { event: 'commit', op: SWARM_PROMOTE_OP, outcome: 'failed', token12, ids: [id], reason, backup: outcome.backup.name, message: outcome.messages.join(' ') });
      throw new CommitAbort(outcome.state, outcome.messages.join(' '));
    }
    await services.record(caller, { event: 'commit', op: SWARM_PROMOTE_OP, outcome: 'ok', token12, ids: [id, newId], reason, backup: outcome.backup.name });
    return {
      state: 'committed',
      token12,
      backup: outcome.backup.name,
      ids: [newId],
      before: { entryCount: before.fingerprint.entry_count, fileSha256: before.fingerprint.file_sha256 },
      after: { entryCount: after.fingerprint.entry_count, fileSha256: after.fingerprint.file_sha256 },
      messages: [`Promoted ${id} to the hive as ${newId} (line sha256 ${sha256Hex(after.lines.find((l) => l.id === newId)?.raw ?? '').slice(0, 12)}…).`],
      revertCheckAt: null,
    };
  });
}
