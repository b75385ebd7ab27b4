import { For, Show, type JSX } from 'solid-js';
import type { EvalPreview } from '../../../../shared/contract/skills';
import { plural } from '../../state/format';

const pct = (n: number) => `${Math.round(n * 100)}%`;
const RULES: Record<EvalPreview['rule'], string> = {
  none: 'no eval set: unevaluated, which passes (the plugin fails open)',
  strictly_improve: 'with an incumbent: every case no worse, at least one strictly better',
  all_perfect: 'without an incumbent: every case must score 100% with no failure',
};

/** The eval gate on a draft, per case, draft and incumbent side by side, before anything is written. */
export function EvalTable(props: { preview: EvalPreview }): JSX.Element {
  return (
    <section class="eval-preview" data-testid="eval-preview">
      <p>
        <span class={`badge ${props.preview.passed ? 'ok' : 'danger'}`} data-testid="eval-status">
          {props.preview.status.replace(/_/g, ' ')}
        </span>{' '}
        {props.preview.reason} <span class="muted">— {RULES[props.preview.rule]}</span>
      </p>
      <Show when={props.preview.cases.length > 0}>
        <p class="muted">
          {plural(props.preview.caseCount, 'case')} from {props.preview.evalFiles.join(', ')} · draft {pct(props.preview.candidateScore)} · incumbent {props.preview.rule === 'strictly_improve' ? pct(props.preview.incumbentScore) : 'none'}
        </p>
        <table class="data eval-cases">
          <thead>
            <tr>
              <th>Case</th>
              <th class="num">Draft</th>
              <th>Draft failures</th>
              <th class="num">Incumbent</th>
              <th>Incumbent failures</th>
              <th>Verdict</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.preview.cases}>
              {(c) => (
                <tr data-testid="eval-case" classList={{ failing: !c.holds }}>
                  <td>
                    <span class="mono">{c.id}</span>
                    <Show when={c.task}>
                      <div class="muted">{c.task}</div>
                    </Show>
                  </td>
                  <td class="num">{pct(c.candidate.score)}</td>
                  <td>{c.candidate.failures.join('; ') || '—'}</td>
                  <td class="num">{c.incumbent ? pct(c.incumbent.score) : '—'}</td>
                  <td>{c.incumbent ? c.incumbent.failures.join('; ') || '—' : '—'}</td>
                  <td>{!c.holds ? <span class="badge danger">worse or imperfect</span> : c.improves ? <span class="badge ok">strictly better</span> : <span class="badge muted">holds</span>}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
      <Show when={props.preview.status === 'invalid_eval_set'}>
        <p class="error">The eval set is malformed: the gate fails closed.</p>
      </Show>
    </section>
  );
}
