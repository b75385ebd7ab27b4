import { createSignal, Show, type JSX } from 'solid-js';
import './as-of.css';
import { Badge, StatusBadge } from '../../../components/Badge';
import { FieldList } from '../detail-sections';
import type { DetailTarget } from '../DetailPane';
import { collectionOf, type HistoricalEntry } from './historical-rows';
import { HistorySection } from './HistorySection';
import { whenToSecond } from '../../../state/moments';

/**
 * The detail pane as of a moment: the entry's line as history recorded it then, as text, and its
 * history. Read-only — no action is offered — and nothing here is worked out now (counters,
 * markers, receipts, skills): history keeps the line, not the logs those come from.
 */
export function AsOfDetail(props: { target: DetailTarget; entry: HistoricalEntry | null; at: string; historyBegan: string | null; label: string; onClose: () => void }): JSX.Element {
  const [raw, setRaw] = createSignal(false);
  const record = () => props.entry?.record ?? null;
  return (
    <aside class="detail as-of-detail" aria-label="Entry detail as of a moment" data-testid="detail">
      <header class="detail-head">
        <h2>Entry as of {whenToSecond(props.at)}</h2>
        <button type="button" aria-label="Close detail" onClick={props.onClose}>
          ✕
        </button>
      </header>
      <div class="detail-body">
        <Show
          when={props.entry}
          fallback={
            <p class="warn" role="status" data-testid="as-of-not-there">
              <code>{props.target.id}</code> was in no store{props.target.tier ? ` of the ${props.target.tier} tier` : ''} as of {whenToSecond(props.at)} ({props.label}). Its history below
              says when it came and went.
            </p>
          }
        >
          {(entry) => (
            <>
              <p class="lesson-text" data-testid="detail-lesson">
                {String(record()?.lesson ?? '')}
              </p>
              <p class="badges">
                <StatusBadge status={String(record()?.status ?? (entry().kind === 'rejected' ? 'rejected' : 'unknown'))} /> <Badge>{entry().tier}</Badge> <Badge tone="muted">{collectionOf(entry().kind)}</Badge>
              </p>
              <p class="mono small">
                {entry().id} · {entry().file}
              </p>
              <p class="small" data-testid="as-of-version">
                This line was in {entry().file} from {whenToSecond(entry().since)} and is shown as it was then (version {entry().sha256.slice(0, 12)}).
              </p>
              <p class="muted small">
                Read-only: history's record of the store line. Effective counters, markers, receipts and skills are not known as of a moment — they are worked out from logs
                history does not keep. Go back to now for them and for actions.
              </p>
              <h3>
                Fields then{' '}
                <button type="button" class="link" aria-pressed={raw()} onClick={() => setRaw(!raw())}>
                  {raw() ? 'show fields' : 'show raw JSON'}
                </button>
              </h3>
              <Show when={record()} fallback={<p class="muted">The line then was not a JSON object: history keeps it, but it has no fields to show.</p>}>
                {(value) => (
                  <Show when={raw()} fallback={<FieldList value={value()} />}>
                    <pre data-testid="raw-json">{JSON.stringify(value(), null, 2)}</pre>
                  </Show>
                )}
              </Show>
            </>
          )}
        </Show>
        <HistorySection id={props.target.id} asOf={props.at ? { at: props.at, historyBegan: props.historyBegan } : undefined} />
      </div>
    </aside>
  );
}
