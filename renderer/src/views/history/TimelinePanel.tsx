import { Match, Show, Switch, type JSX } from 'solid-js';
import { VersionList } from '../../components/VersionList';
import { freshQuery } from '../../state/query';
import { NO_HISTORY_TEXT } from '../../state/timeline-text';
import { HISTORY_STORES } from './history-stores';
import { LoadFailure } from '../../components/LoadFailure';

/**
 * The timeline of an entry the live stores no longer hold (Knowledge cannot open it): the same
 * version list as the detail pane's History, with each version's lesson, since it is shown
 * nowhere else.
 */
export function TimelinePanel(props: { id: string; onClose: () => void; onOpenInKnowledge: () => void }): JSX.Element {
  const timeline = freshQuery(HISTORY_STORES, 'history.timeline', () => ({ id: props.id }));
  return (
    <aside class="history-timeline entry-history" aria-label="Entry timeline" data-testid="history-timeline">
      <header class="detail-head">
        <h2>Timeline</h2>
        <button type="button" aria-label="Close the timeline" onClick={() => props.onClose()}>
          ✕
        </button>
      </header>
      <p class="mono small">{props.id}</p>
      <Switch>
        <Match when={timeline.data.error}>
          <LoadFailure error={timeline.data.error} retry={timeline.refetch} what="History could not answer" />
        </Match>
        <Match when={timeline.data()}>
          {(data) => (
            <>
              <Show when={data().versions.length === 0}>
                <p class="muted">{NO_HISTORY_TEXT}</p>
              </Show>
              <Show when={data().versions.length > 0}>
                <VersionList id={props.id} versions={data().versions} withLessons />
              </Show>
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
