import { openIndex, type IndexDb } from '../../main/core/store-index/open-index';
import type { HistoryDb } from '../../main/core/history/history-db';
import { HistoryRecorder, type BatchSummary } from '../../main/core/history/recorder';

/**
 * A store the history recorder follows without files or waiting: the store index's rows are written
 * as its ingest writes them (an in-memory index), the recorder is told as the index tells it, and the
 * clock is the test's. Months of plugin writes take seconds, through the recorder's real code.
 *
 * A changed entry is written as the last line of the store (the index then reports the append from
 * that line, so the recorder reads one row); `rewrite()` reports a whole re-read, as after the
 * plugin's temp-and-rename.
 */
export class SimulatedStore {
  readonly index: IndexDb;
  readonly recorder: HistoryRecorder;
  readonly batches: BatchSummary[] = [];
  /** Milliseconds the recorder took for the last batch (from the index's report to history committed). */
  lastRecordMs = 0;
  /** This process's CPU time (user + system) in that batch: the wall time less any wait for a core. */
  lastRecordCpuMs = 0;
  private readonly rowOf = new Map<string, number>();
  private nextLine = 1;
  private baseline = true;
  private readonly fileId = 1;

  constructor(
    readonly history: HistoryDb,
    readonly clock: { t: number },
    readonly storeKey = 'knowledge',
    readonly path = '/simulated/project/.swarm/knowledge.jsonl',
    readonly name = '.swarm/knowledge.jsonl',
    readonly tier: 'swarm' | 'hive' = 'swarm',
  ) {
    this.index = openIndex(':memory:').db;
    this.index
      .prepare("INSERT INTO files(id, path, store_key, tier, name, status, mtime_ms, records) VALUES (?, ?, ?, ?, ?, 'ok', ?, 0)")
      .run(this.fileId, path, storeKey, tier, name, clock.t);
    this.recorder = new HistoryRecorder(
      history,
      this.index,
      { now: () => this.clock.t, catchingUpFrom: () => (this.baseline ? { from: null } : null) },
      { caps: { swarm: 100, hive: 200 }, quarantines: () => [] },
      (batch) => this.batches.push(batch),
    );
  }

  private put(record: { id: string }): number {
    const previous = this.rowOf.get(record.id);
    if (previous !== undefined) {
      this.index.prepare('DELETE FROM entries WHERE rid = ?').run(previous);
      this.index.prepare('DELETE FROM entries_raw WHERE rid = ?').run(previous);
    }
    const line = this.nextLine++;
    const rid = Number(
      this.index
        .prepare("INSERT INTO entries(file_id, store_key, collection, line, offset, id, tier, status) VALUES (?, ?, 'active', ?, 0, ?, ?, ?)")
        .run(this.fileId, this.storeKey, line, record.id, this.tier, (record as { status?: string }).status ?? null).lastInsertRowid,
    );
    this.index.prepare('INSERT INTO entries_raw(rid, raw) VALUES (?, ?)').run(rid, JSON.stringify(record));
    this.rowOf.set(record.id, rid);
    return line;
  }

  private settle(): void {
    this.index.prepare('UPDATE files SET mtime_ms = ?, records = (SELECT count(*) FROM entries WHERE file_id = ?), next_line = ? WHERE id = ?').run(this.clock.t, this.fileId, this.nextLine, this.fileId);
  }

  /** The store as first read (history's baseline). */
  async open(records: { id: string }[]): Promise<void> {
    for (const record of records) this.put(record);
    this.settle();
    this.recorder.enqueue({ storeKey: this.storeKey, file: this.name, path: this.path, kind: 'rewritten', count: records.length, fileId: this.fileId, fromLine: 1 });
    await this.record();
    this.baseline = false;
  }

  /** The plugin changed these entries (one batch at the clock's time). */
  async update(...records: { id: string }[]): Promise<void> {
    const lines = records.map((record) => this.put(record));
    this.settle();
    this.recorder.enqueue({ storeKey: this.storeKey, file: this.name, path: this.path, kind: 'appended', count: records.length, fileId: this.fileId, fromLine: Math.min(...lines) });
    await this.record();
  }

  /** The plugin rewrote the store to exactly these entries (what is missing left it). */
  async rewrite(records: { id: string }[]): Promise<void> {
    const keep = new Set(records.map((r) => r.id));
    for (const [id, rid] of [...this.rowOf]) {
      if (keep.has(id)) continue;
      this.index.prepare('DELETE FROM entries WHERE rid = ?').run(rid);
      this.index.prepare('DELETE FROM entries_raw WHERE rid = ?').run(rid);
      this.rowOf.delete(id);
    }
    for (const record of records) this.put(record);
    this.settle();
    this.recorder.enqueue({ storeKey: this.storeKey, file: this.name, path: this.path, kind: 'rewritten', count: records.length, fileId: this.fileId, fromLine: 1 });
    await this.record();
  }

  private async record(): Promise<void> {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await this.recorder.drain();
    this.lastRecordMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    this.lastRecordCpuMs = (used.user + used.system) / 1000;
  }

  close(): void {
    this.recorder.close();
    this.index.close();
  }
}
