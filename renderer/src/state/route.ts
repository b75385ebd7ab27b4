import { createSignal, onCleanup, type Accessor } from 'solid-js';

export const AREAS = [
  { id: 'knowledge', label: 'Knowledge', hint: 'Lessons of the swarm, hive and link tiers' },
  { id: 'directives', label: 'Directives', hint: 'Actionable directives, funnels and the injection preview' },
  { id: 'receipts', label: 'Receipts', hint: 'Acknowledgements, obligations and journal integrity' },
  { id: 'skills', label: 'Skills', hint: 'Skill proposals, active skills and evals' },
  { id: 'hive', label: 'Hive quarantine', hint: 'Quarantine and rollback of hive entries' },
  { id: 'live', label: 'Live', hint: 'Sessions and gate denials from running OpenCode servers' },
  { id: 'history', label: 'History', hint: 'What changed since you last looked, and what the plugin forgot' },
] as const;

export type AreaId = (typeof AREAS)[number]['id'];
export type RouteParams = Readonly<Record<string, string>>;
export interface Route {
  area: AreaId;
  params: RouteParams;
}

const isArea = (value: string): value is AreaId => AREAS.some((area) => area.id === value);

/** `#/knowledge?status=candidate&q=scope` ⇄ { area, params }. Filters live in the URL so a view can be shared. */
export function parseHash(hash: string): Route {
  const [pathPart = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const area = isArea(pathPart) ? pathPart : 'knowledge';
  return { area, params: Object.fromEntries(new URLSearchParams(query)) };
}

export function formatHash(route: Route): string {
  const query = new URLSearchParams(Object.entries(route.params).filter(([, v]) => v !== '')).toString();
  return `#/${route.area}${query ? `?${query}` : ''}`;
}

/**
 * Each area's last filters, so switching away and back (and a reload, which keeps the tab's
 * sessionStorage) brings them back: the URL holds the open area's, this holds the others'.
 */
export interface AreaMemory {
  recall(area: AreaId): RouteParams;
  keep(route: Route): void;
}

const MEMORY_KEY = 'swarm-console.area-params';

export function createAreaMemory(storage: Pick<Storage, 'getItem' | 'setItem'> | null): AreaMemory {
  let saved: Partial<Record<AreaId, RouteParams>> = {};
  try {
    const parsed = JSON.parse(storage?.getItem(MEMORY_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') {
      for (const [area, params] of Object.entries(parsed)) {
        if (!isArea(area) || !params || typeof params !== 'object') continue;
        saved[area] = Object.fromEntries(Object.entries(params as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
    }
  } catch {
    saved = {}; // damaged: start without memory
  }
  return {
    recall: (area) => saved[area] ?? {},
    keep(route) {
      saved = { ...saved, [route.area]: route.params };
      try {
        storage?.setItem(MEMORY_KEY, JSON.stringify(saved));
      } catch {
        // storage full or refused: the memory still lasts for this page
      }
    },
  };
}

const sessionStore = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

export interface Router {
  route: Accessor<Route>;
  /** Without params: the area as it was left (its remembered filters); with params: exactly those. */
  go(area: AreaId, params?: RouteParams): void;
  /** Updates some params of the current area; `null` removes one. Replaces history so typing does not flood it. */
  setParams(changes: Record<string, string | null>): void;
}

export function createRouter(): Router {
  const memory = createAreaMemory(sessionStore());
  const [route, setRoute] = createSignal<Route>(parseHash(location.hash));
  memory.keep(route());
  const onHashChange = () => {
    const next = parseHash(location.hash);
    memory.keep(next);
    setRoute(next);
  };
  window.addEventListener('hashchange', onHashChange);
  onCleanup(() => window.removeEventListener('hashchange', onHashChange));
  const write = (next: Route, replace: boolean) => {
    const hash = formatHash(next);
    if (replace) history.replaceState(null, '', hash);
    else history.pushState(null, '', hash);
    memory.keep(next);
    setRoute(next);
  };
  return {
    route,
    go: (area, params) => write({ area, params: params ?? memory.recall(area) }, false),
    setParams(changes) {
      const params: Record<string, string> = { ...route().params };
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '') delete params[key];
        else params[key] = value;
      }
      write({ area: route().area, params }, true);
    },
  };
}
