import { createEffect, For, on, Show, type JSX } from 'solid-js';
import { createVirtualizer } from '@tanstack/solid-virtual';
import { lessonText, placeText } from '../../state/history-words';
import { changeWhenText, rowDetailLines, type ChangeRow } from './change-text';

/** A first guess of a row's height; each row is measured once drawn (a diff has several lines). */
const ESTIMATE = 74;

const domId = (index: number) => `history-change-${index}`;

/**
 * The changes, virtualised (a year of history can hold thousands): the cursor row is marked and
 * kept in view, and the list itself keeps the keyboard focus (the row is its active descendant).
 */
export function ChangeList(props: {
  rows: ChangeRow[];
  cursor: number;
  loading: boolean;
  empty: string;
  onSelect: (index: number) => void;
  onOpen: (index: number) => void;
  onTimeline: (row: ChangeRow) => void;
  ref: (element: HTMLDivElement) => void;
}): JSX.Element {
  let scrollElement: HTMLDivElement | undefined;
  const virtualizer = createVirtualizer({
    get count() {
      return props.rows.length;
    },
    getScrollElement: () => scrollElement ?? null,
    estimateSize: () => ESTIMATE,
    overscan: 8,
  });
  createEffect(on(() => props.cursor, (cursor) => cursor >= 0 && virtualizer.scrollToIndex(cursor, { align: 'auto' })));

  return (
    <div
      class="history-changes-list"
      ref={(el) => {
        scrollElement = el;
        props.ref(el);
      }}
      tabIndex={0}
      role="listbox"
      aria-label="Changes"
      aria-activedescendant={props.cursor >= 0 ? domId(props.cursor) : undefined}
      data-testid="history-changes-list"
    >
      <div class="history-changes-body" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <For each={virtualizer.getVirtualItems()}>
          {(item) => {
            const row = () => props.rows[item.index];
            return (
              <Show when={row()}>
                {(r) => (
                  <div
                    id={domId(item.index)}
                    ref={(el) => queueMicrotask(() => el.isConnected && virtualizer.measureElement(el))}
                    data-index={item.index}
                    role="option"
                    aria-selected={props.cursor === item.index}
                    class={`history-change change-${r().change}`}
                    classList={{ current: props.cursor === item.index }}
                    style={{ transform: `translateY(${item.start}px)` }}
                    data-testid="history-change"
                    data-change={r().change}
                    data-id={r().id}
                    onClick={() => props.onSelect(item.index)}
                    onDblClick={() => props.onOpen(item.index)}
                  >
                    <div class="history-change-head">
                      <span class={`badge change-${r().change}`}>{r().change}</span>
                      <span class="mono small" title={r().id}>
                        {r().id}
                      </span>
                      <span class="muted small" title={r().place.file}>
                        {placeText(r().place)}
                      </span>
                      <span class="small history-when" data-testid="history-change-when">
                        {changeWhenText(r())}
                      </span>
                      <button
                        type="button"
                        class="small"
                        onClick={(e) => {
                          e.stopPropagation();
                          props.onTimeline(r());
                        }}
                      >
                        Timeline
                      </button>
                    </div>
                    <p class="lesson-text">{lessonText(r().lesson)}</p>
                    <Show when={rowDetailLines(r()).length}>
                      <ul class="diff-lines" data-testid="history-change-detail">
                        <For each={rowDetailLines(r())}>{(line) => <li class={r().change === 'changed' ? 'mono' : ''}>{line}</li>}</For>
                      </ul>
                    </Show>
                  </div>
                )}
              </Show>
            );
          }}
        </For>
      </div>
      <Show when={props.rows.length === 0}>
        <p class="muted history-empty" data-testid="history-changes-empty">
          {props.loading ? 'Reading history…' : props.empty}
        </p>
      </Show>
    </div>
  );
}
