import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { builtWorker, startReadyWorker, type WorkerSpec } from '../platform/util/built-worker';
import { hashLines, type HashedLines } from './receipt-hash-lines';
import type { HashReply, HashTask } from './receipt-hash-worker';

const WORKER_NAME = 'receipt-hash-worker';
/** The compiled worker next to the bundle; null from sources (platform/util/built-worker.ts). */
const workerSpec = (): WorkerSpec | null => builtWorker(import.meta.url, WORKER_NAME);

/** A block hashed, with its bytes back (a transferred block comes back as a new Buffer over the same memory). */
export interface HashedBlock {
  block: Buffer;
  result: HashedLines;
}

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (block: HashedBlock) => void; reject: (error: Error) => void }>;
}

/**
 * Hashes blocks of receipt lines on worker threads, one per core by default. Blocks are given to
 * the least busy worker; results come back in any order, each to its own promise. Without a
 * worker (from sources, or one that cannot start) blocks are hashed in-thread, with the same code.
 */
export class HashPool {
  private slots: Slot[] = [];
  private started: Promise<Slot[]> | null = null;
  private nextId = 1;
  private disposed = false;
  /** Blocks hashed in a worker / in-thread (tests and the benchmark read these). */
  readonly counts = { worker: 0, inline: 0 };
  readonly size: number;
  private readonly spec: () => WorkerSpec | null;

  constructor(options: { size?: number; spec?: () => WorkerSpec | null } = {}) {
    this.size = Math.max(1, options.size ?? os.availableParallelism());
    this.spec = options.spec ?? workerSpec;
  }

  /** Whether blocks go to worker threads (false from sources or when none could start). */
  async parallel(): Promise<boolean> {
    return (await this.start()).length > 0;
  }

  /**
   * Hashes `block` (whole lines, each ended by `\n`). With `transfer`, the memory under `block`
   * (its whole ArrayBuffer: the caller must own all of it, never a pooled Buffer) moves to the
   * worker and back, without a copy; use the returned `block` afterwards.
   */
  async hash(block: Buffer, withGen: boolean, transfer = false): Promise<HashedBlock> {
    if (this.disposed) throw new Error('hash pool disposed');
    const slots = await this.start();
    if (slots.length === 0) {
      this.counts.inline++;
      return { block, result: hashLines(block, withGen) };
    }
    const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    const task: HashTask = transfer
      ? { id, buffer: block.buffer as ArrayBuffer, offset: block.byteOffset, length: block.length, withGen }
      : { id, buffer: new Uint8Array(block).buffer, offset: 0, length: block.length, withGen };
    this.counts.worker++;
    const done = new Promise<HashedBlock>((resolve, reject) => slot.pending.set(id, { resolve, reject }));
    if (slot.pending.size === 1) slot.worker.ref(); // only a worker with work in hand keeps the process alive
    slot.worker.postMessage(task, [task.buffer]);
    return done;
  }

  private start(): Promise<Slot[]> {
    this.started ??= (async () => {
      const spec = this.spec();
      if (!spec) return [];
      const slots = await Promise.all(Array.from({ length: this.size }, () => startSlot(spec).catch((error: Error) => error)));
      const ready = slots.filter((slot): slot is Slot => !(slot instanceof Error));
      if (ready.length < slots.length) {
        const why = slots.find((slot): slot is Error => slot instanceof Error)?.message;
        for (const slot of ready) void slot.worker.terminate();
        if (!this.disposed) console.warn(`[receipts] hash worker unavailable (${why}); hashing in-thread`);
        return [];
      }
      for (const slot of ready) this.watch(slot);
      this.slots = ready;
      return ready;
    })();
    return this.started;
  }

  private watch(slot: Slot): void {
    slot.worker.on('message', (reply: HashReply) => {
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) slot.worker.unref();
      if (reply.ok) pending.resolve({ block: Buffer.from(reply.buffer, reply.offset, reply.length), result: reply.result });
      else pending.reject(new Error(`receipt hashing failed in the worker: ${reply.error}`));
    });
    const fail = (error: Error) => {
      for (const pending of slot.pending.values()) pending.reject(error);
      slot.pending.clear();
      // The next verification starts fresh workers.
      this.started = null;
      this.slots = [];
    };
    slot.worker.on('error', (error) => fail(new Error(`receipt hash worker crashed: ${error.message}`)));
    slot.worker.on('exit', (code) => fail(new Error(`receipt hash worker exited (code ${code})`)));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const slots = this.slots.length > 0 ? this.slots : ((await this.started?.catch(() => [])) ?? []);
    this.slots = [];
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}

function startSlot(spec: WorkerSpec): Promise<Slot> {
  return startReadyWorker(spec, WORKER_NAME).then((worker) => ({ worker, pending: new Map() }));
}

let shared: HashPool | null | undefined;

/** The process's pool for verifications that do not bring their own: null where there is no compiled worker (from sources). */
export function sharedHashPool(): HashPool | null {
  if (shared === undefined) shared = workerSpec() ? new HashPool() : null;
  return shared;
}
