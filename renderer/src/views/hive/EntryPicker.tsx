import { createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import { freshQuery } from '../../state/query';
import { HIVE_FACETS, HIVE_PAGE, hivePickerInput, isFacetSelected, isNarrowed, toggleFacet, type HiveFacet } from './hive-picker-query';

const FACET_VALUES_SHOWN = 12;

/**
 * Active hive entries, one checkbox each. Search (full text, as in Knowledge) and facets narrow the
 * list; "Select the shown" ticks exactly the listed ids — the selection stays a list of exact ids,
 * named in full in the preview before anything is written, never a filter evaluated at commit.
 */
export function EntryPicker(props: {
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onSelectMany: (ids: string[]) => void;
  params: Readonly<Record<string, string>>;
  onParams: (changes: Record<string, string | null>) => void;
}): JSX.Element {
  const [offset, setOffset] = createSignal(0);
  // A new search or facet starts at the first page.
  createEffect(on(() => [props.params.q, ...HIVE_FACETS.map(({ key }) => props.params[key])].join('\u0000'), () => setOffset(0), { defer: true }));
  const entries = freshQuery(['hive'], 'stores.entries', () => hivePickerInput(props.params, offset()));
  const shownIds = () => (entries.data()?.items ?? []).flatMap((item) => (item.id === null ? [] : [item.id]));
  const unselectedShown = () => shownIds().filter((id) => !props.selected.has(id));

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  const onSearch = (text: string) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => props.onParams({ q: text.trim() || null }), 250);
  };

  return (
    <section class="entry-picker" data-testid="entry-picker">
      <h3>Hive entries</h3>
      <div class="hive-search">
        <input type="search" aria-label="Search hive entries" data-testid="hive-search" placeholder="Search hive lessons, ids, tags (full text)" value={props.params.q ?? ''} onInput={(e) => onSearch(e.currentTarget.value)} />
        <button
          type="button"
          data-testid="select-shown"
          disabled={unselectedShown().length === 0}
          title="Ticks exactly the entries listed below; the preview names every id before anything is written"
          onClick={() => props.onSelectMany(unselectedShown())}
        >
          Select the shown ({shownIds().length}
          {isNarrowed(props.params) ? ' matching' : ''})
        </button>
      </div>
      <div class="hive-facets" data-testid="hive-facets">
        <For each={HIVE_FACETS}>
          {(facet) => (
            <fieldset class="facet" data-testid={`hive-facet-${facet.key}`}>
              <legend>{facet.label}</legend>
              <For each={(entries.data()?.facets?.[facet.key] ?? []).filter((v) => v.value !== null).slice(0, FACET_VALUES_SHOWN)} fallback={<span class="muted">none</span>}>
                {(item) => (
                  <label class="facet-value">
                    <input type="checkbox" checked={isFacetSelected(props.params, facet.key as HiveFacet, item.value as string)} onChange={() => props.onParams(toggleFacet(props.params, facet.key, item.value as string))} />
                    <span class="facet-name" title={item.value as string}>
                      {item.value}
                    </span>
                    <span class="facet-count">{item.count}</span>
                  </label>
                )}
              </For>
            </fieldset>
          )}
        </For>
      </div>
      <Show when={!entries.data.error} fallback={<p class="error">Could not load the hive: {(entries.data.error as Error)?.message}</p>}>
        <Show when={entries.data()} fallback={<p class="muted">Loading…</p>}>
          {(page) => (
            <>
              <p class="muted" data-testid="hive-shown-count">
                {page().total === 0
                  ? isNarrowed(props.params)
                    ? 'No active hive entry matches.'
                    : 'The hive has no active entries.'
                  : `${offset() + 1}–${Math.min(offset() + HIVE_PAGE, page().total)} of ${page().total}${isNarrowed(props.params) ? ' matching' : ''}`}
              </p>
              <table class="plain">
                <thead>
                  <tr>
                    <th />
                    <th>Id</th>
                    <th>Status</th>
                    <th>Category</th>
                    <th>Confidence</th>
                    <th>Source project</th>
                    <th>Lesson</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={page().items.filter((item) => item.id !== null)}>
                    {(item) => (
                      <tr data-testid="hive-entry-row">
                        <td>
                          <input type="checkbox" aria-label={`select ${item.id}`} data-testid={`pick-${item.id}`} checked={props.selected.has(item.id as string)} onChange={() => props.onToggle(item.id as string)} />
                        </td>
                        <td class="mono">{item.id}</td>
                        <td>{item.status ?? '—'}</td>
                        <td>{item.category ?? '—'}</td>
                        <td>{item.confidence ?? '—'}</td>
                        <td>{item.project ?? '—'}</td>
                        <td>{item.lesson}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
              <Show when={page().total > HIVE_PAGE}>
                <p class="muted">
                  <button type="button" disabled={offset() === 0} onClick={() => setOffset(Math.max(0, offset() - HIVE_PAGE))}>
                    Previous
                  </button>{' '}
                  <button type="button" disabled={offset() + HIVE_PAGE >= page().total} onClick={() => setOffset(offset() + HIVE_PAGE)}>
                    Next
                  </button>
                </p>
              </Show>
            </>
          )}
        </Show>
      </Show>
    </section>
  );
}
