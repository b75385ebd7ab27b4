import { createContext, createMemo, createSignal, onCleanup, useContext, type Accessor } from 'solid-js';
import type { ConsoleApi } from '../../../shared/contract';
import { freshnessOf, initialFreshness, reduceFreshness, sourceOf, type FreshnessAction, type FreshnessSource, type FreshnessState } from './freshness-reducer';

/**
 * Signals that arrive within this long of the first are applied in one step: a burst of appends
 * (an ingest, a rewrite of the whole store) refreshes each query once, and a steady flood still
 * refreshes every FLUSH_MS instead of waiting for a quiet moment that may not come.
 */
const FLUSH_MS = 250;

export interface Freshness {
  /** The counters as of the last flush (see freshness-reducer.ts). */
  state: Accessor<FreshnessState>;
  /** Keeps `source`'s subscription open until the returned release is called. */
  hold(source: FreshnessSource): () => void;
}

/**
 * The page's one view of store changes: a single `stores.changes` subscription for as long as
 * the page lives (and `receipts.changes` while a view of verified receipts is on screen), whose
 * events and resubscriptions go through the pure reducer. Views never subscribe themselves.
 */
export function createFreshness(api: ConsoleApi): Freshness {
  const [state, setState] = createSignal(initialFreshness);
  let pending: FreshnessAction[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const actions = pending;
    pending = [];
    setState((current) => actions.reduce(reduceFreshness, current));
  };
  const dispatch = (action: FreshnessAction) => {
    pending.push(action);
    timer ??= setTimeout(flush, FLUSH_MS);
  };

  const subscribe: Record<FreshnessSource, () => () => void> = {
    stores: () =>
      api.subscribe('stores.changes', {}, (event) => dispatch({ type: 'store-changed', storeKey: event.storeKey }), () => dispatch({ type: 'resync', source: 'stores' })),
    receipts: () => api.subscribe('receipts.changes', {}, () => dispatch({ type: 'receipts-verified' }), () => dispatch({ type: 'resync', source: 'receipts' })),
  };
  const holders: Record<FreshnessSource, number> = { stores: 0, receipts: 0 };
  const stops: Partial<Record<FreshnessSource, () => void>> = {};
  const hold = (source: FreshnessSource) => {
    if (holders[source]++ === 0) stops[source] = subscribe[source]();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--holders[source] === 0) {
        stops[source]?.();
        delete stops[source];
      }
    };
  };

  const releaseStores = hold('stores');
  onCleanup(() => {
    releaseStores();
    clearTimeout(timer);
  });
  return { state, hold };
}

export const FreshnessContext = createContext<Freshness>();

/**
 * A number that grows whenever one of `stores` may have changed (a store key or its family, see
 * `covers`). Queries and tables depend on it to refresh; the caller's lifetime keeps the sources open.
 */
export function useFresh(stores: readonly string[]): Accessor<number> {
  if (stores.length === 0) return () => 0;
  const freshness = useContext(FreshnessContext);
  if (!freshness) throw new Error('useFresh() outside <FreshnessContext.Provider>');
  for (const source of new Set(stores.map(sourceOf))) onCleanup(freshness.hold(source));
  return createMemo(() => freshnessOf(freshness.state(), stores));
}
