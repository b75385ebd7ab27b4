import { createSignal, For, Show, type JSX } from 'solid-js';
import type { ForgottenOutput, RestorePreview as Preview } from '../../../../shared/contract/history';
import { useApi } from '../../api/port';
import { ConfirmBox } from '../../components/ConfirmBox';
import { plural, when } from '../../state/format';
import { createHumanFlow } from '../../state/human-flow';
import { createQuery, freshQuery } from '../../state/query';
import { WriteResultBox } from '../../components/writes/WriteResultBox';
import { lessonText, placeText, reasonText, unobservedText } from '../../state/history-words';
import { HISTORY_STORES } from './history-stores';
import { RestorePreview } from './RestorePreview';
import { Term } from '../../components/Term';
import { TimelinePanel } from './TimelinePanel';
import { LoadFailure } from '../../components/LoadFailure';

type Forgotten = ForgottenOutput['entries'][number];

/** Entries drawn at once: a year of evictions can be thousands; more on request. */
const PAGE = 200;

const lessonOf = (entry: Forgotten) => lessonText(typeof entry.record?.lesson === 'string' ? entry.record.lesson : null);

/**
 * Lessons that left the active stores without a person quarantining them, with their last
 * version and why they left. Restore… is the human-only flow every write of the console uses:
 * preview → the person's confirmation → commit → what happened.
 */
export function ForgottenTab(props: { timeline: string | null; onTimeline: (id: string | null) => void; onOpenInKnowledge: (id: string, tier: string) => void }): JSX.Element {
  const api = useApi();
  const forgotten = freshQuery(HISTORY_STORES, 'history.forgotten', () => ({}));
  const availability = createQuery('human.availability', () => ({}));
  const restore = createHumanFlow(api, 'history.restore.preview', 'history.restore.commit', () => forgotten.refetch());
  const [restoring, setRestoring] = createSignal<string | null>(null);
  const [shown, setShown] = createSignal(PAGE);
  const mode = () => (availability.data()?.enabled ? (availability.data()?.mode as 'dialog' | 'code') : null);
  const entries = () => (forgotten.data.state === 'errored' ? [] : (forgotten.data.latest?.entries ?? []));
  const start = (entry: Forgotten) => {
    setRestoring(entry.id);
    void restore.start({ id: entry.id, sha256: entry.sha256 });
  };

  return (
    <div class="history-forgotten" data-testid="history-forgotten">
      <p class="muted">
        <Term id="forgotten">Forgotten lessons</Term>: entries that left the active stores of this workspace without a person quarantining them — evicted past the plugin’s cap, archived, deleted by a sweep, moved to a side file — each with
        its last version and why it left. <Term id="history-restore">Restore</Term> appends that version to its tier’s active store, as the plugin’s own restore appends; its preview shows the exact line before anything is written.
      </p>
      <Show when={availability.data() && !availability.data()?.enabled}>
        <p class="banner warn" role="status" data-testid="human-disabled">
          Restoring is disabled here. {availability.data()?.reason}
        </p>
      </Show>
      <Show when={restore.error()}>
        <p class="error" role="alert" data-testid="restore-error">
          {restore.error()}
        </p>
      </Show>
      <Show when={restore.result()} keyed>
        {(result) => (
          <WriteResultBox
            result={result}
            done="Restored"
            store="Store"
            onClose={() => {
              restore.clearResult();
              setRestoring(null);
            }}
          />
        )}
      </Show>
      {/* Keyed: nothing reads the preview through a narrowed accessor once the commit has cleared it. */}
      <Show when={restore.preview()} keyed>
        {(preview) => (
          <>
            <RestorePreview preview={preview as Preview} />
            <Show when={mode()}>
              {(m) => (
                <ConfirmBox
                  mode={m()}
                  action="Restore"
                  busy={restore.busy()}
                  codeRequested={restore.codeRequested()}
                  onRequestCode={restore.requestCode}
                  onCommit={restore.commit}
                  onCancel={() => {
                    restore.cancel();
                    setRestoring(null);
                  }}
                />
              )}
            </Show>
          </>
        )}
      </Show>
      <Show when={forgotten.data.state === 'errored'}>
        <LoadFailure error={forgotten.data.error} retry={forgotten.refetch} what="History could not answer" />
      </Show>
      <Show when={forgotten.data.state === 'errored' || forgotten.data.latest} fallback={<p class="muted">Reading history…</p>}>
        <p class="small" data-testid="forgotten-count">
          {plural(entries().length, 'forgotten entry', 'forgotten entries')}
        </p>
        <div class="history-body" classList={{ 'with-timeline': !!props.timeline }}>
        <ul class="forgotten-list">
          <For each={entries().slice(0, shown())} fallback={<li class="muted">Nothing has left the active stores since history began.</li>}>
            {(entry) => (
              <li class="forgotten-item" classList={{ current: restoring() === entry.id }} data-testid="forgotten-entry" data-id={entry.id}>
                <p class="lesson-text">{lessonOf(entry)}</p>
                <p class="small">
                  <span class="mono">{entry.id}</span> · <span title={entry.file}>{placeText(entry)}</span> · <span data-testid="forgotten-left">{entry.unobserved ? unobservedText(entry.unobserved) : `left ${when(entry.leftAt)}`}</span>
                </p>
                <p class="small" data-testid="forgotten-reason">
                  Why: {reasonText(entry.reason)}
                </p>
                <p class="muted small">Where it is now: {entry.now ?? 'in no store the console reads (only history holds it)'}</p>
                <div class="forgotten-actions">
                  <button type="button" data-testid="forgotten-restore" disabled={!mode() || restore.busy()} title={availability.data()?.reason ?? ''} onClick={() => start(entry)}>
                    Restore…
                  </button>{' '}
                  <button type="button" onClick={() => props.onTimeline(entry.id)}>
                    Timeline
                  </button>
                </div>
              </li>
            )}
          </For>
          <Show when={entries().length > shown()}>
            <li>
              <button type="button" data-testid="forgotten-more" onClick={() => setShown(shown() + PAGE)}>
                Show {Math.min(PAGE, entries().length - shown())} more ({plural(entries().length - shown(), 'entry', 'entries')} not shown yet)
              </button>
            </li>
          </Show>
        </ul>
        <Show when={props.timeline} keyed>
          {(id) => (
            <TimelinePanel
              id={id}
              onClose={() => props.onTimeline(null)}
              onOpenInKnowledge={() => props.onOpenInKnowledge(id, entries().find((e) => e.id === id)?.tier ?? '')}
            />
          )}
        </Show>
        </div>
      </Show>
    </div>
  );
}
