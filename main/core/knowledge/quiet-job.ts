/**
 * The latest of a series of background jobs, run once things have been quiet for a while (so
 * bursts of model rebuilds do not each pay for it) or at once when asked (`flush`). One runs at a
 * time; scheduling replaces a job not yet started.
 */
export class QuietJob {
  private timer: NodeJS.Timeout | null = null;
  private pending: (() => Promise<void>) | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly quietMs: number) {}

  /** Whether a job is waiting or running. */
  get busy(): boolean {
    return this.pending !== null || this.running !== null;
  }

  schedule(job: () => Promise<void>): void {
    if (this.closed) return;
    this.pending = job;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.start(), this.quietMs);
    this.timer.unref();
  }

  private async start(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    const job = this.pending;
    this.pending = null;
    if (!job || this.closed) return;
    // A job that fails (or throws before its first await) is reported here: it runs from a timer,
    // where an escaped rejection would end the whole console process.
    const running = Promise.resolve()
      .then(job)
      .catch((error: unknown) => console.warn('[knowledge] a background job failed:', (error as Error)?.message ?? error))
      .finally(() => {
        if (this.running === running) this.running = null;
      });
    this.running = running;
    await running;
  }

  /** Runs the waiting job now; resolves once nothing waits or runs. */
  async flush(): Promise<void> {
    while (this.busy) await (this.pending ? this.start() : this.running);
  }

  /** Drops the waiting job and waits for a running one. */
  async dispose(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.pending = null;
    await this.running;
  }
}
