import { createSignal, For, Show, type JSX } from 'solid-js';
import { createQuery, freshQuery } from '../../state/query';
import { KNOWLEDGE_STORES } from './knowledge-query';
import { plural } from '../../state/format';

/** Stores whose defects bear on knowledge entries and their counters. */
const KNOWLEDGE_STORE = /^(knowledge|hive)/;

function StoreDefects(props: { store: string; label: string; defects: number; status: string; message: string }) {
  const [open, setOpen] = createSignal(false);
  // Read again when the count changes: the open list follows the store.
  const list = createQuery('stores.defects', () => (open() ? (props.defects, { store: props.store, limit: 200 }) : false));
  return (
    <section class="banner" classList={{ danger: props.status === 'unreadable' || props.status === 'not_a_file', warn: props.status !== 'unreadable' }} aria-label={`Defects in ${props.label}`} data-testid={`defects-${props.store}`}>
      <div class="banner-line">
        <strong>{props.label}</strong>
        <span>{props.defects > 0 ? plural(props.defects, 'defect') : props.message}</span>
        <Show when={props.defects > 0}>
          <button type="button" class="link" aria-expanded={open()} onClick={() => setOpen(!open())}>
            {open() ? 'hide' : 'show'} lines
          </button>
        </Show>
      </div>
      <Show when={open() && list.data()}>
        {(page) => (
          <ul class="defect-list">
            <For each={page().items}>
              {(d) => (
                <li>
                  <code>
                    {d.file}:{d.line}
                  </code>{' '}
                  <span class="badge muted">{d.kind}</span> {d.reason}
                </li>
              )}
            </For>
            <Show when={page().total > page().items.length}>
              <li class="muted">… and {page().total - page().items.length} more</li>
            </Show>
          </ul>
        )}
      </Show>
    </section>
  );
}

/** One banner per knowledge-family store that has defects or cannot be read; never hidden. */
export function DefectBanners(): JSX.Element {
  const summary = freshQuery(KNOWLEDGE_STORES, 'stores.summary', () => ({}));
  const affected = () =>
    (summary.data()?.stores ?? []).filter((s) => KNOWLEDGE_STORE.test(s.key) && (s.defects > 0 || s.status === 'unreadable' || s.status === 'not_a_file'));
  return (
    <div class="defect-banners">
      {/* Keyed by store: a refetched summary updates each banner instead of rebuilding it (an open list stays open). */}
      <For each={affected().map((s) => s.key)}>
        {(key) => {
          const store = () => affected().find((s) => s.key === key);
          return <StoreDefects store={key} label={store()?.label ?? key} defects={store()?.defects ?? 0} status={store()?.status ?? 'ok'} message={store()?.message ?? ''} />;
        }}
      </For>
    </div>
  );
}
