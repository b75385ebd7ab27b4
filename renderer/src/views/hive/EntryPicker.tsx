import { createSignal, For, Show, type JSX } from 'solid-js';
import { createQuery } from '../../state/query';

const PAGE = 50;

/** Active hive entries, one checkbox each: selection is by exact id only, never by filter. */
export function EntryPicker(props: { selected: ReadonlySet<string>; onToggle: (id: string) => void }): JSX.Element {
  const [offset, setOffset] = createSignal(0);
  const entries = createQuery('stores.entries', () => ({ offset: offset(), limit: PAGE, facets: false, filter: { tier: ['hive'], collection: ['active'] }, sort: { field: 'updated_at', dir: 'desc' } }));
  return (
    <section class="entry-picker" data-testid="entry-picker">
      <h3>Hive entries</h3>
      <Show when={!entries.data.error} fallback={<p class="error">Could not load the hive: {(entries.data.error as Error)?.message}</p>}>
        <Show when={entries.data()} fallback={<p class="muted">Loading…</p>}>
          {(page) => (
            <>
              <table class="plain">
                <thead>
                  <tr>
                    <th />
                    <th>Id</th>
                    <th>Status</th>
                    <th>Confidence</th>
                    <th>Project</th>
                    <th>Lesson</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={page().items.filter((item) => item.id !== null)}>
                    {(item) => (
                      <tr>
                        <td>
                          <input type="checkbox" aria-label={`select ${item.id}`} data-testid={`pick-${item.id}`} checked={props.selected.has(item.id as string)} onChange={() => props.onToggle(item.id as string)} />
                        </td>
                        <td class="mono">{item.id}</td>
                        <td>{item.status ?? '—'}</td>
                        <td>{item.confidence ?? '—'}</td>
                        <td>{item.project ?? '—'}</td>
                        <td>{item.lesson}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
              <p class="muted">
                {page().total === 0 ? 'The hive has no active entries.' : `${offset() + 1}–${Math.min(offset() + PAGE, page().total)} of ${page().total}`}{' '}
                <button type="button" disabled={offset() === 0} onClick={() => setOffset(Math.max(0, offset() - PAGE))}>
                  Previous
                </button>{' '}
                <button type="button" disabled={offset() + PAGE >= page().total} onClick={() => setOffset(offset() + PAGE)}>
                  Next
                </button>
              </p>
            </>
          )}
        </Show>
      </Show>
    </section>
  );
}
