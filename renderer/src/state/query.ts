import { createResource, type Resource } from 'solid-js';
import type { CallName, Input, Output } from '../../../shared/contract';
import { useApi } from '../api/port';
import { useFresh } from './freshness';
import { useWorkspace } from './workspace';

export interface Query<T> {
  data: Resource<T>;
  refetch: () => void;
}

/**
 * A contract query as a Solid resource that stays fresh by declaration: it refetches when its
 * input changes, when another workspace is opened, and when one of `stores` changes (see
 * freshness.ts). Returning `false` from `input` pauses it.
 */
export function freshQuery<K extends CallName>(stores: readonly string[], name: K, input: () => Input<K> | false): Query<Output<K>> {
  const api = useApi();
  const workspace = useWorkspace();
  const fresh = useFresh(stores);
  const [data, { refetch }] = createResource(
    () => {
      const value = input();
      return value === false ? false : { value, epoch: workspace.epoch(), fresh: fresh() };
    },
    ({ value }) => api.call(name, value),
  );
  return { data, refetch: () => void refetch() };
}

/** A query no store change makes stale (settings, availability, answers to the operator's own actions). */
export function createQuery<K extends CallName>(name: K, input: () => Input<K> | false): Query<Output<K>> {
  return freshQuery([], name, input);
}
