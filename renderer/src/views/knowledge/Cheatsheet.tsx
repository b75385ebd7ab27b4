import { For, Show, type JSX } from 'solid-js';

export const SHORTCUTS: [string, string][] = [
  ['j / ↓', 'next row'],
  ['k / ↑', 'previous row'],
  ['Enter', 'open the selected row'],
  ['/', 'search'],
  ['Esc', 'close the detail, the search or this sheet'],
  ['?', 'show or hide this sheet'],
  ['Alt+1…6', 'switch area'],
];

export function Cheatsheet(props: { open: boolean; onClose: () => void }): JSX.Element {
  return (
    <Show when={props.open}>
      <div class="overlay" onClick={props.onClose}>
        <div class="cheatsheet" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
          <h3>Keyboard shortcuts</h3>
          <dl class="fields">
            <For each={SHORTCUTS}>
              {([keys, what]) => (
                <>
                  <dt>
                    <kbd>{keys}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </>
              )}
            </For>
          </dl>
        </div>
      </div>
    </Show>
  );
}
