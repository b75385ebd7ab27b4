import { backgroundTurn } from './foreground';

/**
 * Cooperative time slicing for long loops on the one thread that also answers requests: the loop
 * calls `await slicer.yield()` often, and control really goes back to the event loop (a
 * `setImmediate`, so pending I/O and queued requests run first) only once the current slice has
 * used its budget. A slice therefore blocks for about `budgetMs`, never for the whole loop.
 * A background slicer also waits while the operator scrolls (foreground.ts), at most about a
 * second before running its next slice anyway.
 */
const DEFAULT_SLICE_MS = 12;

export class SliceCancelled extends Error {
  constructor(reason = 'cancelled') {
    super(`time-sliced work stopped: ${reason}`);
    this.name = 'SliceCancelled';
  }
}

export class TimeSlicer {
  private sliceStart = performance.now();
  /** How many times work actually gave the event loop back (for tests and the benchmark). */
  yields = 0;

  constructor(
    readonly budgetMs: number = DEFAULT_SLICE_MS,
    /** Checked at every real yield: returning a reason stops the work with SliceCancelled. */
    private readonly cancelled: () => string | null = () => null,
    /** Work nobody is waiting for right now (warm-ups, what is kept for later): it gives way to the operator. */
    readonly background = false,
  ) {}

  /** True when the current slice has used its budget (cheap enough to call per item). */
  get due(): boolean {
    return performance.now() - this.sliceStart >= this.budgetMs;
  }

  /** Gives the event loop back if the slice is used up; otherwise returns at once. */
  async yield(): Promise<void> {
    if (!this.due) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // After the setImmediate: a notice that arrived during the slice has been read by now.
    if (this.background) await backgroundTurn(() => this.cancelled() !== null);
    this.yields++;
    const reason = this.cancelled();
    if (reason) throw new SliceCancelled(reason);
    this.sliceStart = performance.now();
  }

  /** `fn` over every item, yielding between items when a slice is used up. */
  async forEach<T>(items: Iterable<T>, fn: (item: T, index: number) => void): Promise<void> {
    let index = 0;
    for (const item of items) {
      fn(item, index++);
      if ((index & 63) === 0) await this.yield();
    }
  }

  /** `fn` over every item into a new array, in slices (any list that can say its length: an array, a chunked list). */
  async map<T, U>(items: Iterable<T> & { readonly length: number }, fn: (item: T, index: number) => U): Promise<U[]> {
    const out: U[] = new Array(items.length);
    let i = 0;
    for (const item of items) {
      out[i] = fn(item, i);
      if ((i++ & 63) === 63) await this.yield();
    }
    return out;
  }

  /** The items `keep` admits, in order, in slices. */
  async filter<T>(items: Iterable<T>, keep: (item: T, index: number) => boolean): Promise<T[]> {
    const out: T[] = [];
    let i = 0;
    for (const item of items) {
      if (keep(item, i)) out.push(item);
      if ((i++ & 63) === 63) await this.yield();
    }
    return out;
  }
}

/** A slicer that never yields: the same code run synchronously-in-spirit (tests, small inputs). */
export const NO_SLICING = new TimeSlicer(Number.POSITIVE_INFINITY);
