import type { Worker } from 'node:worker_threads';
import type { StoreDef, StoreTier } from '../stores/catalog';
import type { JsonlDefect } from '../stores/jsonl-reader';
import { builtWorker, startReadyWorker, type WorkerSpec } from '../platform/util/built-worker';
import type { Collected, CollectOptions, FileRead } from './collect-rows';
import { RowBatch, type BatchData } from './row-batch';

const WORKER_NAME = 'ingest-parse-worker';
/**
 * Files smaller than this are read in-thread: starting the worker and posting rows across costs
 * more than it saves on them (the worker pays off on the big event and receipt logs).
 */
export const PARSE_WORKER_MIN_BYTES = 8 * 1024 * 1024;
/** The compiled worker next to the bundle; null from sources (platform/util/built-worker.ts). */
const workerSpec = (): WorkerSpec | null => builtWorker(import.meta.url, WORKER_NAME);

/** The worker exited or crashed before it ended a read (the read may be tried again in-thread). */
export class ParseWorkerLost extends Error {}

/** A full read of one file, as posted to the worker. */
export interface ParseJob {
  id: number;
  storeKey: string;
  tier: StoreTier;
  fileId: number;
  path: string;
  options: Omit<CollectOptions, 'seenIds'>;
  /** Int32 slot 0: batches written by the main thread (the worker stays at most a few ahead). */
  written: SharedArrayBuffer;
}

export type ParseReply =
  | { id: number; kind: 'flush'; batch: BatchData; defects: JsonlDefect[] }
  | { id: number; kind: 'end'; batch: BatchData; defects: JsonlDefect[]; records: number; result: FileRead }
  | { id: number; kind: 'error'; error: string };

interface Pending {
  onFlush: (batch: RowBatch, defects: JsonlDefect[]) => void;
  written: Int32Array;
  /** The first error of `onFlush`: later batches are dropped, and the read fails at its end. */
  failed: Error | null;
  resolve: (collected: Collected) => void;
  reject: (error: Error) => void;
}

/**
 * Full reads of big JSONL files on a worker thread: the worker parses, checks and extracts rows
 * (collect-rows.ts, the same code as in-thread) and posts them a batch at a time; each batch is
 * handed to `onFlush` here, on the main thread, in order, so the index is written exactly as by an
 * in-thread read. Where no worker can run (from sources without a harness, or one that fails to
 * start), `available()` is false and callers read in-thread.
 */
export class ParseRunner {
  private started: Promise<Worker | null> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** Files read on the worker so far. */
  reads = 0;

  constructor(
    private readonly spec: () => WorkerSpec | null = workerSpec,
    private readonly minBytes = PARSE_WORKER_MIN_BYTES,
  ) {}

  /** Whether a full read of a file of `size` bytes should go to the worker. */
  wants(size: number): boolean {
    return size >= this.minBytes && !this.closed;
  }

  /** Starts the worker (once; false when none can run), e.g. ahead of a first build so its start-up overlaps other work. */
  available(): Promise<boolean> {
    return this.start().then((worker) => worker !== null);
  }

  async collect(def: StoreDef, tier: StoreTier, fileId: number, path: string, options: Omit<CollectOptions, 'seenIds'>, onFlush: Pending['onFlush']): Promise<Collected> {
    const worker = await this.start();
    if (!worker || this.closed) throw new ParseWorkerLost('the parse worker is not running');
    const id = this.nextId++;
    this.reads++;
    const written = new SharedArrayBuffer(4);
    const done = new Promise<Collected>((resolve, reject) => this.pending.set(id, { onFlush, written: new Int32Array(written), failed: null, resolve, reject }));
    if (this.pending.size === 1) worker.ref(); // only a worker with work in hand keeps the process alive
    worker.postMessage({ id, storeKey: def.key, tier, fileId, path, options, written } satisfies ParseJob);
    return done;
  }

  private start(): Promise<Worker | null> {
    this.started ??= (async () => {
      const spec = this.spec();
      if (!spec || this.closed) return null;
      try {
        const worker = await startReadyWorker(spec, WORKER_NAME);
        worker.on('message', (reply: ParseReply) => this.receive(reply));
        const fail = (error: Error) => {
          for (const pending of this.pending.values()) pending.reject(error);
          this.pending.clear();
          this.started = null;
        };
        worker.on('error', (error) => fail(new ParseWorkerLost(`ingest parse worker crashed: ${error.message}`)));
        worker.on('exit', (code) => fail(new ParseWorkerLost(`ingest parse worker exited (code ${code})`)));
        return worker;
      } catch (error) {
        if (!this.closed) console.warn(`[store-index] parse worker unavailable (${(error as Error).message}); parsing in-thread`);
        return null;
      }
    })();
    return this.started;
  }

  private receive(reply: ParseReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.kind === 'flush') {
      if (!pending.failed) {
        try {
          pending.onFlush(RowBatch.of(reply.batch), reply.defects);
        } catch (error) {
          pending.failed = error as Error;
        }
      }
      Atomics.add(pending.written, 0, 1);
      Atomics.notify(pending.written, 0);
      return;
    }
    this.pending.delete(reply.id);
    if (this.pending.size === 0) void this.started?.then((worker) => worker?.unref());
    if (reply.kind === 'error') pending.reject(new Error(`parsing failed in the worker: ${reply.error}`));
    else if (pending.failed) pending.reject(pending.failed);
    else pending.resolve({ result: reply.result, records: reply.records, batch: RowBatch.of(reply.batch), defects: reply.defects });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = await this.started?.catch(() => null);
    this.started = null;
    await worker?.terminate();
  }
}
