import type { StoreChange } from '../store-index/ingest';
import type { IndexDb } from '../store-index/open-index';
import { storedLineSql } from '../store-index/stored-lines';
import { storeDef, type StoreTier } from '../stores/catalog';
import type { HistoryDb } from './history-db';
import { VersionStore } from './versions';
import { sha256 } from './version-codec';
import { kindOf } from './entry-kinds';
import { explainGone, type Caps, type ConsoleQuarantine } from './disappearance';
import { parseRecord } from './field-diff';
import { backgroundYield } from '../platform/util/foreground';
import { FileMarks, StaleRead, type PassFacts } from './file-marks';
import { EVENT_PAGE_ROWS, EVENT_PAGE_SQL, EVENT_STORES, recordEventFacts, type EventRow } from './event-facts';

const BATCH_DELAY_MS = 25;
const BUSY_RETRY_MS = 300;
/** Index rows read per snapshot: a first recording of a large store is read page by page. */
const PAGE_ROWS = 2000;
/**
 * A recording transaction ends after this long (or SLICE_ROWS lines), then the event loop turns:
 * hashing and deflating cost 50–100 µs a line, so a fixed count of lines would hold the live view
 * for longer on a busy machine; a time bound keeps every slice short whatever the load.
 */
const SLICE_MS = 8;
const SLICE_ROWS = 500;

interface OpenSighting {
  rowid: number;
  sha: string;
}

interface IndexedFile {
  id: number;
  store_key: string;
  tier: StoreTier;
  name: string;
  status: string;
  /** The modification time of the file as the index last read it: it orders states of the file across processes. */
  mtime_ms: number | null;
}

/** Thrown when the index is part-way through re-reading the file: the pass is retried shortly. */
class NotSettled extends Error {}

interface IndexedEntry {
  line: number;
  id: string | null;
  status: string | null;
  duplicate: number;
  raw: string;
}

/** What one batch recorded, for the recorder's one line of output. */
export interface BatchSummary {
  at: number;
  files: string[];
  added: number;
  changed: number;
  gone: number;
  events: number;
  /** Index rows read and hashed (the lines the passes wrote, not the stores). */
  read: number;
}

export interface RecorderClock {
  now(): number;
  /** While the console catches up on open, changes happened since this time (null: history begins now). */
  catchingUpFrom(): { from: number | null } | null;
}

/** What every slice of one file's pass shares. */
interface SlicePass {
  change: StoreChange;
  file: IndexedFile;
  kind: string;
  readState: number | null;
  /** What the pass states about the lines it records (file-marks.ts). */
  facts: PassFacts;
  seen: Set<string>;
}

interface Pending {
  change: StoreChange;
  fromLine: number;
  /** The rows to read have larger rids (the smallest of the merged changes'; none: unbounded). */
  afterRid: number | undefined;
}

/**
 * Turns the store index's change reports into history. It reads from the index only the rows the
 * pass wrote (appended lines, or the file after a rewrite), hashes them, and writes only what
 * differs from the open sightings: the cost follows the lines that changed. Writes happen after the
 * index commit, batched, in IMMEDIATE transactions of at most 8 ms with a turn of the event
 * loop between them; a file that finds another recorder's transaction in the way (beyond the 250 ms
 * busy timeout) is retried later rather than waited for.
 *
 * Two recorders on one workspace write the same facts: every write re-checks the database inside
 * its transaction (an open sighting with the same version is left alone), and the per-file cache
 * of open sightings is dropped whenever another connection committed (`PRAGMA data_version`).
 */
export class HistoryRecorder {
  private readonly versions: VersionStore;
  private readonly marks: FileMarks;
  private readonly queue = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private readonly cache = new Map<string, Map<string, OpenSighting>>();
  private dataVersion = -1;
  private closed = false;
  /** Prepared once: preparing a statement per recorded line cost more than the insert itself. */
  private readonly sql;
  /** Set while this process does not hold the history lease: nothing is recorded. */
  private paused = false;

  constructor(
    private readonly db: HistoryDb,
    private readonly index: IndexDb,
    private readonly clock: RecorderClock,
    private readonly facts: { caps: Caps; quarantines(): ConsoleQuarantine[] },
    private readonly onBatch: (summary: BatchSummary) => void = () => undefined,
  ) {
    this.versions = new VersionStore(db);
    this.marks = new FileMarks(db);
    this.sql = {
      openSighting: db.prepare('SELECT id, sha FROM sightings WHERE path = ? AND entry_id = ? AND gone_at IS NULL'),
      lastSha: db.prepare('SELECT sha FROM sightings WHERE entry_id = ? ORDER BY id DESC LIMIT 1'),
      supersede: db.prepare("UPDATE sightings SET gone_at = ?, gone_after = ?, last_seen = ?, gone_reason = 'changed' WHERE id = ?"),
      insert: db.prepare('INSERT INTO sightings(entry_id, tier, kind, store_key, path, file, sha, status, origin, first_seen, first_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      openById: db.prepare('SELECT * FROM sightings WHERE id = ? AND gone_at IS NULL'),
      gone: db.prepare('UPDATE sightings SET gone_at = ?, gone_after = ?, last_seen = ?, gone_reason = ?, gone_detail = ?, store_count = ? WHERE id = ?'),
    };
  }

  /** Called for every change the index reports; cheap (the work is done later, batched). */
  enqueue(change: StoreChange): void {
    if (this.closed || this.paused || change.fileId === undefined) return;
    const table = storeDef(change.storeKey)?.table;
    if (table !== 'entries' && !EVENT_STORES.has(change.storeKey)) return;
    const fromLine = change.kind === 'removed' ? 1 : (change.fromLine ?? 1);
    const queued = this.queue.get(change.path);
    // A re-read supersedes an append; two appends read from the earlier one.
    if (!queued || fromLine < queued.fromLine || change.kind === 'removed' || change.kind === 'rewritten') {
      // The rows to read are above both passes' bounds; a pass without one (a catch-up) reads them all.
      const afterRid = !queued ? change.afterRid : queued.afterRid === undefined || change.afterRid === undefined ? undefined : Math.min(queued.afterRid, change.afterRid);
      this.queue.set(change.path, { change, fromLine: Math.min(fromLine, queued?.fromLine ?? fromLine), afterRid });
    }
    this.schedule(BATCH_DELAY_MS);
  }

  /** Resolves once everything queued so far is recorded (tests, shutdown). */
  async drain(): Promise<void> {
    // Bounded: a file that never settles (or a history that stays busy) must not hold a shutdown.
    for (let attempt = 0; attempt < 400 && (this.queue.size > 0 || this.timer); attempt++) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      this.running = this.running.then(() => this.flush());
      await this.running;
      if (this.queue.size > 0) await new Promise((resolve) => setTimeout(resolve, BATCH_DELAY_MS));
    }
    await this.running;
  }

  /** The lease was lost: drop what is queued (the next holder catches up from history's last state). */
  pause(): void {
    this.paused = true;
    this.queue.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  resume(): void {
    this.paused = false;
    this.cache.clear();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delay: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.running.then(() => this.flush());
    }, delay);
    this.timer.unref?.();
  }

  private async flush(): Promise<void> {
    if (this.queue.size === 0) return;
    const batch = [...this.queue.values()];
    this.queue.clear();
    const summary: BatchSummary = { at: this.clock.now(), files: [], added: 0, changed: 0, gone: 0, events: 0, read: 0 };
    const total = () => summary.added + summary.changed + summary.gone + summary.events;
    for (const pending of batch) {
      if (this.paused) break;
      const before = total();
      try {
        await this.recordFile(pending, summary);
      } catch (error) {
        // Chunks committed before a failure stay recorded, and are named.
        if (total() > before) summary.files.push(pending.change.file);
        // Another recorder has recorded a newer state of this file: this older read is dropped.
        if (error instanceof StaleRead) continue;
        if (error instanceof NotSettled) {
          if (!this.queue.has(pending.change.path)) this.queue.set(pending.change.path, pending);
          if (!this.closed) this.schedule(BATCH_DELAY_MS);
          continue;
        }
        // Mostly SQLITE_BUSY (another recorder's transaction): that transaction wrote nothing; the
        // file is read again later, and what earlier chunks recorded is then found recorded.
        if (!this.queue.has(pending.change.path)) this.queue.set(pending.change.path, pending);
        this.cache.clear();
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') console.warn('[history] could not record a batch:', (error as Error).message);
        if (!this.closed) this.schedule(BUSY_RETRY_MS);
        continue;
      }
      if (total() > before) summary.files.push(pending.change.file);
    }
    if (total() > 0) this.onBatch(summary);
  }

  /** One IMMEDIATE transaction; the cache is checked against other connections' commits first. */
  private write<T>(work: () => T): T {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.dataVersion) this.cache.clear();
    this.dataVersion = version;
    return this.db.transaction(work).immediate();
  }

  private async recordFile({ change, fromLine, afterRid }: Pending, summary: BatchSummary): Promise<void> {
    if (EVENT_STORES.has(change.storeKey)) {
      const file = this.fileRow(change.path);
      if (file) await this.recordEventPages(change, file, fromLine, afterRid, summary);
    } else {
      await this.recordEntries(change, fromLine, summary);
    }
  }

  private fileRow(path: string): IndexedFile | undefined {
    return this.index.prepare('SELECT id, store_key, tier, name, status, mtime_ms FROM files WHERE path = ?').get(path) as IndexedFile | undefined;
  }

  /** What a pass begun now states about the lines it records (file-marks.ts may take over an earlier one's). */
  private passFacts(): PassFacts {
    const catchUp = this.clock.catchingUpFrom();
    return { origin: catchUp ? (catchUp.from === null ? 'baseline' : 'catch-up') : 'live', now: this.clock.now(), after: catchUp?.from ?? null };
  }

  private openSightings(path: string): Map<string, OpenSighting> {
    let open = this.cache.get(path);
    if (!open) {
      const rows = this.db.prepare('SELECT id AS rowid, entry_id, sha FROM sightings WHERE path = ? AND gone_at IS NULL').all(path) as (OpenSighting & { entry_id: string })[];
      open = new Map(rows.map((r) => [r.entry_id, { rowid: r.rowid, sha: r.sha }]));
      this.cache.set(path, open);
    }
    return open;
  }

  /**
   * The index rows of one file from `fromLine` on, a page at a time, each page from one snapshot of
   * the index that still shows the file as `head` did (same read of the file, settled): a store
   * re-read meanwhile is left for the next pass (NotSettled), never recorded half old, half new.
   */
  private readPage(head: IndexedFile, fromLine: number): IndexedEntry[] {
    return this.index.transaction(() => {
      const now = this.index.prepare('SELECT mtime_ms, records FROM files WHERE id = ?').get(head.id) as { mtime_ms: number | null; records: number } | undefined;
      if (!now || now.mtime_ms !== head.mtime_ms) throw new NotSettled();
      // A store being re-read (by this process or another sharing the index) is cleared and refilled
      // in several transactions, its count updated last: until the two agree, come back later.
      const stored = (this.index.prepare('SELECT count(*) AS n FROM entries WHERE file_id = ?').get(head.id) as { n: number }).n;
      if (stored !== now.records) throw new NotSettled();
      return this.index
        .prepare(`SELECT e.line, e.id, e.status, e.duplicate, ${storedLineSql('e', 'f')} AS raw FROM entries e JOIN files f ON f.id = e.file_id WHERE e.file_id = ? AND e.line >= ? ORDER BY e.line LIMIT ?`)
        .all(head.id, fromLine, PAGE_ROWS) as IndexedEntry[];
    })();
  }

  /**
   * New and changed lines first, read from the index a page at a time and recorded in transactions
   * bounded by time (SLICE_MS) with a turn of the event loop between them, so a first recording of a
   * large store never holds the live view for long; then what is gone.
   */
  private async recordEntries(change: StoreChange, fromLine: number, summary: BatchSummary): Promise<void> {
    const def = storeDef(change.storeKey);
    const file = this.fileRow(change.path) ?? null;
    // A file the index could not read for a moment (replaced while being opened, no permission) is
    // not a file whose entries left: nothing is recorded until it is read again.
    if (change.kind === 'removed' && file?.status === 'unreadable') return;
    const removed = file === null || change.kind === 'removed';
    // The file's mtime as the index read it dates the lines (every page checks it is still that read).
    const readState = file?.mtime_ms ?? null;
    const current = this.passFacts();
    const { pass, resumes, countBefore } = this.write(() => ({ ...this.marks.begin(change.path, readState, current), countBefore: this.openSightings(change.path).size }));
    // Taking over from a pass that stopped part-way: the whole file, whatever the change named.
    const firstLine = resumes ? 1 : fromLine;
    const seen = new Set<string>();
    let next = firstLine;
    let slices = 0;
    for (let page = removed ? [] : this.readPage(file!, next); page.length > 0; page = this.readPage(file!, next)) {
      next = page[page.length - 1]!.line + 1;
      summary.read += page.length;
      for (let start = 0; start < page.length; ) {
        // Between two slices, not before the first: a one-line change is recorded without waiting a turn (background work: it gives way while the operator scrolls).
        if (slices++ > 0) await backgroundYield(() => this.paused);
        if (this.paused) return;
        start = this.write(() => this.recordSlice(page, start, { change, file: file!, kind: kindOf(def?.collection ?? 'active', file!.tier), readState, facts: pass, seen }, summary));
      }
      if (page.length < PAGE_ROWS) break;
    }
    // An append removes nothing: its pass ends here.
    if (!removed && firstLine > 1) return void this.write(() => (this.marks.claim(change.path, readState, pass), this.marks.finish(change.path)));
    const { now, after } = pass;
    const quarantines = this.facts.quarantines();
    this.write(() => {
      this.marks.claim(change.path, readState, pass);
      const open = this.openSightings(change.path);
      for (const [key, sighting] of [...open]) {
        if (seen.has(key)) continue;
        open.delete(key);
        const row = this.sql.openById.get(sighting.rowid) as Record<string, unknown> | undefined;
        if (!row) continue;
        const reason = explainGone(
          this.db,
          { entryId: key, tier: String(row.tier), kind: String(row.kind), file: String(row.file), baseline: row.origin === 'baseline', goneAt: now, goneAfter: after, storeCount: countBefore, record: parseRecord(this.versions.text(String(row.sha))), fileRemoved: removed },
          quarantines,
          this.facts.caps,
        );
        this.sql.gone.run(now, after, after ?? now, reason.code, reason.text, countBefore, sighting.rowid);
        summary.gone++;
      }
      this.marks.finish(change.path);
    });
  }

  /** Inside a write: records lines of `page` from `start` until the slice's time or size is spent; returns where it stopped. */
  private recordSlice(page: IndexedEntry[], start: number, pass: SlicePass, summary: BatchSummary): number {
    const { change, file, kind, readState, facts, seen } = pass;
    const { origin, now, after } = facts;
    this.marks.claim(change.path, readState, facts);
    const open = this.openSightings(change.path);
    const began = performance.now();
    let i = start;
    for (; i < page.length && i - start < SLICE_ROWS && (i === start || performance.now() - began < SLICE_MS); i++) {
      const row = page[i]!;
      if (row.duplicate) continue;
      const sha = sha256(row.raw);
      const key = row.id ?? `(no id) ${sha.slice(0, 12)}`;
      seen.add(key);
      if (open.get(key)?.sha === sha) continue;
      // Inside the transaction the database, not the cache, decides (another recorder may have written it).
      const current = this.sql.openSighting.get(change.path, key) as { id: number; sha: string } | undefined;
      if (current?.sha === sha) {
        open.set(key, { rowid: current.id, sha });
        continue;
      }
      const previousSha = current?.sha ?? (this.sql.lastSha.get(key) as { sha: string } | undefined)?.sha ?? null;
      this.versions.write(sha, key, row.raw, previousSha, now);
      if (current) this.sql.supersede.run(now, after, after ?? now, current.id);
      const inserted = this.sql.insert.run(key, file.tier, kind, change.storeKey, change.path, file.name, sha, row.status, origin, now, after);
      open.set(key, { rowid: Number(inserted.lastInsertRowid), sha });
      if (current) summary.changed++;
      else summary.added++;
    }
    return i;
  }

  /**
   * The event rows this pass wrote, a page at a time in rid order, each page recorded in its own
   * transaction with a turn of the event loop between them: a first recording of a million-line
   * log once held the live view for a second in one transaction. Recording them twice (a page read
   * again after the file was re-read) writes nothing new: tombstones and moments are idempotent.
   * Taking over from a pass that stopped part-way, it reads all of the file's rows.
   */
  private async recordEventPages(change: StoreChange, file: IndexedFile, fromLine: number, afterRid: number | undefined, summary: BatchSummary): Promise<void> {
    const { path } = change;
    const { pass, resumes } = this.write(() => this.marks.begin(path, file.mtime_ms, this.passFacts()));
    const recordPage = (rows: EventRow[], last: boolean) =>
      this.write(() => {
        this.marks.claim(path, file.mtime_ms, pass);
        const recorded = recordEventFacts(this.db, rows, change.storeKey);
        if (last) this.marks.finish(path);
        return recorded;
      });
    if (change.kind === 'removed') return void recordPage([], true);
    const line = resumes ? 1 : fromLine;
    for (let after = resumes ? 0 : (afterRid ?? 0), pages = 0; ; pages++) {
      if (pages > 0) await backgroundYield(() => this.paused);
      if (this.paused) return;
      const rows = this.index.prepare(EVENT_PAGE_SQL).all(after, file.id, line, EVENT_PAGE_ROWS) as EventRow[];
      const last = rows.length < EVENT_PAGE_ROWS;
      summary.events += recordPage(rows, last);
      if (last) return;
      after = rows[rows.length - 1]!.rid;
    }
  }
}
