import fs from 'node:fs';
import path from 'node:path';
import { line, lines } from '../stores/sample-records';

/** A store rewrite as the plugin does it: a temp file beside the store, then rename over it (docs/plugin-formats.md#temp-and-rename). */
export function rewriteStore(file: string, records: unknown[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(temp, lines(records));
  fs.renameSync(temp, file);
}

export function appendStore(file: string, record: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, line(record));
}

/** Polls `probe` until it returns a truthy value (or fails after `timeoutMs` with the last value). */
export async function waitFor<T>(probe: () => Promise<T> | T, timeoutMs = 15_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
