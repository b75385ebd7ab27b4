/**
 * Worker-thread entry: hashes blocks of receipt lines (receipt-hash-lines.ts) so chain verification
 * uses every core. Built as its own entry (`out/main/receipt-hash-worker.js`, see
 * electron.vite.config.ts); from sources, tests load it through tsx (testing/receipts/source-hash-worker.ts).
 * A block arrives as a transferred ArrayBuffer and goes back with the result, so the thread that
 * checks the links can still take the exact path on any line of it.
 */
import { parentPort } from 'node:worker_threads';
import { hashLines, type HashedLines } from './receipt-hash-lines';

export interface HashTask {
  id: number;
  buffer: ArrayBuffer;
  offset: number;
  length: number;
  withGen: boolean;
}

/** The block's memory goes back with the reply (`offset`/`length` as given). */
export type HashReply = { id: number; buffer: ArrayBuffer; offset: number; length: number } & ({ ok: true; result: HashedLines } | { ok: false; error: string });

parentPort?.on('message', (task: HashTask) => {
  let reply: HashReply;
  const back = { id: task.id, buffer: task.buffer, offset: task.offset, length: task.length };
  const transfer: ArrayBuffer[] = [task.buffer];
  try {
    const result = hashLines(new Uint8Array(task.buffer, task.offset, task.length), task.withGen);
    transfer.push(result.meta.buffer as ArrayBuffer);
    reply = { ...back, ok: true, result };
  } catch (error) {
    reply = { ...back, ok: false, error: (error as Error).stack ?? String(error) };
  }
  parentPort!.postMessage(reply, transfer);
});
parentPort?.postMessage({ ready: true });
