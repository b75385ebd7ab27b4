import { createEffect, createSignal, For, on, Show, untrack, type JSX } from 'solid-js';
import type { SkillItem } from '../../../../shared/contract/skills';
import { useApi } from '../../api/port';
import { createQuery } from '../../state/query';
import { ConfirmBox } from '../../components/ConfirmBox';
import { createHumanFlow } from '../../state/human-flow';
import { DecisionResult } from './DecisionResult';
import { EvalTable } from './EvalTable';
import { when, plural } from '../../state/format';

export type Decision = 'apply' | 'reject' | 'retire';

interface FlowControls {
  busy: () => boolean;
  codeRequested: () => boolean;
  requestCode: () => unknown;
  commit: (reason: string, code: string | null) => unknown;
  cancel: () => void;
}

/**
 * The human-only decisions on one skill: apply (options: evaluate, force), reject with a reason,
 * retire. Each is preview → the person's confirmation (dialog or terminal code) → result.
 */
export function DecisionPanel(props: { item: Pick<SkillItem, 'slug' | 'kind'>; start?: Decision | null; onDone: () => void; onApplied?: (slug: string) => void }): JSX.Element {
  let root: HTMLElement | undefined;
  const api = useApi();
  const availability = createQuery('human.availability', () => ({}));
  const apply = createHumanFlow(api, 'skills.apply.preview', 'skills.apply.commit', props.onDone);
  const reject = createHumanFlow(api, 'skills.reject.preview', 'skills.reject.commit', props.onDone);
  const retire = createHumanFlow(api, 'skills.retire.preview', 'skills.retire.commit', props.onDone);
  const [evaluate, setEvaluate] = createSignal(true);
  const [force, setForce] = createSignal(false);
  const draft = () => props.item.kind === 'draft' || props.item.kind === 'motif';
  const mode = () => (availability.data()?.mode === 'dialog' ? 'dialog' : 'code');
  const disabled = () => (availability.data() && !availability.data()?.enabled ? (availability.data()?.reason ?? 'Human-only commands are disabled here.') : null);
  const startApply = () => apply.start({ slug: props.item.slug, evaluate: evaluate(), force: force() });
  // When a confirmation opens, the reason field takes the keyboard (the review queue is keyboard-first).
  createEffect(() => {
    if (apply.preview() || reject.preview() || retire.preview()) queueMicrotask(() => root?.querySelector<HTMLTextAreaElement>('[data-testid="confirm-reason"]')?.focus());
  });
  // An applied draft no longer exists as a proposal: the view shows where it went instead of re-reading it.
  // Tracks the result only: what the parent does with it must not re-run this.
  createEffect(
    on(apply.result, (result) => {
      if (result?.state === 'committed') untrack(() => props.onApplied?.(props.item.slug));
    }),
  );
  if (props.start === 'apply') void startApply();
  if (props.start === 'reject') void reject.start({ slug: props.item.slug });

  const confirm = (flow: FlowControls, action: string) => (
    <ConfirmBox mode={mode()} action={action} busy={flow.busy()} codeRequested={flow.codeRequested()} disabled={disabled()} onRequestCode={() => flow.requestCode()} onCommit={(reason, code) => flow.commit(reason, code)} onCancel={() => flow.cancel()} />
  );

  return (
    <section class="decisions" data-testid="decisions" ref={root}>
      <Show when={disabled()}>
        <p class="banner warn" data-testid="human-disabled">
          {disabled()}
        </p>
      </Show>
      <Show when={draft()}>
        <div class="decision-buttons">
          <label title="Run the eval fixtures before activating (the plugin's tool defaults to off)">
            <input type="checkbox" data-testid="apply-evaluate" checked={evaluate()} onChange={(e) => setEvaluate(e.currentTarget.checked)} /> evaluate
          </label>
          <label class="force-option" title="Overwrite an active SKILL.md without the generator marker">
            <input type="checkbox" data-testid="apply-force" checked={force()} onChange={(e) => setForce(e.currentTarget.checked)} /> force
          </label>
          <button type="button" class="primary" data-testid="apply-preview" onClick={startApply}>
            Apply…
          </button>
          <button type="button" data-testid="reject-preview" onClick={() => reject.start({ slug: props.item.slug })}>
            Reject…
          </button>
        </div>
      </Show>
      <Show when={props.item.kind === 'active' || props.item.kind === 'stale'}>
        <button type="button" data-testid="retire-preview" onClick={() => retire.start({ slug: props.item.slug })}>
          Retire…
        </button>
      </Show>

      <Show when={apply.error() ?? reject.error() ?? retire.error()}>
        <p class="error" data-testid="decision-error">
          {apply.error() ?? reject.error() ?? retire.error()}
        </p>
      </Show>

      {/* Previews and results are keyed: children get the value, never a narrowed accessor that a commit can leave stale. */}
      <Show when={apply.preview()} keyed>
        {(preview) => { const p = () => preview; return (
          <div class="decision-preview" data-testid="apply-confirmation">
            <h4>{p().title}</h4>
            <Show when={p().plan.force}>
              <p class="force-warning" data-testid="force-warning">
                FORCE: an active SKILL.md without the generator marker (a person’s edit) will be overwritten.
              </p>
            </Show>
            <Show when={!p().plan.evaluate}>
              <p class="muted">Eval gate off: exactly what the plugin’s skill_apply tool does by default.</p>
            </Show>
            <Show when={p().plan.motif}>
              <p class="banner warn">Motif/workflow proposal: activates without stamping any entry (stamped: false, the proposal stays).</p>
            </Show>
            <Show
              when={p().plan.refusal}
              fallback={
                <p data-testid="apply-plan">
                  Would write {p().plan.activePath} (status: active){p().plan.incumbent !== 'none' ? `, replacing the ${p().plan.incumbent === 'hand_edited' ? 'hand-edited' : 'generated'} active skill` : ''}, stamp {p().plan.sourceIds.length} source entr{p().plan.sourceIds.length === 1 ? 'y' : 'ies'} ({p().plan.sourceIds.join(', ') || 'none'}) and remove {p().plan.proposalPath}.
                </p>
              }
            >
              {(refusal) => (
                <p class="error" data-testid="apply-refusal">
                  skill_apply would refuse at “{refusal().step}”: {refusal().reason}.{refusal().step === 'eval' ? ' Committing appends a rejected-edit record, as the plugin does.' : ' Committing writes nothing.'}
                </p>
              )}
            </Show>
            <Show when={p().plan.keptUnparseable.length}>
              <ul class="muted" data-testid="apply-kept-unparseable">
                <For each={p().plan.keptUnparseable}>{(k) => <li>{k.note}.</li>}</For>
              </ul>
            </Show>
            <Show when={p().plan.evaluation}>{(e) => <EvalTable preview={e()} />}</Show>
            <p class="muted mono">
              token {p().token12} · knowledge store {plural(p().store.entryCount, 'entry', 'entries')}, sha256 {p().store.fileSha256.slice(0, 12)}… · expires {when(p().expiresAt)}
            </p>
            {confirm(apply, p().plan.refusal ? 'Run skill_apply anyway' : 'Apply the draft')}
          </div>
        ); }}
      </Show>
      <Show when={reject.preview()} keyed>
        {(preview) => { const p = () => preview; return (
          <div class="decision-preview" data-testid="reject-confirmation">
            <h4>Reject the draft {p().slug}</h4>
            <p>
              Appends an <span class="mono">operator_reject</span> record with your reason to .swarm/skills/rejected-edits.jsonl (candidate sha256 {p().candidateHash.slice(0, 12)}…, eval {p().evaluation.status}). The plugin then refuses this content, exact or equivalent. The draft file stays.
            </p>
            <Show when={p().alreadyRejected}>
              <p class="banner warn">The ledger already refuses this content.</p>
            </Show>
            {confirm(reject, 'Reject the draft')}
          </div>
        ); }}
      </Show>
      <Show when={retire.preview()} keyed>
        {(preview) => { const p = () => preview; return (
          <div class="decision-preview" data-testid="retire-confirmation">
            <h4>Retire {p().slug}</h4>
            <p>Writes {p().markerPath} ({'{'}retiredAt, reason{'}'}, your reason); {p().activePath} stays and the plugin hides the skill.</p>
            {confirm(retire, 'Retire the skill')}
          </div>
        ); }}
      </Show>
      <Show when={apply.result() ?? reject.result() ?? retire.result()} keyed>
        {(r) => (
          <DecisionResult
            result={r as never}
            onClose={() => {
              apply.clearResult();
              reject.clearResult();
              retire.clearResult();
            }}
          />
        )}
      </Show>
    </section>
  );
}
