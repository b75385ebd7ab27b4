import { ConsoleError } from '../../../shared/contract';
import type { RestorePreview, TimelineOutput } from '../../../shared/contract/history';
import { readStoreSnapshot } from '../human/write/store-snapshot';
import type { HistoryDb } from './history-db';
import type { HistoryQueries } from './history-queries';
import { isActiveKind } from './entry-kinds';
import { parseRecord } from './field-diff';
import { VersionStore } from './versions';

/**
 * What a history restore brings back (docs/plugin-formats.md#history-restore): one version of an
 * entry that history recorded — by default its last version in an active store — as the exact
 * line the plugin's restore would append: the record with its status set back and a new
 * `updated_at`, every other field as it was.
 */
export type Tier = 'swarm' | 'hive' | 'link';
type Reason = RestorePreview['reason'];

/** The statuses the plugin treats as inactive (docs/plugin-formats.md#knowledge-entries). */
export const INACTIVE_STATUSES = new Set(['archived', 'quarantined', 'quarantined_unactionable']);

export interface HistorySource {
  db: HistoryDb;
  queries: HistoryQueries;
}

export interface ChosenVersion {
  id: string;
  tier: Tier;
  /** The store file it lived in when history recorded this version (`.swarm/knowledge.jsonl`…). */
  file: string;
  sha256: string;
  /** The exact line history recorded. */
  text: string;
  record: Record<string, unknown>;
  /** Why it left its active store, from history. */
  reason: Reason;
  /** Whether this is the entry's last version in an active store (the one `history.forgotten` lists). */
  isLast: boolean;
}

type TimelineVersion = TimelineOutput['versions'][number];

const short = (sha: string) => sha.slice(0, 12);

/** The line of a version history holds, or null when it no longer does. */
export const versionText = (db: HistoryDb, sha: string): string | null => new VersionStore(db).text(sha);

function endReason(version: TimelineVersion): Reason {
  const end = version.end;
  if (end && end.code !== 'changed') return { code: end.code, text: end.text, inference: end.inference };
  if (version.to === null) return { code: 'removed', text: `history last saw it in ${version.file} and has not recorded it leaving`, inference: false };
  return { code: 'removed', text: 'removed (the stores do not say why)', inference: false };
}

/** Picks the version to restore: `sha256` when given, else the last one history saw in an active store. */
export function chooseVersion(source: HistorySource, id: string, sha256?: string): ChosenVersion {
  const versions = source.queries.timeline(id).versions;
  if (versions.length === 0) throw new ConsoleError('not_found', `History has no entry with the exact id ${id}; it can restore only what it recorded.`);
  const active = versions.filter((v) => isActiveKind(v.kind));
  const last = active.at(-1);
  let chosen: TimelineVersion | undefined;
  if (sha256) {
    chosen = [...versions].reverse().find((v) => v.sha256 === sha256);
    if (!chosen) throw new ConsoleError('not_found', `History has no version ${short(sha256)}… of ${id} (it holds ${versions.length} version${versions.length === 1 ? '' : 's'} of that entry).`);
  } else {
    chosen = last;
    if (!chosen) throw new ConsoleError('not_found', `History never saw ${id} in an active store (only in ${[...new Set(versions.map((v) => v.file))].join(', ')}); there is no active version to restore.`);
  }
  const text = versionText(source.db, chosen.sha256);
  if (text === null) throw new ConsoleError('not_found', `History no longer holds the text of version ${short(chosen.sha256)}… of ${id} (thinned to stay within its size budget).`);
  const record = parseRecord(text);
  if (!record) throw new ConsoleError('failed', `Version ${short(chosen.sha256)}… of ${id} is not a JSON object; restoring it would append a line the plugin drops. Nothing can be previewed or written.`);
  // The reason belongs to the active sighting this version ended (a side-file version: the last active one).
  const activeEnd = isActiveKind(chosen.kind) ? chosen : last;
  return {
    id,
    tier: chosen.tier,
    file: chosen.file,
    sha256: chosen.sha256,
    text,
    record,
    reason: activeEnd ? endReason(activeEnd) : { code: 'removed', text: 'never seen in an active store', inference: false },
    isLast: last !== undefined && chosen.sha256 === last.sha256,
  };
}

export interface RestoredStatus {
  status: string;
  /** Where the status comes from, in words. */
  why: string;
}

interface Tombstone {
  at: number;
  previousStatus: string;
  where: string;
}

/** Archived tombstones of `id` with a previous status: history's copy (the logs are 5,000-line FIFOs) and the live log. */
export function tombstonesOf(db: HistoryDb, eventsFile: string, id: string, tier: Tier): Tombstone[] {
  const kept = (db.prepare('SELECT at, previous_status, tier FROM tombstones WHERE entry_id = ? AND previous_status IS NOT NULL').all(id) as { at: number; previous_status: string; tier: string | null }[])
    .filter((t) => t.tier === null || t.tier === tier || (tier === 'link' && t.tier === 'swarm'))
    .map((t) => ({ at: t.at, previousStatus: t.previous_status, where: 'history' }));
  const live = readStoreSnapshot(eventsFile).lines.flatMap((line) => {
    const v = line.value;
    if (!v || v.type !== 'archived' || v.entry_id !== id || typeof v.previous_status !== 'string') return [];
    const at = typeof v.timestamp === 'string' ? Date.parse(v.timestamp) : Number.NaN;
    return [{ at: Number.isNaN(at) ? 0 : at, previousStatus: v.previous_status, where: 'log' }];
  });
  return [...kept, ...live];
}

/**
 * The status the restored line gets, as the plugin's restore decides it
 * (docs/plugin-formats.md#swarm-quarantine-and-restore): the version's own status when it was
 * active; for an archived or quarantined version, the most recent tombstone's `previous_status`;
 * else `candidate`.
 */
export function restoredStatus(record: Record<string, unknown>, tombstones: readonly Tombstone[]): RestoredStatus {
  const status = typeof record.status === 'string' && record.status !== '' ? record.status : null;
  if (status !== null && !INACTIVE_STATUSES.has(status)) return { status, why: `its status in that version (${status})` };
  const latest = [...tombstones].sort((a, b) => b.at - a.at)[0];
  const was = status === null ? 'had no status' : `was ${status}`;
  if (latest && !INACTIVE_STATUSES.has(latest.previousStatus)) {
    const when = latest.at > 0 ? ` of ${new Date(latest.at).toISOString()}` : '';
    return { status: latest.previousStatus, why: `that version ${was}; the most recent archived tombstone${when} says it was ${latest.previousStatus} before` };
  }
  return { status: 'candidate', why: `that version ${was} and no archived tombstone records an active status before it, so candidate (the plugin's default)` };
}

/** The exact line appended: the version's record, status set back, a new `updated_at`, every other field kept. */
export function restoredLine(text: string, status: string, updatedAt: string): string {
  const record = parseRecord(text);
  if (!record) throw new ConsoleError('failed', 'The version is not a JSON object.');
  record.status = status;
  record.updated_at = updatedAt;
  return JSON.stringify(record);
}
