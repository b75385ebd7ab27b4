import { createEffect, For, Show, type JSX } from 'solid-js';
import type { QueueItem } from '../../../../shared/contract/skills';
import { useApi } from '../../api/port';
import { createQuery } from '../../state/query';
import { ConfirmBox } from '../../components/ConfirmBox';
import { createHumanFlow } from '../../state/human-flow';

type Command = NonNullable<QueueItem['command']>;

const COMMIT = { 'swarm.promote.preview': 'swarm.promote.commit', 'swarm.quarantine.preview': 'swarm.quarantine.commit', 'swarm.archive.preview': 'swarm.archive.commit', 'hive.quarantine.preview': 'hive.quarantine.commit' } as const;

/**
 * Acting on a curator recommendation through the human-only command that exists for it
 * (promote, archive, quarantine): the same preview → confirmation → result as in the Hive view.
 */
export function CommandPanel(props: { command: Command; onDone: () => void }): JSX.Element {
  const api = useApi();
  const availability = createQuery('human.availability', () => ({}));
  const flow = createHumanFlow(api, props.command.preview, COMMIT[props.command.preview], props.onDone);
  let root: HTMLElement | undefined;
  void flow.start(props.command.preview === 'swarm.promote.preview' ? { id: props.command.id } : { ids: [props.command.id] });
  createEffect(() => {
    if (flow.preview()) queueMicrotask(() => root?.querySelector<HTMLTextAreaElement>('[data-testid="confirm-reason"]')?.focus());
  });
  const disabled = () => (availability.data() && !availability.data()?.enabled ? (availability.data()?.reason ?? 'Human-only commands are disabled here.') : null);
  const preview = () => flow.preview() as { token12: string; entries: { id: string; lesson: string; status: string | null }[]; effects?: string[] } | null;
  return (
    <section class="decision-preview" data-testid="command-panel" ref={root}>
      <h4>
        {props.command.label}: <span class="mono">{props.command.id}</span>
      </h4>
      <Show when={flow.error()}>
        <p class="error" data-testid="decision-error">
          {flow.error()}
        </p>
      </Show>
      {/* Keyed: children get the value, never a narrowed accessor that the commit leaves stale. */}
      <Show when={preview()} keyed>
        {(preview) => { const p = () => preview; return (
          <>
            <ul>
              <For each={p().entries}>
                {(e) => (
                  <li>
                    <span class="mono">{e.id}</span> ({e.status ?? 'no status'}) — {e.lesson}
                  </li>
                )}
              </For>
            </ul>
            <Show when={p().effects?.length}>
              <ul data-testid="command-effects">
                <For each={p().effects}>{(effect) => <li>{effect}</li>}</For>
              </ul>
            </Show>
            <p class="muted mono">token {p().token12}</p>
            <ConfirmBox mode={availability.data()?.mode === 'dialog' ? 'dialog' : 'code'} action={props.command.label} busy={flow.busy()} codeRequested={flow.codeRequested()} disabled={disabled()} onRequestCode={() => flow.requestCode()} onCommit={(reason, code) => flow.commit(reason, code)} onCancel={() => flow.cancel()} />
          </>
        ); }}
      </Show>
      <Show when={flow.result() as { state: string; messages: string[]; token12: string; backup: string | null } | null} keyed>
        {(result) => { const r = () => result; return (
          <section class="write-result" data-testid="command-result" role="status" tabIndex={-1} ref={(el) => queueMicrotask(() => el.focus())}>
            <h3>{r().state.replace(/_/g, ' ')}</h3>
            <For each={r().messages}>{(m) => <p>{m}</p>}</For>
            <p class="muted mono">
              token {r().token12}
              {r().backup ? ` · backup ${r().backup}` : ''}
            </p>
            <button type="button" onClick={() => flow.clearResult()}>
              Done
            </button>
          </section>
        ); }}
      </Show>
    </section>
  );
}
