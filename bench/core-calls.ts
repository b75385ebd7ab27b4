/** Calling the real core as the renderer does (its dispatcher), timed: shared by the knowledge sections and their child processes. */
import type { ConsoleCore } from '../main/core/console-core';
import { percentile } from './report';

export type Call = (name: string, input: unknown) => Promise<any>;

/** The table's page: 50 entries, newest first. */
export const PAGE = { limit: 50, sort: { field: 'updated_at', dir: 'desc' } };

export function caller(core: ConsoleCore): Call {
  return async (name, input) => {
    const result = await core.dispatcher.call(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value;
  };
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/**
 * Table page queries every 5 ms until `work` settles. A query's wait counts from when it was
 * due (as a click would be), so time the event loop was held before it could even start counts.
 */
export async function pageWaitsDuring(call: Call, work: Promise<unknown>): Promise<{ max: number; p50: number; count: number }> {
  let done = false;
  void work.finally(() => (done = true));
  const waits: number[] = [];
  while (!done) {
    const due = performance.now() + 5;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call('stores.entries', PAGE);
    waits.push(performance.now() - due);
  }
  await work;
  return { max: Math.max(0, ...waits), p50: percentile(waits, 50), count: waits.length };
}
