import { createEffect, onCleanup, Show, type JSX } from 'solid-js';
import type { Freshness } from '../../../shared/contract/knowledge';
import { when } from '../state/format';

/** How often a stale result is asked for again while the console recomputes it. */
const RECHECK_MS = 1000;

/**
 * Says plainly when a result was computed from an earlier state of the stores (the console
 * recomputes it in the background after a change); says nothing when it is current.
 */
export function FreshnessNote(props: { freshness: Freshness | undefined; what: string }): JSX.Element {
  return (
    <Show when={props.freshness?.stale ? props.freshness : undefined}>
      {(f) => (
        <p class="freshness" role="status" data-testid="freshness">
          {props.what} as of {when(f().asOf)} — {f().computing ? 'updating after a change to the stores…' : 'the stores changed since'}
        </p>
      )}
    </Show>
  );
}

/** Asks again every second while the result shown is stale, until a current one arrives. */
export function recheckWhileStale(freshness: () => Freshness | undefined, recheck: () => void): void {
  createEffect(() => {
    if (!freshness()?.stale) return;
    const timer = setTimeout(recheck, RECHECK_MS);
    onCleanup(() => clearTimeout(timer));
  });
}
