import { createSignal, Show, type JSX } from 'solid-js';
import { useApi } from '../../api/port';

/** What the core puts where it masked a credential (main/core/platform/util/credentials.ts). */
const MASK = '•••';

/**
 * In the detail pane: the console shows credentials masked everywhere. "Reveal" asks the core for
 * this one entry's stored text (the reveal is recorded in the console's audit log, without the
 * text) and shows it until the pane closes or "Hide" is pressed.
 */
export function RevealCredentials(props: { id: string; store: string; masked: string }): JSX.Element {
  const api = useApi();
  const [revealed, setRevealed] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const reveal = async () => {
    setError(null);
    try {
      const entry = await api.call('stores.reveal', { id: props.id, store: props.store });
      setRevealed(entry.lesson ?? JSON.stringify(entry.raw));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Show when={props.masked.includes(MASK)}>
      <p class="reveal-credentials small" data-testid="detail-credentials">
        <Show
          when={revealed()}
          fallback={
            <>
              <span class="muted">Credentials in this lesson are masked. </span>
              <button type="button" data-testid="detail-reveal" onClick={() => void reveal()}>
                Reveal
              </button>
            </>
          }
        >
          {(text) => (
            <>
              <span class="lesson-text" data-testid="detail-revealed">
                {text()}
              </span>{' '}
              <button type="button" onClick={() => setRevealed(null)}>
                Hide
              </button>
            </>
          )}
        </Show>
        <Show when={error()}>{(message) => <span class="error"> {message()}</span>}</Show>
      </p>
    </Show>
  );
}
