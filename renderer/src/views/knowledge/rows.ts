import type { Output } from '../../../../shared/contract';

/** One table row, as `knowledge.rows` assembles it in the core: the indexed entry with its markers. */
export type KnowledgeRow = Output<'knowledge.rows'>['items'][number];
/** What identifies and compares rows (the entry without its markers). */
export type EntryItem = Output<'stores.entries'>['items'][number];

/** Identity across refreshes: rids change when a store is rewritten, store + id do not. */
export const rowKey = (row: EntryItem): string => `${row.store}:${row.id ?? `rid${row.rid}`}:${row.collection}`;

/** What must differ for a row to count as changed. */
export const rowSignature = (row: EntryItem): string =>
  [row.updatedAt, row.status, row.confidence, row.lesson, row.shownCount, row.phasesAlive, row.priority, row.tags.join('|')].join('\u0001');

/**
 * Keys of rows that arrived or changed between two reads of the loaded blocks. `seen` remembers
 * every row shown since the query started (key → signature) and is updated in place. Rows never
 * seen before count as arrivals only when the list grew (otherwise they merely scrolled in).
 */
export function changedKeys(after: Iterable<EntryItem>, seen: Map<string, string>, listGrew: boolean): string[] {
  const changed: string[] = [];
  for (const row of after) {
    const key = rowKey(row);
    const signature = rowSignature(row);
    const before = seen.get(key);
    if (before === undefined ? listGrew : before !== signature) changed.push(key);
    seen.set(key, signature);
  }
  return changed;
}
