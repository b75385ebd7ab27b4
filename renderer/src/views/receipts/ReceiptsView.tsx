import { For, Show, type JSX } from 'solid-js';
import './receipts.css';
import { Loaded } from '../../components/Loaded';
import { VERIFIED_RECEIPTS } from '../../state/freshness-reducer';
import { freshQuery } from '../../state/query';
import { useRouter } from '../../state/router-context';
import { FunnelPanel } from './FunnelPanel';
import { IntegrityBanner, PrefixNotice } from './IntegrityBanner';
import { ObligationsPanel } from './ObligationsPanel';
import { PhasesPanel } from './PhasesPanel';
import { SourcesPanel } from './SourcesPanel';
import { TracesPanel } from './TracesPanel';

const TABS = [
  { id: 'obligations', label: 'Obligations' },
  { id: 'traces', label: 'Traces' },
  { id: 'funnel', label: 'Funnel per directive' },
  { id: 'phases', label: 'Phases' },
  { id: 'sources', label: 'Sources' },
] as const;
type TabId = (typeof TABS)[number]['id'];
const TRACE_LIMIT = 25;
/** Every query here shows verified receipts: each refetches once the console has verified a changed receipt file again. */
const RECEIPTS = [VERIFIED_RECEIPTS];
const OUTCOMES = ['applied', 'ignored', 'n_a', 'contradicted', 'violated', 'released', 'open', 'unanswered', 'audit'] as const;

/**
 * Receipts: was the agent honest about what it was shown? Integrity of the V2 ledger first, then
 * obligations, traces, per-directive funnels, phases and sources. Read-only; filters live in the URL.
 */
export function ReceiptsView(): JSX.Element {
  const router = useRouter();
  const params = () => router.route().params;
  const tab = (): TabId => (TABS.some((t) => t.id === params().tab) ? (params().tab as TabId) : 'obligations');
  const phase = () => params().phase || undefined;
  const outcome = () => (OUTCOMES as readonly string[]).includes(params().outcome ?? '') ? (params().outcome as (typeof OUTCOMES)[number]) : undefined;
  const offset = () => Math.max(0, Number(params().offset ?? 0) || 0);

  const integrity = freshQuery(RECEIPTS, 'receipts.integrity', () => ({}));
  const phases = freshQuery(RECEIPTS, 'receipts.phases', () => ({}));
  const obligations = freshQuery(RECEIPTS, 'receipts.obligations', () => (tab() === 'obligations' ? { status: 'all', ...(phase() ? { phase: phase() } : {}) } : false));
  const traces = freshQuery(RECEIPTS, 'receipts.traces', () =>
    tab() === 'traces'
      ? {
          offset: offset(),
          limit: TRACE_LIMIT,
          ...(phase() ? { phase: phase() } : {}),
          ...(params().agent ? { agent: params().agent } : {}),
          ...(outcome() ? { outcome: outcome() } : {}),
          ...(params().entry ? { entry: params().entry } : {}),
        }
      : false,
  );
  const funnel = freshQuery(RECEIPTS, 'receipts.funnel', () => (tab() === 'funnel' ? { offset: 0, limit: 200, ...(params().directive ? { entry: params().directive } : {}) } : false));
  const sources = freshQuery(RECEIPTS, 'receipts.sources', () => (tab() === 'sources' ? {} : false));

  const setPhase = (value: string | null) => router.setParams({ phase: value, offset: null });

  return (
    <div class="receipts-view" data-testid="receipts-view">
      <Loaded query={integrity}>{(value) => <IntegrityBanner integrity={value} />}</Loaded>
      <div class="toolbar">
        <div class="tabs" role="tablist">
          <For each={TABS}>
            {(t) => (
              <button role="tab" aria-selected={tab() === t.id} classList={{ primary: tab() === t.id }} data-testid={`tab-${t.id}`} onClick={() => router.setParams({ tab: t.id })}>
                {t.label}
              </button>
            )}
          </For>
        </div>
        <span class="spacer" />
        <label class="muted">
          Phase{' '}
          <select aria-label="Phase" data-testid="phase-filter" value={phase() ?? ''} onChange={(e) => setPhase(e.currentTarget.value || null)}>
            <option value="">all phases</option>
            <For each={phases.data()?.phases ?? []}>{(p) => <option value={p.phase}>{p.phase}</option>}</For>
          </select>
        </label>
      </div>
      <Show when={integrity.data()}>{(value) => <PrefixNotice integrity={value()} />}</Show>
      <Show when={tab() === 'obligations'}>
        <Loaded query={obligations}>{(value) => <ObligationsPanel data={value} phase={phase()} />}</Loaded>
      </Show>
      <Show when={tab() === 'traces'}>
        <Loaded query={traces}>
          {(value) => (
            <TracesPanel
              page={value}
              limit={TRACE_LIMIT}
              filters={{ phase: phase(), agent: params().agent, outcome: outcome(), entry: params().entry }}
              onFilter={(changes) => router.setParams({ ...changes, offset: null })}
              onPage={(next) => router.setParams({ offset: next ? String(next) : null })}
            />
          )}
        </Loaded>
      </Show>
      <Show when={tab() === 'funnel'}>
        <Loaded query={funnel}>
          {(value) => <FunnelPanel rows={value.rows} total={value.total} notes={value.notes} entry={params().directive} onEntry={(entry) => router.setParams({ directive: entry })} />}
        </Loaded>
      </Show>
      <Show when={tab() === 'phases'}>
        <Loaded query={phases}>{(value) => <PhasesPanel phases={value.phases} graceDays={value.escapeHatches.receiptCloseGraceDays} selected={phase()} onSelect={setPhase} />}</Loaded>
      </Show>
      <Show when={tab() === 'sources'}>
        <Loaded query={sources}>{(value) => <SourcesPanel sources={value.sources} />}</Loaded>
      </Show>
    </div>
  );
}
