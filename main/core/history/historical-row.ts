import type { EntryItem } from '../../../shared/contract/stores';
import { toItem } from '../store-index/entry-queries';
import { entryRow } from '../store-index/rows';
import { storeDef, type EntryCollection, type StoreTier } from '../stores/catalog';
import type { StoreRecord } from '../stores/read-store-file';

/**
 * A historical line as the live table's row, read exactly as the store index reads a live line (the
 * store's checker normalises it, `entryRow` derives the columns): one derivation, so the table as of
 * a moment shows the same columns the live one would have shown then. Null when the line was not a
 * JSON object. `position` stands in for the row id (no index row exists for a historical line).
 */
export function historicalItem(record: Record<string, unknown> | null, place: { tier: string; storeKey: string; file: string }, kind: string, position: number): EntryItem | null {
  if (!record) return null;
  const def = storeDef(place.storeKey);
  const collection: EntryCollection = def?.collection ?? (kind === 'hive' || kind === 'link' ? 'active' : (kind as EntryCollection));
  const value = def ? def.check(record).value : record;
  const id = typeof value.id === 'string' ? value.id : null;
  const row = entryRow({ value, id } as StoreRecord, place.tier as StoreTier, collection);
  return toItem({ ...row, rid: -(position + 1), store_key: place.storeKey, tags: JSON.stringify(row.tags), flagged: 0, duplicate: 0, name: place.file, line: 0 });
}
