import { onCleanup } from 'solid-js';
import type { ConsoleApi } from '../../../shared/contract';

/** At most one notice this often: the console keeps the operator active for 300 ms after each (core foreground.ts). */
export const NOTICE_GAP_MS = 200;

/**
 * What counts as the operator scrolling: `scroll` on any element (caught while capturing, as it
 * does not bubble; wheel, keys, scrollbar drags and touch all end in one) and `wheel` (also at an
 * end of the list, where nothing scrolls). Clicks and typing are left out on purpose: they ask for
 * answers the operator then waits for, which must not wait behind background work made to pause.
 */
const SCROLLING_EVENTS = ['scroll', 'wheel'] as const;

/** `send` at most once per `gapMs`; fire-and-forget, any failure ignored (a notice is only a hint). */
export function throttledNotice(send: () => Promise<unknown>, now: () => number = () => performance.now(), gapMs = NOTICE_GAP_MS): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    if (at - last < gapMs) return;
    last = at;
    try {
      send().catch(() => undefined);
    } catch {
      // An adapter that throws before its promise exists: still only a hint.
    }
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

/** Tells the console, throttled, while the operator scrolls anywhere in the app (its warm-up then gives way). */
export function useScrollingNotice(api: ConsoleApi): void {
  onCleanup(watchScrolling(document, throttledNotice(() => api.call('ui.interacting', {}))));
}
