import { For } from 'solid-js';
import type { DirectiveCounter } from '../../../../shared/contract/live';

/** Denials per directive in the last hour and day; choosing one filters the feed. */
export function CountersPanel(props: { counters: DirectiveCounter[]; selected: string | undefined; onSelect: (id: string | null) => void }) {
  return (
    <section class="panel live-counters" aria-label="Denials per directive">
      <h3>Denials per directive</h3>
      <table class="live-counter-table">
        <thead>
          <tr>
            <th>Directive</th>
            <th title="last hour">1 h</th>
            <th title="last 24 hours">24 h</th>
            <th>all</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.counters} fallback={<tr><td colspan="4" class="muted">No denials recorded.</td></tr>}>
            {(c) => (
              <tr classList={{ selected: props.selected === c.directiveId }} data-testid="live-counter">
                <td>
                  <button type="button" class="link-button mono" onClick={() => props.onSelect(props.selected === c.directiveId ? null : c.directiveId)} title={c.tools.map((t) => `${t.tool}: ${t.count}`).join('\n')}>
                    {c.directiveId.length > 14 ? `${c.directiveId.slice(0, 13)}…` : c.directiveId}
                  </button>
                </td>
                <td class="num">{c.lastHour}</td>
                <td class="num">{c.lastDay}</td>
                <td class="num muted">{c.total}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </section>
  );
}
