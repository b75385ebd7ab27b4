import { createSignal, Show, type Accessor, type JSX } from 'solid-js';
import './as-of.css';
import { ResizableSide } from '../../../components/ResizableSide';
import { VirtualTable, type TableApi, type TableColumn } from '../../../components/table/VirtualTable';
import { formatSort, type ColumnState } from '../../../components/table/table-state';
import { useListKeys } from '../../../state/keyboard';
import { useRouter } from '../../../state/router-context';
import { KNOWLEDGE_COLUMNS } from '../columns';
import type { DetailTarget } from '../DetailPane';
import { FacetPanel } from '../FacetPanel';
import { toggleValue, type KnowledgeQuery } from '../knowledge-query';
import { rowKey, type KnowledgeRow } from '../rows';
import { AsOfDetail } from './AsOfDetail';
import { findHistorical } from './historical-rows';
import { momentLabel } from '../../../state/moments';
import type { AsOfModel } from './use-as-of';

const NOT_KNOWN_THEN = 'Not known as of a moment: worked out from counters and logs history does not keep.';
/** Columns the historical line cannot fill: said so in each cell instead of a loading mark. */
const NOT_KNOWN_COLUMNS = new Set(['quality', 'expiry']);

/** The live table's columns, with those worked out now (markers, the archive countdown) saying they are not known then. */
const AS_OF_COLUMNS: TableColumn<KnowledgeRow>[] = KNOWLEDGE_COLUMNS.map((column) =>
  NOT_KNOWN_COLUMNS.has(column.id) ? { ...column, sortable: false, tooltip: () => NOT_KNOWN_THEN, description: NOT_KNOWN_THEN, cell: () => <span class="muted">not known then</span> } : column,
);

const FACETS_WIDTH = 210;
const DETAIL_MIN_WIDTH = 300;

/**
 * The Knowledge body as of a moment: the same facet panel and table as live, over history's rows,
 * and the read-only detail. Keys j/k/Enter move and open as in the live table (the view's own
 * handlers stand aside in this mode).
 */
export function AsOfTable(props: { moment: string; model: AsOfModel; query: Accessor<KnowledgeQuery>; columnState: Accessor<ColumnState> }): JSX.Element {
  const router = useRouter();
  const params = () => router.route().params;
  const [selected, setSelected] = createSignal(0);
  const [detailWidth, setDetailWidth] = createSignal<number | null>(null);
  let body: HTMLDivElement | undefined;
  let table: TableApi | undefined;
  const maxDetailWidth = () => Math.max(DETAIL_MIN_WIDTH, (body?.clientWidth ?? 0) - FACETS_WIDTH - 20 - 240);
  const rows = props.model.rows;

  const detailTarget = (): DetailTarget | null => (params().open ? { id: params().open!, tier: (params().openTier as DetailTarget['tier']) || undefined } : null);
  const openTarget = (target: DetailTarget | null) => router.setParams({ open: target?.id ?? null, openTier: target?.tier ?? null });
  const openAt = (index: number) => {
    const row = rows.rowAt(index);
    if (row?.id) openTarget({ id: row.id, tier: row.tier });
  };
  const select = (index: number) => {
    const total = rows.total();
    if (total === 0) return;
    const next = Math.max(0, Math.min(total - 1, index));
    setSelected(next);
    table?.scrollToIndex(next);
    if (detailTarget()) openAt(next);
  };
  useListKeys({
    move: (step) => params().tab !== 'inboxes' && select(selected() + step),
    open: () => params().tab !== 'inboxes' && openAt(selected()),
    // Search focus and Esc stay with the view's own handlers (one action per key).
    focusSearch: () => undefined,
    escape: () => undefined,
  });

  const entry = (target: DetailTarget) => findHistorical(props.model.output()?.entries ?? [], target.id, target.tier);

  return (
    <div
      class="kv-body as-of-body"
      ref={body}
      classList={{ 'with-detail': !!detailTarget() }}
      style={{ 'grid-template-columns': detailTarget() && detailWidth() ? `${FACETS_WIDTH}px minmax(0, 1fr) ${detailWidth()}px` : undefined }}
    >
      <FacetPanel
        facets={props.model.facets()}
        params={params()}
        onToggle={(key, value) => {
          setSelected(0);
          router.setParams(toggleValue(params(), key, value));
        }}
      />
      <VirtualTable
        label="Knowledge entries as of a moment"
        columns={AS_OF_COLUMNS}
        rows={rows}
        rowKey={(row) => `${rowKey(row)}:${row.rid}`}
        sort={() => props.query().sort}
        onSort={(next) => router.setParams({ sort: formatSort(next) })}
        columnState={props.columnState}
        selectedIndex={selected}
        onSelect={(index) => {
          setSelected(index);
          openAt(index);
        }}
        onOpen={(index) => {
          setSelected(index);
          openAt(index);
        }}
        api={(a) => (table = a)}
        empty={props.model.output() ? 'No entries match as of this moment.' : props.model.error() ? 'History could not answer.' : 'Reading history…'}
      />
      <Show when={detailTarget()}>
        {(target) => (
          <ResizableSide label="Resize the detail pane" width={detailWidth()} min={DETAIL_MIN_WIDTH} max={maxDetailWidth} onResize={setDetailWidth}>
            <AsOfDetail target={target()} entry={entry(target())} at={props.model.output()?.moment.at ?? ''} historyBegan={props.model.output()?.historyBegan ?? null} label={momentLabel(props.moment)} onClose={() => openTarget(null)} />
          </ResizableSide>
        )}
      </Show>
    </div>
  );
}
