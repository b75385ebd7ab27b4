import { createSignal, For, Show, type JSX } from 'solid-js';
import { moveColumn, resolveOrder, type ColumnState } from './table-state';

/** Show/hide and reorder a table's columns; the state is owned by the caller (URL or storage). */
export function ColumnChooser(props: {
  columns: { id: string; header: string }[];
  state: ColumnState;
  onChange: (next: ColumnState) => void;
}): JSX.Element {
  const [open, setOpen] = createSignal(false);
  const order = () => resolveOrder(props.state.order, props.columns.map((c) => c.id));
  const header = (id: string) => props.columns.find((c) => c.id === id)?.header ?? id;
  const toggle = (id: string) => {
    const hidden = props.state.hidden.includes(id) ? props.state.hidden.filter((h) => h !== id) : [...props.state.hidden, id];
    if (hidden.length < props.columns.length) props.onChange({ order: order(), hidden });
  };
  const move = (id: string, step: -1 | 1) => props.onChange({ order: moveColumn(order(), id, step), hidden: props.state.hidden });
  return (
    <div class="column-chooser">
      <button type="button" aria-expanded={open()} onClick={() => setOpen(!open())}>
        Columns
      </button>
      <Show when={open()}>
        <div class="popover" role="dialog" aria-label="Choose columns">
          <ul>
            <For each={order()}>
              {(id, index) => (
                <li>
                  <label>
                    <input type="checkbox" checked={!props.state.hidden.includes(id)} onChange={() => toggle(id)} /> {header(id)}
                  </label>
                  <span class="spacer" />
                  <button type="button" aria-label={`Move ${header(id)} up`} disabled={index() === 0} onClick={() => move(id, -1)}>
                    ↑
                  </button>
                  <button type="button" aria-label={`Move ${header(id)} down`} disabled={index() === order().length - 1} onClick={() => move(id, 1)}>
                    ↓
                  </button>
                </li>
              )}
            </For>
          </ul>
        </div>
      </Show>
    </div>
  );
}
