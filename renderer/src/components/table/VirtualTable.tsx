import { batch, createComputed, createEffect, createMemo, createSignal, For, onCleanup, onMount, Show, type Accessor, type JSX, type Signal } from 'solid-js';
import './table.css';
import { columnOrderingFeature, columnVisibilityFeature, createColumnHelper, createTable, rowSortingFeature, tableFeatures } from '@tanstack/solid-table';
import { columnLayout } from './column-layout';
import type { PagedRows } from './paged-rows';
import { blocksOf, fullRange, sameRange, slotIndex } from './row-slots';
import { createRowWindow } from './row-window';
import { ScrollPace, SlotFiller, type IdleDeadlineLike } from './slot-fill';
import { createTextWidth, type TextWidth } from './text-width';
import { resolveOrder, type ColumnState, type SortState } from './table-state';

/**
 * A reusable virtualised data grid over a server-side paged list. TanStack Table (v9,
 * `createTable` + `tableFeatures`) owns the column model — visibility, order and manual
 * (server-side) sorting — and only the rows in view are rendered (row-window.ts), recycled by
 * blocks, so 100,000 rows scroll like 40. Rows have a fixed height: no measuring while scrolling.
 */
export interface TableColumn<Row> {
  id: string;
  header: string;
  /** Width in px; for a `grow` column, the least it shrinks to. */
  width: number;
  /** Takes the pane's remaining width, so the default columns fit without sideways scrolling. */
  grow?: boolean;
  /** Hover text of a cell, e.g. the whole value of a clipped one (a `title`: text, never HTML). */
  tooltip?: (row: Row) => string | undefined;
  sortable?: boolean;
  align?: 'left' | 'right';
  /** What the column's concept means (glossary words): the header's tooltip and accessible description. */
  description?: string;
  /**
   * Content can be wider than the column: clip it with an ellipsis. Off by default because every
   * clipped cell is a clip node the compositor re-layerizes on each scrolled frame. `true` clips
   * every cell of the column; a function says whether this row's content is wider than
   * `available` px (measured with `text`, which reads no layout), so only cells that overflow clip.
   */
  clip?: boolean | ((row: Row, available: number, text: TextWidth) => boolean);
  /**
   * Renders the cell as TEXT/elements — never as HTML. `row` follows the recycled slot from row
   * to row: plain values re-render as text in place, and components given `row()` props update
   * their own nodes instead of being rebuilt.
   */
  cell: (row: Accessor<Row>) => JSX.Element;
}

export interface TableApi {
  scrollToIndex(index: number): void;
  /** Index of the first row in view. */
  firstVisibleIndex(): number;
  /** Shifts the scroll position by whole rows (keeps the same rows under the cursor after an insert above). */
  shiftRows(delta: number): void;
  focus(): void;
}

const features = tableFeatures({ columnVisibilityFeature, columnOrderingFeature, rowSortingFeature });

interface VirtualTableProps<Row> {
  label: string;
  columns: TableColumn<Row>[];
  rows: PagedRows<Row>;
  rowKey: (row: Row) => string;
  sort: Accessor<SortState>;
  onSort: (next: SortState) => void;
  columnState: Accessor<ColumnState>;
  selectedIndex: Accessor<number>;
  onSelect: (index: number) => void;
  onOpen: (index: number) => void;
  rowClass?: (row: Row | undefined, index: number) => string;
  rowHeight?: number;
  api?: (api: TableApi) => void;
  empty?: JSX.Element;
}

/** Must match `.vt-header { height }` in table.css (a style attribute would break the CSP). */
const HEADER_HEIGHT = 30;
/** Must match `.vt-td { padding }` in table.css: the width a cell's content has is its column's less this. */
const CELL_PADDING = 16;
/** Rows loaded ahead of the view in the direction it scrolls (two blocks of the Knowledge table). */
const READ_AHEAD = 400;
/** Rows recycled together (see `blocks`): fewer frames change the DOM, each changes more rows. */
const BLOCK_ROWS = 8;
/**
 * Rows kept beyond each edge of the view: a block enters the window two to four brisk-wheel
 * frames before it scrolls into view, and is moved and rewritten in an idle period between
 * (slot-fill.ts), nearest the view first. 12 rows did no better (more rows to paint each time).
 */
const OVERSCAN = 8;
/** A scroll event that moves more rows than this, right after another one, is a fling (slot-fill.ts). */
const FLING_ROWS = 16;

/**
 * A frame's idle period can be missing altogether on a busy machine (the frame ends past its
 * deadline): then the slot is written after this long anyway, still outside a frame and still
 * before it scrolls into view (the overscan is two to four frames of brisk scrolling).
 */
const IDLE_TIMEOUT_MS = 20;

/** requestIdleCallback, with a timeout so a busy thread still fills its rows; a timer where there is none. */
function requestIdle(work: (deadline: IdleDeadlineLike) => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(() => work({ timeRemaining: () => 0, didTimeout: true }), 16);
}


export function VirtualTable<Row extends Record<string, any>>(props: VirtualTableProps<Row>): JSX.Element {
  const rowHeight = props.rowHeight ?? 28;
  const helper = createColumnHelper<typeof features, Row>();
  const byId = new Map(props.columns.map((c) => [c.id, c]));
  const allIds = props.columns.map((c) => c.id);
  const table = createTable({
    features,
    columns: helper.columns(props.columns.map((c) => helper.display({ id: c.id, header: c.header, enableSorting: c.sortable !== false }))),
    data: [] as Row[],
    manualSorting: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    get state() {
      const state = props.columnState();
      return {
        sorting: [props.sort()],
        columnOrder: resolveOrder(state.order, allIds),
        columnVisibility: Object.fromEntries(state.hidden.map((id) => [id, false])),
      };
    },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater([props.sort()]) : updater;
      if (next[0]) props.onSort({ id: next[0].id, desc: next[0].desc });
    },
  });

  const visible = createMemo(() => table.getVisibleLeafColumns().map((column) => byId.get(column.id)!).filter(Boolean));

  let scrollElement: HTMLDivElement | undefined;
  // Column widths in px for the pane's width, measured only when it resizes (a ResizeObserver
  // reads no layout), published as CSS variables the header and every row use: rows then have a
  // fixed size, so each recycled row is a layout boundary of its own (`contain: strict`).
  const [paneWidth, setPaneWidth] = createSignal(0);
  onMount(() => {
    const observer = new ResizeObserver((entries) => setPaneWidth(entries[entries.length - 1]!.contentRect.width));
    observer.observe(scrollElement!);
    onCleanup(() => observer.disconnect());
  });
  const layout = createMemo(() => columnLayout(visible(), paneWidth()));
  const available = createMemo(() => new Map(visible().map((column, i) => [column.id, layout().widths[i]! - CELL_PADDING])));
  const text = createTextWidth(() => {
    const style = getComputedStyle(scrollElement!);
    return { family: style.fontFamily, size: parseFloat(style.fontSize) };
  });
  const clips = (column: TableColumn<Row>, row: Row) => (typeof column.clip === 'function' ? column.clip(row, available().get(column.id) ?? 0, text) : column.clip === true);
  const rowWindow = createRowWindow({
    count: () => props.rows.total(),
    rowHeight,
    overscan: OVERSCAN,
    scrollMargin: HEADER_HEIGHT,
    scrollElement: () => scrollElement ?? null,
  });
  // Rows are recycled by blocks of BLOCK_ROWS: a block keeps its place while the view scrolls
  // past it, so a scrolled frame that enters no new block changes nothing in the DOM (the
  // compositor alone scrolls), and one that does moves a single element. Moving rows one by one
  // changed a paint chunk and a transform node per row, re-layerizing and repainting every frame.
  const blockCount = () => Math.ceil(props.rows.total() / BLOCK_ROWS);
  const wantedBlocks = createMemo(() => blocksOf(rowWindow.range(), BLOCK_ROWS), undefined, { equals: sameRange });
  // The pool only grows (a taller window), so a slot keeps its block while the operator scrolls.
  const poolSize = createMemo<number>((previous) => Math.max(previous, wantedBlocks().end - wantedBlocks().start), 0);
  // Every slot always shows a block: a window that shrank by one block (a partial block at the
  // edge) would otherwise hide a slot and show it again a frame later, laying out a whole block twice.
  const blocks = createMemo(() => fullRange(wantedBlocks(), poolSize(), blockCount()), undefined, { equals: sameRange });
  const range = createMemo(() => ({ start: blocks().start * BLOCK_ROWS, end: Math.min(props.rows.total(), blocks().end * BLOCK_ROWS) }), undefined, { equals: sameRange });
  // One block signal per slot, written only when that slot's block changes: scrolling by k blocks
  // moves k slots instead of re-evaluating every slot against the new window. The slot filler
  // writes them: a slot wanted in view at once, one wanted for the overscan in an idle period.
  const slotBlocks: Signal<number>[] = [];
  const slotPending: Signal<boolean>[] = [];
  const slots = createMemo(() => {
    while (slotBlocks.length < poolSize()) {
      slotBlocks.push(createSignal(-1));
      slotPending.push(createSignal(false));
    }
    return slotBlocks.map(([block]) => block);
  });
  const filler = new SlotFiller({
    write: (slot, block) => slotBlocks[slot]![1](block),
    setPending: (slot, pending) => slotPending[slot]![1](pending),
    // A slot rewritten in an idle period is laid out there too (a forced layout), not in the next frame.
    requestIdle: (work) =>
      requestIdle((deadline) => {
        batch(() => work(deadline));
        scrollElement?.getBoundingClientRect();
      }),
    now: () => performance.now(),
  });
  const pace = new ScrollPace(FLING_ROWS);
  createComputed(() => {
    const current = blocks();
    const size = slots().length;
    const view = rowWindow.view();
    const wanted = Array.from({ length: size }, (_, slot) => slotIndex(slot, current, size));
    batch(() => filler.update(wanted, blocksOf(view, BLOCK_ROWS), pace.note(view.start, performance.now())));
  });
  const rowsInBlock = Array.from({ length: BLOCK_ROWS }, (_, offset) => offset);

  // Rows are loaded 100 above and below the view, and READ_AHEAD in the direction of travel: while
  // the core is busy (its model warming up after the first rows) a block takes a second or more to
  // arrive, and 100 rows are half a second of brisk scrolling.
  let lastStart = 0;
  let downwards = true;
  createEffect(() => {
    const { start, end } = range();
    if (start !== lastStart) downwards = start > lastStart;
    lastStart = start;
    if (end === 0) props.rows.ensureRange(0, 1);
    else props.rows.ensureRange(start - (downwards ? 100 : READ_AHEAD), end + (downwards ? READ_AHEAD : 100));
  });

  props.api?.({
    scrollToIndex: rowWindow.scrollToIndex,
    firstVisibleIndex: () => Math.max(0, Math.floor(((scrollElement?.scrollTop ?? 0)) / rowHeight)),
    shiftRows(delta) {
      if (scrollElement && delta !== 0) scrollElement.scrollTop += delta * rowHeight;
    },
    focus: () => scrollElement?.focus(),
  });

  const sortSymbol = (id: string) => {
    const sort = props.sort();
    return sort.id === id ? (sort.desc ? ' ▼' : ' ▲') : '';
  };

  const renderRow = (index: Accessor<number>) => {
    const row = createMemo(() => (index() >= 0 ? props.rows.rowAt(index()) : undefined));
    return (
      <div
        role="row"
        hidden={index() < 0}
        aria-rowindex={index() >= 0 ? index() + 2 : undefined}
        aria-selected={index() >= 0 && props.selectedIndex() === index()}
        data-index={index() >= 0 ? index() : undefined}
        data-key={row() ? props.rowKey(row()!) : undefined}
        class={`vt-row ${props.rowClass?.(row(), index()) ?? ''}${index() >= 0 && props.selectedIndex() === index() ? ' selected' : ''}${row() ? '' : ' placeholder'}`}
        onClick={() => index() >= 0 && props.onSelect(index())}
        onDblClick={() => index() >= 0 && props.onOpen(index())}
      >
        <Show when={row()} fallback={<div role="gridcell" class="vt-td muted">{index() >= 0 ? '…' : ''}</div>}>
          {(loaded) => (
            <For each={visible()}>
              {(column) => (
                <div role="gridcell" class="vt-td" classList={{ right: column.align === 'right', clip: clips(column, loaded()) }} title={column.tooltip?.(loaded())}>
                  {column.cell(loaded)}
                </div>
              )}
            </For>
          )}
        </Show>
      </div>
    );
  };

  return (
    <div class="vt" role="grid" aria-label={props.label} aria-rowcount={props.rows.total() + 1} aria-colcount={visible().length}>
      <div
        class="vt-scroll"
        ref={scrollElement}
        tabindex="0"
        data-testid="table-scroll"
        style={{ '--vt-columns': layout().template, '--vt-width': `${layout().total}px`, '--vt-row-height': `${rowHeight}px`, '--vt-block-height': `${rowHeight * BLOCK_ROWS}px` }}
      >
        <div class="vt-header" role="row" aria-rowindex={1}>
          <For each={table.getHeaderGroups()[0]?.headers ?? []}>
            {(header) => {
              const column = byId.get(header.column.id)!;
              const sortable = () => header.column.getCanSort();
              return (
                <div
                  role="columnheader"
                  class="vt-th"
                  classList={{ sortable: sortable(), right: column.align === 'right', term: !!column.description }}
                  aria-sort={props.sort().id === column.id ? (props.sort().desc ? 'descending' : 'ascending') : 'none'}
                  onClick={(event) => sortable() && header.column.getToggleSortingHandler()?.(event)}
                  title={[column.description, sortable() ? `Sort by ${column.header}` : column.header].filter(Boolean).join('\n\n')}
                  aria-description={column.description}
                >
                  {column.header}
                  {sortSymbol(column.id)}
                </div>
              );
            }}
          </For>
        </div>
        <div class="vt-body" style={{ height: `${rowWindow.totalSize()}px` }}>
          <For each={slots()}>
            {(block, slot) => (
              <div class="vt-block" data-pending={slotPending[slot()]![0]() ? '' : undefined} hidden={block() < 0} style={{ transform: `translateY(${Math.max(0, block()) * BLOCK_ROWS * rowHeight}px)` }}>
                <For each={rowsInBlock}>
                  {(offset) => {
                    const index = createMemo(() => {
                      const at = block() < 0 ? -1 : block() * BLOCK_ROWS + offset;
                      return at < props.rows.total() ? at : -1;
                    });
                    return renderRow(index);
                  }}
                </For>
              </div>
            )}
          </For>
        </div>
        <Show when={props.rows.total() === 0 && !props.rows.loading()}>
          <div class="vt-empty">{props.empty ?? 'No rows.'}</div>
        </Show>
      </div>
    </div>
  );
}
