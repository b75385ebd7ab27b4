import fs from 'node:fs';
import path from 'node:path';
import { ConsoleError } from '../../../shared/contract';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import { readStoreSnapshot, type StoreSnapshot } from '../human/write/store-snapshot';

export const SWARM_QUARANTINE_OP = 'swarm.quarantine.commit';
export const SWARM_RESTORE_OP = 'swarm.restore.commit';
export const SWARM_PROMOTE_OP = 'swarm.promote.commit';
export const SWARM_ARCHIVE_OP = 'swarm.archive.commit';

/**
 * The project's knowledge family, link-aware: a linked worktree's entries live in
 * `<dataDir>/links/<id>/` under `links/<id>.lock`, otherwise in `<project>/.swarm/` under
 * `.swarm.lock` (docs/plugin-formats.md#link-symlinks, #locks). Always resolved through link.json, never a symlink.
 */
export interface KnowledgeFamily {
  dir: string;
  tier: 'swarm' | 'link';
  linkId: string | null;
  knowledge: string;
  quarantined: string;
  rejected: string;
  events: string;
}

export function knowledgeFamily(paths: WorkspacePaths): KnowledgeFamily {
  if (paths.link.pointerPresent && paths.link.linkId === null) {
    throw new ConsoleError('failed', `The project's .swarm/link.json is invalid (${paths.link.problem ?? 'no linkId'}); the console will not guess where its knowledge lives.`);
  }
  const dir = paths.knowledgeDir;
  if (!fs.existsSync(dir)) throw new ConsoleError('not_found', `The knowledge folder ${dir} does not exist.`);
  const resolved = fs.realpathSync(dir);
  return {
    dir: resolved,
    tier: paths.link.dir ? 'link' : 'swarm',
    linkId: paths.link.dir ? paths.link.linkId : null,
    knowledge: path.join(resolved, 'knowledge.jsonl'),
    quarantined: path.join(resolved, 'knowledge-quarantined.jsonl'),
    rejected: path.join(resolved, 'knowledge-rejected.jsonl'),
    events: path.join(resolved, 'knowledge-events.jsonl'),
  };
}

/** `file:<name>` → sha256 of each file a commit rewrites besides its primary store: any change after the preview refuses. */
export const fileBindings = (snapshots: readonly StoreSnapshot[]): Record<string, string> =>
  Object.fromEntries(snapshots.map((s) => [`file:${path.basename(s.path)}`, s.exists ? s.fingerprint.file_sha256 : 'absent']));

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The most recent archive tombstone's `previous_status` for each id (docs/plugin-formats.md#swarm-quarantine-and-restore), read without a lock. */
export function previousStatuses(eventsFile: string, ids: readonly string[]): Map<string, string> {
  const wanted = new Set(ids);
  const found = new Map<string, string>();
  const snapshot = readStoreSnapshot(eventsFile);
  for (const line of snapshot.lines) {
    const v = line.value;
    if (!v || v.type !== 'archived' || typeof v.entry_id !== 'string' || !wanted.has(v.entry_id)) continue;
    const previous = str(v.previous_status);
    if (previous) found.set(v.entry_id, previous);
  }
  return found;
}
