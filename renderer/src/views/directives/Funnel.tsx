import { Show, type JSX } from 'solid-js';
import type { DirectiveRow } from '../../../../shared/contract/knowledge';
import type { FunnelCounts } from '../../../../shared/contract/receipts';
import { Figures } from '../../components/Figures';
import { counterGroups, displayGroups } from '../../state/counter-figures';
import { signed } from '../../state/format';

/**
 * A directive's figures (issue 19 item 1): per display from the receipts (when known), then the
 * plugin's own effective counters — side by side, never one funnel — and the outcome signal.
 */
export function Funnel(props: { funnel: DirectiveRow['funnel']; signal: number; receipts?: FunnelCounts | null }): JSX.Element {
  const groups = () => [...(props.receipts ? displayGroups(props.receipts).filter((g) => g.id === 'displays') : []), ...counterGroups(props.funnel)];
  return (
    <div class="funnel-block" data-testid="funnel">
      <Show when={props.receipts === null}>
        <p class="small muted">No display of this directive is recorded in the receipt logs.</p>
      </Show>
      <Figures groups={groups()} testIdPrefix="funnel" />
      <p class="small">
        <span title="(P − N)/(P + N + 4), P = applied + succeeded after shown, N = ignored + violated + contradicted + failed after shown, over the effective counters">
          outcome signal <b>{signed(props.signal)}</b>
        </span>
      </p>
    </div>
  );
}
