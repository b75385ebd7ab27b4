import { For, onMount, Show, type JSX } from 'solid-js';
import type { SkillDecisionResult } from '../../../../shared/contract/skills';

const HEADINGS: Record<string, string> = { committed: 'Done', refused: 'Refused — nothing written', eval_failed: 'Eval gate refused the draft' };

/** Exactly what a decision wrote and what it did not, as the core reported it. */
export function DecisionResult(props: { result: SkillDecisionResult; onClose: () => void }): JSX.Element {
  const r = () => props.result;
  let box: HTMLElement | undefined;
  // The form that had the focus is gone: the result takes it, so the keyboard (Esc, Tab to Done) keeps working.
  onMount(() => box?.focus());
  return (
    <section class="write-result" data-testid="skill-result" role="status" tabIndex={-1} ref={box}>
      <h3>{HEADINGS[r().state] ?? r().state}</h3>
      <For each={r().messages}>{(m) => <p>{m}</p>}</For>
      <dl class="fields">
        <dt>Written</dt>
        <dd class="mono" data-testid="result-written">{r().written.join(', ') || 'nothing'}</dd>
        <dt>Removed</dt>
        <dd class="mono">{r().removed.join(', ') || 'nothing'}</dd>
        <Show when={r().op === 'skills.apply.commit'}>
          <dt>Stamped</dt>
          <dd data-testid="result-stamped">
            {r().stamped ? 'stamped: true' : 'stamped: false'}
            {r().stampNote ? ` — ${r().stampNote}` : ''}
          </dd>
        </Show>
        <Show when={r().refusal}>
          {(refusal) => (
            <>
              <dt>Refused at</dt>
              <dd>
                {refusal().step}: {refusal().reason}
              </dd>
            </>
          )}
        </Show>
        <dt>Token</dt>
        <dd class="mono">{r().token12}</dd>
        <dt>Backup</dt>
        <dd class="mono">{r().backup ?? 'none (nothing was written)'}</dd>
        <dt>Verified</dt>
        <dd>{r().verified ? 'read back as written' : 'NOT verified — see the messages'}</dd>
      </dl>
      <button type="button" onClick={() => props.onClose()}>
        Done
      </button>
    </section>
  );
}
