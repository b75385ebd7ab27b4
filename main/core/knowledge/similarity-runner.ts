import { Worker } from 'node:worker_threads';
import { builtWorker, type WorkerSpec } from '../platform/util/built-worker';
import { runSimilarityTask, SIMILARITY_TASKS, type SimilarityTaskKind, type SimilarityTasks } from './similarity-tasks';
import { TimeSlicer } from '../platform/util/time-slicer';
import { foregroundFlag, watchBackgroundWork } from '../platform/util/foreground';
import type { ResultMessage, TaskMessage } from './similarity-worker';

const WORKER_NAME = 'similarity-worker';
/** Strings per message: each structured clone then takes a few milliseconds. */
const CHUNK_ITEMS = 4000;
/**
 * Run from the TypeScript sources (vitest): there is no compiled worker next to this module, and
 * nothing here compiles TypeScript at run time, so tasks run in-thread. Tests that need a worker
 * from sources pass their own spec (testing/workers/source-worker.ts).
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
/** The compiled `similarity-worker.js` next to the bundle (platform/util/built-worker.ts). */
const workerSpec = (): WorkerSpec | null => builtWorker(import.meta.url, WORKER_NAME);

interface Pending {
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Runs similarity tasks on one worker thread, so whole-corpus clustering and tier merges never
 * hold up the thread that answers requests. Tasks run one after another in the worker. If no
 * worker can be started the tasks run in-thread (correct, but blocking) and say so once.
 */
export class SimilarityRunner {
  private worker: Worker | null = null;
  private started: Promise<Worker | null> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Tasks still sending their input in chunks (not yet in `pending`). */
  private sending = 0;
  private disposed = false;
  private inline = false;
  /** Tasks run so far in the worker / in-thread (tests and the benchmark read these). */
  readonly counts = { worker: 0, inline: 0 };

  constructor(private readonly spec: () => WorkerSpec | null = workerSpec) {}

  get busy(): boolean {
    return this.pending.size > 0 || this.sending > 0;
  }

  /** Runs a task in the worker; its input crosses in chunks, between which the event loop is given back. */
  async run<K extends SimilarityTaskKind>(kind: K, input: SimilarityTasks[K]['input'], slicer: TimeSlicer = new TimeSlicer()): Promise<SimilarityTasks[K]['output']> {
    if (this.disposed) throw new Error('similarity runner disposed');
    const worker = this.inline ? null : await this.start();
    if (!worker) {
      this.counts.inline++;
      return runSimilarityTask(kind, input);
    }
    // The page spaces its scrolling notices out only while no task runs here (ui.interacting).
    const ended = watchBackgroundWork();
    try {
      return await this.runInWorker(worker, kind, input, slicer);
    } finally {
      ended();
    }
  }

  private async runInWorker<K extends SimilarityTaskKind>(worker: Worker, kind: K, input: SimilarityTasks[K]['input'], slicer: TimeSlicer): Promise<SimilarityTasks[K]['output']> {
    const id = this.nextId++;
    // Only a worker with work in hand keeps the process alive.
    worker.ref();
    this.sending++;
    this.counts.worker++;
    const { columns, params } = (SIMILARITY_TASKS[kind] as { split(i: unknown): { columns: string[][]; params: unknown } }).split(input);
    try {
      for (let column = 0; column < columns.length; column++) {
        const items = columns[column]!;
        for (let start = 0; start < items.length; start += CHUNK_ITEMS) {
          if (this.disposed) throw new Error('similarity runner disposed');
          worker.postMessage({ id, chunk: { column, items: items.slice(start, start + CHUNK_ITEMS) } } satisfies TaskMessage);
          await slicer.yield();
        }
      }
      if (this.disposed) throw new Error('similarity runner disposed');
      // A worker that crashed or exited meanwhile would never answer this task.
      if (this.worker !== worker) throw new Error('similarity worker stopped while the task was being sent');
    } catch (error) {
      // Cancelled between chunks (the service closing, a newer model, dispose): the worker drops the
      // chunks it holds, and the error reaches this caller, who is awaiting this call right now.
      this.sending--;
      this.release(worker);
      if (!this.disposed) worker.postMessage({ id, drop: true } satisfies TaskMessage);
      throw error;
    }
    this.sending--;
    // The answer's promise exists only from here on, when this caller is about to await it: one
    // created before the chunks were sent could be rejected by dispose() while the loop above still
    // waits for a yield, with no handler attached yet — an unhandled rejection on every close.
    const result = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    worker.postMessage({ id, run: { kind, columns: columns.length, params } } satisfies TaskMessage);
    return result as Promise<SimilarityTasks[K]['output']>;
  }

  /** Lets the process exit once the worker has nothing in hand. */
  private release(worker: Worker): void {
    if (!this.busy) worker.unref();
  }

  private start(): Promise<Worker | null> {
    this.started ??= new Promise<Worker | null>((resolve) => {
      const spec = this.spec();
      // From sources in-thread is expected, not a fault worth a warning on every test run.
      if (!spec) return resolve(this.fallBack('its entry file was not found', FROM_SOURCES && this.spec === workerSpec));
      let worker: Worker;
      try {
        worker = new Worker(spec.filename, { ...spec.options, name: WORKER_NAME });
      } catch (error) {
        return resolve(this.fallBack((error as Error).message));
      }
      let ready = false;
      worker.on('message', (message: ResultMessage | { ready: true }) => {
        if ('ready' in message) {
          ready = true;
          // Before any task: the worker's long loops give way while the operator scrolls (foreground.ts).
          worker.postMessage({ foreground: foregroundFlag() } satisfies TaskMessage);
          this.worker = worker;
          worker.unref();
          return resolve(worker);
        }
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        this.release(worker);
        if (message.ok) pending.resolve(message.output);
        else pending.reject(new Error(`similarity task failed in the worker: ${message.error}`));
      });
      worker.on('error', (error) => {
        if (!ready) return resolve(this.fallBack(error.message));
        this.failAll(new Error(`similarity worker crashed: ${error.message}`));
      });
      worker.on('exit', (code) => {
        if (!ready) return resolve(this.fallBack(`it exited with code ${code} while starting`));
        this.worker = null;
        this.started = null; // the next task starts a fresh worker
        this.failAll(new Error(`similarity worker exited (code ${code})`));
      });
    });
    return this.started;
  }

  private fallBack(why: string, quiet = false): null {
    if (!this.disposed && !quiet) console.warn(`[knowledge] similarity worker unavailable (${why}); computing in-thread`);
    this.inline = true;
    return null;
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.failAll(new Error('similarity runner disposed'));
    const worker = this.worker ?? (await this.started?.catch(() => null)) ?? null;
    this.worker = null;
    await worker?.terminate();
  }
}
