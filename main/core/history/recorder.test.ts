import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspacePaths } from '../platform/paths/workspace-paths';
import { StoreIndexService } from '../store-index/store-index-service';
import { swarmEntryV2 } from '../../../testing/stores/sample-records';
import { appendStore, rewriteStore } from '../../../testing/history/plugin-writes';
import { HistoryService } from './history-service';
import { HistoryQueries } from './history-queries';
import { type BatchSummary } from './recorder';
import { EVENT_PAGE_SQL } from './event-facts';
import type { StoreChange } from '../store-index/ingest';

/** The recorder on its own, with a clock the test moves: costs, gaps while nobody watched, last looked. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HOUR = 3_600_000;
const entry = (n: number, extra: Record<string, unknown> = {}) => swarmEntryV2({ id: `e${n}`, lesson: `Lesson ${n}: retry the webhook with backoff.`, ...extra });

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'history-recorder-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  const paths = resolveWorkspacePaths(project, path.join(root, 'hive'), 'flag', false);
  const clock = { t: Date.UTC(2026, 6, 1, 9, 12) };
  const batches: BatchSummary[] = [];
  /** `started`: called before the history settles (the first recording is then under way). */
  const open = async (role: 'app' | 'recorder' = 'app', onBatch: (history: HistoryService) => void = () => undefined, started: (history: HistoryService) => void = () => undefined) => {
    const index = new StoreIndexService(paths, path.join(root, 'ws'), { watch: false });
    const history: HistoryService = new HistoryService(index, {
      dir: path.join(root, 'ws'),
      userDataDir: path.join(root, 'ud'),
      role,
      now: () => clock.t,
      onBatch: (b) => {
        batches.push(b);
        onBatch(history);
      },
    });
    started(history);
    await history.settle();
    const session = {
      index,
      history,
      queries: () => new HistoryQueries({ db: history.db, lastLooked: history.lastLooked, caps: history.caps, quarantines: () => [], status: history.status, now: clock.t }),
      sync: async () => {
        await index.rescan();
        await history.settle();
      },
      close: async () => {
        await history.close();
        await index.close();
      },
    };
    cleanups.push(() => session.close().catch(() => undefined));
    return session;
  };
  return { root, knowledge: path.join(project, '.swarm', 'knowledge.jsonl'), clock, batches, open };
}

describe('the history recorder', () => {
  it('reads only the appended lines of an append, and writes only the changed line of a rewrite', async () => {
    const w = workspace();
    // More lines than one index page (2,000) and one recording slice (at most 500) hold.
    const entries = Array.from({ length: 2500 }, (_, i) => entry(i));
    rewriteStore(w.knowledge, entries);
    const s = await w.open();
    expect(w.batches.at(-1)).toMatchObject({ added: 2500, read: 2500 });
    w.clock.t += 1000;
    appendStore(w.knowledge, entry(2500));
    await s.sync();
    expect(w.batches.at(-1)).toMatchObject({ added: 1, changed: 0, gone: 0, read: 1 });
    w.clock.t += 1000;
    entries[7] = { ...entries[7], confidence: 0.42 };
    rewriteStore(w.knowledge, [...entries.slice(0, 2400), entry(2500)]);
    await s.sync();
    expect(w.batches.at(-1)).toMatchObject({ added: 0, changed: 1, gone: 100 });
    const versions = (s.history.db.prepare('SELECT count(*) AS n FROM versions').get() as { n: number }).n;
    expect(versions).toBe(2502);
    expect(s.queries().asOf('now', 0, 5000).total).toBe(2401);
  });

  it('records an event log a page at a time, and an append by the rid range its pass wrote', async () => {
    const w = workspace();
    const events = path.join(path.dirname(w.knowledge), 'knowledge-events.jsonl');
    const archived = (n: number) => ({ schema_version: 1, type: 'archived', timestamp: new Date(Date.UTC(2026, 5, 1) + n * 60_000).toISOString(), event_id: `ev${n}`, entry_id: `e${n}`, actor: 'curator', reason: 'stale', mode: 'archive' });
    const outcome = (n: number) => ({ schema_version: 1, type: 'outcome', timestamp: new Date(Date.UTC(2026, 5, 1) + n * 60_000).toISOString(), knowledge_id: `e${n}`, phase: 'phase 3', outcome: 'success' });
    const retrieved = (n: number) => ({ schema_version: 1, type: 'retrieved', timestamp: new Date(Date.UTC(2026, 5, 1) + n * 60_000).toISOString(), event_id: `r${n}`, knowledge_id: `e${n % 50}` });
    // More tombstones than three pages of event rows (500 each), among many rows history does not
    // keep (so the kind index looks selective to SQLite's planner, as in a real log).
    rewriteStore(events, [...Array.from({ length: 1_700 }, (_, n) => (n % 10 === 9 ? outcome(n) : archived(n))), ...Array.from({ length: 40_000 }, (_, n) => retrieved(n))]);
    const s = await w.open();
    const tombstones = () => (s.history.db.prepare('SELECT count(*) AS n FROM tombstones').get() as { n: number }).n;
    expect(tombstones()).toBe(1_530);

    const changes: StoreChange[] = [];
    s.index.onChange((change) => changes.push(change));
    const before = s.index.db.prepare('SELECT max(rid) FROM events').pluck().get() as number;
    appendStore(events, archived(5_000));
    await s.sync();
    const change = changes.find((c) => c.storeKey === 'knowledge-events' && c.kind === 'appended')!;
    expect(change.afterRid).toBe(before);
    expect(w.batches.at(-1)).toMatchObject({ events: 1 });
    expect(tombstones()).toBe(1_531);
    // An append's rows are found by walking the rid range, not through the kind index (which holds
    // every archived event of every log).
    const plan = (s.index.db.prepare(`EXPLAIN QUERY PLAN ${EVENT_PAGE_SQL}`).all(before, 1, 1, 500) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan).toContain('USING INTEGER PRIMARY KEY (rowid>?)');
    expect(plan).not.toContain('events_kind');
  });

  it('records a first recording without syncs and makes it durable at its end; a later catch-up syncs throughout', async () => {
    const w = workspace();
    rewriteStore(w.knowledge, Array.from({ length: 600 }, (_, i) => entry(i)));
    const synchronous = (history: HistoryService) => history.db.pragma('synchronous', { simple: true }) as number;
    const first: number[] = [];
    const s = await w.open('app', (history) => first.push(synchronous(history)));
    expect(w.batches.at(-1)).toMatchObject({ added: 600 });
    // 0 = OFF while it records, 1 = NORMAL once it is done (history-db.ts).
    expect(new Set(first)).toEqual(new Set([0]));
    expect(synchronous(s.history)).toBe(1);
    await s.close();
    w.clock.t += 1000;
    appendStore(w.knowledge, entry(600));
    const later: number[] = [];
    const again = await w.open('app', (history) => later.push(synchronous(history)));
    expect(w.batches.at(-1)).toMatchObject({ added: 1 });
    expect(new Set(later)).toEqual(new Set([1]));
    expect(synchronous(again.history)).toBe(1);
  });

  it('takes over a first recording stopped part-way: over the same file, the rest is the baseline too; over a changed file, found on opening since it', async () => {
    const t0 = Date.UTC(2026, 6, 1, 9, 12);
    const count = (history: HistoryService, sql: string) => (history.db.prepare(sql).get() as { n: number }).n;
    const sightings = (history: HistoryService) => count(history, 'SELECT count(*) AS n FROM sightings');
    const groups = (history: HistoryService) => history.db.prepare('SELECT origin, first_seen, first_after, count(*) AS n FROM sightings GROUP BY 1, 2, 3 ORDER BY 1').all();
    /** A first recording of 3,000 lessons (6 slices at least) whose recorder stops (as when its lease is lost, or the console quits) once part is recorded. */
    const stoppedPartWay = async () => {
      const w = workspace();
      rewriteStore(w.knowledge, Array.from({ length: 3000 }, (_, i) => entry(i)));
      const s = await w.open('app', undefined, (history) => {
        const tick = () => (sightings(history) > 0 ? history.recorder.pause() : setImmediate(tick));
        setImmediate(tick);
      });
      const recorded = sightings(s.history);
      expect(recorded).toBeGreaterThan(0);
      expect(recorded).toBeLessThan(3000);
      // The console stays open a while, watching (and recording) nothing more of that file.
      w.clock.t += 10 * 60_000;
      await s.close();
      return { w, recorded };
    };

    // The file as the stopped pass read it: the rest of it is the baseline too, as of when history began.
    const same = await stoppedPartWay();
    same.w.clock.t = t0 + HOUR;
    const reopened = await same.w.open();
    expect(groups(reopened.history)).toEqual([{ origin: 'baseline', first_seen: t0, first_after: null, n: 3000 }]);
    // Every pass has now reached its file's end: the next open reads none of them again.
    expect(count(reopened.history, 'SELECT count(*) AS n FROM file_marks WHERE pass_origin IS NOT NULL')).toBe(0);

    // Changed since: what the stopped pass had not reached was there at some time between it and now.
    const changed = await stoppedPartWay();
    changed.w.clock.t = t0 + HOUR;
    appendStore(changed.w.knowledge, entry(3000));
    const later = await changed.w.open();
    expect(groups(later.history)).toEqual([
      { origin: 'baseline', first_seen: t0, first_after: null, n: changed.recorded },
      { origin: 'catch-up', first_seen: t0 + HOUR, first_after: t0, n: 3001 - changed.recorded },
    ]);
    // The Changes view says so: added while nobody watched, between the stopped recording and now.
    const added = later.queries().changes(new Date(t0).toISOString(), new Date(t0 + HOUR).toISOString());
    expect(added.counts).toEqual({ added: 3001 - changed.recorded, removed: 0, changed: 0 });
    expect(new Set(added.rows.map((r) => r.unobserved?.from))).toEqual(new Set([new Date(t0).toISOString()]));

    // An event log's recording stopped part-way: its other tombstones are kept on the next open.
    const w = workspace();
    const events = path.join(path.dirname(w.knowledge), 'knowledge-events.jsonl');
    rewriteStore(events, Array.from({ length: 1_600 }, (_, n) => ({ schema_version: 1, type: 'archived', timestamp: new Date(t0 - n * 60_000).toISOString(), event_id: `ev${n}`, entry_id: `e${n}`, actor: 'curator', reason: 'stale', mode: 'archive' })));
    const tombstones = (history: HistoryService) => count(history, 'SELECT count(*) AS n FROM tombstones');
    const first = await w.open('app', undefined, (history) => {
      const tick = () => (tombstones(history) > 0 ? history.recorder.pause() : setImmediate(tick));
      setImmediate(tick);
    });
    expect(tombstones(first.history)).toBeLessThan(1_600);
    await first.close();
    const second = await w.open();
    expect(tombstones(second.history)).toBe(1_600);
    expect(count(second.history, 'SELECT count(*) AS n FROM file_marks WHERE pass_origin IS NOT NULL')).toBe(0);
  });

  it('records a large first store in short slices, the event loop turning between any two', async () => {
    const w = workspace();
    // More than two index pages (2,000 rows) and many slices (at most 500 lines each).
    rewriteStore(w.knowledge, Array.from({ length: 4500 }, (_, i) => entry(i)));
    // At every turn of the event loop, how many sightings another connection sees committed.
    const file = path.join(w.root, 'ws', 'history.db');
    let reader: Database.Database | null = null;
    const seen: number[] = [];
    let ticking = true;
    const tick = () => {
      try {
        reader ??= fs.existsSync(file) ? new Database(file, { readonly: true, fileMustExist: true }) : null;
        const n = (reader?.prepare('SELECT count(*) AS n FROM sightings').get() as { n: number } | undefined)?.n;
        if (n !== undefined && n !== seen.at(-1)) seen.push(n);
      } catch {
        // the schema is not there yet
      }
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await w.open();
    ticking = false;
    tick(); // what the last slice committed
    (reader as Database.Database | null)?.close();
    expect(w.batches.at(-1)).toMatchObject({ added: 4500, read: 4500 });
    // Never more than one slice (500 lines) committed between two turns of the loop.
    const steps = seen.map((n, i) => n - (seen[i - 1] ?? 0));
    expect(seen.at(-1)).toBe(4500);
    expect(Math.max(...steps)).toBeLessThanOrEqual(500);
  });

  it('stores a counter update as a small delta against the version before', async () => {
    const w = workspace();
    rewriteStore(w.knowledge, [entry(1)]);
    const s = await w.open();
    const base = entry(1) as { retrieval_outcomes: Record<string, number> };
    for (let i = 1; i <= 60; i++) {
      w.clock.t += 60_000;
      rewriteStore(w.knowledge, [{ ...base, retrieval_outcomes: { ...base.retrieval_outcomes, shown_count: 12 + i } }]);
      await s.sync();
    }
    const stats = s.history.db.prepare('SELECT count(*) AS n, avg(length(data)) AS avg, max(depth) AS depth, avg(size) AS line FROM versions').get() as { n: number; avg: number; depth: number; line: number };
    expect(stats.n).toBe(61);
    expect(stats.line).toBeGreaterThan(600);
    expect(stats.avg).toBeLessThan(200);
    expect(stats.depth).toBeLessThanOrEqual(16);
    // Every version still reads back exactly.
    const timeline = s.queries().timeline('e1');
    expect(timeline.versions).toHaveLength(61);
    expect(timeline.versions.map((v) => (v.record as any).retrieval_outcomes.shown_count)).toEqual(Array.from({ length: 61 }, (_, i) => 12 + i));
    expect(timeline.versions[5]!.fields).toEqual([{ field: 'retrieval_outcomes', before: expect.stringContaining('"shown_count":16'), after: expect.stringContaining('"shown_count":17') }]);
  });

  it('says when a change happened while nobody watched, and remembers when this person last looked', async () => {
    const w = workspace();
    rewriteStore(w.knowledge, [entry(1), entry(2), entry(3)]);
    const first = await w.open();
    const opened = w.clock.t;
    w.clock.t += 10 * 60_000;
    await first.close();
    const closedAt = w.clock.t;

    // The plugin works while the console is closed: 09:22 → 14:40.
    rewriteStore(w.knowledge, [entry(1, { confidence: 0.42 }), entry(3), entry(4)]);
    w.clock.t = Date.UTC(2026, 6, 1, 14, 40);
    const second = await w.open();
    expect(second.history.lastLooked).toBe(closedAt);
    const q = second.queries();
    const result = q.changes('last-looked', 'now');
    expect(result.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    const changed = result.rows.find((r) => r.change === 'changed')!;
    expect(changed.unobserved).toEqual({ from: new Date(closedAt).toISOString(), to: new Date(w.clock.t).toISOString(), text: 'changed between 2026-07-01 09:22 and 2026-07-01 14:40 (not observed in between)' });
    expect(result.rows.find((r) => r.change === 'removed')).toMatchObject({ id: 'e2', unobserved: { text: 'removed between 2026-07-01 09:22 and 2026-07-01 14:40 (not observed in between)' } });
    expect(result.gaps).toEqual([{ from: new Date(closedAt).toISOString(), to: new Date(w.clock.t).toISOString(), text: 'not observed between 2026-07-01 09:22 and 2026-07-01 14:40' }]);
    // As of a moment nobody watched: the last state recorded, said so.
    const during = q.asOf(new Date(Date.UTC(2026, 6, 1, 12)).toISOString(), 0, 100);
    expect(during.entries.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    expect(during.note).toContain('nobody was watching');
    // Since a time before history began: entries present at its start count as there, so their changes show.
    expect(q.changes('2020-01-01T00:00:00.000Z', 'now').counts).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(q.moments().observations.map((o) => o.role)).toEqual(['app', 'app']);
    expect(q.moments().historyBegan).toBe(new Date(opened).toISOString());
  });

  it('a recorder keeps history but not "last looked"', async () => {
    const w = workspace();
    rewriteStore(w.knowledge, [entry(1)]);
    const recorder = await w.open('recorder');
    await recorder.close();
    const app = await w.open('app');
    expect(app.history.lastLooked).toBeNull();
  });
});
