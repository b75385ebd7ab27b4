/**
 * Identical requests in flight at the same time share one answer. Several panels of a view read
 * the same query (the Knowledge view's banners and notes all read `stores.summary`); while the
 * core is busy (an ingest, the knowledge model warming up) each request waits seconds, so asking
 * once instead of three times is what keeps the core's queue short. The key must name everything
 * the answer depends on, including how fresh it must be.
 */
export type SharedCall = <T>(key: string, run: () => Promise<T>) => Promise<T>;

export function createSharedCalls(): SharedCall {
  const inFlight = new Map<string, Promise<unknown>>();
  return <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const pending = inFlight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const started = run().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
}
