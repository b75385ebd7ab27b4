import { For, Match, Show, Switch, type JSX } from 'solid-js';
import './as-of.css';
import { Term } from '../../../components/Term';
import { freshQuery } from '../../../state/query';
import { KNOWLEDGE_STORES } from '../knowledge-query';
import { historyStartText, NO_HISTORY_TEXT, timelineText, type AsOfMoment } from './timeline-text';

/**
 * The detail pane's "History": every version history holds of one entry, newest first — when,
 * where it lived, what changed, how history learned of it, why it ended. Each version is a focus
 * stop (Tab walks the list). `asOf` marks the version in place at that moment.
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
          <p class="error" role="alert">
            History could not be read: {String((timeline.data.error as Error).message ?? timeline.data.error)}
          </p>
        </Match>
        <Match when={timeline.data.latest === undefined}>
          <p class="muted">Reading history…</p>
        </Match>
        <Match when={versions().length === 0}>
          <p class="muted">{NO_HISTORY_TEXT}</p>
        </Match>
        <Match when={versions().length > 0}>
          <p class="muted small">
            {versions().length === 1 ? '1 version' : `${versions().length} versions`}, newest first. Times are when the console saw each change (UTC).
          </p>
          <ol class="history-versions" aria-label={`Versions of ${props.id}, newest first`}>
            <For each={timelineText(versions(), props.asOf)}>
              {(v) => (
                <li tabIndex={0} classList={{ current: v.current }} aria-current={v.current ? 'true' : undefined} data-testid="history-version">
                  <div class="history-time">
                    <span class="mono">{v.time}</span>
                    <Show when={v.current}>
                      <span class="badge ok">the version as of this moment</span>
                    </Show>
                  </div>
                  <div class="muted small">{v.place}</div>
                  <ul class="history-changes">
                    <For each={v.changes}>{(line) => <li>{line}</li>}</For>
                  </ul>
                  <div class="small">How history learned of it: {v.origin}</div>
                  <div class="small">{v.end}</div>
                </li>
              )}
            </For>
          </ol>
          <Show when={historyStartText(versions())}>{(text) => <p class="muted small" data-testid="history-start">{text()}</p>}</Show>
        </Match>
      </Switch>
    </section>
  );
}
