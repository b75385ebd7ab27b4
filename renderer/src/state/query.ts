import { createComputed, createResource, createSignal, on, untrack, type Resource } from 'solid-js';
import type { CallName, ConsoleApi, Input, Output } from '../../../shared/contract';
import { useApi } from '../api/port';
import { useFresh } from './freshness';
import { createSharedCalls, type SharedCall } from './shared-calls';
import { useWorkspace } from './workspace';

export interface Query<T> {
  data: Resource<T>;
  refetch: () => void;
}

const sharedCalls = new WeakMap<ConsoleApi, SharedCall>();
const sharedFor = (api: ConsoleApi) => sharedCalls.get(api) ?? sharedCalls.set(api, createSharedCalls()).get(api)!;

/**
 * A contract query as a Solid resource that stays fresh by declaration: it refetches when its
 * input changes, when another workspace is opened, and when one of `stores` changes (see
 * freshness.ts). Returning `false` from `input` pauses it.
 *
 * Store changes that land while this query's request is in flight ask for one more request after
 * it, not one beside it: during an ingest or the model's warm-up the core answers in seconds while
 * changes arrive every quarter second, and requests piled up in its queue. Identical requests of
 * several panels at the same freshness (queries that declare stores) share one answer. The last answer stays shown meanwhile.
 */
export function freshQuery<K extends CallName>(stores: readonly string[], name: K, input: () => Input<K> | false): Query<Output<K>> {
  const api = useApi();
  const workspace = useWorkspace();
  const fresh = useFresh(stores);
  const shared = sharedFor(api);
  const [asked, setAsked] = createSignal(untrack(fresh));
  let inFlight = 0;
  createComputed(on(fresh, (changes) => inFlight === 0 && setAsked(changes), { defer: true }));
  const [data, { refetch }] = createResource(
    () => {
      const value = input();
      return value === false ? false : { value, epoch: workspace.epoch(), fresh: asked() };
    },
    async ({ value, epoch, fresh: at }, { refetching }): Promise<Output<K>> => {
      inFlight++;
      try {
        // An explicit refetch (after the operator's own action) never joins a request asked before it.
        if (refetching || stores.length === 0) return await api.call(name, value);
        return await shared(`${name}|${epoch}|${at}|${JSON.stringify(value)}`, () => api.call(name, value));
      } finally {
        inFlight--;
        if (inFlight === 0) setAsked(untrack(fresh));
      }
    },
  );
  return { data, refetch: () => void refetch() };
}

/** A query no store change makes stale (settings, availability, answers to the operator's own actions). */
export function createQuery<K extends CallName>(name: K, input: () => Input<K> | false): Query<Output<K>> {
  return freshQuery([], name, input);
}
