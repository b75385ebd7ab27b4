/**
 * How fresh each store is, as far as the page knows: a pure reducer from pushed change events
 * (and "the stream broke and came back" signals) to counters that only grow. A query that
 * declares the stores it reads refetches when their counters move; nothing else decides.
 */

/**
 * The receipts service verifies the receipt files again after they change and only then pushes
 * `receipts.changes`; queries of verified receipts follow this name, not the raw files.
 */
export const VERIFIED_RECEIPTS = 'receipts.verified';

/** Where change signals come from: `stores.changes` (every store file) or `receipts.changes`. */
export type FreshnessSource = 'stores' | 'receipts';

export type FreshnessAction =
  | { type: 'store-changed'; storeKey: string }
  | { type: 'receipts-verified' }
  /** The source's stream was interrupted and is back: any store it covers may have changed meanwhile. */
  | { type: 'resync'; source: FreshnessSource };

export interface FreshnessState {
  /** Changes seen per store key (`knowledge`, `hive-rejected`, …) and for VERIFIED_RECEIPTS. */
  readonly stores: Readonly<Record<string, number>>;
  /** Resubscriptions per source. */
  readonly resyncs: Readonly<Record<FreshnessSource, number>>;
}

export const initialFreshness: FreshnessState = { stores: {}, resyncs: { stores: 0, receipts: 0 } };

const bump = (counters: Readonly<Record<string, number>>, key: string) => ({ ...counters, [key]: (counters[key] ?? 0) + 1 });

export function reduceFreshness(state: FreshnessState, action: FreshnessAction): FreshnessState {
  switch (action.type) {
    case 'store-changed':
      return { ...state, stores: bump(state.stores, action.storeKey) };
    case 'receipts-verified':
      return { ...state, stores: bump(state.stores, VERIFIED_RECEIPTS) };
    case 'resync':
      return { ...state, resyncs: bump(state.resyncs, action.source) as FreshnessState['resyncs'] };
  }
}

/** The source whose events and resyncs tell a store's freshness. */
export const sourceOf = (store: string): FreshnessSource => (store === VERIFIED_RECEIPTS ? 'receipts' : 'stores');

/**
 * A declared name covers the store of that key and its family: `knowledge` covers
 * `knowledge-rejected`, `knowledge-events`…, `hive` covers `hive-quarantined`…; `skill` does not
 * cover `skills-generated` (declare `skills` for that).
 */
export const covers = (declared: string, storeKey: string): boolean => storeKey === declared || storeKey.startsWith(`${declared}-`);

/** One number for a set of declared stores: it grows whenever any of them may have changed. */
export function freshnessOf(state: FreshnessState, declared: readonly string[]): number {
  let total = 0;
  const sources = new Set(declared.map(sourceOf));
  for (const source of sources) total += state.resyncs[source];
  for (const [key, changes] of Object.entries(state.stores)) if (declared.some((name) => covers(name, key))) total += changes;
  return total;
}
