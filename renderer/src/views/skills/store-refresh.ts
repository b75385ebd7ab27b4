import { onCleanup } from 'solid-js';
import type { ConsoleApi } from '../../../../shared/contract';

/** Stores whose change can alter what the Skills area shows (skill files, curator outputs, knowledge). */
const RELEVANT = /skill|curator|insight|drift|knowledge|shared-learnings|events/;

/** Calls `refresh` (debounced) when a store the Skills area reads changes on disk. */
export function onSkillStoresChange(api: ConsoleApi, refresh: () => void, delayMs = 400): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, delayMs);
  };
  // A resync (the stream broke and came back) may have missed changes: refresh then too.
  const stop = api.subscribe('stores.changes', {}, (event) => (RELEVANT.test(event.storeKey) || RELEVANT.test(event.file)) && schedule(), schedule);
  onCleanup(() => {
    clearTimeout(timer);
    stop();
  });
}
