import type { HistoryDb } from './history-db';
import { addStats, noStats, thinEntry, type ThinStats } from './thin-entry';
import { backgroundYield } from '../platform/util/foreground';

/** The default size budget of one workspace's history database. */
export const DEFAULT_HISTORY_BUDGET_BYTES = 200 * 1024 * 1024;
/** A thinning pass stops once history uses this share of its budget (room to grow before the next). */
const TARGET_SHARE = 0.9;
/** Sightings an entry-thinning transaction may read before the event loop gets a turn. */
const ROWS_PER_TRANSACTION = 5000;
/** Pages handed back to the file system per step of `incremental_vacuum`. */
const VACUUM_STEP_PAGES = 2048;
/** A history file this small is converted to incremental vacuum with one VACUUM (created before it was the default). */
const CHEAP_VACUUM_BYTES = 32 * 1024 * 1024;
const MAX_ROUNDS = 24;

export interface HistorySize {
  /** The database file's pages (page_count × page_size; the -wal is not counted). */
  fileBytes: number;
  /** Pages that hold data: the file less its free pages. */
  usedBytes: number;
}

/** Cheap: three header reads, no table scan. */
export function historySize(db: HistoryDb): HistorySize {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return { fileBytes: pages * pageSize, usedBytes: (pages - free) * pageSize };
}

/** What a thinning pass did, with the sizes before and after (for the recorder's line and the bench). */
export interface ThinReport extends ThinStats {
  before: HistorySize;
  after: HistorySize;
  budgetBytes: number;
  rounds: number;
  /** Transactions the work was cut into (each followed by a turn of the event loop). */
  transactions: number;
  /** True when everything thinnable was thinned and history is still over its target. */
  exhausted: boolean;
  /** How the file was given back its free pages: incremental steps, one VACUUM, or not at all. */
  reclaimed: 'incremental' | 'vacuum' | 'none';
  vacuumMs: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One line a person reads: what a thinning pass did, and whether history is within its budget. */
export function thinningLine(r: ThinReport): string {
  const what = `history thinned: ${r.sightingsThinned} intermediate version${r.sightingsThinned === 1 ? '' : 's'} merged into spans, ${mb(r.before.fileBytes)} → ${mb(r.after.fileBytes)} (budget ${mb(r.budgetBytes)})`;
  return r.exhausted
    ? `${what}; still over: every entry's first and last version and one a day for 90 days are kept — raise history.budget_mb in console-settings.json`
    : what;
}

/** Background work: the event loop's turn, and a wait while the operator scrolls (foreground.ts). */
const turn = () => backgroundYield();

/**
 * The next stretch of intermediate versions to thin: the first-seen time before which about `count`
 * of them lie, counted from `from` (the previous round's horizon); null when fewer remain.
 */
function horizonFor(db: HistoryDb, from: number, count: number): number | null {
  const row = db
    .prepare("SELECT first_seen FROM sightings WHERE gone_reason = 'changed' AND thinned IS NULL AND first_seen >= ? ORDER BY first_seen LIMIT 1 OFFSET ?")
    .get(from, Math.max(1, Math.round(count))) as { first_seen: number } | undefined;
  return row?.first_seen ?? null;
}

/**
 * Hands the free pages back to the file system: in steps when the file allows it (each step its own
 * short transaction), or with one VACUUM when the file is small enough for that to be cheap (which
 * also switches it to incremental vacuum); a larger old file keeps its free pages for later writes.
 */
async function reclaim(db: HistoryDb, shouldStop: () => boolean): Promise<{ how: ThinReport['reclaimed']; ms: number; transactions: number }> {
  const started = performance.now();
  let transactions = 0;
  if ((db.pragma('freelist_count', { simple: true }) as number) === 0) return { how: 'none', ms: 0, transactions };
  if ((db.pragma('auto_vacuum', { simple: true }) as number) === 2) {
    while (!shouldStop() && (db.pragma('freelist_count', { simple: true }) as number) > 0) {
      db.pragma(`incremental_vacuum(${VACUUM_STEP_PAGES})`);
      transactions++;
      await turn();
    }
    db.pragma('wal_checkpoint(PASSIVE)');
    return { how: 'incremental', ms: performance.now() - started, transactions };
  }
  if (historySize(db).fileBytes > CHEAP_VACUUM_BYTES) return { how: 'none', ms: 0, transactions };
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  return { how: 'vacuum', ms: performance.now() - started, transactions: 1 };
}

/**
 * Thins history until it uses at most 90 % of `budgetBytes`: the oldest intermediate versions first
 * (thin-entry.ts keeps every entry's first and last version and one a day for the last 90 days), in
 * transactions of a few thousand sightings with a turn of the event loop between them, so the thread
 * that serves the live view is never held for long. Each round estimates how many of the oldest
 * intermediate versions must go from the bytes a sighting costs on average, thins those, and measures
 * again; rounds stop when the target is met or nothing more may be thinned.
 */
export async function thinToBudget(db: HistoryDb, budgetBytes: number, now: number, shouldStop: () => boolean = () => false): Promise<ThinReport> {
  const before = historySize(db);
  const target = budgetBytes * TARGET_SHARE;
  const stats = noStats();
  let rounds = 0;
  let transactions = 0;
  let exhausted = false;
  // Rows on the way are partly protected (first versions, one a day) and freed rows leave some pages
  // part-full: ask for a quarter more than the estimate, and measure again.
  const factor = 1.25;
  let lastHorizon = Number.MIN_SAFE_INTEGER;
  while (rounds < MAX_ROUNDS && !shouldStop()) {
    const size = historySize(db);
    if (size.usedBytes <= target) break;
    rounds++;
    const sightings = (db.prepare('SELECT count(*) AS n FROM sightings').get() as { n: number }).n;
    const perSighting = size.usedBytes / Math.max(1, sightings);
    // Each round reaches further than the last: what stayed behind the last horizon is protected.
    const horizon = horizonFor(db, lastHorizon, ((size.usedBytes - target) / perSighting) * factor) ?? now + 1;
    const entries = (db.prepare("SELECT DISTINCT entry_id FROM sightings WHERE gone_reason = 'changed' AND thinned IS NULL AND first_seen < ?").all(horizon) as { entry_id: string }[]).map((r) => r.entry_id);
    const count = db.prepare('SELECT count(*) AS n FROM sightings WHERE entry_id = ?');
    const thinnedBefore = stats.sightingsThinned;
    for (let i = 0; i < entries.length && !shouldStop(); ) {
      const batch: string[] = [];
      let rows = 0;
      while (i < entries.length && (batch.length === 0 || rows < ROWS_PER_TRANSACTION)) {
        const id = entries[i++]!;
        rows += (count.get(id) as { n: number }).n;
        batch.push(id);
      }
      addStats(stats, db.transaction(() => batch.reduce((acc, id) => (addStats(acc, thinEntry(db, id, horizon, now)), acc), noStats())).immediate());
      transactions++;
      await turn();
    }
    const everything = horizon > now;
    if (stats.sightingsThinned === thinnedBefore && everything) {
      exhausted = true;
      break;
    }
    lastHorizon = horizon;
  }
  if (!shouldStop() && historySize(db).usedBytes > target && rounds >= MAX_ROUNDS) exhausted = true;
  const reclaimed = shouldStop() ? { how: 'none' as const, ms: 0, transactions: 0 } : await reclaim(db, shouldStop);
  transactions += reclaimed.transactions;
  return { ...stats, before, after: historySize(db), budgetBytes, rounds, transactions, exhausted, reclaimed: reclaimed.how, vacuumMs: reclaimed.ms };
}

/**
 * Keeps one history within its budget: `check()` after each recorded batch costs three header reads;
 * over budget, it starts one thinning pass in the background (never two at once). When everything
 * thinnable is thinned and history is still over, it says so once and checks again only after
 * history grew by another 5 %.
 */
export class HistoryThinner {
  private pass: Promise<void> | null = null;
  private stopped = false;
  private quietBelow = 0;
  lastReport: ThinReport | null = null;

  constructor(
    private readonly db: HistoryDb,
    private readonly budgetBytes: number,
    private readonly now: () => number,
    /** Told of every pass; without it, a pass that cannot get under budget is said on stderr. */
    private readonly onThinned?: (report: ThinReport) => void,
    /** False while this process may not write history (another holds the lease): a pass stops between transactions. */
    private readonly mayWrite: () => boolean = () => true,
  ) {}

  check(): void {
    if (this.pass || this.stopped || !this.mayWrite()) return;
    const used = historySize(this.db).usedBytes;
    if (used <= this.budgetBytes || used <= this.quietBelow) return;
    this.pass = thinToBudget(this.db, this.budgetBytes, this.now(), () => this.stopped || !this.mayWrite())
      .then((report) => {
        this.lastReport = report;
        if (report.exhausted) this.quietBelow = report.after.usedBytes * 1.05;
        if (this.onThinned) this.onThinned(report);
        else if (report.exhausted) console.warn(`[history] ${thinningLine(report)}`);
      })
      .catch((error) => console.warn('[history] thinning stopped:', (error as Error).message))
      .finally(() => {
        this.pass = null;
      });
  }

  /** Resolves when no thinning pass is running (tests, shutdown). */
  async idle(): Promise<void> {
    await this.pass;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.pass;
  }
}
