import { For, Show, type JSX } from 'solid-js';
import type { FigureGroup } from '../state/counter-figures';

/** Test ids the views have always given their answered / acknowledged figures. */
const TEST_IDS: Record<string, string> = { answered: 'answered', acknowledged: 'acknowledged', acknowledged_count: 'acknowledged' };

/**
 * Figure groups (state/counter-figures.ts) side by side, never as a funnel: no arrows between
 * figures, each group says where its numbers come from, and a figure that exceeds one it would be
 * read against carries its one-line explanation right beside it.
 */
export function Figures(props: { groups: FigureGroup[]; testIdPrefix?: string }): JSX.Element {
  return (
    <div class="figure-groups">
      <For each={props.groups}>
        {(group) => (
          <div class="figure-group" data-testid="figure-group" data-group={group.id}>
            <div class="figure-group-title">
              <b>{group.title}</b> <span class="muted small">— {group.source}</span>
            </div>
            <ul class="figures">
              <For each={group.figures}>
                {(figure) => (
                  <li class="figure" data-testid="figure" data-key={figure.key} data-value={figure.value} data-exceeds={figure.exceeds.join(',')}>
                    <span title={figure.rule} aria-description={figure.rule} data-testid={TEST_IDS[figure.key] && props.testIdPrefix ? `${props.testIdPrefix}-${TEST_IDS[figure.key]}` : undefined}>
                      {figure.label} <b>{figure.value}</b>
                    </span>
                    <Show when={figure.why}>
                      <span class="figure-why small muted" data-testid="figure-why">
                        {figure.why}
                      </span>
                    </Show>
                  </li>
                )}
              </For>
            </ul>
            <Show when={group.note}>
              <div class="small muted" data-testid="figure-note">
                {group.note}
              </div>
            </Show>
          </div>
        )}
      </For>
    </div>
  );
}
