import { describe, expect, it } from 'vitest';
import { createSharedCalls } from './shared-calls';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('shared calls', () => {
  it('answers identical requests in flight together with one request', async () => {
    const shared = createSharedCalls();
    const answer = deferred<string>();
    let runs = 0;
    const run = () => (runs++, answer.promise);
    const both = Promise.all([shared('stores.summary|3', run), shared('stores.summary|3', run)]);
    answer.resolve('summary');
    expect(await both).toEqual(['summary', 'summary']);
    expect(runs).toBe(1);
  });

  it('asks again once the answer is in, and apart for another key (another freshness)', async () => {
    const shared = createSharedCalls();
    let runs = 0;
    const run = async () => ++runs;
    expect(await shared('a|1', run)).toBe(1);
    expect(await shared('a|1', run)).toBe(2);
    expect(await Promise.all([shared('a|1', run), shared('a|2', run)])).toEqual([3, 4]);
  });

  it('forgets a failed request, so the next one asks again', async () => {
    const shared = createSharedCalls();
    const failing = deferred<string>();
    const first = shared('k', () => failing.promise);
    failing.reject(new Error('core busy'));
    await expect(first).rejects.toThrow('core busy');
    expect(await shared('k', async () => 'fresh')).toBe('fresh');
  });
});
