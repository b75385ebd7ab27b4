import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { ConsoleApi } from '../../../../shared/contract';
import type { DirectiveCounter, FeedFilter, FeedItem, RepeatAlert, RepeatRule, ServerInfo, SessionInfo } from '../../../../shared/contract/live';
import { appendPage, mergeItems, removeItems } from './feed-state';
import { mergeServerList, upsertServer } from './server-list';

/**
 * The Live view's state and all of its I/O (views stay free of calls). Pushed feed items are
 * buffered and applied at most every FLUSH_MS in one merge, so a flood of thousands of events per
 * minute costs the UI a few renders per second.
 */
const FLUSH_MS = 120;
const PAGE = 200;
const CAP = 5_000;
const SIDE_REFRESH_MS = 3_000;

export interface LiveStore {
  servers: Accessor<ServerInfo[]>;
  sessions: Accessor<SessionInfo[]>;
  /** Whether sessions running in other project folders are listed too (marked otherProject). */
  otherProjects: Accessor<boolean>;
  setOtherProjects(show: boolean): void;
  items: Accessor<FeedItem[]>;
  hasMore: Accessor<boolean>;
  loading: Accessor<boolean>;
  error: Accessor<string | undefined>;
  counters: Accessor<DirectiveCounter[]>;
  facets: Accessor<{ projects: string[]; tools: string[]; gates: string[]; directives: string[]; sessions: string[] }>;
  alerts: Accessor<RepeatAlert[]>;
  rule: Accessor<RepeatRule | undefined>;
  now: Accessor<number>;
  connect(url: string, password: string, label: string): Promise<string | null>;
  disconnect(serverId: string): Promise<void>;
  loadMore(): void;
  setRule(rule: RepeatRule): Promise<string | null>;
  dismissAlert(alert: RepeatAlert): void;
}

/**
 * `workspaceEpoch` changes when another workspace is opened: live history belongs to its workspace,
 * so the feed, counters, sessions and alerts start over from what the new one holds.
 */
export function createLiveStore(api: ConsoleApi, filter: Accessor<FeedFilter>, onAlert: (alert: RepeatAlert) => void, workspaceEpoch: Accessor<number> = () => 0): LiveStore {
  const [servers, setServers] = createSignal<ServerInfo[]>([]);
  const [sessions, setSessions] = createSignal<SessionInfo[]>([]);
  const [otherProjects, setOtherProjectsSignal] = createSignal(false);
  const [items, setItems] = createSignal<FeedItem[]>([]);
  const [cursor, setCursor] = createSignal<{ time: number; id: string } | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [error, setError] = createSignal<string>();
  const [counters, setCounters] = createSignal<DirectiveCounter[]>([]);
  const [facets, setFacets] = createSignal({ projects: [] as string[], tools: [] as string[], gates: [] as string[], directives: [] as string[], sessions: [] as string[] });
  const [alerts, setAlerts] = createSignal<RepeatAlert[]>([]);
  const [rule, setRuleSignal] = createSignal<RepeatRule>();
  const [now, setNow] = createSignal(Date.now());
  const fail = (e: unknown) => setError((e as Error).message);

  let generation = 0;
  let pending: FeedItem[] = [];
  let pendingRemoved: string[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let sideTimer: ReturnType<typeof setTimeout> | undefined;

  const refreshSide = () => {
    api.call('live.counters', { project: filter().project, limit: 50 }).then(setCounters, fail);
    api.call('live.facets', {}).then(setFacets, fail);
  };
  const refreshSessions = () => api.call('live.sessions', { limit: 500, scope: otherProjects() ? 'all' : 'project' }).then(setSessions, fail);
  const scheduleSide = () => {
    sideTimer ??= setTimeout(() => {
      sideTimer = undefined;
      refreshSide();
    }, SIDE_REFRESH_MS);
  };

  const flush = () => {
    flushTimer = undefined;
    const incoming = pending;
    const removed = pendingRemoved;
    pending = [];
    pendingRemoved = [];
    setItems((current) => mergeItems(removeItems(current, removed), incoming, filter(), CAP).items);
    scheduleSide();
  };

  const loadFirst = async () => {
    const gen = ++generation;
    setLoading(true);
    try {
      const page = await api.call('live.feed', { filter: filter(), limit: PAGE });
      if (gen !== generation) return;
      batch(() => {
        setItems(page.items);
        setCursor(page.nextCursor);
        setError(undefined);
      });
    } catch (e) {
      if (gen === generation) fail(e);
    } finally {
      if (gen === generation) setLoading(false);
    }
  };

  createEffect(on(filter, () => {
    pending = [];
    void loadFirst();
    refreshSide();
  }));
  createEffect(on(workspaceEpoch, () => {
    pending = [];
    pendingRemoved = [];
    batch(() => {
      setItems([]);
      setAlerts([]);
      setCounters([]);
    });
    void loadFirst();
    refreshSide();
    void refreshSessions();
  }, { defer: true }));

  api.call('live.servers', {}).then((fetched) => setServers((list) => mergeServerList(list, fetched)), fail);
  api.call('live.rules', {}).then(setRuleSignal, fail);
  void refreshSessions();

  // After an interrupted stream the feed, servers and sessions are fetched again: events were missed.
  const resync = () => {
    pending = [];
    pendingRemoved = [];
    void loadFirst();
    refreshSide();
    api.call('live.servers', {}).then((fetched) => setServers((list) => mergeServerList(list, fetched)), fail);
    void refreshSessions();
  };
  const stop = api.subscribe('live.events', {}, (event) => {
    switch (event.type) {
      case 'items':
        pending.push(...event.items);
        flushTimer ??= setTimeout(flush, FLUSH_MS);
        break;
      case 'removed':
        pendingRemoved.push(...event.ids);
        flushTimer ??= setTimeout(flush, FLUSH_MS);
        break;
      case 'server':
        setServers((list) => upsertServer(list, event.server));
        break;
      case 'server-removed':
        setServers((list) => list.filter((s) => s.id !== event.serverId));
        void refreshSessions();
        break;
      case 'sessions':
        void refreshSessions();
        break;
      case 'repeat':
        setAlerts((list) => [event.alert, ...list].slice(0, 20));
        onAlert(event.alert);
        break;
    }
  }, resync);
  const clock = setInterval(() => setNow(Date.now()), 1_000);
  onCleanup(() => {
    stop();
    clearInterval(clock);
    if (flushTimer) clearTimeout(flushTimer);
    if (sideTimer) clearTimeout(sideTimer);
    generation++;
  });

  return {
    servers,
    sessions,
    otherProjects,
    setOtherProjects(show) {
      setOtherProjectsSignal(show);
      void refreshSessions();
    },
    items,
    hasMore: () => cursor() !== null,
    loading,
    error,
    counters,
    facets,
    alerts,
    rule,
    now,
    async connect(url, password, label) {
      try {
        const server = await api.call('live.connect', { url, ...(password ? { password } : {}), ...(label ? { label } : {}) });
        setServers((list) => upsertServer(list, server));
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    },
    async disconnect(serverId) {
      await api.call('live.disconnect', { serverId }).catch(fail);
      setServers((list) => list.filter((s) => s.id !== serverId));
    },
    loadMore() {
      const before = cursor();
      if (!before || loading()) return;
      const gen = generation;
      setLoading(true);
      api
        .call('live.feed', { filter: filter(), before, limit: PAGE })
        .then((page) => {
          if (gen !== generation) return;
          batch(() => {
            setItems((current) => appendPage(current, page.items));
            setCursor(page.nextCursor);
          });
        }, fail)
        .finally(() => gen === generation && setLoading(false));
    },
    async setRule(next) {
      try {
        setRuleSignal(await api.call('live.setRules', next));
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    },
    dismissAlert(alert) {
      setAlerts((list) => list.filter((a) => a !== alert));
    },
  };
}
