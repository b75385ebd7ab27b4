import type { Freshness } from '../../../shared/contract/knowledge';

interface Done<V> {
  key: string;
  value: V;
  asOf: number;
}

interface Job<V> {
  key: string;
  asOf: number;
  compute: () => Promise<V>;
}

/**
 * The last complete result of a slow computation, served while a newer one is computed
 * ("stale while revalidate"). One computation runs at a time; a request for a newer key while
 * one runs is queued, and only the newest queued key is computed next. A caller waits only when
 * no result exists yet.
 */
export class LatestResult<V> {
  private done: Done<V> | null = null;
  private running: (Job<V> & { promise: Promise<void> }) | null = null;
  private queued: Job<V> | null = null;
  private lastError: { key: string; error: unknown } | null = null;

  get computing(): boolean {
    return this.running !== null || this.queued !== null;
  }

  /** The key of the last complete result, if any. */
  get completedKey(): string | null {
    return this.done?.key ?? null;
  }

  /** Starts computing `key` unless it is complete, running or queued. */
  request(key: string, asOf: number, compute: () => Promise<V>): void {
    if (this.done?.key === key || this.running?.key === key || this.queued?.key === key) return;
    if (this.running) this.queued = { key, asOf, compute };
    else this.start({ key, asOf, compute });
  }

  private start(job: Job<V>): void {
    const promise = (async () => {
      try {
        const value = await job.compute();
        this.done = { key: job.key, value, asOf: job.asOf };
        this.lastError = null;
      } catch (error) {
        this.lastError = { key: job.key, error };
      } finally {
        this.running = null;
        const next = this.queued;
        this.queued = null;
        if (next) this.start(next);
      }
    })();
    this.running = { ...job, promise };
  }

  /**
   * The result for `key` when complete; otherwise the last complete result marked stale (a newer
   * one is under way); waits only when nothing has completed yet.
   */
  async get(key: string, asOf: number, compute: () => Promise<V>): Promise<{ value: V; freshness: Freshness }> {
    this.request(key, asOf, compute);
    while (!this.done) {
      const running = this.running;
      if (!running) {
        if (this.lastError) throw this.lastError.error;
        this.request(key, asOf, compute);
        continue;
      }
      await running.promise;
      if (!this.done && this.lastError?.key === running.key && running.key === key) throw this.lastError.error;
    }
    const fresh = this.done.key === key;
    return { value: this.done.value, freshness: { stale: !fresh, computing: this.computing, asOf: new Date(this.done.asOf).toISOString() } };
  }

  /** Resolves once nothing is running or queued. */
  async settled(): Promise<void> {
    while (this.running) await this.running.promise;
  }
}
