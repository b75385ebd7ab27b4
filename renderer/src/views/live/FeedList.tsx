import { createEffect, For, on, Show } from 'solid-js';
import { createVirtualizer } from '@tanstack/solid-virtual';
import type { FeedItem } from '../../../../shared/contract/live';
import { OUTCOME_LABEL, relativeTime } from './feed-state';
import { when } from '../../state/format';

/** Must match `.live-row { height }` in live.css (a style attribute would break the CSP). Two lines: the gate code has the first to itself. */
const ROW_HEIGHT = 42;

/**
 * The feed, newest first, virtualised (only rows in view exist in the DOM). When new items land
 * above the rows the operator is reading, the scroll position moves with them so nothing jumps.
 */
export function FeedList(props: {
  items: FeedItem[];
  selectedId: string | null;
  now: number;
  hasMore: boolean;
  loading: boolean;
  onSelect: (item: FeedItem) => void;
  onOpen: (item: FeedItem) => void;
  onNeedMore: () => void;
}) {
  let scrollElement: HTMLDivElement | undefined;
  const virtualizer = createVirtualizer({
    get count() {
      return props.items.length;
    },
    getScrollElement: () => scrollElement ?? null,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  createEffect(
    on(
      () => props.items,
      (next, prev) => {
        if (!prev || !scrollElement || scrollElement.scrollTop < ROW_HEIGHT / 2) return;
        const oldIndex = Math.floor(scrollElement.scrollTop / ROW_HEIGHT);
        const anchor = prev[oldIndex];
        if (!anchor) return;
        const newIndex = next.findIndex((i) => i.id === anchor.id);
        if (newIndex > oldIndex) scrollElement.scrollTop += (newIndex - oldIndex) * ROW_HEIGHT;
      },
    ),
  );

  createEffect(() => {
    const visible = virtualizer.getVirtualItems();
    const last = visible[visible.length - 1];
    if (props.hasMore && !props.loading && last && last.index >= props.items.length - 20) props.onNeedMore();
  });

  createEffect(() => {
    const index = props.items.findIndex((i) => i.id === props.selectedId);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  });

  return (
    <div class="live-feed" ref={scrollElement} tabindex="0" role="list" aria-label="Denials and gate events" data-testid="live-feed">
      <div class="live-feed-body" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <For each={virtualizer.getVirtualItems()}>
          {(row) => {
            const item = () => props.items[row.index];
            return (
              <Show when={item()}>
                {(it) => (
                  <div
                    role="listitem"
                    class={`live-row kind-${it().kind}`}
                    classList={{ selected: props.selectedId === it().id }}
                    aria-selected={props.selectedId === it().id}
                    style={{ transform: `translateY(${row.start}px)` }}
                    data-testid="feed-row"
                    data-kind={it().kind}
                    onClick={() => props.onSelect(it())}
                    onDblClick={() => props.onOpen(it())}
                  >
                    <span class="live-time muted time" title={relativeTime(it().time, props.now)}>
                      {when(it().time)}
                    </span>
                    <span class={`badge kind-${it().kind}`}>{it().kind}</span>
                    <span class="live-gate mono" title={it().gate} data-testid="feed-gate">
                      {it().gate}
                    </span>
                    <span class="live-tool mono" title={it().tool ?? ''} data-testid="feed-tool">
                      {it().tool ?? '—'}
                    </span>
                    <span class="live-directives mono" title={it().directiveIds.join('\n')} data-testid="feed-directives">
                      {it().directiveIds.join(', ') || '—'}
                    </span>
                    <span class="live-session-id mono muted" title={it().sessionID ?? ''} data-testid="feed-session">
                      {it().sessionID ?? '—'}
                    </span>
                    <span class="live-outcome small">
                      {it().followUp ? OUTCOME_LABEL[it().followUp!.outcome] : it().sources.join(' + ')}
                    </span>
                  </div>
                )}
              </Show>
            );
          }}
        </For>
      </div>
      <Show when={props.items.length === 0 && !props.loading}>
        <div class="vt-empty muted">Nothing yet. Connect a server, or wait for the plugin to write a gate event.</div>
      </Show>
    </div>
  );
}
