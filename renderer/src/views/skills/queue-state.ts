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
