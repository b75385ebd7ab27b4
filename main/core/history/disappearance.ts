import type { HistoryDb } from './history-db';
import { SIDE_FILE_WORDS, isActiveKind } from './entry-kinds';

/**
 * Why an entry left a store file, where the stores say it (docs/plugin-formats.md#swarm-quarantine-and-restore,
 * docs/plugin-formats.md#knowledge-events, docs/plugin-formats.md#hive-events), else an inference worded as one
 * (docs/plugin-formats.md#caps-and-ttl-archive).
 */
export interface GoneReason {
  code: 'console-quarantine' | 'moved' | 'archived-event' | 'todo-sweep' | 'cap' | 'file-removed' | 'removed';
  text: string;
  /** True when the stores do not say it and the console infers it. */
  inference: boolean;
}

export interface GoneSighting {
  entryId: string;
  tier: string;
  kind: string;
  file: string;
  /** The sighting that ended was there when history began: so was any other sighting from then, which is no move. */
  baseline?: boolean;
  goneAt: number;
  goneAfter: number | null;
  /** Records in the file before the pass that found it gone. */
  storeCount: number | null;
  /** The last version as a record (null when unparseable). */
  record: Record<string, unknown> | null;
  fileRemoved: boolean;
}

/** A human-only quarantine the console committed (from its audit log). */
export interface ConsoleQuarantine {
  at: number;
  op: string;
  ids: readonly string[];
}

export interface Caps {
  swarm: number;
  hive: number;
}

/** Facts about one disappearance recorded elsewhere can arrive a moment later (the other file's sync, the audit append). */
const NEAR_MS = 2 * 60_000;

export function explainGone(db: HistoryDb, gone: GoneSighting, quarantines: readonly ConsoleQuarantine[], caps: Caps): GoneReason {
  const from = (gone.goneAfter ?? gone.goneAt) - NEAR_MS;
  const to = gone.goneAt + NEAR_MS;
  const byPerson = quarantines.find((q) => q.ids.includes(gone.entryId) && q.at >= from && q.at <= to);
  if (byPerson) return { code: 'console-quarantine', text: `quarantined by a person in the console (${byPerson.op}, audit log)`, inference: false };

  const moved = db
    .prepare("SELECT kind, file FROM sightings WHERE entry_id = ? AND tier = ? AND kind <> ? AND first_seen BETWEEN ? AND ? AND NOT (origin = 'baseline' AND ?) ORDER BY first_seen LIMIT 1")
    .get(gone.entryId, gone.tier, gone.kind, from, to, gone.baseline ? 1 : 0) as { kind: string; file: string } | undefined;
  if (moved) {
    const verb = isActiveKind(moved.kind) ? 'restored to' : 'moved to';
    return { code: 'moved', text: `${verb} ${SIDE_FILE_WORDS[moved.kind] ?? moved.kind} (${moved.file})`, inference: false };
  }

  const tombstone = db
    .prepare('SELECT actor, reason, mode FROM tombstones WHERE entry_id = ? AND at BETWEEN ? AND ? ORDER BY at DESC LIMIT 1')
    .get(gone.entryId, from - 30 * 86_400_000, to) as { actor: string | null; reason: string | null; mode: string | null } | undefined;
  if (tombstone) {
    const verb = tombstone.mode === 'purge' ? 'purged' : tombstone.mode === 'quarantine' ? 'quarantined' : 'archived';
    const why = tombstone.reason ? `: ${tombstone.reason}` : '';
    return { code: 'archived-event', text: `${verb} by ${tombstone.actor ?? 'the plugin'} (an archived event in the events log)${why}`, inference: false };
  }

  if (gone.fileRemoved) return { code: 'file-removed', text: `the store file ${gone.file} was deleted or left the workspace`, inference: false };

  const r = gone.record;
  if (r && r.category === 'todo' && r.status !== 'promoted' && typeof r.phases_alive === 'number' && r.phases_alive >= 3) {
    return { code: 'todo-sweep', text: `no longer in the store (likely deleted by the sweep of TODO entries older than 3 phases; it had lived ${r.phases_alive})`, inference: true };
  }
  if (isActiveKind(gone.kind) && gone.storeCount !== null) {
    const cap = gone.tier === 'hive' ? caps.hive : caps.swarm;
    if (gone.storeCount >= cap) return { code: 'cap', text: `no longer in the store (likely evicted by the ${cap}-entry cap)`, inference: true };
  }
  return { code: 'removed', text: 'removed (the stores do not say why)', inference: false };
}
