import { createEffect, createSignal, Show, untrack, type JSX } from 'solid-js';
import './hive.css';
import { useApi } from '../../api/port';
import { createQuery } from '../../state/query';
import { useRouter } from '../../state/router-context';
import { AuditPanel } from './AuditPanel';
import { BackupsPanel } from './BackupsPanel';
import { ConfirmBox } from '../../components/ConfirmBox';
import { EntryPicker } from './EntryPicker';
import { createHumanFlow } from '../../state/human-flow';
import { QuarantinePreview } from './QuarantinePreview';
import { WriteResultBox } from '../../components/writes/WriteResultBox';

/**
 * Hive quarantine: pick exact hive ids, preview what would move (with the blast radius and the
 * token), confirm as a person (the dialog in Electron, the terminal's code in the browser host),
 * read what happened, roll back from a backup, and read every step in the audit log.
 */
export function HiveView(): JSX.Element {
  const api = useApi();
  const router = useRouter();
  const availability = createQuery('human.availability', () => ({}));
  const status = createQuery('hive.quarantine.status', () => ({}));
  const audit = createQuery('audit.list', () => ({}));
  const refresh = () => {
    status.refetch();
    audit.refetch();
  };
  const quarantine = createHumanFlow(api, 'hive.quarantine.preview', 'hive.quarantine.commit', refresh);
  const rollback = createHumanFlow(api, 'hive.rollback.preview', 'hive.rollback.commit', refresh);
  const [selected, setSelected] = createSignal<ReadonlySet<string>>(new Set());

  // "Quarantine…" in the Knowledge detail pane arrives here with ?select=<id>: ticked once, then
  // dropped from the URL so returning to this area later does not tick it again.
  createEffect(() => {
    const id = router.route().params.select;
    if (!id) return;
    setSelected(new Set([...untrack(selected), id]));
    router.setParams({ select: null });
  });
  const selectMany = (ids: string[]) => setSelected(new Set([...selected(), ...ids]));
  const toggle = (id: string) => {
    const next = new Set(selected());
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const mode = () => {
    const a = availability.data();
    return a?.enabled ? (a.mode as 'dialog' | 'code') : 'none';
  };
  const disabledReason = () => availability.data()?.reason ?? null;

  return (
    <div class="hive-view" data-testid="hive-view">
      <Show when={availability.data() && !availability.data()?.enabled}>
        <p class="banner warn" role="status" data-testid="human-disabled">
          Quarantine and rollback are disabled here. {disabledReason()}
        </p>
      </Show>
      <section class="selection">
        <h3>Selected for quarantine ({selected().size})</h3>
        <p class="mono" data-testid="selected-ids">
          {[...selected()].join(', ') || 'none — tick entries below'}
        </p>
        <button type="button" data-testid="quarantine-preview-button" disabled={selected().size === 0 || quarantine.busy() || mode() === 'none'} onClick={() => void quarantine.start({ ids: [...selected()] })}>
          Preview quarantine…
        </button>{' '}
        <button type="button" disabled={selected().size === 0} onClick={() => setSelected(new Set<string>())}>
          Clear selection
        </button>
      </section>
      <Show when={quarantine.error()}>
        <p class="error" role="alert" data-testid="quarantine-error">
          {quarantine.error()}
        </p>
      </Show>
      {/* Keyed: the children get the value itself, so nothing reads a narrowed accessor after it is gone ("Stale read"). */}
      <Show when={quarantine.result()} keyed>
        {(result) => (
          <WriteResultBox
            result={result}
            onClose={() => {
              quarantine.clearResult();
              setSelected(new Set<string>());
            }}
          />
        )}
      </Show>
      <Show when={quarantine.preview()} keyed>
        {(preview) => (
          <>
            <QuarantinePreview preview={preview as never} />
            <Show when={mode() !== 'none'}>
              <ConfirmBox
                mode={mode() as 'dialog' | 'code'}
                action="Quarantine"
                busy={quarantine.busy()}
                codeRequested={quarantine.codeRequested()}
                onRequestCode={quarantine.requestCode}
                onCommit={quarantine.commit}
                onCancel={quarantine.cancel}
              />
            </Show>
          </>
        )}
      </Show>
      <EntryPicker selected={selected()} onToggle={toggle} onSelectMany={selectMany} params={router.route().params} onParams={router.setParams} />
      <BackupsPanel status={status} rollback={rollback} mode={mode()} disabled={disabledReason()} />
      <AuditPanel audit={audit} />
    </div>
  );
}
