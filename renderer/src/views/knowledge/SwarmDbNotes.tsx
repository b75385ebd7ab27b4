import { For, Show, type JSX } from 'solid-js';
import { freshQuery } from '../../state/query';
import { KNOWLEDGE_STORES } from './knowledge-query';
import { plural } from '../../state/format';

/**
 * Beside the defect banners (the stores summary of this view): stores a newer plugin imported
 * into `.swarm/swarm.db` (their archived JSONL is what the table shows, and since when), and
 * swarm.db tables named like a store the console knows, which it does not read yet.
 */
export function SwarmDbNotes(): JSX.Element {
  const summary = freshQuery(KNOWLEDGE_STORES, 'stores.summary', () => ({}));
  const upgrade = () => summary.data()?.upgrade;
  const tables = () => upgrade()?.swarmDb?.storeTables ?? [];
  return (
    <Show when={(upgrade()?.archives.length ?? 0) > 0 || tables().length > 0 || upgrade()?.swarmDb?.problem}>
      <section class="banner warn" aria-label="Stores kept in swarm.db" data-testid="swarm-db-notes">
        <For each={upgrade()?.archives ?? []}>
          {(archive) => (
            <p data-testid="swarm-db-archive">
              <strong>{archive.label}</strong> {archive.notice}
              <Show when={archive.liveFileExists}> — a JSONL file has appeared beside the archive; the table shows that file</Show>
            </p>
          )}
        </For>
        <Show when={upgrade()?.swarmDb?.problem}>{(problem) => <p>{problem()}</p>}</Show>
        <Show when={tables().length}>
          <p>
            <code>.swarm/swarm.db</code>
            {upgrade()?.swarmDb?.userVersion !== null ? ` (user_version ${upgrade()?.swarmDb?.userVersion})` : ''} holds tables named like stores the console knows — not read yet:
          </p>
          <ul data-testid="swarm-db-tables">
            <For each={tables()}>
              {(t) => (
                <li>
                  <code>{t.name}</code> — {t.rows === null || t.rows === undefined ? '? rows' : plural(t.rows, 'row')} ({t.storeKey}), not read yet
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>
    </Show>
  );
}
