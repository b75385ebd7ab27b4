import { createEffect, on, onCleanup, type Accessor } from 'solid-js';
import type { ConsoleApi } from '../../../shared/contract';

/** At most one notice this often: the console keeps the operator active for 300 ms after each (core foreground.ts). */
export const NOTICE_GAP_MS = 200;
/**
 * At most one notice this often once the console answered that it has no background work to hold
 * back: each notice costs the page's main thread about a millisecond, for nothing while the console
 * is quiet. Its answer saying it has work, a store change or another workspace brings back NOTICE_GAP_MS.
 */
export const IDLE_NOTICE_GAP_MS = 2000;

/**
 * What counts as the operator scrolling: `scroll` on any element (caught while capturing, as it
 * does not bubble; wheel, keys, scrollbar drags and touch all end in one) and `wheel` (also at an
 * end of the list, where nothing scrolls). Clicks and typing are left out on purpose: they ask for
 * answers the operator then waits for, which must not wait behind background work made to pause.
 */
const SCROLLING_EVENTS = ['scroll', 'wheel'] as const;

export interface ScrollingNotice {
  /** Sends a notice unless one went out less than the current gap ago. */
  notice(): void;
  /** Something may have started background work (a store changed, another workspace): back to NOTICE_GAP_MS. */
  wake(): void;
}

/**
 * `send` at most once per gap, fire-and-forget, any failure ignored (a notice is only a hint). The
 * gap is NOTICE_GAP_MS, or IDLE_NOTICE_GAP_MS after the console answered `backgroundWork: false`
 * and nothing woke it since that notice went out.
 */
export function throttledNotice(send: () => Promise<{ backgroundWork: boolean }>, now: () => number = () => performance.now()): ScrollingNotice {
  let last = Number.NEGATIVE_INFINITY;
  let gap = NOTICE_GAP_MS;
  /** Counts wakes, so an answer to a notice sent before the latest wake cannot space notices out. */
  let wakes = 0;
  const answered = (sentAfterWakes: number, backgroundWork: boolean) => {
    if (sentAfterWakes === wakes) gap = backgroundWork ? NOTICE_GAP_MS : IDLE_NOTICE_GAP_MS;
  };
  return {
    notice() {
      const at = now();
      if (at - last < gap) return;
      last = at;
      const sentAfterWakes = wakes;
      try {
        send().then(
          (answer) => answered(sentAfterWakes, answer.backgroundWork !== false),
          () => answered(sentAfterWakes, true),
        );
      } catch {
        // An adapter that throws before its promise exists: still only a hint.
        answered(sentAfterWakes, true);
      }
    },
    wake() {
      wakes++;
      gap = NOTICE_GAP_MS;
    },
  };
}

/** Calls `notice` on every scrolling event under `target`; returns the function that stops it. */
export function watchScrolling(target: EventTarget, notice: () => void): () => void {
  const options = { capture: true, passive: true };
  for (const type of SCROLLING_EVENTS) target.addEventListener(type, notice, options);
  return () => {
    for (const type of SCROLLING_EVENTS) target.removeEventListener(type, notice, options);
  };
}

/**
 * Tells the console, throttled, while the operator scrolls anywhere in the app (its warm-up then
 * gives way); `changes` are the page's signals that background work may have started.
 */
export function useScrollingNotice(api: ConsoleApi, changes: Accessor<unknown>): void {
  const notices = throttledNotice(() => api.call('ui.interacting', {}));
  createEffect(on(changes, () => notices.wake(), { defer: true }));
  onCleanup(watchScrolling(document, () => notices.notice()));
}
