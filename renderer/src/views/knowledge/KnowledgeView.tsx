import { createEffect, createMemo, createSignal, on, Show, type JSX } from 'solid-js';
import './knowledge.css';
import { useApi } from '../../api/port';
import { ResizableSide } from '../../components/ResizableSide';
import { ColumnChooser } from '../../components/table/ColumnChooser';
import { VirtualTable, type TableApi } from '../../components/table/VirtualTable';
import { formatSort, type ColumnState, type SortState } from '../../components/table/table-state';
import { useFresh } from '../../state/freshness';
import { openHelp } from '../../state/help';
import { useRouter } from '../../state/router-context';
import { useWorkspace } from '../../state/workspace';
import { DEFAULT_HIDDEN, KNOWLEDGE_COLUMNS } from './columns';
import { DefectBanners } from './DefectBanners';
import { SwarmDbNotes } from './SwarmDbNotes';
import { DetailPane, type DetailTarget } from './DetailPane';
import { downloadText } from './download';
import { FacetPanel } from './FacetPanel';
import { Inboxes } from './Inboxes';
import { OrphanedTierNote } from './OrphanedTierNote';
import { freshQuery } from '../../state/query';
import { useListKeys } from '../../state/keyboard';
import { entriesInput, KNOWLEDGE_STORES, queryFromParams, toggleValue } from './knowledge-query';
import { rowKey } from './rows';
import { createEntries } from './use-entries';
import { plural } from '../../state/format';
import { AsOfBanner } from './as-of/AsOfBanner';
import { AsOfTable } from './as-of/AsOfTable';
import { AsOfPicker } from './as-of/AsOfPicker';
import { momentFromParams, momentParam } from './as-of/moment-param';
import { createAsOf } from './as-of/use-as-of';
import { LoadFailure } from '../../components/LoadFailure';

const ALL_IDS = KNOWLEDGE_COLUMNS.map((c) => c.id);
/** Must match `.kv-body` in knowledge.css. */
const FACETS_WIDTH = 210;
const GAP = 10;
const DETAIL_MIN_WIDTH = 300;

/** `cols=lesson,status,…` lists the visible columns in order. */
function columnState(param: string | undefined): ColumnState {
  if (!param) return { order: ALL_IDS, hidden: DEFAULT_HIDDEN };
  const visible = param.split(',').filter((id) => ALL_IDS.includes(id));
  if (!visible.length) return { order: ALL_IDS, hidden: DEFAULT_HIDDEN };
  return { order: [...visible, ...ALL_IDS.filter((id) => !visible.includes(id))], hidden: ALL_IDS.filter((id) => !visible.includes(id)) };
}

export function KnowledgeView(): JSX.Element {
  const api = useApi();
  const router = useRouter();
  const workspace = useWorkspace();
  const params = () => router.route().params;
  const query = createMemo(() => queryFromParams(params()), undefined, { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  const entries = createEntries(api, query, workspace.epoch);
  // `asOf=…` in the URL: the table, facets and detail show history's record of that moment, read-only.
  const asOfParam = createMemo(() => momentFromParams(params()), undefined, { equals: (a, b) => a.moment === b.moment && a.invalid === b.invalid });
  const moment = () => asOfParam().moment;
  const asOf = createAsOf(moment, query);
  const [selected, setSelected] = createSignal(0);
  // Null until the operator drags the detail pane's edge: the stylesheet's default width.
  const [detailWidth, setDetailWidth] = createSignal<number | null>(null);
  let body: HTMLDivElement | undefined;
  /** The detail may take all but the facets and the table's narrowest Lesson column. */
  const maxDetailWidth = () => Math.max(DETAIL_MIN_WIDTH, (body?.clientWidth ?? 0) - FACETS_WIDTH - 2 * GAP - 240);
  const [exporting, setExporting] = createSignal<string | null>(null);
  const [newAbove, setNewAbove] = createSignal(0);
  let table: TableApi | undefined;
  let search: HTMLInputElement | undefined;

  const tab = () => (params().tab === 'inboxes' ? 'inboxes' : 'table');
  const detailTarget = (): DetailTarget | null => (params().open ? { id: params().open!, tier: (params().openTier as DetailTarget['tier']) || undefined } : null);
  const openTarget = (target: DetailTarget | null) => router.setParams({ open: target?.id ?? null, openTier: target?.tier ?? null });
  const openSelected = () => {
    const row = entries.rows.rowAt(selected());
    if (row?.id) openTarget({ id: row.id, tier: row.tier });
  };
  const select = (index: number) => {
    const total = entries.rows.total();
    if (total === 0) return;
    const next = Math.max(0, Math.min(total - 1, index));
    setSelected(next);
    table?.scrollToIndex(next);
    if (detailTarget()) {
      const row = entries.rows.rowAt(next);
      if (row?.id) openTarget({ id: row.id, tier: row.tier });
    }
  };

  useListKeys({
    move: (step) => tab() === 'table' && !moment() && select(selected() + step),
    open: () => tab() === 'table' && !moment() && openSelected(),
    focusSearch: () => search?.focus(),
    escape: () => {
      if (document.activeElement === search) search?.blur();
      else if (detailTarget()) openTarget(null);
    },
  });

  // Live: refetch the loaded rows, mark what arrived or changed, keep the rows under the cursor still.
  const refreshRows = async () => {
    const anchorIndex = table?.firstVisibleIndex() ?? 0;
    const anchorRow = entries.rows.rowAt(anchorIndex);
    const selectedBefore = selected();
    const selectedRow = entries.rows.rowAt(selectedBefore);
    const result = await entries.refresh(anchorRow ? rowKey(anchorRow) : null);
    if (result.shift !== 0) table?.shiftRows(result.shift);
    if (result.shift > 0) setNewAbove(newAbove() + result.shift);
    // Keys pressed while the refresh was in flight win: do not put the selection back where it was.
    if (selectedRow && selected() === selectedBefore) {
      const moved = result.newIndexOf(rowKey(selectedRow));
      if (moved !== undefined) setSelected(moved);
    }
  };
  // One refresh at a time: a change that lands while one is in flight asks for one more after it.
  let refreshing: Promise<void> | null = null;
  let again = false;
  const refreshWhenFree = () => {
    if (refreshing) return void (again = true);
    refreshing = refreshRows()
      .catch((error: unknown) => console.warn('[knowledge] live refresh failed:', (error as Error).message))
      .finally(() => {
        refreshing = null;
        if (again) {
          again = false;
          refreshWhenFree();
        }
      });
  };
  createEffect(on(useFresh(KNOWLEDGE_STORES), refreshWhenFree, { defer: true }));

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  const onSearch = (text: string) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      setSelected(0);
      setNewAbove(0);
      router.setParams({ q: text.trim() || null });
    }, 250);
  };

  const exportAs = async (format: 'jsonl' | 'csv') => {
    setExporting(format);
    try {
      const input = entriesInput(query(), 0, 1, false);
      const result = await api.call('knowledge.export', { format, filter: input.filter ?? {}, sort: input.sort ?? { field: 'updated_at', dir: 'desc' } });
      downloadText(result.filename, result.mime, result.content);
    } finally {
      setExporting(null);
    }
  };

  // The project names this project's own stores use (swarm and link tiers), to group its aliases in the Project facet.
  const ownNames = freshQuery(KNOWLEDGE_STORES, 'stores.entries', () => ({ offset: 0, limit: 1, filter: { tier: ['swarm', 'link'] }, facets: true }));
  const projectNames = () => ({
    ownStoreNames: (ownNames.data()?.facets?.project ?? []).flatMap((v) => (v.value === null ? [] : [v.value])),
    folder: workspace.info()?.project.name ?? '',
    onSet: (values: string[]) => {
      setSelected(0);
      setNewAbove(0);
      router.setParams({ project: values.length ? values.join(',') : null });
    },
  });

  const setColumns = (state: ColumnState) => router.setParams({ cols: state.order.filter((id) => !state.hidden.includes(id)).join(',') });

  return (
    <div class="knowledge-view">
      <DefectBanners />
      <SwarmDbNotes />
      <div class="toolbar">
        <input
          ref={search}
          type="search"
          class="search"
          aria-label="Search lessons"
          placeholder="Search lessons, tags, triggers, actions  ( / )"
          value={params().q ?? ''}
          onInput={(e) => onSearch(e.currentTarget.value)}
        />
        <div role="tablist" aria-label="Knowledge views" class="tabs">
          <button role="tab" type="button" aria-selected={tab() === 'table'} onClick={() => router.setParams({ tab: null })}>
            Entries
          </button>
          <button
            role="tab"
            type="button"
            aria-selected={tab() === 'inboxes'}
            disabled={!!moment()}
            title={moment() ? 'Inboxes are worked out from the live stores: go back to now for them' : undefined}
            onClick={() => router.setParams({ tab: 'inboxes' })}
          >
            Inboxes
          </button>
        </div>
        <span class="muted" data-testid="entry-count" aria-live="polite">
          <Show when={moment()} fallback={<>{plural(entries.rows.total(), 'entry', 'entries')}{entries.rows.loading() ? ' …' : ''}</>}>
            {plural(asOf.shown(), 'entry', 'entries')} as of then
          </Show>
        </span>
        <span class="spacer" />
        <ColumnChooser columns={KNOWLEDGE_COLUMNS} state={columnState(params().cols)} onChange={setColumns} />
        {/* Exports write the live stores' entries: not offered while the table shows another moment. */}
        <Show when={!moment()}>
          <button type="button" disabled={exporting() !== null} onClick={() => exportAs('jsonl')}>
            Export JSONL
          </button>
          <button type="button" disabled={exporting() !== null} onClick={() => exportAs('csv')}>
            Export CSV
          </button>
        </Show>
        <button type="button" aria-label="Keyboard shortcuts" onClick={openHelp}>
          ?
        </button>
        {/* Last, so on a narrow window it is the picker that moves to a second line, not the buttons with popovers. */}
        <AsOfPicker
          moment={moment()}
          onPick={(next) => {
            setSelected(0);
            setNewAbove(0);
            router.setParams({ ...momentParam(next), tab: null });
          }}
        />
      </div>
      <Show when={moment()}>{(m) => <AsOfBanner moment={m()} model={asOf} onBack={() => router.setParams(momentParam(null))} />}</Show>
      <Show when={asOfParam().invalid}>
        {(given) => (
          <p class="banner warn" role="alert" data-testid="as-of-invalid">
            asOf={given()} is not a moment (a date-time, now, last-looked or phase:N): showing the live stores.{' '}
            <button type="button" class="link" onClick={() => router.setParams(momentParam(null))}>
              Clear it
            </button>
          </p>
        )}
      </Show>
      <Show when={!moment() && entries.rows.failure()}>
        <LoadFailure error={entries.rows.failure()} retry={() => entries.rows.retry()} what="Could not load entries" />
      </Show>
      <Show when={newAbove() > 0 && tab() === 'table' && !moment()}>
        <button
          type="button"
          class="new-above"
          onClick={() => {
            setNewAbove(0);
            table?.scrollToIndex(0);
          }}
        >
          ↑ {newAbove()} new or moved row{newAbove() === 1 ? '' : 's'} above
        </button>
      </Show>
      <Show when={!moment()} fallback={<AsOfTable moment={moment()!} model={asOf} query={query} columnState={() => columnState(params().cols)} />}>
      <Show
        when={tab() === 'table'}
        fallback={<Inboxes onOpen={(target) => router.setParams({ tab: null, open: target.id, openTier: target.tier ?? null, collection: 'all' })} />}
      >
        <div
          class="kv-body"
          ref={body}
          classList={{ 'with-detail': !!detailTarget() }}
          style={{ 'grid-template-columns': detailTarget() && detailWidth() ? `${FACETS_WIDTH}px minmax(0, 1fr) ${detailWidth()}px` : undefined }}
        >
          <FacetPanel
            facets={entries.facets()}
            params={params()}
            tierNote={<OrphanedTierNote />}
            projectNames={projectNames()}
            onToggle={(key, value) => {
              setSelected(0);
              setNewAbove(0);
              router.setParams(toggleValue(params(), key, value));
            }}
          />
          <VirtualTable
            label="Knowledge entries"
            columns={KNOWLEDGE_COLUMNS}
            rows={entries.rows}
            rowKey={rowKey}
            sort={() => query().sort}
            onSort={(next: SortState) => router.setParams({ sort: formatSort(next) })}
            columnState={() => columnState(params().cols)}
            selectedIndex={selected}
            onSelect={(index) => {
              setSelected(index);
              openSelected();
            }}
            onOpen={(index) => {
              setSelected(index);
              openSelected();
            }}
            rowClass={(row) => (entries.isMarked(row) ? 'live' : '')}
            api={(a) => (table = a)}
            empty="No entries match."
          />
          <Show when={detailTarget()}>
            {(target) => (
              <ResizableSide label="Resize the detail pane" width={detailWidth()} min={DETAIL_MIN_WIDTH} max={maxDetailWidth} onResize={setDetailWidth}>
                <DetailPane target={target()} onOpen={openTarget} onClose={() => openTarget(null)} />
              </ResizableSide>
            )}
          </Show>
        </div>
      </Show>
      </Show>
    </div>
  );
}
