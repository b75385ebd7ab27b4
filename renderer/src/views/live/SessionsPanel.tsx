import { For, Show } from 'solid-js';
import type { SessionInfo } from '../../../../shared/contract/live';
import { plural } from '../../state/format';

const base = (dir: string | null) => (dir ? dir.split('/').filter(Boolean).at(-1) ?? dir : '—');

/**
 * Sessions of every connected server in the open project, newest first; choosing one filters the
 * feed. Sessions running in other project folders are counted (`elsewhere`, the same split the
 * Servers panel shows) and listed only on request, marked "another project".
 */
export function SessionsPanel(props: {
  sessions: SessionInfo[];
  selected: string | undefined;
  onSelect: (sessionID: string | null) => void;
  elsewhere: number;
  showingOthers: boolean;
  onShowOthers: (show: boolean) => void;
}) {
  const toggle = () => (
    <button type="button" class="link-button" data-testid="sessions-show-other" onClick={() => props.onShowOthers(!props.showingOthers)}>
      {props.showingOthers ? 'hide' : 'show'}
    </button>
  );
  return (
    <section class="panel live-sessions" aria-label="Sessions">
      <h3>Sessions</h3>
      <Show when={props.elsewhere > 0}>
        <p class="small muted" data-testid="sessions-elsewhere">
          {plural(props.elsewhere, 'session')} in another project — {toggle()}
        </p>
      </Show>
      <ul class="live-session-list">
        <For each={props.sessions} fallback={<li class="muted">{props.elsewhere > 0 ? 'No sessions in this project.' : 'No sessions yet.'}</li>}>
          {(session) => (
            <li>
              <button
                type="button"
                class="live-session"
                classList={{ selected: props.selected === session.id }}
                aria-pressed={props.selected === session.id}
                onClick={() => props.onSelect(props.selected === session.id ? null : session.id)}
                title={`${session.id}\n${session.directory ?? ''}`}
                data-testid="live-session"
                data-other-project={session.otherProject ? 'true' : undefined}
              >
                <span class={`dot status-${session.status}`} aria-label={session.status} />
                <span class="live-session-title">{session.title || session.id}</span>
                <span class="muted small">
                  {base(session.directory)} · {session.status}
                  {session.agent ? ` · ${session.agent}` : ''}
                  {session.otherProject ? ' · another project' : ''}
                </span>
                <span class="badge" classList={{ danger: session.denials > 0 }}>
                  {session.denials}
                </span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}
