import { For, Show } from 'solid-js';
import type { FeedItem } from '../../../../shared/contract/live';
import { DirectiveCard } from './DirectiveCard';
import { OUTCOME_LABEL } from './feed-state';
import { when } from '../../state/format';

const row = (label: string, value: string | null | undefined) => (
  <Show when={value}>
    <dt>{label}</dt>
    <dd class="mono">{value}</dd>
  </Show>
);

/** One feed item in full: the message as text, where it came from, the directives it names and what the session did next. */
export function DenialDetail(props: { item: FeedItem; onJump: (target: 'entry' | 'receipts' | 'skills', id: string) => void; onFilterSession: (id: string) => void }) {
  const extra = () => Object.entries(props.item.extra).filter(([key]) => key !== 'event');
  return (
    <aside class="panel live-detail" aria-label="Denial detail" data-testid="denial-detail">
      <h3>
        {props.item.kind} · <span class="mono">{props.item.gate}</span>
        <Show when={props.item.code}> [{props.item.code}]</Show>
      </h3>
      <dl class="live-facts">
        {row('time', when(props.item.time))}
        {row('tool', props.item.tool)}
        {row('session', props.item.sessionID)}
        {row('agent', props.item.agent)}
        {row('call', props.item.callID)}
        {row('message', props.item.messageID)}
        {row('project', props.item.directory)}
        {row('seen in', `${props.item.sources.join(' + ')}${props.item.replayed ? ' (caught up after a disconnect)' : ''}`)}
      </dl>
      <Show when={props.item.sessionID}>
        <button type="button" class="link-button" onClick={() => props.onFilterSession(props.item.sessionID!)}>
          Only this session
        </button>
      </Show>
      <pre class="live-message" data-testid="denial-message">{props.item.message}</pre>
      <Show when={props.item.input}>
        <details>
          <summary>Arguments the model sent</summary>
          <pre>{props.item.input}</pre>
        </details>
      </Show>
      <Show when={props.item.followUp}>
        {(f) => (
          <section class="live-followup" data-testid="follow-up">
            <h4>What the session did next</h4>
            <p>
              <b>{OUTCOME_LABEL[f().outcome]}</b>
              {f().acknowledged.length ? ` · answered with ${f().acknowledged.join(', ')}` : ' · no answer marker seen'}
            </p>
            <ol class="small">
              <For each={f().actions}>{(a) => <li>{`${when(a.time)} — ${a.text}`}</li>}</For>
            </ol>
          </section>
        )}
      </Show>
      <Show when={extra().length}>
        <dl class="live-facts small">
          <For each={extra()}>
            {([key, value]) => (
              <>
                <dt>{key}</dt>
                <dd class="mono">{Array.isArray(value) ? value.join(', ') : String(value)}</dd>
              </>
            )}
          </For>
        </dl>
      </Show>
      <h4>Directives named</h4>
      <For each={props.item.directiveIds} fallback={<p class="muted small">The message names no directive.</p>}>
        {(id) => <DirectiveCard id={id} onJump={props.onJump} />}
      </For>
    </aside>
  );
}
