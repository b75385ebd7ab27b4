import { createSignal, For, Show } from 'solid-js';
import type { ServerInfo } from '../../../../shared/contract/live';
import { plural } from '../../state/format';
import { describeState } from './feed-state';
import { sessionSplit } from './session-counts';
import type { LiveStore } from './live-store';

/** Connect form and the state of every OpenCode server link. The password goes to main and never comes back. */
export function ServersPanel(props: { store: LiveStore }) {
  const [url, setUrl] = createSignal('http://127.0.0.1:4096');
  const [password, setPassword] = createSignal('');
  const [label, setLabel] = createSignal('');
  const [problem, setProblem] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    const error = await props.store.connect(url().trim(), password(), label().trim());
    setBusy(false);
    setProblem(error);
    if (!error) setPassword('');
  };

  return (
    <section class="panel live-servers" aria-label="OpenCode servers">
      <h3>OpenCode servers</h3>
      <form class="live-connect" onSubmit={submit}>
        <input aria-label="Server URL" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="http://127.0.0.1:4096" required />
        <input aria-label="Password" type="password" autocomplete="off" value={password()} onInput={(e) => setPassword(e.currentTarget.value)} placeholder="password (optional)" />
        <input aria-label="Label" value={label()} onInput={(e) => setLabel(e.currentTarget.value)} placeholder="label (optional)" />
        <button class="primary" type="submit" disabled={busy()}>
          Connect
        </button>
      </form>
      <p class="muted small" data-testid="servers-remembered-note">
        Connected servers are reconnected when the console starts again (URL and label are remembered; password not stored; enter it again).
      </p>
      <Show when={problem()}>
        <p class="error" role="alert">
          {problem()}
        </p>
      </Show>
      <ul class="live-server-list">
        <For each={props.store.servers()} fallback={<li class="muted">No server connected.</li>}>
          {(server) => <ServerRow server={server} store={props.store} onDisconnect={() => props.store.disconnect(server.id)} />}
        </For>
      </ul>
    </section>
  );
}

function ServerRow(props: { server: ServerInfo; store: LiveStore; onDisconnect: () => void }) {
  const state = () => describeState(props.server.state, props.store.now());
  const split = () => sessionSplit(props.server, props.store.sessions());
  const warnings = () => {
    const w = props.server.warnings;
    return w.invalidJson + w.unknownType + w.oversized + w.malformed;
  };
  return (
    <li class="live-server" data-testid="live-server">
      <div class="live-server-head">
        <span class={`dot tone-${state().tone}`} aria-hidden="true" />
        <b>{props.server.label}</b>
        <span class="muted mono">{props.server.url}</span>
        <button type="button" class="link-button" onClick={props.onDisconnect} aria-label={`Disconnect ${props.server.label}`}>
          Disconnect
        </button>
      </div>
      <div class={`live-server-state tone-${state().tone}`} data-testid="server-state" data-state={props.server.state.kind}>
        {state().label}
      </div>
      <div class="muted small">
        {props.server.version ? `opencode ${props.server.version}` : 'version unknown'} ·{' '}
        <span data-testid="server-sessions">
          {plural(split().here, 'session')} in this project
          <Show when={split().elsewhere > 0}>
            {' · '}
            {plural(split().elsewhere, 'session')} in another project —{' '}
            <button type="button" class="link-button" data-testid="show-other-sessions" onClick={() => props.store.setOtherProjects(!props.store.otherProjects())}>
              {props.store.otherProjects() ? 'hide' : 'show'}
            </button>
          </Show>
        </span>
        {props.server.hasPassword ? ' · password set' : ''}
      </div>
      <Show when={props.server.state.kind === 'unauthorised' && !props.server.hasPassword}>
        <div class="warn small" data-testid="server-password-needed">
          Password not stored; enter it again above (same URL) to reconnect.
        </div>
      </Show>
      <Show when={warnings() > 0}>
        <div class="warn small" title={props.server.warnings.lastWarning ?? ''}>
          {warnings()} stream events skipped (invalid JSON {props.server.warnings.invalidJson}, unknown type {props.server.warnings.unknownType}, oversized{' '}
          {props.server.warnings.oversized}, malformed {props.server.warnings.malformed})
        </div>
      </Show>
    </li>
  );
}
