import { Match, Switch, type JSX } from 'solid-js';
import './as-of.css';
import { Term } from '../../../components/Term';
import { VersionList } from '../../../components/VersionList';
import { freshQuery } from '../../../state/query';
import { KNOWLEDGE_STORES } from '../knowledge-query';
import { NO_HISTORY_TEXT, type AsOfMoment } from '../../../state/timeline-text';
import { LoadFailure } from '../../../components/LoadFailure';

/**
 * The detail pane's "History": every version history holds of one entry (components/VersionList).
 * `asOf` marks the version in place at that moment.
 */
export function HistorySection(props: { id: string; asOf?: AsOfMoment | undefined }): JSX.Element {
  const timeline = freshQuery(KNOWLEDGE_STORES, 'history.timeline', () => ({ id: props.id }));
  const versions = () => (timeline.data.error ? [] : (timeline.data.latest?.versions ?? []));
  return (
    <section class="entry-history" aria-labelledby="entry-history-title" data-testid="entry-history">
      <h3 id="entry-history-title">
        <Term id="entry-history">History</Term>
      </h3>
      <Switch>
        <Match when={timeline.data.error}>
          <LoadFailure error={timeline.data.error} retry={timeline.refetch} what="History could not be read" />
        </Match>
        <Match when={timeline.data.latest === undefined}>
          <p class="muted">Reading history…</p>
        </Match>
        <Match when={versions().length === 0}>
          <p class="muted">{NO_HISTORY_TEXT}</p>
        </Match>
        <Match when={versions().length > 0}>
          <VersionList id={props.id} versions={versions()} asOf={props.asOf} />
        </Match>
      </Switch>
    </section>
  );
}
