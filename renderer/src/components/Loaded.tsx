import { Show, type JSX } from 'solid-js';
import { operatorMessage } from '../state/error-text';
import type { Query } from '../state/query';

/** A query's value, its error, or that it is loading. */
export function Loaded<T>(props: { query: Query<T>; children: (value: T) => JSX.Element }): JSX.Element {
  return (
    <Show when={!props.query.data.error} fallback={<p class="error">Could not load: {operatorMessage(props.query.data.error)}</p>}>
      <Show when={props.query.data()} keyed fallback={<p class="muted">Loading…</p>}>
        {(value) => props.children(value)}
      </Show>
    </Show>
  );
}
