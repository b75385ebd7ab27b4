import { Show, type JSX } from 'solid-js';
import type { Query } from '../state/query';
import { LoadFailure } from './LoadFailure';

/** A query's value, its error (with a way to ask again), or that it is loading. */
export function Loaded<T>(props: { query: Query<T>; children: (value: T) => JSX.Element }): JSX.Element {
  return (
    <Show when={!props.query.data.error} fallback={<LoadFailure error={props.query.data.error} retry={props.query.refetch} />}>
      <Show when={props.query.data()} keyed fallback={<p class="muted">Loading…</p>}>
        {(value) => props.children(value)}
      </Show>
    </Show>
  );
}
