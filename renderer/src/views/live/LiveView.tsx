import { createMemo, For, onCleanup, Show } from 'solid-js';
import type { FeedFilter, FeedItem } from '../../../../shared/contract/live';
import { useApi } from '../../api/port';
import { useRouter } from '../../state/router-context';
import { useWorkspace } from '../../state/workspace';
import { CountersPanel } from './CountersPanel';
import { DenialDetail } from './DenialDetail';
import { FeedFilters } from './FeedFilters';
import { FeedList } from './FeedList';
import { FILTER_PARAMS, filterFromParams } from './feed-state';
import { createLiveStore } from './live-store';
import { alertTitle, notifyRepeat } from './notifications';
import { RulesPanel } from './RulesPanel';
import { ServersPanel } from './ServersPanel';
import { sessionsElsewhere } from './session-counts';
import { SessionsPanel } from './SessionsPanel';
import './live.css';
import { LoadFailure } from '../../components/LoadFailure';

type Jump = 'entry' | 'receipts' | 'skills';

/**
 * Live: OpenCode servers and their sessions, and one feed of gate denials and gate events
 * (newest first, filterable, each joined to the directives it names), per-directive counters and
 * a notification when one directive keeps blocking the same tool.
 * Keys: j/k move, e entry, r receipts, s skill, / search, Esc clear.
 */
export function LiveView() {
  const api = useApi();
  const router = useRouter();
  const params = () => router.route().params;
  const filter = createMemo<FeedFilter>(() => filterFromParams(params()), {}, { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) });
  const workspace = useWorkspace();
  const store = createLiveStore(api, filter, notifyRepeat, workspace.epoch);
  const selected = createMemo(() => store.items().find((i) => i.id === params().sel) ?? null);
  let search: HTMLInputElement | undefined;

  const setFilter = (key: keyof typeof FILTER_PARAMS, value: string | null) => router.setParams({ [FILTER_PARAMS[key]]: value });
  const select = (item: FeedItem | null) => router.setParams({ sel: item?.id ?? null });
  const jump = (target: Jump, id: string) => {
    if (target === 'entry') router.go('knowledge', { open: id });
    else if (target === 'receipts') router.go('receipts', { entry: id });
    else router.go('skills', { source: id });
  };

  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (event.ctrlKey || event.metaKey || event.altKey || (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    const items = store.items();
    const index = items.findIndex((i) => i.id === params().sel);
    const first = selected()?.directiveIds[0];
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        select(items[Math.min(items.length - 1, index + 1)] ?? null);
        break;
      case 'k':
      case 'ArrowUp':
        select(items[Math.max(0, index - 1)] ?? null);
        break;
      case 'e':
      case 'Enter':
        if (first) jump('entry', first);
        break;
      case 'r':
        if (first) jump('receipts', first);
        break;
      case 's':
        if (first) jump('skills', first);
        break;
      case '/':
        search?.focus();
        break;
      case 'Escape':
        select(null);
        break;
      default:
        return;
    }
    event.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));

  return (
    <div class="live-view" data-testid="live-view">
      <div class="live-side">
        <ServersPanel store={store} />
        <SessionsPanel
          sessions={store.sessions()}
          selected={filter().sessionID}
          onSelect={(id) => setFilter('sessionID', id)}
          elsewhere={sessionsElsewhere(store.servers(), store.sessions())}
          showingOthers={store.otherProjects()}
          onShowOthers={store.setOtherProjects}
        />
        <CountersPanel counters={store.counters()} selected={filter().directiveId} onSelect={(id) => setFilter('directiveId', id)} />
        <RulesPanel rule={store.rule()} onSave={store.setRule} />
      </div>
      <div class="live-center">
        <For each={store.alerts()}>
          {(alert) => (
            <div class="live-alert" role="alert" data-testid="repeat-alert">
              <span>{alertTitle(alert)}</span>
              <button type="button" class="link-button" onClick={() => setFilter('directiveId', alert.directiveId)}>
                show
              </button>
              <button type="button" class="link-button" onClick={() => store.dismissAlert(alert)} aria-label="Dismiss">
                ✕
              </button>
            </div>
          )}
        </For>
        <FeedFilters filter={filter()} store={store} onChange={setFilter} searchRef={(el) => (search = el)} />
        <Show when={store.failure()}>
          <LoadFailure error={store.failure()} retry={() => store.retry()} what="The live view could not load" />
        </Show>
        <FeedList
          items={store.items()}
          selectedId={params().sel ?? null}
          now={store.now()}
          hasMore={store.hasMore()}
          loading={store.loading()}
          onSelect={select}
          onOpen={(item) => item.directiveIds[0] && jump('entry', item.directiveIds[0])}
          onNeedMore={store.loadMore}
        />
        <p class="small muted live-keys">
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>e</kbd> entry · <kbd>r</kbd> receipts · <kbd>s</kbd> skill · <kbd>/</kbd> search · <kbd>Esc</kbd> clear
        </p>
      </div>
      <Show when={selected()} fallback={<aside class="panel live-detail muted">Select a denial to see the directives it names and what the session did next.</aside>}>
        {(item) => <DenialDetail item={item()} onJump={jump} onFilterSession={(id) => setFilter('sessionID', id)} />}
      </Show>
    </div>
  );
}
