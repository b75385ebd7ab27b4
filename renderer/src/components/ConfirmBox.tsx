import { createSignal, Show, type JSX } from 'solid-js';
import './writes/writes.css';

/**
 * The person's side of a commit: a reason, and in the browser host the code printed on the
 * terminal that runs `serve` (Electron asks with its own dialog when the button is pressed).
 */
export function ConfirmBox(props: {
  mode: 'dialog' | 'code';
  action: string;
  busy: boolean;
  codeRequested: boolean;
  disabled?: string | null;
  onRequestCode: () => void;
  onCommit: (reason: string, code: string | null) => void;
  onCancel: () => void;
}): JSX.Element {
  const [reason, setReason] = createSignal('');
  const [code, setCode] = createSignal('');
  const ready = () => reason().trim() !== '' && !props.busy && !props.disabled && (props.mode === 'dialog' || (props.codeRequested && /^\d{6}$/.test(code().trim())));
  return (
    <form
      class="confirm-box"
      data-testid="confirm-box"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready()) props.onCommit(reason().trim(), props.mode === 'code' ? code().trim() : null);
      }}
    >
      <label>
        Reason (goes into the audit logs)
        <textarea data-testid="confirm-reason" maxLength={500} rows={2} value={reason()} onInput={(e) => setReason(e.currentTarget.value)} />
      </label>
      <Show when={props.mode === 'code'}>
        <p class="muted">
          The console prints a one-time 6-digit code on the terminal that runs <code>swarm-console serve</code>, and only there. Three wrong codes cancel this preview.
        </p>
        <button type="button" data-testid="request-code" disabled={props.busy} onClick={() => props.onRequestCode()}>
          {props.codeRequested ? 'Print a new code' : 'Print the code on the terminal'}
        </button>
        <label>
          Code from the terminal
          <input data-testid="confirm-code" inputMode="numeric" autocomplete="off" maxLength={6} value={code()} onInput={(e) => setCode(e.currentTarget.value)} disabled={!props.codeRequested} />
        </label>
      </Show>
      <Show when={props.mode === 'dialog'}>
        <p class="muted">The console will ask you to confirm in its own dialog.</p>
      </Show>
      <Show when={props.disabled}>
        <p class="error">{props.disabled}</p>
      </Show>
      <div class="confirm-actions">
        <button type="submit" class="danger" data-testid="confirm-commit" disabled={!ready()}>
          {props.action}
        </button>
        <button type="button" onClick={() => props.onCancel()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
