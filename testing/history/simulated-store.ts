import fs from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import { openIndex, type IndexDb } from '../../main/core/store-index/open-index';
import { lineHash } from '../../main/core/store-index/stored-lines';
import type { HistoryDb } from '../../main/core/history/history-db';
import { HistoryRecorder, type BatchSummary } from '../../main/core/history/recorder';

/**
 * A store the history recorder follows without waiting: the store index's rows are written as its
 * ingest writes them (an in-memory index whose rows point at lines of a real file in a temp folder,
 * as the lean index's do), the recorder is told as the index tells it, and the clock is the test's.
 * Months of plugin writes take seconds, through the recorder's real code. The file only grows: a
 * changed entry's new line is appended and its old row dropped, which is all the index rows say.
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
  /** The real file the index rows point into (`path` is placed under a temp folder). */
  readonly file: string;
  private size = 0;

  constructor(
    readonly history: HistoryDb,
    readonly clock: { t: number },
    readonly storeKey = 'knowledge',
    readonly path = '/simulated/project/.swarm/knowledge.jsonl',
    readonly name = '.swarm/knowledge.jsonl',
    readonly tier: 'swarm' | 'hive' = 'swarm',
  ) {
    this.file = nodePath.join(fs.mkdtempSync(nodePath.join(os.tmpdir(), 'simulated-store-')), path);
    fs.mkdirSync(nodePath.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, '');
    this.index = openIndex(':memory:').db;
    this.index
      .prepare("INSERT INTO files(id, path, store_key, tier, name, status, mtime_ms, records) VALUES (?, ?, ?, ?, ?, 'ok', ?, 0)")
      .run(this.fileId, this.file, storeKey, tier, name, clock.t);
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
    }
    const line = this.nextLine++;
    const text = JSON.stringify(record);
    const bytes = Buffer.byteLength(text) + 1;
    fs.appendFileSync(this.file, `${text}\n`);
    const rid = Number(
      this.index
        .prepare("INSERT INTO entries(file_id, store_key, collection, line, offset, bytes, hash, id, tier, status) VALUES (?, ?, 'active', ?, ?, ?, ?, ?, ?, ?)")
        .run(this.fileId, this.storeKey, line, this.size, bytes, lineHash(text), record.id, this.tier, (record as { status?: string }).status ?? null).lastInsertRowid,
    );
    this.size += bytes;
    this.rowOf.set(record.id, rid);
    return line;
  }

  private settle(): void {
    this.index.prepare('UPDATE files SET mtime_ms = ?, records = (SELECT count(*) FROM entries WHERE file_id = ?), next_line = ? WHERE id = ?').run(this.clock.t, this.fileId, this.nextLine, this.fileId);
  }

  /** The store as first read (history's baseline). */
  async open(records: { id: string }[]): Promise<void> {
    this.load(records);
    await this.recordBaseline();
  }

  /** The store's first state, in the file and the index, not yet recorded (open() in two steps). */
  load(records: { id: string }[]): void {
    for (const record of records) this.put(record);
    this.settle();
  }

  /** Records what load() put there, as the history's baseline. */
  async recordBaseline(): Promise<void> {
    this.recorder.enqueue({ storeKey: this.storeKey, file: this.name, path: this.file, kind: 'rewritten', count: this.rowOf.size, fileId: this.fileId, fromLine: 1 });
    await this.record();
    this.baseline = false;
  }

  /** The plugin changed these entries (one batch at the clock's time). */
  async update(...records: { id: string }[]): Promise<void> {
    const lines = records.map((record) => this.put(record));
    this.settle();
    this.recorder.enqueue({ storeKey: this.storeKey, file: this.name, path: this.file, kind: 'appended', count: records.length, fileId: this.fileId, fromLine: Math.min(...lines) });
    await this.record();
  }

  /** The plugin rewrote the store to exactly these entries (what is missing left it). */
  async rewrite(records: { id: string }[]): Promise<void> {
    const keep = new Set(records.map((r) => r.id));
    for (const [id, rid] of [...this.rowOf]) {
      if (keep.has(id)) continue;
      this.index.prepare('DELETE FROM entries WHERE rid = ?').run(rid);
      this.rowOf.delete(id);
    }
    for (const record of records) this.put(record);
    this.settle();
    this.recorder.enqueue({ storeKey: this.storeKey, file: this.name, path: this.file, kind: 'rewritten', count: records.length, fileId: this.fileId, fromLine: 1 });
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
    fs.rmSync(nodePath.dirname(this.file), { recursive: true, force: true });
  }
}
