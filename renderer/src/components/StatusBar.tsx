import { Show } from 'solid-js';
import { useWorkspace } from '../state/workspace';

export function StatusBar() {
  const workspace = useWorkspace();
  return (
    <footer class="status-bar" data-testid="status-bar">
      <Show when={workspace.info()} fallback={<span>{workspace.error() ?? 'Connecting to the console core…'}</span>}>
        {(info) => (
          <>
            <span title="Project folder">
              <b>Project</b> <span data-testid="status-project">{info().project.path}</span>
              {info().project.isDemo ? ' (demo)' : ''}
              {info().project.swarmDirExists ? '' : ' — no .swarm/ folder'}
            </span>
            <span title={`Hive data folder (${info().hive.source})`}>
              <b>Hive</b> <span data-testid="status-hive">{info().hive.path}</span>
              {info().hive.exists ? '' : ' — missing'}
            </span>
            <Show when={info().link}>
              {(link) => (
                <span title={link().dir}>
                  <b>Link</b> {link().pointerValid ? link().linkId : `ignored: ${link().problem}`}
                </span>
              )}
            </Show>
            <span class="status-host">{info().host === 'electron' ? 'Desktop' : 'Browser host (loopback)'} · v{info().version}</span>
          </>
        )}
      </Show>
    </footer>
  );
}
