import { For, Show, type JSX } from 'solid-js';
import type { DirectiveRow } from '../../../../shared/contract/knowledge';
import { ACKNOWLEDGED_RULE, ANSWERED_RULE } from '../../components/ack-terms';
import { signed } from '../../state/format';

/**
 * shown → answered (from the receipts, when known) and acknowledged (the plugin's counter) →
 * applied / ignored / n/a / contradicted / violated, then the post-phase outcomes.
 */
export function Funnel(props: { funnel: DirectiveRow['funnel']; signal: number; answered?: number | null }): JSX.Element {
  const f = () => props.funnel;
  const outcomes = (): [string, number, string][] => [
    ['applied', f().applied, 'applied'],
    ['ignored', f().ignored, 'ignored'],
    ['n/a', f().n_a, 'n_a'],
    ['contradicted', f().contradicted, 'contradicted'],
    ['violated', f().violated, 'violated'],
  ];
  return (
    <div class="funnel-block" data-testid="funnel">
      <div class="funnel">
        <span class="step">
          shown <b>{f().shown}</b>
        </span>
        <span class="arrow">→</span>
        <Show when={props.answered !== undefined && props.answered !== null}>
          <span class="step" title={ANSWERED_RULE} data-testid="funnel-answered">
            answered <b>{props.answered}</b>
          </span>
        </Show>
        <span class="step" title={ACKNOWLEDGED_RULE} data-testid="funnel-acknowledged">
          acknowledged <b>{f().acknowledged}</b>
        </span>
        <span class="arrow">→</span>
        <For each={outcomes()}>
          {([label, value, tone]) => (
            <span class={`step badge ${value > 0 ? tone : ''}`}>
              {label} <b>{value}</b>
            </span>
          )}
        </For>
      </div>
      <div class="funnel">
        <span class="step">
          succeeded after shown <b>{f().succeeded_after_shown}</b>
        </span>
        <span class="step">
          failed after shown <b>{f().failed_after_shown}</b>
        </span>
        <span class="step">
          partial after shown <b>{f().partial_after_shown}</b>
        </span>
        <span class="step" title="(P − N)/(P + N + 4), P = applied + succeeded after shown, N = ignored + violated + contradicted + failed after shown">
          outcome signal <b>{signed(props.signal)}</b>
        </span>
      </div>
    </div>
  );
}
