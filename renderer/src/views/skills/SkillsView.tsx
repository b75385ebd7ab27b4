import { createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import './skills.css';
import type { QueueItem } from '../../../../shared/contract/skills';
import { freshQuery } from '../../state/query';
import { useRouter } from '../../state/router-context';
import { formatHash } from '../../state/route';
import type { SkillItem } from '../../../../shared/contract/skills';
import { CuratorPanel } from './CuratorPanel';
import { DecisionPanel, type Decision } from './DecisionPanel';
import { CandidatesPanel, ImproverPanel } from './ImproverPanel';
import { Loaded } from '../../components/Loaded';
import { parseKinds } from './queue-state';
import { markCurrentDecided } from './queue-session';
import { SKILL_STORES } from './skill-stores';
import { ReviewQueue } from './ReviewQueue';
import { SkillList } from './SkillList';
import { PANES, SkillReview, type PaneId } from './SkillReview';
import { staleDisagreement } from './stale-claims';

const TABS = [
  { id: 'queue', label: 'Review queue' },
  { id: 'skills', label: 'Skills & drafts' },
  { id: 'curator', label: 'Curator' },
  { id: 'improver', label: 'Skill improver' },
  { id: 'candidates', label: 'External candidates' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * Skills: what the curator and the skill pipeline propose, next to the evidence, and the
 * decisions a person makes on them. Filters and the selection live in the URL.
 */
export function SkillsView(): JSX.Element {
  const router = useRouter();
  const params = () => router.route().params;
  const tab = (): TabId => (TABS.some((t) => t.id === params().tab) ? (params().tab as TabId) : 'queue');
  const at = () => (params().at === 'active' ? 'active' : 'proposal');
  const pane = (): PaneId => (PANES.some((p) => p.id === params().pane) ? (params().pane as PaneId) : 'rendered');
  // Drafts applied in this view: the proposal file is gone, so its pane says where the skill went rather than re-reading a slug that no longer exists.
  const [applied, setApplied] = createSignal<ReadonlySet<string>>(new Set());
  const appliedHere = () => at() === 'proposal' && !!params().slug && applied().has(params().slug as string);
  const overview = freshQuery(SKILL_STORES, 'skills.overview', () => (tab() === 'skills' || tab() === 'improver' || tab() === 'candidates' ? {} : false));
  const detail = freshQuery(SKILL_STORES, 'skills.detail', () => (tab() === 'skills' && params().slug && !appliedHere() ? { slug: params().slug as string, kind: at() } : false));
  const curator = freshQuery(SKILL_STORES, 'curator.overview', () => (tab() === 'curator' ? {} : false));
  const openEntry = (id: string, tier: string | null) => router.go('knowledge', { open: id, ...(tier ? { openTier: tier } : {}) });
  // The selected item's kind from the list (drafts offer apply/reject, active skills retire).
  const kindOf = (key: string): SkillItem['kind'] => {
    const [where, ...rest] = key.split(':');
    const slug = rest.join(':');
    const found = overview.data()?.skills.find((s) => s.slug === slug && (where === 'proposal') === (s.kind === 'draft' || s.kind === 'motif'));
    return found?.kind ?? (where === 'proposal' ? 'draft' : 'retired');
  };
  const refresh = () => {
    overview.refetch();
    detail.refetch();
  };
  // An item opened from the queue is a step of its own in the history (Back returns to the queue), keeps the queue's filter, and Esc returns there.
  const queueParams = (): Record<string, string> => (params().kinds ? { kinds: params().kinds as string } : {});
  const openQueueItem = (item: QueueItem) => {
    if (item.open.view === 'skills' && item.open.slug) router.go('skills', { tab: 'skills', slug: item.open.slug, at: 'proposal', from: 'queue', ...queueParams() });
    else if (item.open.view === 'live') router.go('live');
    else if (item.open.entryId) openEntry(item.open.entryId, item.open.tier);
  };

  const fromQueue = () => tab() === 'skills' && params().from === 'queue';
  const backToQueue = () => router.go('skills', { tab: 'queue', ...queueParams() });
  // a / r on an item opened from the queue start its decision, as in the queue: the panel restarts with it.
  const [request, setRequest] = createSignal<{ decision: Decision; n: number } | null>(null);
  let itemPane: HTMLDivElement | undefined;
  // The opened item takes the keyboard (never <body>), so Esc, a and r work at once.
  createEffect(
    on(
      () => (fromQueue() ? params().slug : undefined),
      (slug) => {
        setRequest(null);
        if (slug) queueMicrotask(() => itemPane?.focus());
      },
    ),
  );
  const onItemKey = (event: KeyboardEvent) => {
    if (!fromQueue() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      backToQueue();
      return;
    }
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, button, [contenteditable]')) return;
    const slug = params().slug;
    const kind = slug ? kindOf(`${at()}:${slug}`) : null;
    if ((event.key === 'a' || event.key === 'r') && (kind === 'draft' || kind === 'motif')) {
      event.preventDefault();
      setRequest({ decision: event.key === 'a' ? 'apply' : 'reject', n: (request()?.n ?? 0) + 1 });
    }
  };

  return (
    <div class="skills-view" data-testid="skills-view">
      <div class="tabs" role="tablist">
        <For each={TABS}>
          {(t) => (
            <button role="tab" aria-selected={tab() === t.id} classList={{ primary: tab() === t.id }} data-testid={`skills-tab-${t.id}`} onClick={() => router.setParams({ tab: t.id })}>
              {t.label}
            </button>
          )}
        </For>
      </div>
      <Show when={tab() === 'queue'}>
        <ReviewQueue kinds={parseKinds(params().kinds)} onKinds={(kinds) => router.setParams({ kinds: kinds.join(',') || null })} onOpen={openQueueItem} />
      </Show>
      <Show when={tab() === 'skills'}>
        <div class="skills-split">
          <Loaded query={overview}>
            {(value) => (
              <div>
                <Show when={staleDisagreement(value.improver.proposals[0], value.skills)}>
                  {(text) => (
                    <p class="banner warn small" data-testid="stale-differs">
                      {text()}
                    </p>
                  )}
                </Show>
                <SkillList
                  items={value.skills}
                  kind={params().kind ?? ''}
                  selected={params().slug ? `${at()}:${params().slug}` : null}
                  onKind={(kind) => router.setParams({ kind: kind || null })}
                  onSelect={(item) => router.setParams({ slug: item.slug, at: item.kind === 'draft' || item.kind === 'motif' ? 'proposal' : 'active' })}
                />
              </div>
            )}
          </Loaded>
          <Show when={params().slug} fallback={<p class="muted">Select a draft or a skill to review it.</p>}>
            <div class="skill-right" tabIndex={-1} ref={itemPane} onKeyDown={onItemKey} data-testid="skill-item">
              <Show when={fromQueue()}>
                <p class="muted" data-testid="from-queue">
                  From the review queue: <kbd>Esc</kbd> back to it at this item · <kbd>a</kbd> apply · <kbd>r</kbd> reject{' '}
                  <button type="button" data-testid="back-to-queue" onClick={backToQueue}>
                    Back to the queue
                  </button>
                </p>
              </Show>
              {/* Keyed on the selection, not on the data: a refetch after a decision keeps its confirmation and result on screen. */}
              <Show when={`${at()}:${params().slug}#${request()?.n ?? 0}`} keyed>
                {(selection) => {
                  const key = selection.slice(0, selection.lastIndexOf('#'));
                  return <DecisionPanel item={{ slug: key.slice(key.indexOf(':') + 1), get kind() { return kindOf(key); } }} start={request()?.decision ?? null} onDone={() => (fromQueue() && markCurrentDecided(), refresh())} onApplied={(slug) => setApplied((before) => new Set([...before, slug]))} />;
                }}
              </Show>
              <Show
                when={!appliedHere()}
                fallback={
                  <p class="banner ok" data-testid="applied-note">
                    Applied — the draft is now the active skill{' '}
                    <a href={formatHash({ area: 'skills', params: { tab: 'skills', kind: 'active', slug: params().slug ?? '', at: 'active' } })} data-testid="applied-link">
                      {params().slug}
                    </a>
                    .
                  </p>
                }
              >
                <Loaded query={detail}>
                  {(value) => (
                    // A refetch keeps the previous skill until the new one arrives: never show one slug's text under another's selection.
                    <Show when={value.item.slug === params().slug} fallback={<p class="muted">Loading…</p>}>
                      <SkillReview detail={value} pane={pane()} onPane={(p) => router.setParams({ pane: p })} onOpenEntry={openEntry} />
                    </Show>
                  )}
                </Loaded>
              </Show>
            </div>
          </Show>
        </div>
      </Show>
      <Show when={tab() === 'curator'}>
        <Loaded query={curator}>{(value) => <CuratorPanel data={value} onOpenEntry={openEntry} onOpenReceipts={(id) => router.go('receipts', { entry: id })} />}</Loaded>
      </Show>
      <Show when={tab() === 'improver'}>
        <Loaded query={overview}>{(value) => <ImproverPanel improver={value.improver} skills={value.skills} />}</Loaded>
      </Show>
      <Show when={tab() === 'candidates'}>
        <Loaded query={overview}>{(value) => <CandidatesPanel candidates={value.candidates} />}</Loaded>
      </Show>
    </div>
  );
}
