import { Match, onCleanup, Switch, type JSX } from 'solid-js';
import type { ConsoleApi } from '../../shared/contract';
import './components/parts.css';
import { ApiContext } from './api/port';
import { AreaBoundary } from './components/AreaBoundary';
import { GlossarySheet } from './components/GlossarySheet';
import { HelpSheet } from './components/HelpSheet';
import { Nav } from './components/Nav';
import { ProjectSwitcher } from './components/ProjectSwitcher';
import { StatusBar } from './components/StatusBar';
import { AREAS, createRouter, type Router } from './state/route';
import { createFreshness, FreshnessContext } from './state/freshness';
import { closeGlossary, closeHelp, glossaryOpen, helpOpen, toggleHelp } from './state/help';
import { createWorkspaceStore, WorkspaceContext } from './state/workspace';
import { RouterContext } from './state/router-context';
import { useScrollingNotice } from './state/scrolling-notice';
import { DirectivesView } from './views/directives/DirectivesView';
import { HistoryView } from './views/history/HistoryView';
import { HiveView } from './views/hive/HiveView';
import { KnowledgeView } from './views/knowledge/KnowledgeView';
import { LiveView } from './views/live/LiveView';
import { ReceiptsView } from './views/receipts/ReceiptsView';
import { SkillsView } from './views/skills/SkillsView';

function useAreaShortcuts(router: Router) {
  const onKey = (event: KeyboardEvent) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const area = AREAS[Number(event.key) - 1];
    if (area) {
      event.preventDefault();
      router.go(area.id);
    }
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));
}

const isTyping = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** `?` opens the keyboard help in every area; Esc closes it before any view sees the key. */
function useHelpKey() {
  const onKey = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape' && (helpOpen() || glossaryOpen())) {
      event.preventDefault();
      closeHelp();
      closeGlossary();
    } else if (event.key === '?' && !isTyping(event.target)) {
      event.preventDefault();
      toggleHelp();
    }
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));
}

export function App(props: { api: ConsoleApi }): JSX.Element {
  const router = createRouter();
  useAreaShortcuts(router);
  useHelpKey();
  const workspace = createWorkspaceStore(props.api);
  const freshness = createFreshness(props.api);
  useScrollingNotice(props.api, () => [workspace.epoch(), freshness.state()]);
  return (
    <ApiContext.Provider value={props.api}>
      <WorkspaceContext.Provider value={workspace}>
        <FreshnessContext.Provider value={freshness}>
          <RouterContext.Provider value={router}>
            <div class="app">
              <Nav current={router.route().area} onSelect={(area) => router.go(area)} />
              <div class="main">
                <header class="top-bar">
                  <h1 class="area-title" data-testid="area-title">
                    {AREAS.find((a) => a.id === router.route().area)?.label}
                  </h1>
                  <ProjectSwitcher />
                </header>
                <main class="view" data-area={router.route().area}>
                  <Switch>
                    <Match when={router.route().area === 'knowledge'}>
                      <AreaBoundary label="Knowledge">
                        <KnowledgeView />
                      </AreaBoundary>
                    </Match>
                    <Match when={router.route().area === 'directives'}>
                      <AreaBoundary label="Directives">
                        <DirectivesView />
                      </AreaBoundary>
                    </Match>
                    <Match when={router.route().area === 'receipts'}>
                      <AreaBoundary label="Receipts">
                        <ReceiptsView />
                      </AreaBoundary>
                    </Match>
                    <Match when={router.route().area === 'skills'}>
                      <AreaBoundary label="Skills">
                        <SkillsView />
                      </AreaBoundary>
                    </Match>
                    <Match when={router.route().area === 'hive'}>
                      <AreaBoundary label="Hive quarantine">
                        <HiveView />
                      </AreaBoundary>
                    </Match>
                    <Match when={router.route().area === 'live'}>
                      <AreaBoundary label="Live">
                        <LiveView />
                      </AreaBoundary>
                    </Match>
                    <Match when={router.route().area === 'history'}>
                      <AreaBoundary label="History">
                        <HistoryView />
                      </AreaBoundary>
                    </Match>
                  </Switch>
                </main>
                <StatusBar />
                <HelpSheet area={router.route().area} areaLabel={AREAS.find((a) => a.id === router.route().area)?.label ?? ''} />
                <GlossarySheet />
              </div>
            </div>
          </RouterContext.Provider>
        </FreshnessContext.Provider>
      </WorkspaceContext.Provider>
    </ApiContext.Provider>
  );
}
