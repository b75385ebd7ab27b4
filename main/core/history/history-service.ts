import path from 'node:path';
import type { StoreIndexService } from '../store-index/store-index-service';
import { loadSwarmConfig } from '../platform/config/load-config';
import { AuditLog } from '../human/audit-log';
import { humanStatePaths } from '../human/secret';
import { closeHistoryDb, openHistoryDb, type HistoryDb, type HistoryDbStatus } from './history-db';
import { HistoryRecorder, type BatchSummary } from './recorder';
import { FileMarks } from './file-marks';
import type { Caps, ConsoleQuarantine } from './disappearance';
import { HistoryLease } from './history-lease';
import { HistoryThinner, type ThinReport } from './thinning';
import { loadConsoleSettings } from '../platform/config/console-settings';

const HEARTBEAT_MS = 30_000;
/** How often a process without the lease tries to take it (its holder may have stopped). */
export const LEASE_RETRY_MS = 2_000;

export interface HistoryOptions {
  /** `<user-data>/workspaces/<key>/`: the workspace's private folder (history.db lives there). */
  dir: string;
  userDataDir: string;
  /** `app`: a person is looking (it keeps "last looked"); `recorder`: `swarm-console record`. */
  role: 'app' | 'recorder';
  onBatch?: (summary: BatchSummary) => void;
  /** Another process records this workspace's history (told once per wait); this one retries. */
  onWaiting?: (holderPid: number | null) => void;
  /** This process took the lease and has caught up: it records from now on. */
  onRecording?: () => void;
  /** The history's size budget; default: `history.budget_mb` of the console's settings (200 MB). */
  budgetBytes?: number;
  /** A thinning pass finished (the recorder prints one line for it). */
  onThinned?: (report: ThinReport) => void;
  now?: () => number;
}

function capsOf(projectDir: string): Caps {
  const knowledge = loadSwarmConfig({ projectDir }).values.knowledge ?? {};
  const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  return { swarm: num(knowledge.swarm_max_entries, 100), hive: num(knowledge.hive_max_entries, 200) };
}

/** The console's own human-only quarantines, from its audit log (read when something disappears). */
export function consoleQuarantines(userDataDir: string): ConsoleQuarantine[] {
  try {
    const { records } = new AuditLog(humanStatePaths(userDataDir).audit).read();
    return records
      .filter((r) => r !== null && r.event === 'commit' && r.outcome === 'ok' && /quarantine/.test(r.op) && Array.isArray(r.ids))
      .map((r) => ({ at: Date.parse(r!.at), op: r!.op, ids: r!.ids ?? [] }));
  } catch {
    return [];
  }
}

/**
 * One workspace's history: opens history.db and, while it holds the workspace's single-writer lease
 * (history-lease.ts), records an observation (when this process watched), follows the store index's
 * changes through the recorder, and, once the index has caught up, brings in files history has not
 * recorded in their current state (a new or set-aside history, a crash between the index commit and
 * the history write, changes while nobody recorded). A process without the lease records nothing
 * (its queries still read history) and tries again every LEASE_RETRY_MS; when it gets the lease it
 * catches up from the last recorded state of each file before recording live changes.
 */
export class HistoryService {
  readonly db: HistoryDb;
  readonly status: HistoryDbStatus;
  readonly recorder: HistoryRecorder;
  /** Keeps history within its size budget, checked after every recorded batch (thinning.ts). */
  readonly thinner: HistoryThinner;
  readonly budgetBytes: number;
  readonly ready: Promise<void>;
  readonly caps: Caps;
  /** When this person last had the workspace open, as it was when this session began. */
  readonly lastLooked: number | null;
  private observationId: number | null = null;
  private resumedFrom: number | null = null;
  private catchingUp = true;
  private readonly lease: HistoryLease;
  private leaseTimer: NodeJS.Timeout | null = null;
  private waitingTold = false;
  private closing = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly detach: () => void;
  private readonly now: () => number;

  constructor(
    private readonly index: StoreIndexService,
    private readonly options: HistoryOptions,
  ) {
    this.now = options.now ?? Date.now;
    const opened = openHistoryDb(options.dir, this.now());
    this.db = opened.db;
    this.status = opened.status;
    this.caps = capsOf(index.workspacePaths.projectDir);
    this.lastLooked = (this.db.prepare("SELECT at FROM moments WHERE name = 'last-looked'").get() as { at: number } | undefined)?.at ?? null;
    this.lease = new HistoryLease(this.file, () => this.leaseLost());
    const settings = loadConsoleSettings(options.userDataDir);
    for (const problem of settings.problems) console.warn(`[history] ${problem}`);
    this.budgetBytes = options.budgetBytes ?? settings.history.budgetBytes;
    this.thinner = new HistoryThinner(this.db, this.budgetBytes, this.now, options.onThinned, () => this.lease.held && !this.closing);
    this.recorder = new HistoryRecorder(
      this.db,
      index.db,
      { now: this.now, catchingUpFrom: () => (this.catchingUp ? { from: this.resumedFrom } : null) },
      { caps: this.caps, quarantines: () => consoleQuarantines(options.userDataDir) },
      (summary) => {
        options.onBatch?.(summary);
        // Three header reads per batch; over budget, a thinning pass starts in the background.
        this.thinner.check();
      },
    );
    this.recorder.pause();
    this.detach = index.onChange((change) => {
      if (this.lease.held) this.recorder.enqueue(change);
    });
    this.heartbeat = setInterval(() => this.touch(), HEARTBEAT_MS);
    this.heartbeat.unref?.();
    this.ready = this.index.ready.then(() => this.tryLease());
    this.ready.catch((error) => console.warn('[history] catch-up failed:', (error as Error).message));
  }

  /** Whether this process records this workspace's history now. */
  get recording(): boolean {
    return this.lease.held;
  }

  /** One attempt to take the lease; on success, the catch-up; otherwise another attempt later. */
  private async tryLease(): Promise<void> {
    if (this.closing) return;
    if (!(await this.lease.tryAcquire())) {
      if (!this.waitingTold) {
        this.waitingTold = true;
        this.options.onWaiting?.(this.lease.holderPid());
      }
      this.retryLeaseLater();
      return;
    }
    if (this.closing) {
      await this.lease.dispose();
      return;
    }
    this.waitingTold = false;
    const started = this.now();
    this.catchingUp = true;
    this.resumedFrom = (this.db.prepare('SELECT max(ended_at) AS at FROM observations').get() as { at: number | null }).at;
    this.observationId = Number(
      this.db.prepare('INSERT INTO observations(role, pid, started_at, ended_at, resumed_from) VALUES (?, ?, ?, ?, ?)').run(this.options.role, process.pid, started, started, this.resumedFrom).lastInsertRowid,
    );
    this.recorder.resume();
    await this.catchUp();
    if (this.lease.held) this.options.onRecording?.();
  }

  private retryLeaseLater(): void {
    if (this.closing || this.leaseTimer) return;
    this.leaseTimer = setTimeout(() => {
      this.leaseTimer = null;
      this.tryLease().catch((error) => console.warn('[history] could not take the history lease:', (error as Error).message));
    }, LEASE_RETRY_MS);
    this.leaseTimer.unref?.();
  }

  /** Another process took the lease (this one stalled past its stale time): stop recording, wait again. */
  private leaseLost(): void {
    this.recorder.pause();
    this.observationId = null;
    this.retryLeaseLater();
  }

  get file(): string {
    return path.join(this.options.dir, 'history.db');
  }

  /** When history began here (its first observation), or null. */
  began(): number | null {
    return (this.db.prepare('SELECT min(started_at) AS at FROM observations').get() as { at: number | null }).at;
  }

  private async catchUp(): Promise<void> {
    await this.index.ready;
    await this.index.idle();
    await this.recorder.drain();
    const files = this.index.db.prepare('SELECT id, path, store_key, name, mtime_ms FROM files').all() as { id: number; path: string; store_key: string; name: string; mtime_ms: number | null }[];
    const marks = new FileMarks(this.db);
    const first = this.resumedFrom === null;
    if (first) this.db.pragma('synchronous = OFF');
    try {
      for (const file of files) {
        // Recorded to its end in this state; a pass that stopped part-way is taken over (file-marks.ts).
        if (marks.upToDate(file.path, file.mtime_ms)) continue;
        this.recorder.enqueue({ storeKey: file.store_key, file: file.name, path: file.path, kind: 'rewritten', count: 0, fileId: file.id, fromLine: 1 });
      }
      await this.recorder.drain();
    } finally {
      if (first) this.endFirstRecording();
    }
    this.catchingUp = false;
    this.thinner.check();
    this.touch();
  }

  /**
   * A first recording (no observation before this one) runs without syncs: it writes every entry's
   * first version in thousands of short transactions, and with syncs each automatic checkpoint
   * (every 10,000 WAL pages) synced the WAL and the file on the thread that serves the live view,
   * 40–80 ms dozens of times (at 100,000 entries an append's change event then waited: p95
   * 100–330 ms). A power loss meanwhile can only cost that recording (a history found corrupt is
   * set aside and begins again, history-db.ts), which the next open records again. Once it ends,
   * one synced checkpoint makes it durable, and syncs are back on.
   */
  private endFirstRecording(): void {
    if (!this.db.open) return; // closed meanwhile: nothing recorded after this, the next open checks it
    try {
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      console.warn('[history] could not checkpoint the first recording:', (error as Error).message);
    }
  }

  /** Records that this process is still watching (the end of its observation). */
  private touch(): void {
    if (this.observationId === null || !this.lease.held) return;
    try {
      this.db.prepare('UPDATE observations SET ended_at = ? WHERE id = ?').run(this.now(), this.observationId);
    } catch {
      /* busy: the next heartbeat tries again */
    }
  }

  /** Everything recorded up to now (tests and the CLI wait for it). */
  async settle(): Promise<void> {
    await this.ready;
    await this.index.idle();
    await this.recorder.drain();
    await this.thinner.idle();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.detach();
    clearInterval(this.heartbeat);
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    this.leaseTimer = null;
    await this.ready.catch(() => undefined);
    await this.recorder.drain().catch(() => undefined);
    this.recorder.close();
    await this.thinner.stop();
    this.touch();
    await this.lease.dispose();
    if (this.options.role === 'app') {
      try {
        this.db.prepare("INSERT INTO moments(name, at, source) VALUES ('last-looked', ?, 'console') ON CONFLICT(name) DO UPDATE SET at = excluded.at").run(this.now());
      } catch {
        /* not remembered this time */
      }
    }
    closeHistoryDb(this.db);
  }
}
