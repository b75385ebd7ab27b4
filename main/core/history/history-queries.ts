import { historicalItem } from './historical-row';
import type { AsOfOutput, ChangesOutput, ForgottenOutput, MomentsOutput, TimelineOutput } from '../../../shared/contract/history';
import type { HistoryDb, HistoryDbStatus } from './history-db';
import { VersionStore } from './versions';
import { explainGone, type Caps, type ConsoleQuarantine, type GoneReason } from './disappearance';
import { ACTIVE_KINDS, isActiveKind } from './entry-kinds';
import { fieldDiff, parseRecord } from './field-diff';
import { clockTime, gapsBetween, iso, resolveMoment, unobservedText } from './moments';

export interface HistoryReadContext {
  db: HistoryDb;
  lastLooked: number | null;
  caps: Caps;
  quarantines: () => ConsoleQuarantine[];
  status: HistoryDbStatus;
  now?: number;
}

interface Sighting {
  id: number;
  entry_id: string;
  tier: 'swarm' | 'hive' | 'link';
  kind: 'active' | 'quarantined' | 'unactionable' | 'rejected' | 'hive' | 'link';
  store_key: string;
  path: string;
  file: string;
  sha: string;
  status: string | null;
  origin: 'baseline' | 'catch-up' | 'live';
  first_seen: number;
  first_after: number | null;
  gone_at: number | null;
  gone_after: number | null;
  gone_reason: string | null;
  store_count: number | null;
  /** Set on a span standing for this many thinned intermediate versions (thin-entry.ts). */
  thinned: number | null;
}

type Reason = { code: GoneReason['code'] | 'archived-status'; text: string; inference: boolean };

/**
 * The sightings open at @at: the R*Tree finds the few whose span holds the moment (its float bounds
 * are rounded outwards), the exact columns decide. A baseline sighting is the state when history
 * began (@began), though its row was written a moment after: it counts from then.
 */
const OPEN_AT_SQL = `SELECT s.* FROM sightings_span r JOIN sightings s ON s.id = r.id
  WHERE r.from_t <= @at AND r.to_t >= @at AND (s.first_seen <= @at OR (s.origin = 'baseline' AND @at >= @began)) AND (s.gone_at IS NULL OR s.gone_at > @at)`;

const ACTIVE_SQL = ACTIVE_KINDS.map((k) => `'${k}'`).join(', ');
const openAt = (s: Sighting, t: number) => s.first_seen <= t && (s.gone_at === null || s.gone_at > t);
const place = (s: Sighting) => ({ tier: s.tier, kind: s.kind, storeKey: s.store_key, file: s.file });
const thinnedText = (n: number) => `${n} intermediate version${n === 1 ? '' : 's'} thinned (not kept: history's size budget)`;
/** The optional `thinned` field: only on a thinned span, absent on versions history holds. */
const thinnedOf = (s: Sighting) => (s.thinned ? { thinned: { count: s.thinned, text: thinnedText(s.thinned) } } : {});
const unobserved = (verb: string, after: number | null, at: number) => (after === null ? null : { from: iso(after), to: iso(at), text: unobservedText(verb, after, at) });
/** Where an entry is at a moment: its active store first, else a side file. */
const primary = (rows: Sighting[], t: number) => {
  const present = rows.filter((s) => openAt(s, t));
  return present.find((s) => isActiveKind(s.kind)) ?? present[0] ?? null;
};

/** The read side of history: every query the contract offers, over one history database. */
export class HistoryQueries {
  private readonly versions: VersionStore;
  private quarantineCache: ConsoleQuarantine[] | null = null;

  constructor(private readonly ctx: HistoryReadContext) {
    this.versions = new VersionStore(ctx.db);
  }

  private get db() {
    return this.ctx.db;
  }

  private now(): number {
    return this.ctx.now ?? Date.now();
  }

  private record(sha: string) {
    return parseRecord(this.versions.text(sha));
  }

  /** A sighting's record; none for a thinned span (its versions are not kept). */
  private recordOf(s: Sighting) {
    return s.thinned ? null : this.record(s.sha);
  }

  private began(): number | null {
    return (this.db.prepare('SELECT min(started_at) AS at FROM observations').get() as { at: number | null }).at;
  }

  private resolve(moment: string) {
    return resolveMoment(moment, { db: this.db, lastLooked: this.ctx.lastLooked, now: this.now() });
  }

  private quarantines(): ConsoleQuarantine[] {
    return (this.quarantineCache ??= this.ctx.quarantines());
  }

  /** Why a sighting ended, with the facts known now (a move or an audit record may have arrived after). */
  private endOf(s: Sighting): Reason | null {
    if (s.gone_at === null || s.gone_reason === 'changed') return null;
    return explainGone(
      this.db,
      { entryId: s.entry_id, tier: s.tier, kind: s.kind, file: s.file, baseline: s.origin === 'baseline', goneAt: s.gone_at, goneAfter: s.gone_after, storeCount: s.store_count, record: this.record(s.sha), fileRemoved: s.gone_reason === 'file-removed' },
      this.quarantines(),
      this.ctx.caps,
    );
  }

  /** An entry archived in place (docs/plugin-formats.md#caps-and-ttl-archive): the tombstone says why, else the TTL is inferred. */
  private archivedReason(s: Sighting, record: Record<string, unknown> | null): Reason {
    const tombstone = this.db.prepare('SELECT actor, reason FROM tombstones WHERE entry_id = ? AND at <= ? ORDER BY at DESC LIMIT 1').get(s.entry_id, s.first_seen + 120_000) as { actor: string | null; reason: string | null } | undefined;
    if (tombstone) return { code: 'archived-event', text: `archived by ${tombstone.actor ?? 'the plugin'} (an archived event in the events log)${tombstone.reason ? `: ${tombstone.reason}` : ''}`, inference: false };
    const alive = record?.phases_alive;
    const max = typeof record?.max_phases === 'number' ? record.max_phases : 10;
    if (typeof alive === 'number' && alive > max) return { code: 'archived-status', text: `status set to archived (likely the TTL sweep: it had lived ${alive} phases, past its ${max})`, inference: true };
    return { code: 'archived-status', text: 'status set to archived', inference: false };
  }

  changes(sinceMoment: string, untilMoment: string): ChangesOutput {
    const since = this.resolve(sinceMoment);
    const until = this.resolve(untilMoment);
    // Only the sightings that decide each entry's row (reading every sighting in a busy week costs
    // more than everything else): those open at either end, the first that began in the range, those
    // that ended in the range other than by a newer version, and the entry's first sighting (was it
    // there when history began?).
    const range = { since, until };
    const startedIn = this.db.prepare('SELECT * FROM sightings WHERE id IN (SELECT min(id) FROM sightings WHERE first_seen > @since AND first_seen <= @until GROUP BY tier, entry_id)').all(range) as Sighting[];
    const ended = this.db.prepare("SELECT * FROM sightings WHERE gone_at > @since AND gone_at <= @until AND (gone_reason IS NULL OR gone_reason != 'changed')").all(range) as Sighting[];
    const historyBegan = this.began() ?? Number.MAX_SAFE_INTEGER;
    const openAt = (at: number) => this.db.prepare(OPEN_AT_SQL).all({ at, began: historyBegan }) as Sighting[];
    const byKey = new Map<string, Map<number, Sighting>>();
    const keyOf = (s: { tier: string; entry_id: string }) => `${s.tier}\u0000${s.entry_id}`;
    // (A version replaced in the range has its successor begin in it: that entry is among startedIn.)
    for (const s of [...startedIn, ...ended]) if (!byKey.has(keyOf(s))) byKey.set(keyOf(s), new Map());
    for (const s of [...startedIn, ...ended, ...openAt(since), ...openAt(until)]) byKey.get(keyOf(s))?.set(s.id, s);
    const firstOf = this.db.prepare('SELECT * FROM sightings WHERE tier = ? AND entry_id = ? ORDER BY first_seen, id LIMIT 1');
    const keys = [...byKey.keys()].map((key) => {
      const [tier, entryId] = key.split('\u0000') as [string, string];
      const rows = byKey.get(key)!;
      const first = firstOf.get(tier, entryId) as Sighting;
      rows.set(first.id, first);
      return { tier, entry_id: entryId, all: [...rows.values()].sort((a, b) => a.id - b.id) };
    });
    const rows: ChangesOutput['rows'] = [];
    for (const key of keys) {
      const all = key.all;
      // An entry present when history began counts as there at any earlier `since`.
      const baseline = all[0]?.origin === 'baseline' && all[0].first_seen > since ? all[0] : null;
      const before = primary(all, since) ?? baseline;
      const after = primary(all, until);
      const lessonOf = (s: Sighting) => {
        const lesson = this.recordOf(s)?.lesson;
        return typeof lesson === 'string' ? lesson : null;
      };
      const removed = (left: Sighting) => {
        const end = this.endOf(left) ?? { code: 'removed' as const, text: 'removed (the stores do not say why)', inference: false };
        rows.push({ change: 'removed', id: key.entry_id, at: iso(left.gone_at!), place: place(left), lesson: lessonOf(left), fields: [], reason: end, unobserved: unobserved('removed', left.gone_after, left.gone_at!) });
      };
      if (!after || (before && isActiveKind(before.kind) && !isActiveKind(after.kind))) {
        // Gone by `until` (or moved out of the active store): the active sighting that ended last.
        const left = [...all].reverse().find((s) => s.gone_at !== null && s.gone_at > since && s.gone_at <= until && s.gone_reason !== 'changed' && (!before || s.tier === before.tier));
        if (left && (before || isActiveKind(left.kind))) removed(left);
        continue;
      }
      if (!before) {
        const first = all.find((s) => s.first_seen > since && s.first_seen <= until) ?? after;
        if (first.origin === 'baseline') continue; // present when history began, not added
        rows.push({ change: 'added', id: key.entry_id, at: iso(first.first_seen), place: place(after), lesson: lessonOf(after), fields: [], reason: null, unobserved: unobserved('added', first.first_after, first.first_seen) });
        continue;
      }
      if (before.sha === after.sha && before.path === after.path) continue;
      const beforeRecord = this.recordOf(before);
      const afterRecord = this.recordOf(after);
      // A moment inside a thinned stretch has no version to compare: say so instead of a diff.
      const fields =
        before.thinned || after.thinned
          ? [{ field: '(thinned)', before: before.thinned ? `one of ${thinnedText(before.thinned)}` : null, after: after.thinned ? `one of ${thinnedText(after.thinned)}` : null }]
          : fieldDiff(beforeRecord, afterRecord);
      if (before.path !== after.path) fields.unshift({ field: '(store file)', before: before.file, after: after.file });
      const becameArchived = afterRecord?.status === 'archived' && beforeRecord?.status !== 'archived';
      rows.push({
        change: !isActiveKind(before.kind) && isActiveKind(after.kind) ? 'added' : 'changed',
        id: key.entry_id,
        at: iso(after.first_seen),
        place: place(after),
        lesson: lessonOf(after),
        fields,
        reason: becameArchived ? this.archivedReason(after, afterRecord) : null,
        unobserved: unobserved('changed', after.first_after, after.first_seen),
      });
    }
    rows.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
    const count = (c: string) => rows.filter((r) => r.change === c).length;
    const began = this.began();
    return {
      since: { moment: sinceMoment, at: iso(since) },
      until: { moment: untilMoment, at: iso(until) },
      counts: { added: count('added'), removed: count('removed'), changed: count('changed') },
      rows,
      gaps: gapsBetween(this.db, since, until).map((g) => ({ from: iso(g.from), to: iso(g.to), text: `not observed between ${clockTime(g.from)} and ${clockTime(g.to)}` })),
      historyBegan: began === null ? null : iso(began),
    };
  }

  asOf(moment: string, offset: number, limit: number): AsOfOutput {
    const at = this.resolve(moment);
    const began = this.began();
    const bind = { at, began: began ?? Number.MAX_SAFE_INTEGER };
    const total = (this.db.prepare(`SELECT count(*) AS n FROM (${OPEN_AT_SQL})`).get(bind) as { n: number }).n;
    const rows = this.db.prepare(`${OPEN_AT_SQL} ORDER BY s.tier, s.kind, s.entry_id LIMIT @limit OFFSET @offset`).all({ ...bind, limit, offset }) as Sighting[];
    let note: string | null = null;
    if (began === null || at < began) note = `before history began${began === null ? '' : ` (${iso(began)})`}: nothing is known`;
    else {
      const gap = gapsBetween(this.db, began, at).at(-1);
      if (gap && gap.to >= at) note = `nobody was watching at ${iso(at)}: this is the state last recorded, at ${iso(gap.from)}`;
    }
    return {
      moment: { moment, at: iso(at) },
      total,
      entries: rows.map((s, i) => {
        const record = this.recordOf(s);
        return { ...place(s), id: s.entry_id, sha256: s.sha, since: iso(s.first_seen), record, row: historicalItem(record, place(s), s.kind, offset + i), ...thinnedOf(s) };
      }),
      note,
      historyBegan: began === null ? null : iso(began),
    };
  }

  timeline(id: string): TimelineOutput {
    const rows = this.db.prepare('SELECT * FROM sightings WHERE entry_id = ? ORDER BY first_seen, id').all(id) as Sighting[];
    let previous: Record<string, unknown> | null = null;
    const versions = rows.map((s) => {
      const record = this.recordOf(s);
      // A thinned span shows no diff; the next kept version is compared with the last kept before it.
      const fields = previous === null || s.thinned ? [] : fieldDiff(previous, record);
      if (!s.thinned) previous = record;
      const end = s.gone_at === null ? null : s.gone_reason === 'changed' ? { code: 'changed' as const, text: 'replaced by a newer version', inference: false } : this.endOf(s);
      return {
        ...place(s),
        sha256: s.sha,
        from: iso(s.first_seen),
        to: s.gone_at === null ? null : iso(s.gone_at),
        origin: s.origin,
        unobserved: unobserved(s.origin === 'catch-up' ? 'appeared' : 'changed', s.first_after, s.first_seen),
        fields,
        end,
        record,
        ...thinnedOf(s),
      };
    });
    return { id, versions };
  }

  forgotten(): ForgottenOutput {
    const rows = this.db
      .prepare(
        `SELECT * FROM sightings s WHERE kind IN (${ACTIVE_SQL})
           AND id = (SELECT max(id) FROM sightings t WHERE t.entry_id = s.entry_id AND t.tier = s.tier AND t.kind IN (${ACTIVE_SQL}))
           AND (gone_at IS NOT NULL OR status = 'archived') ORDER BY coalesce(gone_at, first_seen) DESC`,
      )
      .all() as Sighting[];
    const whereNow = this.db.prepare('SELECT kind, file FROM sightings WHERE entry_id = ? AND tier = ? AND gone_at IS NULL ORDER BY id DESC LIMIT 1');
    const entries: ForgottenOutput['entries'] = [];
    for (const s of rows) {
      const record = this.record(s.sha);
      const archivedInPlace = s.gone_at === null;
      const reason = archivedInPlace ? this.archivedReason(s, record) : this.endOf(s);
      if (!reason || reason.code === 'console-quarantine') continue;
      const here = archivedInPlace ? null : (whereNow.get(s.entry_id, s.tier) as { kind: string; file: string } | undefined);
      const leftAt = archivedInPlace ? s.first_seen : (s.gone_at as number);
      entries.push({
        ...place(s),
        id: s.entry_id,
        leftAt: iso(leftAt),
        reason,
        unobserved: archivedInPlace ? unobserved('archived', s.first_after, s.first_seen) : unobserved('removed', s.gone_after, leftAt),
        now: archivedInPlace ? `archived in place in ${s.file}` : here ? `in ${here.file}` : null,
        sha256: s.sha,
        record,
      });
    }
    return { entries };
  }

  moments(): MomentsOutput {
    const phases = (this.db.prepare("SELECT name, at, source FROM moments WHERE name LIKE 'phase:%'").all() as { name: string; at: number; source: string }[])
      .map((m) => ({ moment: m.name, phase: Number(m.name.slice(6)), at: iso(m.at), source: m.source }))
      .sort((a, b) => a.phase - b.phase);
    const observations = (this.db.prepare('SELECT role, started_at, ended_at FROM observations ORDER BY started_at DESC LIMIT 50').all() as { role: string; started_at: number; ended_at: number }[]).map((o) => ({
      role: o.role,
      from: iso(o.started_at),
      to: iso(o.ended_at),
    }));
    const began = this.began();
    const aside = this.ctx.status.setAside;
    return {
      now: iso(this.now()),
      lastLooked: this.ctx.lastLooked === null ? null : iso(this.ctx.lastLooked),
      phases,
      historyBegan: began === null ? null : iso(began),
      observations,
      store: {
        file: this.ctx.status.file,
        setAside: aside ? { ...aside, message: `The history database could not be read (${aside.reason}); it was set aside as ${aside.file} and history restarted.` } : null,
      },
    };
  }
}
