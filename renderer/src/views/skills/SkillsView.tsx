import { For, Show, type JSX } from 'solid-js';
import './skills.css';
import type { QueueItem } from '../../../../shared/contract/skills';
import { freshQuery } from '../../state/query';
import { useRouter } from '../../state/router-context';
import type { SkillItem } from '../../../../shared/contract/skills';
import { CuratorPanel } from './CuratorPanel';
import { DecisionPanel } from './DecisionPanel';
import { CandidatesPanel, ImproverPanel } from './ImproverPanel';
import { Loaded } from '../../components/Loaded';
import { parseKinds } from './queue-state';
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
  const overview = freshQuery(SKILL_STORES, 'skills.overview', () => (tab() === 'skills' || tab() === 'improver' || tab() === 'candidates' ? {} : false));
  const detail = freshQuery(SKILL_STORES, 'skills.detail', () => (tab() === 'skills' && params().slug ? { slug: params().slug as string, kind: at() } : false));
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
  const openQueueItem = (item: QueueItem) => {
    if (item.open.view === 'skills' && item.open.slug) router.setParams({ tab: 'skills', slug: item.open.slug, at: 'proposal', pane: null });
    else if (item.open.view === 'live') router.go('live');
    else if (item.open.entryId) openEntry(item.open.entryId, item.open.tier);
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
            <div class="skill-right">
              {/* Keyed on the selection, not on the data: a refetch after a decision keeps its confirmation and result on screen. */}
              <Show when={`${at()}:${params().slug}`} keyed>
                {(key) => <DecisionPanel item={{ slug: key.slice(key.indexOf(':') + 1), get kind() { return kindOf(key); } }} onDone={refresh} />}
              </Show>
              <Loaded query={detail}>
                {(value) => (
                  // A refetch keeps the previous skill until the new one arrives: never show one slug's text under another's selection.
                  <Show when={value.item.slug === params().slug} fallback={<p class="muted">Loading…</p>}>
                    <SkillReview detail={value} pane={pane()} onPane={(p) => router.setParams({ pane: p })} onOpenEntry={openEntry} />
                  </Show>
                )}
              </Loaded>
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
