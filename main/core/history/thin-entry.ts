import type { HistoryDb } from './history-db';
import { decodeVersion, encodeVersion, MAX_DELTA_DEPTH, sha256 } from './version-codec';

export const DAY_MS = 86_400_000;
/** For this many days back from now, every entry keeps at least one version a day (its last of the day). */
export const KEEP_DAILY_DAYS = 90;

interface SightingRow {
  id: number;
  path: string;
  sha: string;
  first_seen: number;
  first_after: number | null;
  gone_at: number | null;
  gone_reason: string | null;
  origin: string;
  thinned: number | null;
}

interface VersionRow {
  sha: string;
  base_sha: string | null;
  depth: number;
  data: Buffer;
}

/** What thinning one entry (or a pass over many) did. */
export interface ThinStats {
  /** Intermediate versions whose sightings were merged into spans. */
  sightingsThinned: number;
  /** Version lines deleted (no remaining sighting refers to them). */
  versionsDeleted: number;
  /** Remaining versions whose delta base was deleted: re-encoded against an older kept version, or stored plain. */
  reencoded: number;
  storedPlain: number;
}

export const noStats = (): ThinStats => ({ sightingsThinned: 0, versionsDeleted: 0, reencoded: 0, storedPlain: 0 });

export function addStats(into: ThinStats, more: ThinStats): void {
  into.sightingsThinned += more.sightingsThinned;
  into.versionsDeleted += more.versionsDeleted;
  into.reencoded += more.reencoded;
  into.storedPlain += more.storedPlain;
}

/**
 * What may never be thinned: the entry's first and last version, every version still open in some
 * file, and within the last KEEP_DAILY_DAYS days the last version first seen on each (UTC) day.
 */
function protectedOf(rows: SightingRow[], now: number): { ids: Set<number>; shas: Set<string> } {
  const ids = new Set<number>();
  const shas = new Set<string>();
  const keep = (row: SightingRow) => {
    ids.add(row.id);
    shas.add(row.sha);
  };
  keep(rows[0]!);
  keep(rows[rows.length - 1]!);
  const windowStart = now - KEEP_DAILY_DAYS * DAY_MS;
  const lastOfDay = new Map<number, SightingRow>();
  for (const row of rows) {
    if (row.gone_at === null) keep(row);
    if (row.thinned === null && row.first_seen >= windowStart) lastOfDay.set(Math.floor(row.first_seen / DAY_MS), row);
  }
  for (const row of lastOfDay.values()) keep(row);
  return { ids, shas };
}

/**
 * The rows thinning may merge away: intermediate (replaced by a newer version in the same file),
 * older than `horizon`, not protected, and whose version no kept row refers to.
 */
function candidatesOf(rows: SightingRow[], horizon: number, now: number): Set<number> {
  const kept = protectedOf(rows, now);
  const candidates = new Set<number>();
  for (const row of rows) {
    if (row.first_seen < horizon && row.gone_reason === 'changed' && row.thinned === null && !kept.ids.has(row.id) && !kept.shas.has(row.sha)) candidates.add(row.id);
  }
  // A version seen again later (a value that flipped back) stays while any kept row refers to it.
  const referencedByKept = new Set(rows.filter((r) => r.thinned === null && !candidates.has(r.id)).map((r) => r.sha));
  for (const row of rows) if (candidates.has(row.id) && referencedByKept.has(row.sha)) candidates.delete(row.id);
  return candidates;
}

/** Runs of consecutive rows in one file, each a candidate or an earlier span, that hold at least one candidate. */
function runsOf(rows: SightingRow[], candidates: Set<number>): SightingRow[][] {
  const byPath = new Map<string, SightingRow[]>();
  for (const row of rows) {
    const sequence = byPath.get(row.path);
    if (sequence) sequence.push(row);
    else byPath.set(row.path, [row]);
  }
  const runs: SightingRow[][] = [];
  for (const sequence of byPath.values()) {
    let run: SightingRow[] = [];
    const close = () => {
      if (run.some((r) => candidates.has(r.id))) runs.push(run);
      run = [];
    };
    for (const row of sequence) {
      const mergeable = candidates.has(row.id) || (row.thinned !== null && row.gone_reason === 'changed');
      const contiguous = run.length > 0 && run[run.length - 1]!.gone_at === row.first_seen;
      if (!mergeable) close();
      else {
        if (run.length > 0 && !contiguous) close();
        run.push(row);
      }
    }
    close();
  }
  return runs;
}

/** Decodes versions through their chains (before any of them is deleted), remembering each line. */
function chainReader(db: HistoryDb) {
  const get = db.prepare('SELECT sha, base_sha, depth, data FROM versions WHERE sha = ?');
  const texts = new Map<string, string>();
  const row = (sha: string) => get.get(sha) as VersionRow | undefined;
  const text = (sha: string): string => {
    const known = texts.get(sha);
    if (known !== undefined) return known;
    const version = row(sha);
    if (!version) throw new Error(`history: version ${sha.slice(0, 12)} is missing from its chain`);
    const decoded = decodeVersion(version.data, version.base_sha === null ? null : text(version.base_sha));
    texts.set(sha, decoded);
    return decoded;
  };
  /** The shas a read of `sha` inflates, itself included. */
  const chain = (sha: string): string[] => {
    const out: string[] = [];
    for (let at: string | null = sha; at !== null && out.length <= MAX_DELTA_DEPTH + 1; at = row(at)?.base_sha ?? null) out.push(at);
    return out;
  };
  return { row, text, chain };
}

/**
 * Thins one entry's versions first seen before `horizon`, inside the caller's transaction. Each run
 * of intermediate versions in one file becomes one span (the run's last row, stretched back to the
 * run's start, `thinned` = how many versions it stands for); lines no remaining row refers to are
 * deleted; a remaining version whose delta base was deleted is re-encoded against the kept version
 * before it, or stored plain, and checked to decode to its exact bytes before the transaction goes on.
 */
export function thinEntry(db: HistoryDb, entryId: string, horizon: number, now: number): ThinStats {
  const stats = noStats();
  const rows = db
    .prepare('SELECT id, path, sha, first_seen, first_after, gone_at, gone_reason, origin, thinned FROM sightings WHERE entry_id = ? ORDER BY first_seen, id')
    .all(entryId) as SightingRow[];
  if (rows.length < 3) return stats;
  const candidates = candidatesOf(rows, horizon, now);
  if (candidates.size === 0) return stats;
  const runs = runsOf(rows, candidates);
  const merged = new Set<number>();
  for (const run of runs) for (const row of run) if (candidates.has(row.id)) merged.add(row.id);
  const remaining = rows.filter((r) => !merged.has(r.id) && r.thinned === null);
  const keptShas = new Set(remaining.map((r) => r.sha));
  const deleted = new Set(rows.filter((r) => merged.has(r.id) && !keptShas.has(r.sha)).map((r) => r.sha));

  // Re-encode, before anything is deleted, every remaining version whose chain base goes away.
  const reader = chainReader(db);
  const dependents = [...keptShas].map((sha) => reader.row(sha)).filter((v): v is VersionRow => v !== undefined && v.base_sha !== null && deleted.has(v.base_sha));
  const rewriting = new Set(dependents.map((v) => v.sha));
  const update = db.prepare('UPDATE versions SET base_sha = ?, depth = ?, data = ? WHERE sha = ?');
  // Dependents stored plain in this pass: later ones may use them as their base (a new keyframe).
  const newKeyframes: string[] = [];
  const usable = (sha: string, depthLimit: number) => {
    const base = reader.row(sha);
    if (!base || base.depth + 1 > depthLimit) return null;
    // A chain untouched by this thinning (or ending at a version this pass stored plain).
    const chain = reader.chain(sha);
    const ok = chain.every((link) => !deleted.has(link) && (!rewriting.has(link) || newKeyframes.includes(link)));
    return ok ? { sha, text: reader.text(sha), depth: newKeyframes.includes(sha) ? 0 : base.depth } : null;
  };
  const position = new Map<string, number>();
  remaining.forEach((r, i) => position.has(r.sha) || position.set(r.sha, i));
  for (const version of dependents.sort((a, b) => position.get(a.sha)! - position.get(b.sha)!)) {
    const text = reader.text(version.sha);
    const firstRow = position.get(version.sha)!;
    const predecessor = [...remaining.slice(0, Math.max(0, firstRow))].reverse().find((r) => r.sha !== version.sha);
    // No deeper than the version's old chain: versions built on it keep a depth that bounds a read.
    const previous = (predecessor ? usable(predecessor.sha, version.depth) : null) ?? (newKeyframes.length > 0 ? usable(newKeyframes.at(-1)!, version.depth) : null);
    const encoded = encodeVersion(text, previous);
    const check = decodeVersion(encoded.data, encoded.base === null ? null : previous!.text);
    if (sha256(check) !== version.sha) throw new Error(`history: re-encoding ${version.sha.slice(0, 12)} did not give back its bytes; nothing was thinned`);
    update.run(encoded.base, encoded.depth, encoded.data, version.sha);
    if (encoded.base === null) {
      stats.storedPlain++;
      newKeyframes.push(version.sha);
    } else stats.reencoded++;
  }

  const stretch = db.prepare('UPDATE sightings SET first_seen = ?, first_after = ?, origin = ?, thinned = ? WHERE id = ?');
  const drop = db.prepare('DELETE FROM sightings WHERE id = ?');
  for (const run of runs) {
    const start = run[0]!;
    const keep = run[run.length - 1]!;
    const count = run.reduce((n, r) => n + (r.thinned ?? 1), 0);
    for (const row of run) if (row.id !== keep.id) drop.run(row.id);
    stretch.run(start.first_seen, start.first_after, start.origin, count, keep.id);
    stats.sightingsThinned += run.filter((r) => candidates.has(r.id)).length;
  }
  const remove = db.prepare('DELETE FROM versions WHERE sha = ?');
  for (const sha of deleted) stats.versionsDeleted += remove.run(sha).changes;
  return stats;
}
