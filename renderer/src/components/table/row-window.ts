import { batch, createComputed, createSignal, onCleanup, onMount, untrack, type Accessor } from 'solid-js';
import { sameRange, type RowRange } from './row-slots';

interface RowWindowOptions {
  count: Accessor<number>;
  rowHeight: number;
  overscan: number;
  /** Height of what sits above the first row inside the scroll element (the sticky header). */
  scrollMargin: number;
  scrollElement: () => HTMLElement | null;
}

interface RowWindow {
  /** The rows to keep in the DOM (visible + overscan), as [start, end). */
  range: Accessor<RowRange>;
  /** The rows in view (no overscan). */
  view: Accessor<RowRange>;
  totalSize: Accessor<number>;
  scrollToIndex(index: number): void;
}

interface Viewport {
  /** The scroll element's scrollTop. */
  offset: number;
  /** Its visible height (the sticky header included). */
  height: number;
  count: number;
  rowHeight: number;
  overscan: number;
  scrollMargin: number;
}

/** The rows a viewport shows, widened by `overscan` rows each side and kept inside the list. */
export function rowsInView(view: Viewport): RowRange {
  if (view.count === 0 || view.height <= 0) return { start: 0, end: 0 };
  const first = Math.floor((view.offset - view.scrollMargin) / view.rowHeight);
  const last = Math.ceil((view.offset + view.height - view.scrollMargin) / view.rowHeight);
  const start = Math.min(view.count - 1, Math.max(0, first - view.overscan));
  return { start, end: Math.max(start + 1, Math.min(view.count, last + view.overscan)) };
}

/**
 * The scrollTop that brings row `index` fully into view below the sticky header, moving as little
 * as it can; null when it is in view already.
 */
export function scrollTopFor(index: number, view: Omit<Viewport, 'overscan' | 'count'>): number | null {
  const top = view.scrollMargin + index * view.rowHeight;
  if (top - view.scrollMargin < view.offset) return top - view.scrollMargin;
  if (top + view.rowHeight > view.offset + view.height) return top + view.rowHeight - view.height;
  return null;
}

/**
 * The rows in view, from the scroll element's scrollTop and height. Rows have one fixed height,
 * so this is arithmetic: a scroll event reads scrollTop (layout is clean then) and writes one
 * signal, which changes only when a row enters or leaves. TanStack Virtual, used before, kept a
 * measurement list, a debounce timer per scroll event and read the scroll height each time: a
 * third of the script of a scrolled frame that changes nothing.
 */
export function createRowWindow(options: RowWindowOptions): RowWindow {
  const [range, setRange] = createSignal<RowRange>({ start: 0, end: 0 }, { equals: sameRange });
  const [view, setView] = createSignal<RowRange>({ start: 0, end: 0 }, { equals: sameRange });
  let offset = 0;
  let height = 0;
  const publish = (count: number) =>
    batch(() => {
      const viewport = { offset, height, count, rowHeight: options.rowHeight, scrollMargin: options.scrollMargin };
      setRange(rowsInView({ ...viewport, overscan: options.overscan }));
      setView(rowsInView({ ...viewport, overscan: 0 }));
    });
  onMount(() => {
    const element = options.scrollElement();
    if (!element) return;
    const onScroll = () => {
      offset = element.scrollTop;
      publish(untrack(options.count));
    };
    const observer = new ResizeObserver((entries) => {
      height = entries[entries.length - 1]!.contentRect.height;
      onScroll();
    });
    element.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(element);
    onCleanup(() => {
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    });
  });
  createComputed(() => publish(options.count()));
  return {
    range,
    view,
    totalSize: () => options.count() * options.rowHeight,
    scrollToIndex(index) {
      const element = options.scrollElement();
      if (!element) return;
      const next = scrollTopFor(index, { offset: element.scrollTop, height: element.clientHeight, rowHeight: options.rowHeight, scrollMargin: options.scrollMargin });
      if (next !== null) element.scrollTop = next;
    },
  };
}
