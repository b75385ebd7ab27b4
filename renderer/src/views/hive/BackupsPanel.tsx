import { createSignal, For, Show, type JSX } from 'solid-js';
import type { Output } from '../../../../shared/contract';
import type { Query } from '../../state/query';
import { ConfirmBox } from '../../components/ConfirmBox';
import type { HumanFlow } from '../../state/human-flow';
import { WriteResultBox } from '../../components/writes/WriteResultBox';
import { plural } from '../../state/format';

type RollbackPreview = Output<'hive.rollback.preview'>;

function RollbackPlan(props: { preview: RollbackPreview }): JSX.Element {
  return (
    <div class="rollback-plan" data-testid="rollback-preview">
      <p>
        Roll back <span class="mono">{props.preview.backup}</span>:{' '}
        {props.preview.method === 'exact'
          ? 'the hive is as the quarantine left it, so its original bytes come back whole.'
          : props.preview.method === 'reinsert'
            ? 'the hive changed since; the missing lines are added back at its end.'
            : 'every entry is already back; nothing would change.'}
      </p>
      <Show when={props.preview.trust !== 'signed'}>
        <p class="warn" data-testid="rollback-trust">
          This backup is {props.preview.trustLabel}: its lines were not necessarily ever in the hive. Read every lesson below before rolling back.
        </p>
      </Show>
      <p>
        Puts back {props.preview.restore.length || 'no'} {props.preview.restore.length === 1 ? 'line' : 'lines'}. Already identical:{' '}
        <span class="mono">{props.preview.skippedIdentical.join(', ') || 'none'}</span>.
      </p>
      {/* Lesson text is store text: rendered as text nodes only. */}
      <ul class="rollback-lines" data-testid="rollback-lines">
        <For each={props.preview.restore}>
          {(line) => (
            <li>
              <span class="mono">{line.id}</span>: {line.lesson || '(no lesson text)'}
            </li>
          )}
        </For>
      </ul>
      <Show when={props.preview.collisions.length}>
        <p class="error" data-testid="rollback-collisions">
          Collision: {props.preview.collisions.map((c) => `${c.id} is in the hive with different content`).join('; ')}. The rollback will refuse and change nothing.
        </p>
      </Show>
      <p class="muted mono small">
        Hive now: {plural(props.preview.store.entryCount, 'entry', 'entries')} · sha256 {props.preview.store.fileSha256.slice(0, 12)}… · token {props.preview.token12.slice(0, 8)}…
      </p>
    </div>
  );
}

/** Quarantine backups with their manifests and results (read-only), and rollback of one of them. */
export function BackupsPanel(props: { status: Query<Output<'hive.quarantine.status'>>; rollback: HumanFlow; mode: 'dialog' | 'code' | 'none'; disabled: string | null }): JSX.Element {
  const flow = props.rollback;
  // The separate, explicit choice for a backup this console did not sign: one checkbox per backup, off by default.
  const [allowed, setAllowed] = createSignal<ReadonlySet<string>>(new Set());
  const toggle = (name: string, on: boolean) => setAllowed((was) => (on ? new Set([...was, name]) : new Set([...was].filter((n) => n !== name))));
  return (
    <section class="backups-panel" data-testid="backups-panel">
      <h3>Backups and rollback</h3>
      {/* Keyed on the value: after the commit the preview is gone, and nothing may read it again ("Stale read from <Show>"). */}
      <Show when={flow.result()} keyed>
        {(result) => <WriteResultBox result={result} onClose={flow.clearResult} />}
      </Show>
      <Show when={flow.error()}>
        <p class="error" role="alert" data-testid="rollback-error">
          {flow.error()}
        </p>
      </Show>
      <Show when={flow.preview() as RollbackPreview | null} keyed>
        {(preview) => (
          <>
            <RollbackPlan preview={preview} />
            <Show when={props.mode !== 'none'}>
              <ConfirmBox
                mode={props.mode as 'dialog' | 'code'}
                action="Roll back"
                busy={flow.busy()}
                codeRequested={flow.codeRequested()}
                disabled={preview.method === 'none' ? null : props.disabled}
                onRequestCode={flow.requestCode}
                onCommit={flow.commit}
                onCancel={flow.cancel}
              />
            </Show>
          </>
        )}
      </Show>
      <Show when={props.status.data()} fallback={<p class="muted">Loading…</p>}>
        {(status) => (
          <>
            <p class="muted">
              Sidecar <span class="mono">shared-learnings-quarantined.jsonl</span>: {plural(status().sidecarEntries, 'entry', 'entries')}.
            </p>
            <For each={status().notes}>
              {(note) => (
                <p class="error" data-testid="backups-note">
                  {note}
                </p>
              )}
            </For>
            <table class="plain">
              <thead>
                <tr>
                  <th>Backup</th>
                  <th>State</th>
                  <th>Ids</th>
                  <th>Reason</th>
                  <th>Files</th>
                  <th>Made by</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                <For each={status().backups} fallback={<tr><td colSpan={7} class="muted">No quarantine backups yet.</td></tr>}>
                  {(backup) => (
                    <tr data-testid="backup-row">
                      <td class="mono">{backup.name}</td>
                      <td data-testid="backup-state">
                        {backup.state}
                        <For each={backup.warnings}>{(w) => <p class="warn">{w}</p>}</For>
                      </td>
                      <td class="mono">{backup.ids.join(', ')}</td>
                      <td>{backup.reason ?? ''}</td>
                      <td>{backup.verified ? 'verified' : <span class="error">{backup.problems.join('; ')}</span>}</td>
                      <td data-testid="backup-trust" class={backup.trust === 'signed' ? '' : 'warn'}>
                        {backup.trustLabel}
                        <Show when={backup.trust === 'foreign' && backup.verified}>
                          <p class="muted small">{backup.problems.join('; ')}</p>
                        </Show>
                      </td>
                      <td>
                        <Show when={backup.token12 && backup.state !== 'rolled_back'}>
                          <Show when={backup.trust !== 'signed'}>
                            <label class="small">
                              <input type="checkbox" data-testid="rollback-allow-unsigned" checked={allowed().has(backup.name)} onChange={(e) => toggle(backup.name, e.currentTarget.checked)} /> Roll back although this console did not sign it
                            </label>
                          </Show>
                          <button
                            type="button"
                            data-testid="rollback-start"
                            disabled={props.mode === 'none' || flow.busy()}
                            title={props.disabled ?? ''}
                            onClick={() => void flow.start(backup.trust === 'signed' ? { token: backup.token12 } : { token: backup.token12, allowUnsigned: allowed().has(backup.name) })}
                          >
                            Roll back…
                          </button>
                        </Show>
                      </td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
}
