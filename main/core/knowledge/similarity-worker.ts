/**
 * Worker-thread entry: runs similarity tasks (similarity-tasks.ts) off the thread that answers
 * requests. Built as its own entry (`out/main/similarity-worker.js`, see electron.vite.config.ts);
 * from sources it is loaded through tsx by similarity-runner.ts. A task arrives as string
 * columns in chunks, then a `run` message with its parameters.
 */
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { SIMILARITY_TASKS, type SimilarityTaskKind } from './similarity-tasks';
import { watchForegroundFlag } from '../platform/util/foreground';

/**
 * Background work gives way to whatever the operator is doing (the window scrolling, requests
 * answered). On Linux a nice value belongs to the thread, so this lowers only this worker; on
 * other systems it would lower the whole app, so it is left alone there. It orders this worker
 * only against the console's own threads (Linux shares CPU between autogroups first, and the
 * browser runs in its own): giving way to the browser's frames is the foreground flag's job.
 */
export const WORKER_NICENESS = 10;
if (process.platform === 'linux') {
  try {
    os.setPriority(0, WORKER_NICENESS);
  } catch {
    // Not allowed (a locked-down container): the worker simply runs at normal priority.
  }
}

export type TaskMessage =
  | { id: number; chunk: { column: number; items: string[] } }
  | { id: number; run: { kind: SimilarityTaskKind; columns: number; params: unknown } }
  /** The task was cancelled before its `run`: forget its chunks. */
  | { id: number; drop: true }
  /** Sent once, first: the operator's foreground flag (foreground.ts), which the tasks' loops give way to. */
  | { foreground: Int32Array | null };

export type ResultMessage = { id: number; ok: true; output: unknown } | { id: number; ok: false; error: string };

const columnsOf = new Map<number, string[][]>();

parentPort?.on('message', (message: TaskMessage) => {
  if ('foreground' in message) {
    watchForegroundFlag(message.foreground);
    return;
  }
  if ('drop' in message) {
    columnsOf.delete(message.id);
    return;
  }
  const columns = columnsOf.get(message.id) ?? [];
  columnsOf.set(message.id, columns);
  if ('chunk' in message) {
    const column = (columns[message.chunk.column] ??= []);
    for (const item of message.chunk.items) column.push(item);
    return;
  }
  columnsOf.delete(message.id);
  const { kind, params } = message.run;
  while (columns.length < message.run.columns) columns.push([]);
  let reply: ResultMessage;
  let transfer: ArrayBuffer[] = [];
  try {
    const task = SIMILARITY_TASKS[kind];
    const output = task.run(task.join(columns, params) as never);
    transfer = task.transfer(output as never);
    reply = { id: message.id, ok: true, output };
  } catch (error) {
    reply = { id: message.id, ok: false, error: (error as Error).stack ?? String(error) };
  }
  parentPort!.postMessage(reply, transfer);
});
parentPort?.postMessage({ ready: true });
