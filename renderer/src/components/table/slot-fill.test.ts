import { describe, expect, it } from 'vitest';
import { distanceFromView, ScrollPace, SlotFiller, type IdleDeadlineLike, type SlotFillOptions } from './slot-fill';

/** A filler whose idle periods run only when the test says, with a clock the test moves. */
function harness(options: Partial<SlotFillOptions> = {}) {
  const writes: [number, number][] = [];
  const pending = new Map<number, boolean>();
  const idle: ((deadline: IdleDeadlineLike) => void)[] = [];
  let now = 0;
  const filler = new SlotFiller(
    {
      write: (slot, block) => writes.push([slot, block]),
      setPending: (slot, value) => pending.set(slot, value),
      requestIdle: (work) => idle.push(work),
      now: () => now,
    },
    { slotsPerIdle: 1, minIdleMs: 2, settleMs: 80, ...options },
  );
  return {
    filler,
    writes,
    pending,
    idleRequests: () => idle.length,
    /** Runs the idle work requested so far, with `ms` left in the period. */
    runIdle(ms = 10, didTimeout = false) {
      const work = idle.splice(0);
      for (const run of work) run({ timeRemaining: () => ms, didTimeout });
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('filling recycled slots', () => {
  it('rewrites a slot wanted in view at once and leaves the overscan to idle periods, nearest the view first', () => {
    const h = harness();
    // Slots 0–3 want blocks 10–13; blocks 11–12 are in view.
    h.filler.update([10, 11, 12, 13], { start: 11, end: 13 });
    expect(h.writes).toEqual([
      [1, 11],
      [2, 12],
    ]);
    expect(h.filler.staleSlots()).toEqual([0, 3]);
    expect(h.idleRequests()).toBe(1);
    h.runIdle();
    expect(h.writes.slice(2)).toEqual([[0, 10]]);
    // One slot an idle period: the next is asked for.
    expect(h.idleRequests()).toBe(1);
    h.runIdle();
    expect(h.writes.slice(3)).toEqual([[3, 13]]);
    expect(h.idleRequests()).toBe(0);
    expect(h.filler.shownAt(3)).toBe(13);
  });

  it('orders the overscan by distance from the view, whichever side it is on', () => {
    const h = harness({ slotsPerIdle: 10 });
    h.filler.update([20, 21, 22, 23, 24, 25], { start: 23, end: 24 });
    expect(h.filler.staleSlots()).toEqual([2, 4, 1, 5, 0]);
    h.runIdle();
    expect(h.writes.map(([slot]) => slot)).toEqual([3, 2, 4, 1, 5, 0]);
  });

  it('writes nothing more in an idle period that is nearly over, unless its timeout ran out', () => {
    const h = harness({ slotsPerIdle: 3 });
    h.filler.update([1, 2, 3], { start: 0, end: 0 });
    h.runIdle(1);
    expect(h.writes).toEqual([]);
    expect(h.idleRequests()).toBe(1);
    h.runIdle(0, true);
    expect(h.writes.length).toBe(3);
  });

  it('does not rewrite a slot that already shows its block, and empties a slot at once', () => {
    const h = harness();
    h.filler.update([4, 5], { start: 4, end: 6 });
    h.filler.update([4, 5], { start: 4, end: 6 });
    expect(h.writes).toEqual([
      [0, 4],
      [1, 5],
    ]);
    h.filler.update([4, -1], { start: 100, end: 101 });
    expect(h.writes.slice(2)).toEqual([[1, -1]]);
    expect(h.idleRequests()).toBe(0);
  });

  it('while flinging, leaves slots in view pending and fills them once the scrolling settled', () => {
    const h = harness({ slotsPerIdle: 5 });
    h.filler.update([0, 1], { start: 0, end: 2 });
    h.filler.update([40, 41], { start: 40, end: 42 }, true);
    expect(h.writes).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect([...h.pending]).toEqual([
      [0, true],
      [1, true],
    ]);
    // Still flinging (no settle yet): the idle period asks again instead of painting rows about to leave.
    h.advance(50);
    h.runIdle();
    expect(h.writes.length).toBe(2);
    expect(h.idleRequests()).toBe(1);
    // A slow scroll event meanwhile does not rewrite a pending slot at once either.
    h.filler.update([40, 41], { start: 40, end: 42 }, false);
    expect(h.writes.length).toBe(2);
    h.advance(40);
    h.runIdle();
    expect(h.writes.slice(2)).toEqual([
      [0, 40],
      [1, 41],
    ]);
    expect([...h.pending]).toEqual([
      [0, false],
      [1, false],
    ]);
  });

  it('clears a pending slot whose block comes back before it was rewritten', () => {
    const h = harness();
    h.filler.update([0], { start: 0, end: 1 });
    h.filler.update([40], { start: 40, end: 41 }, true);
    expect(h.pending.get(0)).toBe(true);
    h.filler.update([0], { start: 0, end: 1 }, true);
    expect(h.pending.get(0)).toBe(false);
    expect(h.writes).toEqual([[0, 0]]);
  });
});

describe('distance from the view', () => {
  it('is 0 inside, counts blocks outside, and puts an empty slot last', () => {
    const view = { start: 10, end: 12 };
    expect(distanceFromView(10, view)).toBe(0);
    expect(distanceFromView(11, view)).toBe(0);
    expect(distanceFromView(12, view)).toBe(1);
    expect(distanceFromView(8, view)).toBe(2);
    expect(distanceFromView(-1, view)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('telling a fling from reading and from a jump', () => {
  it('reading (a few rows an event) is never a fling', () => {
    const pace = new ScrollPace(16);
    for (let i = 0; i < 20; i++) expect(pace.note(i * 4, i * 16)).toBe(false);
  });

  it('a single jump shows its rows at once; a second one right after is a fling', () => {
    const pace = new ScrollPace(16);
    expect(pace.note(0, 0)).toBe(false);
    expect(pace.note(40, 16)).toBe(false);
    expect(pace.note(80, 32)).toBe(true);
    expect(pace.note(120, 48)).toBe(true);
    // Slowing down ends it.
    expect(pace.note(124, 64)).toBe(false);
  });

  it('two jumps far apart in time (Page Down, pressed twice) are not a fling', () => {
    const pace = new ScrollPace(16);
    pace.note(0, 0);
    expect(pace.note(36, 0)).toBe(false);
    expect(pace.note(72, 500)).toBe(false);
    expect(pace.note(72, 520)).toBe(false);
  });
});
