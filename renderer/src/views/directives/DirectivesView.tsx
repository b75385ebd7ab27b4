import { createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import './directives.css';
import type { DirectiveRow } from '../../../../shared/contract/knowledge';
import { useApi } from '../../api/port';
import { createPagedRows } from '../../components/table/paged-rows';
import { VirtualTable, type TableApi, type TableColumn } from '../../components/table/VirtualTable';
import type { SortState } from '../../components/table/table-state';
import { useFresh } from '../../state/freshness';
import { useRouter } from '../../state/router-context';
import { useWorkspace } from '../../state/workspace';
import { Badge, PriorityBadge, StatusBadge } from '../../components/Badge';
import { expiryText, signed, when, plural } from '../../state/format';
import { useListKeys } from '../../state/keyboard';
import { DirectiveDetail } from './DirectiveDetail';
import { directivesInput, directivesKey } from './directives-query';
import { InjectionPreview } from './InjectionPreview';
import { glossary } from '../../state/glossary';
import { LoadFailure } from '../../components/LoadFailure';

const COLUMNS: TableColumn<DirectiveRow>[] = [
  { id: 'priority', header: 'Priority', width: 90, cell: (r) => <PriorityBadge priority={r().priority} explicit={r().priorityExplicit} /> },
  // The directive takes what is left (at least 240 px) and Violated follows it, so both stay in view
  // beside the detail pane at 1,280 px.
  { id: 'lesson', header: 'Directive', width: 240, grow: true, clip: true, cell: (r) => r().lesson },
  {
    id: 'violations',
    header: 'Violated (7 d)',
    width: 110,
    align: 'right',
    cell: (r) => <Show when={r().violationsInWindow} fallback="0">{(n) => <Badge tone="violated">{n()}</Badge>}</Show>,
  },
  { id: 'status', header: 'Status', width: 110, cell: (r) => <StatusBadge status={r().status} /> },
  { id: 'expiry', header: 'Archives in', description: glossary('archives-in').text, width: 160, cell: (r) => <span classList={{ warn: !!r().expiry && r().expiry!.phasesLeft <= 2 }}>{expiryText(r().expiry)}</span> },
  { id: 'funnel', header: 'Shown / applied / violated', width: 204, cell: (r) => `${r().funnel.shown} / ${r().funnel.applied} / ${r().funnel.violated}` },
  { id: 'signal', header: 'Signal', width: 70, align: 'right', cell: (r) => signed(r().signal) },
  {
    id: 'skill',
    header: 'Skill gate',
    width: 120,
    cell: (r) => <Badge tone={r().maturity.eligible ? 'ok' : 'danger'}>{r().maturity.eligible ? 'eligible' : 'not eligible'}</Badge>,
  },
  { id: 'enforcement', header: 'Mode', width: 80, clip: true, cell: (r) => r().enforcement_mode ?? '—' },
  { id: 'updated', header: 'Updated (UTC)', width: 156, cell: (r) => when(r().updated_at) },
];

const SORTABLE: Record<string, 'priority' | 'expiry' | 'violations' | 'signal' | 'updated' | 'shown'> = {
  priority: 'priority',
  expiry: 'expiry',
  violations: 'violations',
  signal: 'signal',
  updated: 'updated',
  funnel: 'shown',
};
const columns = COLUMNS.map((c) => ({ ...c, sortable: c.id in SORTABLE }));

type Quick = { label: string; param: string; value: string; count: (c: Counts) => number };
type Counts = { all: number; byPriority: Record<string, number>; expiringSoon: number; violatedInWindow: number; notEligible: number };

export function DirectivesView(): JSX.Element {
  const api = useApi();
  const router = useRouter();
  const workspace = useWorkspace();
  const params = () => router.route().params;
  const [counts, setCounts] = createSignal<Counts | null>(null);
  const [meta, setMeta] = createSignal<{ asOf: string; soon: number } | null>(null);
  const [selected, setSelected] = createSignal(0);
  let table: TableApi | undefined;
  let search: HTMLInputElement | undefined;

  const fetcher = () => {
    const current = { ...params() };
    return async (offset: number, limit: number) => {
      const page = await api.call('knowledge.directives', directivesInput(current, offset, limit));
      setCounts(page.counts);
      setMeta({ asOf: page.asOf, soon: page.soonPhases });
      return { rows: page.rows, total: page.total };
    };
  };
  const rows = createPagedRows<DirectiveRow>(fetcher(), 100);
  createEffect(
    on(
      () => [directivesKey(params()), workspace.epoch()] as const,
      () => {
        setSelected(0);
        rows.reset(fetcher());
      },
      { defer: true },
    ),
  );
  // Directives are knowledge entries; their funnels and violations come from the knowledge event logs.
  createEffect(on(useFresh(['knowledge', 'hive']), () => void rows.refresh(), { defer: true }));

  const tab = () => (params().tab === 'preview' ? 'preview' : 'list');
  const current = () => rows.rowAt(selected());
  const quick = (): Quick[] => [
    { label: 'Critical', param: 'priority', value: 'critical', count: (c) => c.byPriority.critical ?? 0 },
    { label: `Expiring within ${plural(meta()?.soon ?? 2, 'phase')}`, param: 'expiring', value: String(meta()?.soon ?? 2), count: (c) => c.expiringSoon },
    { label: 'Violated this week', param: 'violated', value: '1', count: (c) => c.violatedInWindow },
    { label: 'Not eligible for a skill', param: 'eligibility', value: 'not_eligible', count: (c) => c.notEligible },
  ];
  const move = (step: number) => {
    const next = Math.max(0, Math.min(rows.total() - 1, selected() + step));
    setSelected(next);
    table?.scrollToIndex(next);
  };
  useListKeys({
    move: (step) => tab() === 'list' && move(step),
    open: () => table?.focus(),
    focusSearch: () => search?.focus(),
    escape: () => search?.blur(),
  });

  return (
    <div class="directives-view">
      <div class="toolbar">
        <input ref={search} type="search" aria-label="Search directives" placeholder="Search directives  ( / )" value={params().q ?? ''} onChange={(e) => router.setParams({ q: e.currentTarget.value.trim() || null })} />
        <div role="tablist" aria-label="Directives views" class="tabs">
          <button role="tab" type="button" aria-selected={tab() === 'list'} onClick={() => router.setParams({ tab: null })}>
            Directives
          </button>
          <button role="tab" type="button" aria-selected={tab() === 'preview'} onClick={() => router.setParams({ tab: 'preview' })}>
            Injection preview
          </button>
        </div>
        <div class="quick-filters" role="group" aria-label="Quick filters">
          <For each={quick()}>
            {(q) => (
              <button type="button" aria-pressed={params()[q.param] === q.value} onClick={() => router.setParams({ [q.param]: params()[q.param] === q.value ? null : q.value })}>
                {q.label} <Badge tone="muted">{counts() ? q.count(counts()!) : '…'}</Badge>
              </button>
            )}
          </For>
        </div>
        <span class="spacer" />
        <span class="muted" data-testid="directive-count">
          {plural(rows.total(), 'directive')}{meta() ? ` · week up to ${when(meta()!.asOf)}` : ''}
        </span>
      </div>
      <Show when={rows.failure()}>
        <LoadFailure error={rows.failure()} retry={() => rows.retry()} what="Could not load directives" />
      </Show>
      <Show when={tab() === 'list'} fallback={<div class="dv-side"><InjectionPreview /></div>}>
        <div class="dv-body">
          <VirtualTable
            label="Directives"
            columns={columns}
            rows={rows}
            rowKey={(r) => `${r.tier}:${r.id}`}
            sort={() => ({ id: Object.keys(SORTABLE).find((k) => SORTABLE[k] === (params().sort ?? 'priority')) ?? 'priority', desc: false })}
            onSort={(next: SortState) => router.setParams({ sort: SORTABLE[next.id] ?? null })}
            columnState={() => ({ order: columns.map((c) => c.id), hidden: [] })}
            selectedIndex={selected}
            onSelect={setSelected}
            onOpen={setSelected}
            api={(a) => (table = a)}
            empty="No directive matches."
          />
          <div class="dv-side">
            <Show when={current()} fallback={<p class="muted">Select a directive.</p>}>
              {(row) => <DirectiveDetail row={row()} />}
            </Show>
          </div>
        </div>
      </Show>
    </div>
  );
}
