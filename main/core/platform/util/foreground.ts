/**
 * The operator's foreground, per process: while the page reports scrolling (`ui.interacting`),
 * background work — the knowledge model's warm-up, what it keeps in the index, the column caches,
 * the similarity worker — waits instead of taking CPU the browser needs for its frames. Lower
 * priorities cannot do this: Linux shares CPU between autogroups (sessions) first, and the browser
 * runs in its own, so a nice value inside the console only orders the console's own threads.
 *
 * Waiting is bounded: after MAX_PAUSE_MS of continuous waiting, one slice runs anyway (a duty-cycle
 * floor), so an operator who scrolls for minutes still gets a warmed console. Work a request does
 * itself never asks here; a request that awaits background work waits at most as long.
 *
 * Threads: the main thread calls noteInteraction(); workers receive foregroundFlag() (an Int32Array
 * over a SharedArrayBuffer, 1 while the operator is active) and call giveWayToOperator() in their
 * long loops. A thread that was never given the flag (the in-thread fallback) never waits there.
 */

/** How long one notice keeps the operator active (the page sends one at most every ~200 ms while scrolling). */
export const ACTIVE_MS = 300;
/** The longest continuous wait before background work runs one slice anyway. */
export const MAX_PAUSE_MS = 1000;
/** The slice a worker runs after a wait that hit MAX_PAUSE_MS (as long as a main-thread slice). */
const FLOOR_SLICE_MS = 12;
/** A worker's wait is cut into steps this long, so terminating it is never held up. */
const WAIT_STEP_MS = 100;

/**
 * How long after background work last asked for a turn the console still says it has some: the
 * page, told there is none, spaces its notices out (each costs its main thread about a millisecond).
 */
export const BACKGROUND_RECENT_MS = 2000;

let activeUntil = Number.NEGATIVE_INFINITY;
let lastBackgroundTurnAt = Number.NEGATIVE_INFINITY;
/** Background tasks running off this thread (the similarity worker's), which ask for no turn here. */
let tasksOffThread = 0;
/** The main thread's flag for its workers, made when the first worker asks for it. */
let sharedFlag: Int32Array | null = null;
let clearTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Live work under way on this thread: a store file brought in line after it changed, up to its
 * change event. It awaits a dozen file reads, each a turn of the event loop, and a background
 * slice in each of those turns (8–12 ms) made an append's change event wait 100–300 ms while
 * history recorded a large store. Background turns wait while there is some, LIVE_PAUSE_MS at
 * most: work a request awaits may run in background slices too (a model build), and a sync held
 * up by busy file-system threads must not hold it for long (waiting up to MAX_PAUSE_MS, the first
 * detail after an append took 32–70 ms instead of about 20).
 */
let liveWork = 0;
/** The longest a background turn waits for live work (a sync not interleaved with slices takes a few ms). */
export const LIVE_PAUSE_MS = 25;
const liveWaiters: (() => void)[] = [];

/** Runs `work` as live work: background work gives way until it ends. */
export async function asLiveWork<T>(work: () => Promise<T>): Promise<T> {
  liveWork++;
  try {
    return await work();
  } finally {
    if (--liveWork === 0) for (const wake of liveWaiters.splice(0)) wake();
  }
}

/** The page says the operator is scrolling: background work gives way for the next ACTIVE_MS. */
export function noteInteraction(): void {
  activeUntil = performance.now() + ACTIVE_MS;
  if (sharedFlag) raiseSharedFlag(sharedFlag);
}

/** Milliseconds the operator stays active from now (0 when idle). */
export function activeForMs(): number {
  return Math.max(0, activeUntil - performance.now());
}

/**
 * Whether the console has background work that a notice would hold back: a main-thread loop asked
 * for its turn within BACKGROUND_RECENT_MS, or a task runs in a worker (watchBackgroundWork).
 */
export function backgroundWorkPending(): boolean {
  return tasksOffThread > 0 || performance.now() - lastBackgroundTurnAt < BACKGROUND_RECENT_MS;
}

/** A task starts off this thread; the returned function (idempotent) says it ended. */
export function watchBackgroundWork(): () => void {
  tasksOffThread++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    tasksOffThread--;
  };
}

/** The flag to hand a worker at its start (null where SharedArrayBuffer is unavailable: the worker then never waits). */
export function foregroundFlag(): Int32Array | null {
  if (!sharedFlag && typeof SharedArrayBuffer === 'function') {
    sharedFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    if (activeForMs() > 0) raiseSharedFlag(sharedFlag);
  }
  return sharedFlag;
}

function raiseSharedFlag(flag: Int32Array): void {
  Atomics.store(flag, 0, 1);
  if (clearTimer) return;
  const lower = () => {
    const left = activeForMs();
    if (left > 0) {
      clearTimer = setTimeout(lower, left);
      clearTimer.unref?.();
      return;
    }
    clearTimer = null;
    Atomics.store(flag, 0, 0);
    Atomics.notify(flag, 0);
  };
  clearTimer = setTimeout(lower, activeForMs());
  clearTimer.unref?.();
}

/**
 * Background work's turn on the main thread: at once when the operator is idle and no live work is
 * under way, else once both are so (timers, no busy loop; live work is waited for LIVE_PAUSE_MS at
 * most), or after MAX_PAUSE_MS of waiting, or as soon as `stop()` says so. The caller then runs one
 * slice before asking again, which is the duty-cycle floor.
 */
export async function backgroundTurn(stop: () => boolean = () => false): Promise<void> {
  const start = performance.now();
  lastBackgroundTurnAt = start;
  for (;;) {
    const waited = performance.now() - start;
    const pause = MAX_PAUSE_MS - waited;
    const left = Math.min(liveWork > 0 ? Math.max(LIVE_PAUSE_MS - waited, activeForMs()) : activeForMs(), pause);
    if (left <= 0 || stop()) {
      lastBackgroundTurnAt = performance.now();
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      if (liveWork > 0)
        liveWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
    });
  }
}

/** A background loop's turn between two slices: the event loop first (I/O, queued requests), then backgroundTurn. */
export async function backgroundYield(stop: () => boolean = () => false): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await backgroundTurn(stop);
}

// ── worker side ──
let watchedFlag: Int32Array | null = null;
let floorUntil = 0;

/** A worker's entry installs the flag its parent sent (null: never wait). */
export function watchForegroundFlag(flag: Int32Array | null): void {
  watchedFlag = flag;
}

/**
 * Called in a worker's long loops, at every item (cheap: an atomic load, on x86 a plain one, where
 * an item of clustering costs microseconds and more). While the flag is up it blocks
 * this thread in Atomics.wait until the flag drops or MAX_PAUSE_MS have passed, then lets one
 * FLOOR_SLICE_MS slice run. Never waits where no flag was installed (the main thread).
 */
export function giveWayToOperator(): void {
  if (watchedFlag === null || Atomics.load(watchedFlag, 0) === 0) return;
  const start = performance.now();
  if (start < floorUntil) return;
  for (;;) {
    const waited = performance.now() - start;
    if (Atomics.load(watchedFlag, 0) === 0) return;
    if (waited >= MAX_PAUSE_MS) break;
    Atomics.wait(watchedFlag, 0, 1, Math.min(WAIT_STEP_MS, MAX_PAUSE_MS - waited));
  }
  floorUntil = performance.now() + FLOOR_SLICE_MS;
}
