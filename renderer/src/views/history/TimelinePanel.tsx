import { For, Match, Show, Switch, type JSX } from 'solid-js';
import { freshQuery } from '../../state/query';
import { operatorMessage } from '../../state/error-text';
import { when } from '../../state/format';
import { changeWhenText, fieldDiffText, lessonText, placeText, reasonText } from './change-text';
import { HISTORY_STORES } from './history-stores';

const ORIGIN_WORDS = { baseline: 'present when history began', 'catch-up': 'found when the console opened', live: 'seen while the console was watching' } as const;

/**
 * Every version history holds of one entry: when, where it lived, what changed and why each
 * ended. Shown here for an entry the live stores no longer hold (Knowledge cannot open it).
 */
export function TimelinePanel(props: { id: string; onClose: () => void; onOpenInKnowledge: () => void }): JSX.Element {
  const timeline = freshQuery(HISTORY_STORES, 'history.timeline', () => ({ id: props.id }));
  return (
    <aside class="history-timeline" aria-label="Entry timeline" data-testid="history-timeline">
      <header class="detail-head">
        <h2>Timeline</h2>
        <button type="button" aria-label="Close the timeline" onClick={() => props.onClose()}>
          ✕
        </button>
      </header>
      <p class="mono small">{props.id}</p>
      <Switch>
        <Match when={timeline.data.error}>
          <p class="error" role="alert">
            {operatorMessage(timeline.data.error)}
          </p>
        </Match>
        <Match when={timeline.data()}>
          {(data) => (
            <>
              <Show when={data().versions.length === 0}>
                <p class="muted">History holds no version of this entry.</p>
              </Show>
              <ol class="timeline-versions" data-testid="timeline-versions">
                <For each={data().versions}>
                  {(v, i) => (
                    <li data-testid="timeline-version">
                      <p>
                        <b>{changeWhenText({ at: v.from, unobserved: v.unobserved })}</b> · {placeText(v)} · <span class="muted">{ORIGIN_WORDS[v.origin]}</span>
                      </p>
                      <Show when={i() === 0 || v.fields.length === 0}>
                        <p class="lesson-text">{lessonText(typeof v.record?.lesson === 'string' ? v.record.lesson : null)}</p>
                      </Show>
                      <Show when={i() > 0 && v.fields.length}>
                        <ul class="diff-lines">
                          <For each={fieldDiffText(v.fields)}>{(line) => <li class="mono">{line}</li>}</For>
                        </ul>
                      </Show>
                      <p class="muted small">
                        {v.to === null ? 'still this version' : `until ${when(v.to)}`}
                        {v.end && v.end.code !== 'changed' ? ` — ${reasonText({ ...v.end, code: v.end.code })}` : v.end ? ' — replaced by the next version' : ''} · sha256 {v.sha256.slice(0, 12)}…
                      </p>
                    </li>
                  )}
                </For>
              </ol>
              <button type="button" onClick={() => props.onOpenInKnowledge()}>
                Look for it in Knowledge
              </button>
            </>
          )}
        </Match>
      </Switch>
    </aside>
  );
}
