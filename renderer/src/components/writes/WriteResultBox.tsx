import { For, onMount, Show, type JSX } from 'solid-js';
import type { Output } from '../../../../shared/contract';
import './writes.css';
import { when, plural } from '../../state/format';

/**
 * What a commit or rollback actually did, in the words the core reported. `done` names a commit
 * (default "Quarantined") and `store` the file it wrote (default "Hive") for the other human-only writes.
 */
export function WriteResultBox(props: { result: Output<'hive.quarantine.commit'>; onClose: () => void; done?: string; store?: string }): JSX.Element {
  let box: HTMLElement | undefined;
  // The spent form had the focus: the result takes it, so Tab reaches Done and the keyboard keeps working.
  onMount(() => box?.focus());
  return (
    <section class="write-result" data-testid="write-result" role="status" tabIndex={-1} ref={box}>
      <h3>{props.result.state === 'committed' ? (props.done ?? 'Quarantined') : props.result.state === 'rolled_back' ? 'Rolled back' : props.result.state === 'nothing_to_do' ? 'Nothing to do' : props.result.state}</h3>
      <For each={props.result.messages}>{(message) => <p>{message}</p>}</For>
      <dl class="fields">
        <dt>Token</dt>
        <dd class="mono">{props.result.token12}</dd>
        <Show when={props.result.backup}>
          <dt>Backup</dt>
          <dd class="mono">{props.result.backup}</dd>
        </Show>
        <dt>{props.store ?? 'Hive'} before</dt>
        <dd class="mono">
          {plural(props.result.before.entryCount, 'entry', 'entries')} · sha256 {props.result.before.fileSha256.slice(0, 12)}…
        </dd>
        <dt>{props.store ?? 'Hive'} after</dt>
        <dd class="mono" data-testid="result-after">
          {plural(props.result.after.entryCount, 'entry', 'entries')} · sha256 {props.result.after.fileSha256.slice(0, 12)}…
        </dd>
        <Show when={props.result.revertCheckAt}>
          <dt>Re-check</dt>
          <dd>at {when(props.result.revertCheckAt)} the console re-reads the {props.store ? 'store' : 'hive'}; a concurrent plugin rewrite that reverts this shows as a warning under Backups.</dd>
        </Show>
      </dl>
      <button type="button" onClick={() => props.onClose()}>
        Done
      </button>
    </section>
  );
}
