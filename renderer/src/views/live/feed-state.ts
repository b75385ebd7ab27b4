import type { ConnectionState, FeedFilter, FeedItem } from '../../../../shared/contract/live';
import { when } from '../../state/format';

/**
 * Pure helpers behind the Live view: the feed is an array sorted newest first (same order as the
 * server's `time DESC, id DESC`), updated by merging batches of pushed items, capped in size.
 */
const compareItems = (a: FeedItem, b: FeedItem): number => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function matchesFilter(item: FeedItem, filter: FeedFilter): boolean {
  if (filter.project) {
    const dir = filter.project.replace(/\/+$/, '');
    if (!item.directory || (item.directory !== dir && !item.directory.startsWith(`${dir}/`))) return false;
  }
  if (filter.serverId && item.serverId !== filter.serverId) return false;
  if (filter.sessionID && item.sessionID !== filter.sessionID) return false;
  if (filter.tool && item.tool !== filter.tool) return false;
  if (filter.gate && item.gate !== filter.gate) return false;
  if (filter.kind && item.kind !== filter.kind) return false;
  if (filter.directiveId && !item.directiveIds.includes(filter.directiveId)) return false;
  if (filter.text && !item.message.toLowerCase().includes(filter.text.toLowerCase())) return false;
  return true;
}

interface MergeResult {
  items: FeedItem[];
  /** How many new rows landed above `anchorId` (to keep the operator's scroll position still). */
  insertedAbove: number;
}

/**
 * Merges pushed items into the sorted list: updates replace their row, new matching items are
 * inserted in order, updates that no longer match the filter leave. At most `cap` rows stay
 * (the oldest drop; paging brings them back).
 */
export function mergeItems(current: FeedItem[], incoming: FeedItem[], filter: FeedFilter, cap: number, anchorId: string | null = null): MergeResult {
  if (!incoming.length) return { items: current, insertedAbove: 0 };
  const byId = new Map<string, FeedItem>();
  for (const item of incoming) byId.set(item.id, item);
  const existing = new Set(current.map((i) => i.id));
  const kept = current.filter((i) => !byId.has(i.id) || matchesFilter(byId.get(i.id) as FeedItem, filter)).map((i) => byId.get(i.id) ?? i);
  const fresh = [...byId.values()].filter((i) => !existing.has(i.id) && matchesFilter(i, filter)).sort(compareItems);
  const merged: FeedItem[] = [];
  let a = 0;
  let b = 0;
  let insertedAbove = 0;
  let anchorSeen = anchorId === null;
  while (a < kept.length || b < fresh.length) {
    const next = b >= fresh.length || (a < kept.length && compareItems(kept[a] as FeedItem, fresh[b] as FeedItem) <= 0) ? kept[a++] : fresh[b++];
    if (next === undefined) break;
    if (!anchorSeen && next.id === anchorId) anchorSeen = true;
    else if (!anchorSeen && !existing.has(next.id)) insertedAbove++;
    merged.push(next);
  }
  return { items: merged.length > cap ? merged.slice(0, cap) : merged, insertedAbove: anchorSeen ? insertedAbove : 0 };
}

export function removeItems(current: FeedItem[], ids: string[]): FeedItem[] {
  if (!ids.length) return current;
  const gone = new Set(ids);
  return current.filter((i) => !gone.has(i.id));
}

/** Appends an older page (paging down), skipping rows already present. */
export function appendPage(current: FeedItem[], page: FeedItem[]): FeedItem[] {
  const seen = new Set(current.map((i) => i.id));
  return [...current, ...page.filter((i) => !seen.has(i.id))];
}

/** The words an operator sees for a connection state; `now` makes "silent for N s" tick. */
export function describeState(state: ConnectionState, now: number): { label: string; tone: 'ok' | 'warn' | 'danger' | 'muted' } {
  switch (state.kind) {
    case 'connected':
      return { label: 'connected', tone: 'ok' };
    case 'silent':
      return { label: `connected but silent for ${Math.max(0, Math.round((now - state.lastEventAt) / 1000))} s`, tone: 'warn' };
    case 'connecting':
      return { label: 'connecting…', tone: 'muted' };
    case 'reconnecting':
      return { label: `reconnecting (attempt ${state.attempt}): ${state.reason}`, tone: 'warn' };
    case 'unreachable':
      return { label: `unreachable (${state.reason})`, tone: 'danger' };
    case 'unauthorised':
      return { label: `unauthorised: ${state.reason}`, tone: 'danger' };
    case 'refused':
      return { label: `stopped reading: ${state.reason}`, tone: 'danger' };
    case 'stopped':
      return { label: 'stopped', tone: 'muted' };
  }
}

/** Filter params in the URL ⇄ the contract's FeedFilter. */
export const FILTER_PARAMS = { project: 'project', sessionID: 'session', tool: 'tool', directiveId: 'directive', gate: 'gate', kind: 'kind', text: 'q' } as const;

export function filterFromParams(params: Readonly<Record<string, string>>): FeedFilter {
  const filter: Record<string, string> = {};
  for (const [key, param] of Object.entries(FILTER_PARAMS)) {
    const value = params[param]?.trim();
    if (value) filter[key] = value.slice(0, key === 'project' ? 4096 : 256);
  }
  if (filter.kind && !['denial', 'block', 'warn', 'clear'].includes(filter.kind)) delete filter.kind;
  return filter as FeedFilter;
}

/** "3 s ago", "4 min ago", or the time itself (one clock, state/format.ts) for older things: the feed row's tooltip. */
export function relativeTime(time: number, now: number): string {
  const s = Math.round((now - time) / 1000);
  if (s < 60) return `${Math.max(0, s)} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return when(time);
}

export const OUTCOME_LABEL: Record<string, string> = {
  pending: 'no reaction yet',
  retried_ok: 'answered & retried: ran',
  retried_denied: 'retried: denied again',
  gave_up: 'gave up (turn ended)',
};
