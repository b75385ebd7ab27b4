import type { RowRange } from './row-slots';

/**
 * Which recycled slots (VirtualTable's blocks of rows) to move and rewrite, and when. A block that
 * entered the window used to be rewritten in the frame that scrolled to it: about 1 ms of script,
 * style and layout a row, the p95 of a scrolled frame. Here a slot is rewritten at once only when
 * its block is in view (the operator must never see another row's content); a slot wanted for
 * the overscan keeps what it showed until an idle period rewrites it, nearest the view first, so
 * the script and layout run between frames and the frame after pays only the paint.
 *
 * A whole slot, not a few rows, per idle period: any change inside the scroller costs a frame
 * its pre-paint, paint and layerization of every row (about 3 ms in software rendering however
 * few rows changed), so rows rewritten a few at a time made every frame pay that (p50 1.5 →
 * 6.3 ms per frame, measured), where blocks make one frame in two or three pay it.
 *
 * During a fling (see `ScrollPace`) even the slots in view are not rewritten: each is marked
 * pending (it shows empty) and filled once the scrolling settles, nearest first.
 */
export interface IdleDeadlineLike {
  timeRemaining(): number;
  /** The idle callback ran because its timeout passed (a busy thread): its slots are written anyway. */
  didTimeout?: boolean;
}

export interface SlotFillHost {
  /** Moves and rewrites slot `slot` to show block `block` (-1: nothing). */
  write(slot: number, block: number): void;
  /** Shows slot `slot` as pending (empty) or not. */
  setPending(slot: number, pending: boolean): void;
  /** Runs `work` in a coming idle period (requestIdleCallback). */
  requestIdle(work: (deadline: IdleDeadlineLike) => void): void;
  now(): number;
}

export interface SlotFillOptions {
  /** Slots rewritten in one idle period at most: their paint lands in the next frame. */
  slotsPerIdle: number;
  /** An idle period with less time left than this rewrites nothing more. */
  minIdleMs: number;
  /** After a fling, pending rows wait until no scrolling for this long. */
  settleMs: number;
}

export const SLOT_FILL_DEFAULTS: SlotFillOptions = { slotsPerIdle: 1, minIdleMs: 2, settleMs: 80 };

/** How far block `index` is from the blocks in view (0 inside it); an empty slot (-1) comes last. */
export function distanceFromView(index: number, view: RowRange): number {
  if (index < 0) return Number.POSITIVE_INFINITY;
  if (index < view.start) return view.start - index;
  if (index >= view.end) return index - view.end + 1;
  return 0;
}

export class SlotFiller {
  private wanted: number[] = [];
  private shown: number[] = [];
  private pending: boolean[] = [];
  private view: RowRange = { start: 0, end: 0 };
  private idleRequested = false;
  private deferredAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly host: SlotFillHost,
    private readonly options: SlotFillOptions = SLOT_FILL_DEFAULTS,
  ) {}

  /** What slot `slot` shows now. */
  shownAt(slot: number): number {
    return this.shown[slot] ?? -1;
  }

  /**
   * The window moved (or the list changed): `wanted[slot]` is the block each slot should show
   * (-1: none), `view` the blocks in view (no overscan). `defer` (a fling) leaves those pending.
   */
  update(wanted: readonly number[], view: RowRange, defer = false): void {
    this.view = view;
    if (defer) this.deferredAt = this.host.now();
    let stale = false;
    for (let slot = 0; slot < wanted.length; slot++) {
      const block = wanted[slot]!;
      this.wanted[slot] = block;
      if (this.shown[slot] === undefined) this.shown[slot] = -1;
      if (this.shown[slot] === block) {
        this.markPending(slot, false);
        continue;
      }
      // A slot emptied (it hides) or wanted in view is rewritten now, unless a fling defers the
      // ones in view: those show empty until an idle period after the fling fills them.
      const inView = distanceFromView(block, view) === 0;
      if (block < 0 || (inView && !defer && !this.pending[slot])) {
        this.writeSlot(slot);
        continue;
      }
      if (inView) this.markPending(slot, true);
      stale = true;
    }
    this.wanted.length = wanted.length;
    if (stale) this.scheduleIdle();
  }

  /** Slots still to rewrite, nearest the view first. */
  staleSlots(): number[] {
    const slots: number[] = [];
    for (let slot = 0; slot < this.wanted.length; slot++) if (this.shown[slot] !== this.wanted[slot]) slots.push(slot);
    return slots.sort((a, b) => distanceFromView(this.wanted[a]!, this.view) - distanceFromView(this.wanted[b]!, this.view));
  }

  private idle(deadline: IdleDeadlineLike): void {
    this.idleRequested = false;
    const stale = this.staleSlots();
    if (stale.length === 0) return;
    // Still flinging: filling slots now would only paint rows about to scroll away.
    if (this.host.now() - this.deferredAt < this.options.settleMs) {
      this.scheduleIdle();
      return;
    }
    let written = 0;
    for (const slot of stale) {
      if (written >= this.options.slotsPerIdle || (!deadline.didTimeout && deadline.timeRemaining() < this.options.minIdleMs)) break;
      this.writeSlot(slot);
      written++;
    }
    if (written < stale.length) this.scheduleIdle();
  }

  private writeSlot(slot: number): void {
    this.shown[slot] = this.wanted[slot]!;
    this.host.write(slot, this.shown[slot]);
    this.markPending(slot, false);
  }

  private markPending(slot: number, pending: boolean): void {
    if (!!this.pending[slot] === pending) return;
    this.pending[slot] = pending;
    this.host.setPending(slot, pending);
  }

  private scheduleIdle(): void {
    if (this.idleRequested) return;
    this.idleRequested = true;
    this.host.requestIdle((deadline) => this.idle(deadline));
  }
}

/**
 * Tells a fling from reading and from a jump: two scroll events in a row, each within `withinMs`
 * of the one before, that each moved more than `rows` rows. A single jump (Page Down, a click on
 * the scrollbar, scrolling to a selected row) still shows its rows at once.
 */
export class ScrollPace {
  private lastStart: number | undefined;
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastWasJump = false;

  constructor(
    private readonly rows: number,
    private readonly withinMs = 100,
  ) {}

  /** Notes the first row in view at time `now`; true when the view is flinging. */
  note(start: number, now: number): boolean {
    const jump = this.lastStart !== undefined && Math.abs(start - this.lastStart) > this.rows;
    const fling = jump && this.lastWasJump && now - this.lastAt <= this.withinMs;
    if (start !== this.lastStart) {
      this.lastWasJump = jump;
      this.lastAt = now;
    }
    this.lastStart = start;
    return fling;
  }
}
