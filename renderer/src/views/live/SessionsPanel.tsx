import { For } from 'solid-js';
import type { SessionInfo } from '../../../../shared/contract/live';

const base = (dir: string | null) => (dir ? dir.split('/').filter(Boolean).at(-1) ?? dir : '—');

/** Sessions of every connected server, newest first; choosing one filters the feed. */
export function SessionsPanel(props: { sessions: SessionInfo[]; selected: string | undefined; onSelect: (sessionID: string | null) => void }) {
  return (
    <section class="panel live-sessions" aria-label="Sessions">
      <h3>Sessions</h3>
      <ul class="live-session-list">
        <For each={props.sessions} fallback={<li class="muted">No sessions yet.</li>}>
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
              >
                <span class={`dot status-${session.status}`} aria-label={session.status} />
                <span class="live-session-title">{session.title || session.id}</span>
                <span class="muted small">
                  {base(session.directory)} · {session.status}
                  {session.agent ? ` · ${session.agent}` : ''}
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
