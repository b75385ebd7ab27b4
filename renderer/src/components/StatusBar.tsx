import { Show } from 'solid-js';
import { createQuery } from '../state/query';
import { useWorkspace } from '../state/workspace';
import { HiveCheckNote, OrphanedLocalNote } from './WorkspaceNotes';
import { PluginUpgradeNote } from './PluginUpgradeNote';
import { openGlossary } from '../state/help';

/**
 * Whether a person can confirm human-only commands here, said from the start rather than first when
 * a button is pressed: the desktop's dialog, the serve terminal's code, or off with the core's reason.
 */
function ConfirmationsNote() {
  const availability = createQuery('human.availability', () => ({}));
  return (
    <Show when={availability.data()} keyed>
      {(a) => (
        <span data-testid="status-confirmations" classList={{ 'workspace-note': !a.enabled, warn: !a.enabled }} title={a.enabled ? '' : (a.reason ?? '')}>
          <b>Confirmations</b> {a.enabled ? (a.mode === 'dialog' ? 'in the console’s dialog' : 'by a code on the serve terminal') : `off — ${a.reason ?? 'no person can confirm here'}`}
        </span>
      )}
    </Show>
  );
}

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
              <PluginUpgradeNote info={info()} />
            </span>
            <span title={`Hive data folder (${info().hive.source})`}>
              <b>Hive</b> <span data-testid="status-hive">{info().hive.path}</span>
              <HiveCheckNote info={info()} testId="status-hive-check" onUse={(hive) => void workspace.open(info().project.path, hive)} />
            </span>
            <Show when={info().link}>
              {(link) => (
                <span title={link().dir}>
                  <b>Link</b> {link().pointerValid ? link().linkId : `ignored: ${link().problem}`}
                  <Show when={link().pointerValid && !link().storeExists}>
                    <span class="workspace-note warn" data-testid="status-link-missing" title={`${link().dir} does not exist: the plugin would start an empty link store there`}>
                      {' — no link store under this hive'}
                    </span>
                  </Show>
                  <OrphanedLocalNote files={link().orphanedLocalFiles} />
                </span>
              )}
            </Show>
            <ConfirmationsNote />
            <span class="status-host">{info().host === 'electron' ? 'Desktop' : 'Browser host (loopback)'} · v{info().version}</span>
          </>
        )}
      </Show>
      <button type="button" class="link-button status-glossary" data-testid="status-glossary" onClick={() => openGlossary()} title="What the console’s terms mean, from the plugin’s rules">
        Glossary
      </button>
    </footer>
  );
}
