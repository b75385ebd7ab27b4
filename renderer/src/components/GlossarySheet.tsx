import { createEffect, For, Show, type JSX } from 'solid-js';
import { GLOSSARY } from '../state/glossary';
import { closeGlossary, glossaryOpen, glossaryTerm } from '../state/help';

/** The glossary: the words of state/glossary.ts, each with the plugin rule it comes from. */
export function GlossarySheet(): JSX.Element {
  let sheet: HTMLDivElement | undefined;
  createEffect(() => {
    const term = glossaryTerm();
    if (!term || !sheet) return;
    sheet.querySelector(`[data-glossary="${CSS.escape(term)}"]`)?.scrollIntoView({ block: 'nearest' });
  });
  return (
    <Show when={glossaryOpen()}>
      <div class="overlay" onClick={closeGlossary}>
        <div class="cheatsheet glossary" role="dialog" aria-label="Glossary" data-testid="glossary" ref={sheet} onClick={(e) => e.stopPropagation()}>
          <h3>Glossary</h3>
          <p class="small muted">Worded from the plugin’s rules (docs/plugin-formats.md). Hover a dotted term anywhere in the console for the same words.</p>
          <dl class="fields">
            <For each={GLOSSARY}>
              {(t) => (
                <>
                  <dt data-glossary={t.id} classList={{ current: glossaryTerm() === t.id }}>
                    {t.term}
                  </dt>
                  <dd>
                    {t.text} <span class="muted small">(docs/plugin-formats.md#{t.source})</span>
                  </dd>
                </>
              )}
            </For>
          </dl>
          <button type="button" onClick={closeGlossary}>
            Close
          </button>
        </div>
      </div>
    </Show>
  );
}
