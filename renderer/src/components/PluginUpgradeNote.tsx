import { For, Show, type JSX } from 'solid-js';
import type { WorkspaceInfo } from '../../../shared/contract/workspace';

/**
 * In the status bar: a newer plugin keeps some stores in `.swarm/swarm.db`, so the console shows
 * their archived JSONL as of the import (or cannot read swarm.db). Never an empty view without
 * the reason.
 */
export function PluginUpgradeNote(props: { info: WorkspaceInfo }): JSX.Element {
  const notices = () => props.info.upgrade?.notices ?? [];
  return (
    <Show when={notices().length}>
      <span class="workspace-note warn" data-testid="status-plugin-upgrade" title={notices().join('\n')}>
        <b>swarm.db</b>{' '}
        <For each={notices()}>{(notice, i) => <span>{(i() ? ' · ' : '') + notice}</span>}</For>
      </span>
    </Show>
  );
}
