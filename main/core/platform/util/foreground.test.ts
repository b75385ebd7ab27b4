import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVE_MS, activeForMs, asLiveWork, BACKGROUND_RECENT_MS, LIVE_PAUSE_MS, backgroundTurn, backgroundWorkPending, backgroundYield, foregroundFlag, giveWayToOperator, MAX_PAUSE_MS, noteInteraction, watchBackgroundWork } from './foreground';
import { SliceCancelled, TimeSlicer } from './time-slicer';

// One fake clock for the file (performance.now, timers and setImmediate are all faked): the signal
// is per process, so each test starts by letting any earlier notice run out.
beforeAll(() => vi.useFakeTimers());
afterAll(() => vi.useRealTimers());
beforeEach(() => vi.advanceTimersByTime(ACTIVE_MS + 1));

/** Whether `promise` has settled once the pending immediates and microtasks ran (no clock moves). */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

describe('the operator foreground', () => {
  it('is active for ACTIVE_MS after a notice, and a later notice extends it', () => {
    expect(activeForMs()).toBe(0);
    noteInteraction();
    expect(activeForMs()).toBe(ACTIVE_MS);
    vi.advanceTimersByTime(200);
    noteInteraction();
    vi.advanceTimersByTime(200);
    expect(activeForMs()).toBe(ACTIVE_MS - 200);
    vi.advanceTimersByTime(ACTIVE_MS - 200);
    expect(activeForMs()).toBe(0);
  });

  it("raises the workers' shared flag with a notice and lowers it once the operator is idle", () => {
    const flag = foregroundFlag()!;
    expect(Atomics.load(flag, 0)).toBe(0);
    noteInteraction();
    expect(Atomics.load(flag, 0)).toBe(1);
    vi.advanceTimersByTime(ACTIVE_MS - 1);
    noteInteraction();
    vi.advanceTimersByTime(ACTIVE_MS - 1);
    expect(Atomics.load(flag, 0)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(Atomics.load(flag, 0)).toBe(0);
  });

  it('never makes the main thread wait in giveWayToOperator, even with the flag up (only a worker given the flag waits)', () => {
    foregroundFlag();
    noteInteraction();
    // A wait here would block on the real clock while the faked one stands still: the test would hang.
    for (let i = 0; i < 10_000; i++) giveWayToOperator();
    expect(activeForMs()).toBe(ACTIVE_MS);
  });

  it("background work's turn comes at once when idle, once the operator is idle, and after MAX_PAUSE_MS of notices at the latest", async () => {
    expect(await settledNow(backgroundTurn())).toBe(true);

    noteInteraction();
    const afterOne = backgroundTurn();
    expect(await settledNow(afterOne)).toBe(false);
    await vi.advanceTimersByTimeAsync(ACTIVE_MS - 1);
    expect(await settledNow(afterOne)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledNow(afterOne)).toBe(true);

    // Notices every 100 ms without end: the turn still comes after MAX_PAUSE_MS (the duty-cycle floor).
    noteInteraction();
    const scrolling = setInterval(noteInteraction, 100);
    const floor = backgroundTurn();
    await vi.advanceTimersByTimeAsync(MAX_PAUSE_MS - 1);
    expect(await settledNow(floor)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledNow(floor)).toBe(true);
    clearInterval(scrolling);
  });

  it('has background work for BACKGROUND_RECENT_MS after a turn (however long the turn waited), and while a task runs off-thread', async () => {
    vi.advanceTimersByTime(BACKGROUND_RECENT_MS);
    expect(backgroundWorkPending()).toBe(false);
    noteInteraction();
    const waited = backgroundTurn();
    await vi.advanceTimersByTimeAsync(ACTIVE_MS);
    expect(await settledNow(waited)).toBe(true);
    // The wait counts from the turn's end, not its start.
    vi.advanceTimersByTime(BACKGROUND_RECENT_MS - 1);
    expect(backgroundWorkPending()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(backgroundWorkPending()).toBe(false);

    const ended = watchBackgroundWork();
    vi.advanceTimersByTime(BACKGROUND_RECENT_MS * 5);
    expect(backgroundWorkPending()).toBe(true);
    ended();
    ended(); // idempotent: a second call must not hide another task
    const other = watchBackgroundWork();
    expect(backgroundWorkPending()).toBe(true);
    other();
    expect(backgroundWorkPending()).toBe(false);
  });

  it('a background loop (history recording, column caches) yields to the event loop, then waits while the operator is active', async () => {
    const idle = backgroundYield();
    expect(await settledNow(idle)).toBe(true);
    noteInteraction();
    const busy = backgroundYield();
    expect(await settledNow(busy)).toBe(false);
    await vi.advanceTimersByTimeAsync(ACTIVE_MS);
    expect(await settledNow(busy)).toBe(true);
  });

  it('a background turn waits for live work (a store change on its way out) until it ends, LIVE_PAUSE_MS at most', async () => {
    let finish!: () => void;
    const live = asLiveWork(() => new Promise<void>((resolve) => (finish = resolve)));
    const turn = backgroundYield();
    expect(await settledNow(turn)).toBe(false);
    await vi.advanceTimersByTimeAsync(LIVE_PAUSE_MS / 2);
    expect(await settledNow(turn)).toBe(false);
    finish();
    await live;
    expect(await settledNow(turn)).toBe(true);

    // Live work that goes on: the turn comes after LIVE_PAUSE_MS all the same.
    const long = asLiveWork(() => new Promise<void>((resolve) => (finish = resolve)));
    const capped = backgroundTurn();
    await vi.advanceTimersByTimeAsync(LIVE_PAUSE_MS - 1);
    expect(await settledNow(capped)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledNow(capped)).toBe(true);
    finish();
    await long;
    // No live work left: at once again; and a failed live work ends too.
    await expect(asLiveWork(() => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect(await settledNow(backgroundTurn())).toBe(true);
  });

  it('stops waiting as soon as `stop` says so', async () => {
    let stopped = false;
    noteInteraction();
    const turn = backgroundTurn(() => stopped);
    expect(await settledNow(turn)).toBe(false);
    stopped = true;
    noteInteraction(); // the next look, at the end of this notice's wait at the latest, sees it
    await vi.advanceTimersByTimeAsync(ACTIVE_MS);
    expect(await settledNow(turn)).toBe(true);
  });
});

describe('a background time slicer gives way to the operator', () => {
  /** A slicer whose every yield() is a real yield (budget 0). */
  const slicer = (background: boolean, cancelled: () => string | null = () => null) => new TimeSlicer(0, cancelled, background);

  it('waits at its yield while the operator is active, and goes on once they are idle', async () => {
    noteInteraction();
    const background = slicer(true).yield();
    const foreground = slicer(false).yield();
    expect(await settledNow(foreground)).toBe(true);
    expect(await settledNow(background)).toBe(false);
    await vi.advanceTimersByTimeAsync(ACTIVE_MS);
    expect(await settledNow(background)).toBe(true);
  });

  it('runs one slice after MAX_PAUSE_MS of continuous scrolling, then waits again', async () => {
    const work = slicer(true);
    noteInteraction();
    const scrolling = setInterval(noteInteraction, 100);
    const first = work.yield();
    await vi.advanceTimersByTimeAsync(MAX_PAUSE_MS);
    expect(await settledNow(first)).toBe(true);
    expect(work.yields).toBe(1);
    // The next yield waits again from its start.
    const second = work.yield();
    await vi.advanceTimersByTimeAsync(MAX_PAUSE_MS - 1);
    expect(await settledNow(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledNow(second)).toBe(true);
    clearInterval(scrolling);
  });

  it('a cancelled slicer stops waiting and throws SliceCancelled', async () => {
    let closed: string | null = null;
    noteInteraction();
    const scrolling = setInterval(noteInteraction, 100);
    const waiting = slicer(true, () => closed).yield();
    const outcome = waiting.then(
      () => 'went on',
      (error: unknown) => (error instanceof SliceCancelled ? 'cancelled' : String(error)),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await settledNow(waiting)).toBe(false);
    closed = 'knowledge service closed';
    await vi.advanceTimersByTimeAsync(ACTIVE_MS);
    expect(await outcome).toBe('cancelled');
    clearInterval(scrolling);
  });
});
