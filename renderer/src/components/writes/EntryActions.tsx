import { createSignal, For, Show, type JSX } from 'solid-js';
import './writes.css';
import type { Output } from '../../../../shared/contract';
import { useApi } from '../../api/port';
import { createQuery } from '../../state/query';
import { ConfirmBox } from '../ConfirmBox';
import { createHumanFlow } from '../../state/human-flow';
import { WriteResultBox } from './WriteResultBox';
import { plural } from '../../state/format';

type SwarmPreview = Output<'swarm.quarantine.preview'>;
type Action = 'quarantine' | 'restore' | 'promote';

const LABELS: Record<SwarmPreview['action'], string> = { quarantine: 'Quarantine', restore: 'Restore', promote: 'Promote to hive', archive: 'Archive' };

/** What the person confirms for a project-tier command: the entries, each file's change, the store fingerprint, the token. */
function SwarmPlan(props: { preview: SwarmPreview }): JSX.Element {
  return (
    <div class="swarm-plan" data-testid="swarm-preview">
      <p>
        {LABELS[props.preview.action]} — {props.preview.tier === 'link' ? `link store ${props.preview.linkId}` : props.preview.tier === 'hive' ? 'the hive' : 'the project'} (
        <span class="mono">{props.preview.storeDir}</span>)
      </p>
      <ul>
        <For each={props.preview.entries}>
          {(e) => (
            <li class="mono small">
              {e.id} · {e.from} · {e.status ?? '—'}
              {e.restoreTo ? ` → ${e.restoreTo}` : ''} · sha256 {e.lineSha256.slice(0, 12)}…
            </li>
          )}
        </For>
      </ul>
      <ul>
        <For each={props.preview.effects}>{(effect) => <li>{effect}</li>}</For>
      </ul>
      <p class="muted mono small">
        {plural(props.preview.store.entryCount, 'entry', 'entries')} · sha256 {props.preview.store.fileSha256.slice(0, 12)}… · token {props.preview.token12.slice(0, 8)}…
      </p>
    </div>
  );
}

/**
 * Human-only actions on one entry of the project (swarm or link tier): quarantine, restore to
 * the prior status, promote to the hive. Each previews first and commits only with the person's
 * confirmation (the dialog in Electron, the terminal's code in the browser host).
 */
export function EntryActions(props: { id: string; tier: 'swarm' | 'hive' | 'link'; collection: string; status: string }): JSX.Element {
  const api = useApi();
  const availability = createQuery('human.availability', () => ({}));
  const flows = {
    quarantine: createHumanFlow(api, 'swarm.quarantine.preview', 'swarm.quarantine.commit'),
    restore: createHumanFlow(api, 'swarm.restore.preview', 'swarm.restore.commit'),
    promote: createHumanFlow(api, 'swarm.promote.preview', 'swarm.promote.commit'),
  };
  const [active, setActive] = createSignal<Action | null>(null);
  const inPlace = () => props.status === 'archived' || props.status === 'quarantined';
  const actions = (): Action[] => {
    if (props.tier === 'hive') return [];
    if (props.collection === 'quarantined' || inPlace()) return ['restore'];
    return props.collection === 'active' ? ['quarantine', 'promote'] : [];
  };
  const mode = () => (availability.data()?.enabled ? (availability.data()?.mode as 'dialog' | 'code') : null);
  const start = (action: Action) => {
    setActive(action);
    void (action === 'promote' ? flows.promote.start({ id: props.id }) : flows[action].start({ ids: [props.id] }));
  };
  return (
    <Show when={actions().length}>
      <div class="entry-actions" data-testid="entry-actions">
        <For each={actions()}>
          {(action) => (
            <button type="button" data-testid={`entry-${action}`} disabled={!mode()} title={availability.data()?.reason ?? ''} onClick={() => start(action)}>
              {LABELS[action]}…
            </button>
          )}
        </For>
        <Show when={availability.data() && !availability.data()?.enabled}>
          <p class="muted small">{availability.data()?.reason}</p>
        </Show>
        <Show when={active()} keyed>
          {(action) => {
            const flow = () => flows[action];
            return (
              <>
                <Show when={flow().error()}>
                  <p class="error" role="alert">
                    {flow().error()}
                  </p>
                </Show>
                <Show when={flow().result()} keyed>
                  {(result) => <WriteResultBox result={result} onClose={() => setActive(null)} />}
                </Show>
                {/* Keyed: nothing reads the preview through a narrowed accessor once the commit has cleared it. */}
                <Show when={flow().preview()} keyed>
                  {(preview) => (
                    <>
                      <SwarmPlan preview={preview as SwarmPreview} />
                      <ConfirmBox
                        mode={mode() ?? 'dialog'}
                        action={LABELS[action]}
                        busy={flow().busy()}
                        codeRequested={flow().codeRequested()}
                        onRequestCode={flow().requestCode}
                        onCommit={flow().commit}
                        onCancel={() => {
                          flow().cancel();
                          setActive(null);
                        }}
                      />
                    </>
                  )}
                </Show>
              </>
            );
          }}
        </Show>
      </div>
    </Show>
  );
}
