import { createSignal, Show } from 'solid-js';
import type { RepeatRule } from '../../../../shared/contract/live';
import { askNotificationPermission, notificationPermission } from './notifications';

/** The repeated-denial rule (N denials of one tool by one directive within a window) and notification permission. */
export function RulesPanel(props: { rule: RepeatRule | undefined; onSave: (rule: RepeatRule) => Promise<string | null> }) {
  const [permission, setPermission] = createSignal(notificationPermission());
  const [problem, setProblem] = createSignal<string | null>(null);
  let threshold!: HTMLInputElement;
  let windowMinutes!: HTMLInputElement;
  let enabled!: HTMLInputElement;

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    setProblem(await props.onSave({ enabled: enabled.checked, threshold: Number(threshold.value), windowMinutes: Number(windowMinutes.value) }));
  };

  return (
    <section class="panel live-rules" aria-label="Repeat notification">
      <h3>Notify on repeats</h3>
      <Show when={props.rule} fallback={<p class="muted">Loading…</p>}>
        {(rule) => (
          <form class="live-rule-form" onSubmit={save}>
            <label>
              <input ref={enabled} type="checkbox" checked={rule().enabled} /> notify when one directive blocks the same tool
            </label>
            <label>
              <input ref={threshold} aria-label="Repeat threshold" type="number" min="2" max="1000" value={rule().threshold} /> times within
              <input ref={windowMinutes} aria-label="Repeat window in minutes" type="number" min="1" max="1440" value={rule().windowMinutes} /> min
            </label>
            <button type="submit">Save rule</button>
          </form>
        )}
      </Show>
      <Show when={problem()}>
        <p class="error">{problem()}</p>
      </Show>
      <p class="small muted">
        Desktop notifications: {permission()}
        <Show when={permission() === 'default'}>
          {' '}
          <button type="button" class="link-button" onClick={async () => setPermission(await askNotificationPermission())}>
            Allow
          </button>
        </Show>
      </p>
    </section>
  );
}
