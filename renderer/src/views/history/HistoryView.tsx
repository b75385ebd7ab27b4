import { createMemo, For, Match, Show, Switch, type JSX } from 'solid-js';
import './history.css';
import type { MomentsOutput } from '../../../../shared/contract/history';
import { freshQuery } from '../../state/query';
import { useRouter } from '../../state/router-context';
import { ChangesTab } from './ChangesTab';
import { ForgottenTab } from './ForgottenTab';
import { historyParamChanges, parseHistoryParams, type HistoryState } from './history-params';
import { HISTORY_STORES } from './history-stores';

const TABS = [
  { id: 'changes', label: 'Changes' },
  { id: 'forgotten', label: 'Forgotten' },
] as const;

/**
 * History: what the console remembers of every entry store it reads. Changes between two moments
 * (default: since you last looked), and the lessons the plugin forgot, with Restore. Everything
 * the view shows is in the URL.
 */
export function HistoryView(): JSX.Element {
  const router = useRouter();
  const state = createMemo(() => parseHistoryParams(router.route().params), undefined, { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  const setState = (next: Partial<HistoryState>) => router.setParams(historyParamChanges(next));
  const moments = freshQuery(HISTORY_STORES, 'history.moments', () => ({}));
  const momentsNow = (): MomentsOutput | undefined => (moments.data.state === 'errored' ? undefined : moments.data.latest);
  const openInKnowledge = (id: string, tier: string) => router.go('knowledge', { open: id, collection: 'all', ...(tier ? { openTier: tier } : {}) });

  return (
    <div class="history-view" data-testid="history-view">
      <Show when={momentsNow()?.store.setAside} keyed>
        {(aside) => (
          <p class="banner warn" role="status" data-testid="history-set-aside">
            {aside.message} What was recorded before is in <span class="mono">{aside.file}</span>; changes before the restart are unknown to this history.
          </p>
        )}
      </Show>
      <For each={state().refused}>
        {(refused) => (
          <p class="banner warn" role="status" data-testid="history-refused">
            The link asked for <span class="mono">{refused}</span>, which is not a moment (a moment is now, last-looked, phase:N or an ISO date-time): the default is shown instead.
          </p>
        )}
      </For>
      <div role="tablist" aria-label="History views" class="tabs">
        <For each={TABS}>
          {(tab) => (
            <button role="tab" type="button" aria-selected={state().tab === tab.id} data-testid={`history-tab-${tab.id}`} onClick={() => setState({ tab: tab.id, timeline: null })}>
              {tab.label}
            </button>
          )}
        </For>
      </div>
      <Switch>
        <Match when={state().tab === 'changes'}>
          <ChangesTab state={state()} moments={momentsNow()} onState={setState} />
        </Match>
        <Match when={state().tab === 'forgotten'}>
          <ForgottenTab timeline={state().timeline} onTimeline={(id) => setState({ timeline: id })} onOpenInKnowledge={openInKnowledge} />
        </Match>
      </Switch>
    </div>
  );
}
