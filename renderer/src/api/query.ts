import { createResource, type Resource } from 'solid-js';
import type { CallName, Input, Output } from '../../../shared/contract';
import { useWorkspace } from '../state/workspace';
import { useApi } from './port';

export interface Query<T> {
  data: Resource<T>;
  refetch: () => void;
}

/**
 * A contract query as a Solid resource. It refetches when its input changes and when another
 * workspace is opened; returning `false` from `input` pauses it.
 */
export function createQuery<K extends CallName>(name: K, input: () => Input<K> | false): Query<Output<K>> {
  const api = useApi();
  const workspace = useWorkspace();
  const [data, { refetch }] = createResource(
    () => {
      const value = input();
      return value === false ? false : { value, epoch: workspace.epoch() };
    },
    ({ value }) => api.call(name, value),
  );
  return { data, refetch: () => void refetch() };
}
