import { createEffect, createSignal, onCleanup, untrack, type Accessor } from 'solid-js';
import { ConsoleError } from '../../../shared/contract';

/** The first automatic retry after a failure, then doubled per failure, never longer than the cap. */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 30_000;

/** How long to wait before the `failures`-th automatic retry (1-based). */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * Whether asking again can help without the operator doing anything: only when the console host
 * did not answer or was busy (`unavailable`). A refusal, a validation error or a missing entry
 * answers the same the next time, so retrying it on a timer would only hide the message.
 */
export function retriesOnItsOwn(error: unknown): boolean {
  return error instanceof ConsoleError && error.code === 'unavailable';
}

export interface Retry {
  /** Seconds until the next automatic retry, or null when none is scheduled. */
  secondsLeft: Accessor<number | null>;
  /** Asks again now (the operator's button); the automatic schedule restarts from the next failure. */
  now(): void;
}

/**
 * Retries a failed load on its own while the failure is one that can pass (`retriesOnItsOwn`),
 * backing off 2 s, 4 s, 8 s … 30 s per round (failures that arrive while a retry is scheduled
 * join it); a success (no error) resets the back-off. `error` must change identity on every
 * failure (a resource's error, a fresh Error per failed call).
 */
export function createRetry(error: Accessor<unknown>, retry: () => void): Retry {
  const [due, setDue] = createSignal<number | null>(null);
  const [clock, setClock] = createSignal(Date.now());
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearTimeout(timer);
    clearInterval(ticker);
    timer = ticker = undefined;
    setDue(null);
  };
  const fire = () => {
    stop();
    retry();
  };
  createEffect(() => {
    const failure = error();
    untrack(() => {
      if (!failure) {
        stop();
        failures = 0;
        return;
      }
      if (!retriesOnItsOwn(failure)) return stop();
      // Several requests of one round failing (a table's blocks) keep the retry already scheduled.
      if (timer !== undefined) return;
      const wait = retryDelayMs(++failures);
      setClock(Date.now());
      setDue(Date.now() + wait);
      timer = setTimeout(fire, wait);
      ticker = setInterval(() => setClock(Date.now()), 1_000);
    });
  });
  onCleanup(stop);
  return {
    secondsLeft: () => {
      const at = due();
      return at === null ? null : Math.max(0, Math.ceil((at - clock()) / 1_000));
    },
    now: fire,
  };
}
