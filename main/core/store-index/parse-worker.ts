/**
 * Worker-thread entry: reads, parses and checks a store file into row batches (collect-rows.ts)
 * while the main thread writes the batches before them to SQLite, so a big ingest uses two cores.
 * Built as its own entry (`out/main/ingest-parse-worker.js`, see electron.vite.config.ts); from
 * sources, harnesses load it through tsx (testing/workers/source-worker.ts). It never touches the
 * index: every write, and so every crash-consistency rule, stays with the main thread (ingest.ts).
 */
import { parentPort } from 'node:worker_threads';
import { storeDef } from '../stores/catalog';
import { collectRows } from './collect-rows';
import type { ParseJob, ParseReply } from './parse-runner';

/** Batches posted and not yet written by the main thread, past which the worker waits (bounds memory). */
const MAX_AHEAD = 4;

async function run(job: ParseJob): Promise<void> {
  const def = storeDef(job.storeKey);
  if (!def) throw new Error(`unknown store ${job.storeKey}`);
  // Slot 0: batches the main thread has written so far.
  const written = new Int32Array(job.written);
  let posted = 0;
  const collected = await collectRows(def, job.tier, job.fileId, job.path, { ...job.options, seenIds: new Map() }, (batch, defects) => {
    parentPort!.postMessage({ id: job.id, kind: 'flush', batch: batch.data(), defects } satisfies ParseReply);
    posted++;
    for (let seen = Atomics.load(written, 0); posted - seen > MAX_AHEAD; seen = Atomics.load(written, 0)) Atomics.wait(written, 0, seen);
  });
  const { result, records, batch, defects } = collected;
  parentPort!.postMessage({ id: job.id, kind: 'end', batch: batch.data(), defects, records, result } satisfies ParseReply);
}

parentPort?.on('message', (job: ParseJob) => {
  run(job).catch((error: Error) => parentPort!.postMessage({ id: job.id, kind: 'error', error: error.stack ?? String(error) } satisfies ParseReply));
});
parentPort?.postMessage({ ready: true });
