import { Show, type JSX } from 'solid-js';
import { operatorMessage } from '../state/error-text';
import { createRetry } from '../state/retry';

/**
 * What a view shows when loading failed: the reason, a way to ask again, and, when the console
 * host simply did not answer, that it is asked again on its own (and when). A flow never ends in
 * bare error text.
 */
export function LoadFailure(props: { error: unknown; retry: () => void; what?: string; testId?: string }): JSX.Element {
  const retry = createRetry(() => props.error, () => props.retry());
  return (
    <p class="error load-failure" role="alert" data-testid={props.testId ?? 'load-failure'}>
      {props.what ?? 'Could not load'}: {operatorMessage(props.error)}{' '}
      <Show when={retry.secondsLeft() !== null}>
        <span class="muted" data-testid="retry-countdown">
          Trying again in {retry.secondsLeft()} s.{' '}
        </span>
      </Show>
      <button type="button" class="link" onClick={() => retry.now()}>
        Try again now
      </button>
    </p>
  );
}
