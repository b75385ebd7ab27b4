import { For, Show, type JSX } from 'solid-js';
import { closeHelp, helpOpen, openGlossary } from '../state/help';
import type { AreaId } from '../state/route';

type Shortcuts = [string, string][];

const EVERYWHERE: Shortcuts = [
  ['Alt+1…7', 'switch area'],
  ['?', 'show or hide this sheet'],
  ['Esc', 'close this sheet'],
];

const LIST: Shortcuts = [
  ['Click', 'open the row in the detail pane'],
  ['j / ↓', 'next row'],
  ['k / ↑', 'previous row'],
  ['Enter', 'open the selected row'],
  ['/', 'search'],
  ['Esc', 'close the detail or leave the search'],
];

/** Shortcuts that only work in one area; areas without a list of their own have none. */
const BY_AREA: Partial<Record<AreaId, Shortcuts>> = {
  knowledge: [...LIST, ['← / → on the pane edge', 'resize the detail pane (drag works too)']],
  directives: LIST,
  history: [
    ['j / ↓', 'next change'],
    ['k / ↑', 'previous change'],
    ['PageDown / PageUp', '20 changes on or back'],
    ['Enter', 'open the change: the entry in Knowledge, or the timeline of a removed entry'],
    ['Esc', 'close the timeline'],
  ],
  live: [
    ['Click', 'select a denial or gate event'],
    ['Double-click', 'open it in the detail'],
  ],
};

function Keys(props: { title: string; list: Shortcuts }): JSX.Element {
  return (
    <>
      <h4>{props.title}</h4>
      <dl class="fields">
        <For each={props.list}>
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
    </>
  );
}

/** The keyboard help, global: what works everywhere, then what works in the current area. */
export function HelpSheet(props: { area: AreaId; areaLabel: string }): JSX.Element {
  return (
    <Show when={helpOpen()}>
      <div class="overlay" onClick={closeHelp}>
        <div class="cheatsheet" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
          <h3>Keyboard shortcuts</h3>
          <Keys title="Everywhere" list={EVERYWHERE} />
          <Show when={BY_AREA[props.area]}>{(list) => <Keys title={props.areaLabel} list={list()} />}</Show>
          <p>
            What do tier, answered or nonterminal release mean?{' '}
            <button type="button" data-testid="help-glossary" onClick={() => openGlossary()}>
              Open the glossary
            </button>
          </p>
        </div>
      </div>
    </Show>
  );
}
