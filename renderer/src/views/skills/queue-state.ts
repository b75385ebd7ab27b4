import type { QueueItem } from '../../../../shared/contract/skills';

type QueueCommand = { type: 'move'; index: number } | { type: 'open'; item: QueueItem } | { type: 'approve'; item: QueueItem } | { type: 'reject'; item: QueueItem } | { type: 'skip'; key: string } | { type: 'dismiss'; item: QueueItem; reason: string | null } | { type: 'none'; note?: string };

/** Items in kind order, skipped ones last (a skip only moves an item down for this session). */
export function orderedQueue(items: readonly QueueItem[], kinds: readonly string[], skipped: readonly string[]): QueueItem[] {
  const shown = kinds.length ? items.filter((i) => kinds.includes(i.kind)) : [...items];
  const rank = (i: QueueItem) => (skipped.includes(i.key) ? 1 : 0);
  return shown.map((item, n) => ({ item, n })).sort((a, b) => rank(a.item) - rank(b.item) || a.n - b.n).map((x) => x.item);
}

/** The reason `a` records on an item without a decision: "looked at it, nothing to do". */
const MARK_REVIEWED = 'reviewed';

/**
 * An item with no store-writing decision (no approve, no reject, no human-only command) can only
 * be dismissed: `r` asks for a reason, `a` marks it reviewed. The record stays in console user data.
 */
const dismissable = (item: QueueItem): boolean => item.actions.length === 0 && item.command === null;

/** What one key does at `index` of the visible queue. Pure, so the keyboard contract is tested without a DOM. */
export function queueKey(key: string, items: readonly QueueItem[], index: number): QueueCommand {
  const current = items[index];
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return { type: 'move', index: Math.min(items.length - 1, index + 1) };
    case 'k':
    case 'ArrowUp':
      return { type: 'move', index: Math.max(0, index - 1) };
    case 'Enter':
      return current ? { type: 'open', item: current } : { type: 'none' };
    case 'a':
      if (!current) return { type: 'none' };
      if (current.actions.includes('approve')) return { type: 'approve', item: current };
      return dismissable(current) ? { type: 'dismiss', item: current, reason: MARK_REVIEWED } : { type: 'none', note: `No approve for ${current.kind.replace(/_/g, ' ')} here: open it (Enter) to act.` };
    case 'r':
      if (!current) return { type: 'none' };
      if (current.actions.includes('reject')) return { type: 'reject', item: current };
      return dismissable(current) ? { type: 'dismiss', item: current, reason: null } : { type: 'none', note: `No reject for ${current.kind.replace(/_/g, ' ')} here: open it (Enter) to act.` };
    case 's':
      return current ? { type: 'skip', key: current.key } : { type: 'none' };
    default:
      return { type: 'none' };
  }
}

/** `kinds=a,b` in the URL ⇄ a list. */
export const parseKinds = (value: string | undefined): string[] => (value ? value.split(',').filter(Boolean) : []);

/**
 * Where the operator is in the queue, kept for the browser tab (sessionStorage) so that opening an
 * item, deciding in another tab of the view, Back and Esc all return to the same place: the current
 * item (by key, with its index for when it has been decided and left the queue), the skipped items
 * and the items decided from here.
 */
export interface QueueSession {
  current: string | null;
  index: number;
  skipped: string[];
  decided: string[];
}

export const EMPTY_QUEUE_SESSION: QueueSession = { current: null, index: 0, skipped: [], decided: [] };

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(-500) : []);

/** Stored text → a session; anything malformed starts afresh rather than failing the view. */
export function parseQueueSession(text: string | null): QueueSession {
  try {
    const value = JSON.parse(text ?? 'null') as Partial<QueueSession> | null;
    if (!value || typeof value !== 'object') return EMPTY_QUEUE_SESSION;
    return {
      current: typeof value.current === 'string' ? value.current : null,
      index: Number.isInteger(value.index) && (value.index as number) >= 0 ? (value.index as number) : 0,
      skipped: strings(value.skipped),
      decided: strings(value.decided),
    };
  } catch {
    return EMPTY_QUEUE_SESSION;
  }
}

/** The current item's index: the remembered key where it still is, else the remembered place (the next item once one is decided). */
export function queuePosition(visible: readonly QueueItem[], session: Pick<QueueSession, 'current' | 'index'>): number {
  const byKey = session.current === null ? -1 : visible.findIndex((item) => item.key === session.current);
  return byKey >= 0 ? byKey : Math.max(0, Math.min(session.index, visible.length - 1));
}

/** "n of N · decided d · skipped s", as annotation queues show progress. Decided counts items decided here that have left the queue. */
export function queueProgress(visible: readonly QueueItem[], position: number, session: Pick<QueueSession, 'skipped' | 'decided'>, waiting: ReadonlySet<string>): string {
  const skipped = visible.filter((item) => session.skipped.includes(item.key)).length;
  const decided = session.decided.filter((key) => !waiting.has(key)).length;
  return `${visible.length === 0 ? 0 : position + 1} of ${visible.length} · decided ${decided} · skipped ${skipped}`;
}
