import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedStore } from '../../../testing/history/simulated-store';
import { openHistoryDb, type HistoryDb } from './history-db';
import { HistoryQueries } from './history-queries';
import { DAY_MS, KEEP_DAILY_DAYS } from './thin-entry';
import { HistoryThinner, historySize, thinToBudget } from './thinning';
import { VersionStore } from './versions';
import { encodeVersion, MAX_DELTA_DEPTH, sha256 } from './version-codec';

/** The size budget: what thinning keeps, that every kept version still reads back exactly, and the spans it leaves. */
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const START = Date.UTC(2026, 0, 1, 6, 0);
const HOUR = 3_600_000;

function history() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-thinning-'));
  const { db } = openHistoryDb(dir);
  const clock = { t: START };
  const store = new SimulatedStore(db, clock);
  cleanups.push(() => {
    store.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { db, clock, store, dir };
}

const record = (id: string, uses: number, extra: Record<string, unknown> = {}) => ({
  id,
  tier: 'swarm',
  lesson: `Lesson ${id}: retry the payment webhook with exponential backoff before declaring it failed.`,
  category: 'process',
  confidence: 0.8,
  status: 'established',
  retrieval_outcomes: { applied_count: uses, succeeded_after_count: Math.floor(uses / 2), failed_after_count: 0 },
  ...extra,
});

/** `entries` entries, each updated `perDay` times a day for `days` days. Returns each entry's first and last line. */
async function simulate(h: ReturnType<typeof history>, entries: number, days: number, perDay: number) {
  const ids = Array.from({ length: entries }, (_, i) => `e${i}`);
  const first = new Map(ids.map((id) => [id, JSON.stringify(record(id, 0))]));
  await h.store.open(ids.map((id) => record(id, 0)));
  const last = new Map(first);
  const uses = new Map(ids.map((id) => [id, 0]));
  const step = DAY_MS / perDay;
  for (let tick = 1; tick <= days * perDay; tick++) {
    h.clock.t = START + tick * step;
    const id = ids[tick % entries]!;
    uses.set(id, uses.get(id)! + 1);
    const next = record(id, uses.get(id)!);
    last.set(id, JSON.stringify(next));
    await h.store.update(next);
  }
  return { ids, first, last };
}

interface Row {
  id: number;
  entry_id: string;
  path: string;
  sha: string;
  first_seen: number;
  gone_at: number | null;
  gone_reason: string | null;
  thinned: number | null;
}
/**
 * Re-stores each entry's versions as an earlier console wrote them: each a delta against the one
 * before, chains up to MAX_DELTA_DEPTH deep (thinning then deletes bases other versions are built on).
 */
function chainOnPrevious(db: HistoryDb): void {
  const store = new VersionStore(db);
  const rows = db.prepare('SELECT entry_id, sha FROM sightings ORDER BY entry_id, first_seen, id').all() as { entry_id: string; sha: string }[];
  const texts = new Map(rows.map((r) => [r.sha, store.text(r.sha)!]));
  const update = db.prepare('UPDATE versions SET base_sha = ?, depth = ?, data = ? WHERE sha = ?');
  let previous: { sha: string; text: string; depth: number } | null = null;
  let entry = '';
  const done = new Set<string>();
  db.transaction(() => {
    for (const row of rows) {
      if (row.entry_id !== entry) previous = null;
      entry = row.entry_id;
      if (done.has(row.sha)) continue;
      done.add(row.sha);
      const encoded = encodeVersion(texts.get(row.sha)!, previous);
      update.run(encoded.base, encoded.depth, encoded.data, row.sha);
      previous = { sha: row.sha, text: texts.get(row.sha)!, depth: encoded.depth };
    }
  })();
  expect((db.prepare('SELECT max(depth) AS d FROM versions').get() as { d: number }).d).toBe(MAX_DELTA_DEPTH);
}

const sightings = (db: HistoryDb) => db.prepare('SELECT id, entry_id, path, sha, first_seen, gone_at, gone_reason, thinned FROM sightings ORDER BY entry_id, first_seen, id').all() as Row[];

/** Every version row inflates (through its chain) to bytes whose sha256 is its address. */
function everyVersionDecodes(db: HistoryDb): number {
  const store = new VersionStore(db);
  const shas = (db.prepare('SELECT sha FROM versions').all() as { sha: string }[]).map((r) => r.sha);
  for (const sha of shas) expect(sha256(store.text(sha) ?? '<missing>'), `version ${sha.slice(0, 12)}`).toBe(sha);
  return shas.length;
}

describe('thinning history to its size budget', () => {
  it("keeps every entry's first and last version and one a day for the last 90 days, and every kept version reads back byte for byte", async () => {
    const h = history();
    const { ids, first, last } = await simulate(h, 3, 100, 9);
    chainOnPrevious(h.db);
    everyVersionDecodes(h.db);
    const before = sightings(h.db);
    const now = h.clock.t;
    // A budget nothing fits in: everything thinnable goes.
    const report = await thinToBudget(h.db, 1, now);
    expect(report.exhausted).toBe(true);
    expect(report.sightingsThinned).toBeGreaterThan(before.length / 2);
    expect(report.versionsDeleted).toBe(report.sightingsThinned);
    // Delta bases were deleted under kept versions: those were re-encoded (or stored plain) and still decode.
    expect(report.reencoded + report.storedPlain).toBeGreaterThan(0);
    expect(everyVersionDecodes(h.db)).toBeGreaterThan(0);

    const after = sightings(h.db);
    const versions = new VersionStore(h.db);
    for (const id of ids) {
      const rows = after.filter((r) => r.entry_id === id);
      expect(versions.text(sha256(first.get(id)!)), `${id} first`).toBe(first.get(id));
      expect(versions.text(sha256(last.get(id)!)), `${id} last`).toBe(last.get(id));
      // Every day of the last 90 that had a version still has one, with its line.
      const windowStart = now - KEEP_DAILY_DAYS * DAY_MS;
      const daysBefore = new Set(before.filter((r) => r.entry_id === id && r.first_seen >= windowStart).map((r) => Math.floor(r.first_seen / DAY_MS)));
      const daysAfter = new Set(rows.filter((r) => r.thinned === null && r.first_seen >= windowStart && versions.text(r.sha) !== null).map((r) => Math.floor(r.first_seen / DAY_MS)));
      expect([...daysBefore].filter((d) => !daysAfter.has(d)), `${id}: days left without a version`).toEqual([]);
      // Older than 90 days only the first version is kept; the rest are spans.
      expect(rows.filter((r) => r.thinned === null && r.gone_at !== null && r.gone_at < windowStart - DAY_MS).length).toBe(1);
      // The timeline stays whole: each row begins where the one before it ended, and the spans count what they replaced.
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.first_seen).toBe(rows[i - 1]!.gone_at);
      const counted = rows.reduce((n, r) => n + (r.thinned ?? 1), 0);
      expect(counted).toBe(before.filter((r) => r.entry_id === id).length);
    }
    // A kept row never points at a version history dropped.
    for (const row of after.filter((r) => r.thinned === null)) expect(versions.text(row.sha), `sighting ${row.id}`).not.toBeNull();
  }, 120_000);

  it('stops at 90 % of the budget, oldest versions first, and gives the freed pages back to the file system', async () => {
    const h = history();
    await simulate(h, 2, 40, 24);
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    const start = historySize(h.db);
    const budget = Math.floor(start.usedBytes * 0.6);
    const report = await thinToBudget(h.db, budget, h.clock.t);
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(report.exhausted).toBe(false);
    expect(report.after.usedBytes).toBeLessThanOrEqual(budget * 0.9);
    expect(report.reclaimed).toBe('incremental');
    expect(report.after.fileBytes).toBeLessThan(start.fileBytes);
    expect(report.after.fileBytes).toBe(report.after.usedBytes);
    // Cut into several short transactions, each followed by a turn of the event loop.
    expect(report.transactions).toBeGreaterThan(1);
    // Oldest first: what was thinned is the oldest stretch; the last 10 days lost nothing.
    const rows = sightings(h.db);
    const spans = rows.filter((r) => r.thinned !== null);
    expect(spans.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.first_seen > h.clock.t - 10 * DAY_MS).every((r) => r.thinned === null)).toBe(true);
    expect(Math.max(...spans.map((r) => r.gone_at!))).toBeLessThan(h.clock.t - 10 * DAY_MS);
    everyVersionDecodes(h.db);
  }, 120_000);

  it('stores each new version as a delta against a plain one, so a read inflates at most two lines', async () => {
    const h = history();
    await simulate(h, 2, 10, 48);
    const depths = h.db.prepare('SELECT depth, count(*) AS n FROM versions GROUP BY depth ORDER BY depth').all() as { depth: number; n: number }[];
    expect(depths.map((d) => d.depth)).toEqual([0, 1]);
    expect(depths[0]!.n).toBe(2);
    everyVersionDecodes(h.db);
  });

  it('keeps a version that comes back later (a value that flipped back), and thins only what no kept row needs', async () => {
    const h = history();
    await h.store.open([record('flip', 0, { status: 'established' })]);
    for (let i = 1; i <= 200; i++) {
      h.clock.t = START + i * HOUR;
      await h.store.update(record('flip', 0, { status: i % 2 === 0 ? 'established' : 'candidate', confidence: i % 10 === 0 ? 0.5 + i / 1000 : 0.8 }));
    }
    h.clock.t = START + 200 * DAY_MS;
    await thinToBudget(h.db, 1, h.clock.t);
    everyVersionDecodes(h.db);
    const versions = new VersionStore(h.db);
    for (const row of sightings(h.db).filter((r) => r.thinned === null)) expect(versions.text(row.sha)).not.toBeNull();
    // The first line (established, 0.8) is also the line of every other even hour: still there.
    expect(versions.text(sha256(JSON.stringify(record('flip', 0, { status: 'established' }))))).not.toBeNull();
  });

  it('shows a thinned stretch as one span in the timeline and the as-of table, never as a version it no longer has', async () => {
    const h = history();
    await simulate(h, 1, 100, 6);
    const now = h.clock.t;
    await thinToBudget(h.db, 1, now);
    const queries = new HistoryQueries({ db: h.db, lastLooked: null, caps: { swarm: 100, hive: 200 }, quarantines: () => [], status: { file: 'history.db', setAside: null }, now });
    const timeline = queries.timeline('e0');
    const spans = timeline.versions.filter((v) => v.thinned);
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) {
      expect(span.record).toBeNull();
      expect(span.fields).toEqual([]);
      expect(span.thinned!.text).toMatch(/^\d+ intermediate versions? thinned/);
    }
    expect(timeline.versions[0]!.thinned).toBeUndefined();
    expect(timeline.versions[0]!.record).not.toBeNull();
    // The version after a span is compared with the last kept version before it.
    const afterSpan = timeline.versions[timeline.versions.indexOf(spans[0]!) + 1]!;
    expect(afterSpan.fields.map((f) => f.field)).toContain('retrieval_outcomes');
    const inside = new Date(Date.parse(spans[0]!.from) + 1000).toISOString();
    const asOf = queries.asOf(inside, 0, 10);
    expect(asOf.entries).toHaveLength(1);
    expect(asOf.entries[0]).toMatchObject({ id: 'e0', record: null, thinned: { count: spans[0]!.thinned!.count } });
    const changes = queries.changes(inside, 'now');
    expect(changes.rows[0]!.fields).toEqual([{ field: '(thinned)', before: expect.stringMatching(/^one of \d+ intermediate versions thinned/), after: null }]);
  });

  it('checks the size after a batch cheaply and thins only when history is over its budget', async () => {
    const h = history();
    await simulate(h, 2, 20, 24);
    const count = () => (h.db.prepare('SELECT count(*) AS n FROM sightings').get() as { n: number }).n;
    const rows = count();
    const roomy = new HistoryThinner(h.db, historySize(h.db).usedBytes * 2, () => h.clock.t);
    roomy.check();
    await roomy.idle();
    expect(roomy.lastReport).toBeNull();
    expect(count()).toBe(rows);
    const tight = new HistoryThinner(h.db, Math.floor(historySize(h.db).usedBytes / 2), () => h.clock.t);
    tight.check();
    await tight.idle();
    expect(tight.lastReport?.sightingsThinned).toBeGreaterThan(0);
    expect(count()).toBeLessThan(rows);
    everyVersionDecodes(h.db);
  });
});
