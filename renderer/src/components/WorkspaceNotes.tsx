import { For, Show, type JSX } from 'solid-js';
import type { WorkspaceInfo } from '../../../shared/contract/workspace';

/** The last two segments of a path, so a button stays short: `…/share/opencode-swarm`. */
const shortPath = (full: string) => {
  const parts = full.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : full;
};

/** "no hive here" when the hive folder is not the plugin's data folder, with a one-click fix when the right one is inside it. */
export function HiveCheckNote(props: { info: WorkspaceInfo; testId: string; onUse: (hive: string) => void }): JSX.Element {
  const check = () => props.info.hive.check;
  return (
    <Show when={check().message}>
      {(message) => (
        <span class="workspace-note warn loud" role="status" data-testid={props.testId} title={message()}>
          {' — no hive here: this project shows no hive entries, no link store and empty inboxes'}
          <Show when={check().suggestion}>
            {(suggestion) => (
              <>
                {' (it holds opencode-swarm/) '}
                <button type="button" class="link-button" title={suggestion()} onClick={() => props.onUse(suggestion())}>
                  use {shortPath(suggestion())}
                </button>
              </>
            )}
          </Show>
        </span>
      )}
    </Show>
  );
}

/** Local knowledge-family files a linked worktree still holds, which the plugin ignores (`inspect` lists them too). */
export function OrphanedLocalNote(props: { files: string[] }): JSX.Element {
  return (
    <Show when={props.files.length}>
      <span
        class="workspace-note warn"
        data-testid="orphaned-local"
        title="Copies kept from before `/swarm link`: the plugin reads the link store instead and ignores these local files while the worktree is linked."
      >
        {' — ignored local '}
        <For each={props.files}>{(file, index) => <>{index() ? ', ' : ''}<code>.swarm/{file}</code></>}</For>
        {' (orphaned)'}
      </span>
    </Show>
  );
}
