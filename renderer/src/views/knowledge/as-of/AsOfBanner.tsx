import { Show, type JSX } from 'solid-js';
import './as-of.css';
import { plural } from '../../../state/format';
import { momentLabel, whenToSecond } from '../../../state/moments';
import type { AsOfModel } from './use-as-of';

/**
 * The mark of the historical mode, above the table: which moment, that it is read-only and
 * history's record, what the figures count, and what history cannot say (nobody watching, before
 * history began, entries past the bound).
 */
export function AsOfBanner(props: { moment: string; model: AsOfModel; onBack: () => void }): JSX.Element {
  const output = () => props.model.output();
  const before = () => {
    const o = output();
    return !!o && (o.historyBegan === null || Date.parse(o.moment.at) < Date.parse(o.historyBegan));
  };
  return (
    <section class="banner as-of-banner" role="status" aria-label="As of a moment" data-testid="as-of-banner">
      <div class="as-of-head">
        <strong data-testid="as-of-title">
          As of {output() ? whenToSecond(output()!.moment.at) : '…'} ({momentLabel(props.moment)}) — read-only; history's record of the stores then
        </strong>
        <button type="button" class="primary" onClick={props.onBack}>
          Back to now
        </button>
      </div>
      <Show when={props.model.error()}>
        <p class="error" role="alert">
          History could not answer for this moment: {props.model.error()}
        </p>
      </Show>
      <Show when={output()}>
        {(o) => (
          <>
            <Show when={o().note}>
              <p class="warn" data-testid="as-of-note">
                {o().note}
              </p>
            </Show>
            <Show when={before()}>
              <p data-testid="as-of-before-history">
                {o().historyBegan ? `History began ${whenToSecond(o().historyBegan)}; this moment is before it, so no store is known then.` : 'History has recorded nothing yet in this workspace.'}
              </p>
            </Show>
            <p class="muted small" data-testid="as-of-counts">
              {plural(o().total, 'entry', 'entries')} were in the stores then (every tier and file); the filters select {plural(props.model.shown(), 'row')}. Facet counts are of
              the lines then; markers and the archive countdown are not known as of a moment (history keeps store lines, not the logs they are worked out from).
            </p>
            <Show when={o().total > o().entries.length}>
              <p class="warn">
                Only the first {plural(o().entries.length, 'entry', 'entries')} of {o().total.toLocaleString('en-US')} are shown: history answers up to that many at once.
              </p>
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
