import { For, Show, type JSX } from 'solid-js';
import { historyStartText, timelineText, type AsOfMoment, type TimelineVersion } from '../state/timeline-text';

/**
 * Every version history holds of one entry, newest first: when it held, where it lived, what
 * changed, how history learned of it, why it ended. One rendering for the detail pane's History
 * and the History area's timeline. Each version is a focus stop (Tab walks the list); `asOf`
 * marks the version in place at that moment; `withLessons` shows each version's lesson where it
 * changed (for an entry no store holds, whose lesson is shown nowhere else).
 */
export function VersionList(props: { id: string; versions: readonly TimelineVersion[]; asOf?: AsOfMoment | undefined; withLessons?: boolean }): JSX.Element {
  return (
    <>
      <p class="muted small">
        {props.versions.length === 1 ? '1 version' : `${props.versions.length} versions`}, newest first. Times are when the console saw each change (UTC).
      </p>
      <ol class="history-versions" aria-label={`Versions of ${props.id}, newest first`}>
        <For each={timelineText(props.versions, props.asOf)}>
          {(v) => (
            <li tabIndex={0} classList={{ current: v.current }} aria-current={v.current ? 'true' : undefined} data-testid="history-version">
              <div class="history-time">
                <span class="mono">{v.time}</span>
                <Show when={v.current}>
                  <span class="badge ok">the version as of this moment</span>
                </Show>
              </div>
              <div class="muted small" title={v.file}>
                {v.place}
              </div>
              <Show when={props.withLessons && v.lesson !== null}>
                <p class="lesson-text">{v.lesson}</p>
              </Show>
              <ul class="version-changes">
                <For each={v.changes}>{(line) => <li>{line}</li>}</For>
              </ul>
              <div class="small">How history learned of it: {v.origin}</div>
              <div class="small">{v.end}</div>
            </li>
          )}
        </For>
      </ol>
      <Show when={historyStartText(props.versions)}>{(text) => <p class="muted small" data-testid="history-start">{text()}</p>}</Show>
    </>
  );
}
