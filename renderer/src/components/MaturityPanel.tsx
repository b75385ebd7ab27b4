import { For, Show, type JSX } from 'solid-js';
import type { MaturityVerdict } from '../../../shared/contract/knowledge';
import { fixed, signed } from '../state/format';
import { Badge } from './Badge';

/** The skill compiler's maturity verdict, with the reasons and every check it made. */
export function MaturityPanel(props: { verdict: MaturityVerdict }): JSX.Element {
  const v = () => props.verdict;
  return (
    <div class="maturity" data-testid="maturity">
      <p>
        <Badge tone={v().eligible ? 'ok' : 'danger'}>{v().eligible ? 'eligible for a skill' : 'not eligible for a skill'}</Badge>{' '}
        <span class="muted">
          signal {signed(v().signal)} · confidence {fixed(v().confidence)} · {v().distinctPhases} distinct {v().confirmationsFrom} · {v().priority} priority
        </span>
      </p>
      <ul class="reasons">
        <For each={v().reasons}>{(reason) => <li>{reason}</li>}</For>
      </ul>
      <ul class="checks">
        <For each={v().checks}>
          {(check) => (
            <li classList={{ pass: check.passed, fail: !check.passed }}>
              {check.passed ? '✓' : '✗'} <strong>{check.rule.replace(/_/g, ' ')}</strong>: {check.detail}
            </li>
          )}
        </For>
      </ul>
      <Show when={v().hasSkill}>
        <p class="muted small">A generated skill already exists for this entry.</p>
      </Show>
    </div>
  );
}
