import fs from 'node:fs';
import path from 'node:path';
import { storeDef, patternRegex, STORES } from '../stores/catalog';
import { discoverFiles, locateStores, matchPath, orphanedFiles, type StoreFile } from '../stores/locate';
import type { StoreLocation } from '../stores/store-location';
import { archivePathOf, importable } from '../stores/imported';
import { readStoreFile } from '../stores/read-store-file';
import { confinementOf } from '../stores/containment';
import { resolveLink } from '../platform/paths/link';
import { resolveWorkspacePaths, type WorkspacePaths } from '../platform/paths/workspace-paths';
import { StoreWatcher, relevantFor, type WatchTarget } from '../platform/watch/store-watcher';
import { firstBuildLanes } from './first-build-lanes';
import { createBulkIndexes, hasBulkIndexes, openIndex, type IndexDb, type OpenedIndex } from './open-index';
import { forgetFile, syncFile, type StoreChange } from './ingest';
import { IndexWriter, type FileState } from './writer';
import { ColumnCache } from './column-cache';
import { ENTRY_COLUMNS, ENTRY_TAGS_SQL } from './entry-queries';
import { EVENT_COLUMNS } from './event-queries';
import { StaleLineError, lineReaderOf, type LineReader } from './stored-lines';
import { ParseRunner } from './parse-runner';
import type { WorkerSpec } from '../platform/util/built-worker';
import { asLiveWork, backgroundYield } from '../platform/util/foreground';

interface StoreIndexOptions {
  /** Follow the stores live with chokidar (default true). */
  watch?: boolean;
  /** How to start the parse worker (default: the compiled one next to the bundle, none from sources). */
  parseWorker?: () => WorkerSpec | null;
  /** Files at least this big parse on the worker (default PARSE_WORKER_MIN_BYTES). */
  parseWorkerMinBytes?: number;
}

/** Rows a column cache loads per slice while it warms after the index is ready (a few ms each). */
const WARM_SLICE_ROWS = 20_000;
/** Times a read is retried after the files it met changed (each retry re-reads those files first). */
const STALE_RETRIES = 3;

interface QueueEntry {
  file: StoreFile;
  again: boolean;
  done: Promise<void>;
}

/**
 * One workspace's store index: ingests every store into SQLite, keeps it in line with the files
 * (incrementally) while chokidar reports changes, and tells listeners what changed. Created lazily
 * per workspace as the `store-index` service.
 */
export class StoreIndexService {
  readonly index: OpenedIndex;
  readonly writer: IndexWriter;
  /** Every file checked (unchanged files trusted, changed ones re-read): every query is answerable. */
  readonly ready: Promise<void>;
  /** The column caches loaded too (they load in slices after `ready`; a query meanwhile loads the rest itself). */
  readonly warmed: Promise<void>;
  /** Totals and facets of the two big tables (see column-cache.ts). */
  readonly columns: { entries: ColumnCache; events: ColumnCache };
  private paths: WorkspacePaths;
  private locations: StoreLocation[] = [];
  private orphans: StoreFile[] = [];
  private watcher: StoreWatcher | null = null;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private readonly queues = new Map<string, QueueEntry>();
  private rescanTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private linkCheck: Promise<void> = Promise.resolve();
  /** True until the first build of this index has finished. */
  private initialBuild: boolean;
  /** Files a stale line was met in: re-read whole on their next sync, whatever their fingerprint says. */
  private readonly stale = new Set<string>();
  /** Reads line texts back from the store files for this connection (stored-lines.ts). */
  private readonly lines: LineReader;
  /** Parses big files on a worker thread while this one writes them (parse-runner.ts). */
  private readonly parser: ParseRunner;
  /** Files a first build reads on this thread, big as they may be (its in-thread lane). */
  private readonly readInThread = new Set<string>();

  constructor(paths: WorkspacePaths, cacheDir: string, private readonly options: StoreIndexOptions = {}) {
    this.paths = paths;
    this.parser = new ParseRunner(options.parseWorker, options.parseWorkerMinBytes);
    this.index = openIndex(cacheDir);
    this.writer = new IndexWriter(this.index.db);
    this.initialBuild = !hasBulkIndexes(this.index.db);
    this.columns = {
      entries: new ColumnCache(this.index.db, 'entries', ENTRY_COLUMNS, ENTRY_TAGS_SQL),
      events: new ColumnCache(this.index.db, 'events', EVENT_COLUMNS),
    };
    this.lines = lineReaderOf(this.index.db);
    // A line that no longer matches its row: re-read its file now (the watcher may not have said
    // yet), once the query that met it has ended (the connection is busy until then).
    this.lines.onStale = (stalePath) => queueMicrotask(() => void this.resync(stalePath));
    this.relocate();
    this.ready = this.start();
    this.ready.catch((error) => console.error('[store-index] initial ingest failed:', error));
    this.warmed = this.ready.then(() => this.warmColumns());
    this.warmed.catch((error) => console.warn('[store-index] column caches did not warm:', (error as Error).message));
  }

  /** Files read on the parse worker so far (tests and the benchmark read this). */
  get workerReads(): number {
    return this.parser.reads;
  }

  get db(): IndexDb {
    return this.index.db;
  }

  get workspacePaths(): WorkspacePaths {
    return this.paths;
  }

  get storeLocations(): StoreLocation[] {
    return this.locations;
  }

  get orphanedFiles(): StoreFile[] {
    return this.orphans;
  }

  /**
   * Runs a read of the index that may read line texts back from the store files; when one of those
   * files changed behind the index (StaleLineError), re-reads that file and runs the read again,
   * so the answer comes from fresh rows, never from a line that no longer matches its row.
   */
  async fresh<T>(read: () => T | Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (!(error instanceof StaleLineError) || attempt >= STALE_RETRIES || this.closed) throw error;
        await this.resync(error.path);
      }
    }
  }

  /** Syncs the file at `filePath` now, if it is one of the stores'. */
  private async resync(filePath: string): Promise<void> {
    const file = matchPath(this.locations, filePath) ?? this.orphans.find((o) => o.path === filePath);
    if (!file || this.closed) return;
    this.stale.add(file.path);
    await this.schedule(file);
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private relocate(): void {
    this.locations = locateStores(this.paths);
    this.orphans = orphanedFiles(this.paths);
  }

  private async start(): Promise<void> {
    await this.rescan();
    if (this.initialBuild) {
      createBulkIndexes(this.db);
      this.initialBuild = false;
    }
    if (this.options.watch !== false && !this.closed) await this.startWatcher();
  }

  /**
   * Warms the column caches so later queries are as fast as the rest, in slices that give the
   * event loop back: a re-open is ready once its files are checked, not once 1M rows are loaded.
   */
  private async warmColumns(): Promise<void> {
    const plan: [ColumnCache, string[], boolean][] = [
      [this.columns.entries, ['status', 'category', 'tier', 'priority', 'scope', 'project', 'collection', 'store'], true],
      [this.columns.events, ['store', 'kind', 'session', 'agent', 'knowledge'], false],
    ];
    // Background work: after each slice it also waits while the operator scrolls (foreground.ts).
    const yieldNow = () => backgroundYield(() => this.closed);
    for (const [cache, columns, ridIndex] of plan) {
      // Yield first: whoever awaited `ready` runs before the first slice.
      await yieldNow();
      while (!this.closed && !cache.warmSlice(WARM_SLICE_ROWS)) await yieldNow();
      if (this.closed) return;
      cache.warm(columns, ridIndex);
      // Kept for the next session, which then loads only what changed (column-snapshot.ts).
      this.keepColumns(cache);
    }
  }

  /** Keeps a column cache in the index; a failure only costs the next session its full load. */
  private keepColumns(cache: ColumnCache): void {
    try {
      cache.keep();
    } catch (error) {
      console.warn(`[index] could not keep a column cache for the next session: ${(error as Error).message}`);
    }
  }

  /** Finds every store file, syncs it, and forgets files that no longer belong to any store. */
  async rescan(): Promise<void> {
    const known = this.index.db.prepare('SELECT * FROM files').all() as FileState[];
    const found = new Map<string, StoreFile>();
    for (const location of this.locations) for (const file of discoverFiles(location)) found.set(file.path, file);
    for (const orphan of this.orphans) found.set(orphan.path, orphan);
    for (const state of known) {
      if (found.has(state.path)) continue;
      const owner = matchPath(this.locations, state.path);
      if (owner && !state.store_key.startsWith('orphaned:')) found.set(state.path, owner);
      else this.emit(forgetFile(this.writer, state, state.path));
    }
    if (!this.initialBuild) {
      for (const file of found.values()) await this.schedule(file);
      return;
    }
    // A first build reads in two lanes at once, one on the parse worker and one on this thread
    // (first-build-lanes.ts). File ids are file order for the knowledge model (which copy of an
    // id comes first, the order the plugin's reader scans): given here in the order the files
    // were found, as one lane after another gives them, not in the order the lanes reach them.
    const lanes = firstBuildLanes([...found.values()].map((file) => ({ file, path: file.path, size: sizeOf(file.path) })), (size) => this.parser.wants(size));
    // A first build reads every file whole: with a big one among them, start the parse worker now,
    // so its start-up overlaps the reads before it.
    if (lanes.onWorker.length > 0) void this.parser.available();
    for (const file of found.values()) this.writer.ensureFile(file);
    for (const { path: inThread } of lanes.inThread) this.readInThread.add(inThread);
    try {
      await Promise.all(
        [lanes.onWorker, lanes.inThread].map(async (lane) => {
          for (const { file } of lane) await this.schedule(file);
        }),
      );
    } finally {
      this.readInThread.clear();
    }
  }

  /** Syncs one file now (serialised per path; a change during a sync triggers one more pass). */
  schedule(file: StoreFile): Promise<void> {
    const queued = this.queues.get(file.path);
    if (queued) {
      queued.again = true;
      queued.file = file;
      return queued.done;
    }
    const entry = { file, again: false } as QueueEntry;
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.syncOne(entry.file);
        } while (entry.again && !this.closed);
      } finally {
        this.queues.delete(file.path);
      }
    })();
    this.queues.set(file.path, entry);
    return entry.done;
  }

  /** Resolves once every queued sync has finished. */
  async idle(): Promise<void> {
    while (this.queues.size) await Promise.all([...this.queues.values()].map((q) => q.done.catch(() => undefined)));
  }

  private async syncOne(file: StoreFile): Promise<void> {
    if (this.closed) return;
    try {
      if (file.orphaned) return await this.syncOrphan(file);
      const def = storeDef(file.storeKey);
      if (!def) return;
      const reread = this.stale.delete(file.path);
      // Live work: background slices wait until the change is out (platform/util/foreground.ts).
      const change = await asLiveWork(() => syncFile(this.writer, def, file, { initialBuild: this.initialBuild, confineTo: this.workspaceRoots(), reread, parser: this.readInThread.has(file.path) ? undefined : this.parser }));
      if (change) this.emit(change);
      // Not awaited here: re-linking rescans every file, this one included, through the queue.
      // A failed check must not stop every later one (a rejected chain runs no further `then`).
      if (def.key === 'link-pointer')
        this.linkCheck = this.linkCheck.then(() => this.checkLink()).catch((error) => console.warn('[store-index] link check failed:', (error as Error).message));
    } catch (error) {
      if (!this.closed) console.warn(`[store-index] could not index ${file.path}:`, (error as Error).message);
    }
  }

  /** Orphaned local files are counted and listed, never merged into the views. */
  private async syncOrphan(file: StoreFile): Promise<void> {
    const def = storeDef(file.storeKey.replace(/^orphaned:/, '').replace(/\.jsonl?$/, ''));
    const state = this.writer.ensureFile(file);
    const result = def ? await readStoreFile(def, file.path, { maxCollectedDefects: 0, confineTo: this.workspaceRoots() }) : null;
    const exists = result !== null && result.status !== 'missing';
    const changed = state.status !== (result?.status ?? 'missing') || state.size !== (result?.identity?.size ?? null);
    this.writer.updateFile(state.id, {
      status: result?.status ?? 'missing',
      message: exists ? 'orphaned: the plugin ignores this local file while the worktree is linked' : null,
      dev: result?.identity?.dev ?? null,
      ino: result?.identity?.ino ?? null,
      size: result?.identity?.size ?? null,
      mtime_ms: result?.identity?.mtimeMs ?? null,
      head_sha: null,
      tail_sha: null,
      end_offset: result?.endOffset ?? 0,
      next_line: result?.nextLine ?? 1,
      lines: result?.lines ?? 0,
      records: result?.records ?? 0,
      defects: result?.defectCount ?? 0,
      pending_tail: result?.pendingTail ? 1 : 0,
    });
    if (changed) this.emit({ storeKey: file.storeKey, file: file.name, path: file.path, kind: exists ? 'rewritten' : 'removed', count: result?.records ?? 0 });
  }

  /** Store files are read only where they resolve inside these (see stores/containment.ts). */
  private workspaceRoots(): string[] | undefined {
    return confinementOf(this.paths);
  }

  private async checkLink(): Promise<void> {
    if (this.closed) return;
    const link = resolveLink(this.paths.projectDir, this.paths.hiveDir);
    if (link.dir === this.paths.link.dir && link.linkId === this.paths.link.linkId) return;
    this.paths = resolveWorkspacePaths(this.paths.projectDir, this.paths.hiveDir, this.paths.hiveSource, this.paths.isDemo, this.paths.allowSymlinksOutside);
    this.relocate();
    if (this.watcher) {
      await this.watcher.close();
      this.watcher = null;
      if (!this.closed) await this.startWatcher();
    }
    if (!this.closed) await this.rescan();
  }

  private emit(change: StoreChange): void {
    // Open descriptors of a re-read or removed file may name its old inode.
    if (change.kind === 'rewritten' || change.kind === 'removed') this.lines.forget(change.path);
    const table = storeDef(change.storeKey)?.table;
    if (table === 'entries' || table === 'events') {
      if (change.kind === 'appended') this.columns[table].invalidate('append');
      else if (change.kind !== 'defects') this.columns[table].invalidate('full');
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        console.warn('[store-index] change listener failed:', (error as Error).message);
      }
    }
  }

  private watchTargets(): WatchTarget[] {
    const dirs = new Map<string, number>([
      [this.paths.swarmDir, 3],
      [path.join(this.paths.projectDir, '.opencode', 'skills', 'generated'), 1],
      [this.paths.hiveDir, 0],
    ]);
    if (this.paths.link.dir) dirs.set(this.paths.link.dir, 0);
    const absolutePatterns = [
      ...this.locations.map((l) => path.join(l.rootDir, ...l.def.pattern.split('/'))),
      // The plugin's rename of an imported store (`knowledge.jsonl` → `knowledge.jsonl.imported`).
      ...this.locations.filter(importable).map(archivePathOf),
      ...STORES.filter((s) => s.root === 'knowledge').map((s) => path.join(this.paths.swarmDir, s.pattern)),
    ];
    return [...dirs].map(([dir, depth]) => {
      const relative = absolutePatterns
        .filter((p) => p.startsWith(dir + path.sep))
        .map((p) => p.slice(dir.length + 1).split(path.sep).join('/'));
      return { dir, depth, relevant: relevantFor(relative.map(patternRegex), relative.map((r) => r.split('/'))) };
    });
  }

  private async startWatcher(): Promise<void> {
    this.watcher = new StoreWatcher(this.watchTargets(), (event) => {
      if (this.closed) return;
      if (event.kind === 'tree') return this.rescanSoon();
      const file = matchPath(this.locations, event.path) ?? this.orphans.find((o) => o.path === event.path);
      if (file) void this.schedule(file);
    });
    await this.watcher.ready;
  }

  private rescanSoon(): void {
    if (this.rescanTimer) return;
    this.rescanTimer = setTimeout(() => {
      this.rescanTimer = null;
      if (!this.closed) {
        this.relocate();
        void this.rescan();
      }
    }, 50);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    await this.ready.catch(() => undefined);
    await this.warmed.catch(() => undefined);
    await this.linkCheck.catch(() => undefined);
    await this.watcher?.close();
    await this.idle();
    // Rows appended since the warm-up are kept too (only when there are any: keep() checks).
    for (const cache of Object.values(this.columns)) this.keepColumns(cache);
    await this.parser.close();
    this.lines.close();
    this.index.db.close();
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Whether `.swarm/` exists (for the summary's "missing .swarm/" message). */
export const swarmDirExists = (paths: WorkspacePaths) => fs.existsSync(paths.swarmDir);
