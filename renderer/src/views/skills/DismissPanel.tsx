import { createSignal, onMount, Show, type JSX } from 'solid-js';
import type { QueueItem } from '../../../../shared/contract/skills';

/**
 * The reason for dismissing a queue item that has no store-writing decision. Enter records
 * "reviewed — dismissed: <reason>" in the console's user data (never a plugin store); Esc goes back.
 */
export function DismissPanel(props: { item: QueueItem; dismiss: (reason: string) => Promise<void>; onCancel: () => void }): JSX.Element {
  const [reason, setReason] = createSignal('');
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  let input: HTMLInputElement | undefined;
  onMount(() => input?.focus());
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!reason().trim()) return setError('Say why it needs nothing more (it is kept with the dismissal).');
    setBusy(true);
    setError(null);
    try {
      await props.dismiss(reason().trim());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="decision-preview" data-testid="dismiss-panel" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), props.onCancel())}>
      <h4>Dismiss: {props.item.title}</h4>
      <p class="muted">This item has no decision that writes a store. Dismissing records “reviewed — dismissed: your reason” in the console’s own data; it comes back if the item changes.</p>
      <label>
        Reason{' '}
        <input ref={input} data-testid="dismiss-reason" maxLength={500} value={reason()} onInput={(e) => setReason(e.currentTarget.value)} disabled={busy()} />
      </label>
      <button type="submit" class="primary" disabled={busy()}>
        Dismiss
      </button>
      <Show when={error()}>
        <p class="error" data-testid="dismiss-error">
          {error()}
        </p>
      </Show>
    </form>
  );
}
