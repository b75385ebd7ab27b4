import { For, Show, type JSX } from 'solid-js';
import { freshQuery } from '../../state/query';
import { KNOWLEDGE_STORES } from './knowledge-query';

/**
 * Beside the Tier facet: the local `.swarm/` knowledge files a linked worktree still holds (the copy
 * made before `/swarm link`). The plugin ignores them, so their entries are not in the table.
 */
export function OrphanedTierNote(): JSX.Element {
  const summary = freshQuery(KNOWLEDGE_STORES, 'stores.summary', () => ({}));
  const orphaned = () => (summary.data()?.stores ?? []).filter((s) => s.status === 'orphaned');
  return (
    <Show when={orphaned().length}>
      <div class="tier-note warn" data-testid="orphaned-tier-note">
        <For each={orphaned()}>
          {(store) => (
            <p>
              <code>{store.pattern}</code>: {store.records} {store.records === 1 ? 'record' : 'records'} ignored while linked to{' '}
              <code>{summary.data()?.link?.linkId}</code> (orphaned local copy; not in this table)
            </p>
          )}
        </For>
      </div>
    </Show>
  );
}
