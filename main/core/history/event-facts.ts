import { storedLineSql } from '../store-index/stored-lines';
import type { HistoryDb } from './history-db';
import { sha256 } from './version-codec';

/** Event logs whose lines history keeps facts from: archived tombstones and phase completions. */
export const EVENT_STORES = new Set(['knowledge-events', 'hive-events', 'events']);
/** Event rows recorded per transaction (each line is read back from its file). */
export const EVENT_PAGE_ROWS = 500;
/**
 * The next page of a file's event rows that history keeps, after a rid: a walk of the rid range
 * (NOT INDEXED keeps SQLite off the kind index, which holds every such event of every log: finding
 * an append's few rows through it took 150 ms at 1M events; an append's rows are the newest rids,
 * StoreChange.afterRid).
 */
export const EVENT_PAGE_SQL = `SELECT e.rid, e.kind, e.phase, e.ts_ms, ${storedLineSql('e', 'f')} AS raw FROM events e NOT INDEXED JOIN files f ON f.id = e.file_id
  WHERE e.rid > ? AND e.file_id = ? AND e.line >= ? AND e.kind IN ('archived', 'outcome', 'curator_compliance') ORDER BY e.rid LIMIT ?`;

export interface EventRow {
  rid: number;
  kind: string;
  phase: string | null;
  ts_ms: number | null;
  raw: string;
}

/** Inside a write: archived tombstones and phase completions from event rows; returns how many were new. */
export function recordEventFacts(db: HistoryDb, rows: EventRow[], storeKey: string): number {
  let recorded = 0;
  const tombstone = db.prepare('INSERT OR IGNORE INTO tombstones(event_key, entry_id, tier, at, actor, reason, mode, previous_status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const phase = db.prepare('INSERT INTO moments(name, at, source) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET at = max(at, excluded.at), source = excluded.source WHERE excluded.at > at');
  for (const row of rows) {
    if (row.ts_ms === null) continue;
    if (row.kind === 'archived') {
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(row.raw) as Record<string, unknown>;
      } catch {
        continue;
      }
      const str = (x: unknown) => (typeof x === 'string' ? x : null);
      const entryId = str(v.entry_id);
      if (!entryId) continue;
      const tier = str(v.tier) ?? (storeKey === 'hive-events' ? 'hive' : null);
      recorded += tombstone.run(str(v.event_id) ?? sha256(row.raw), entryId, tier, row.ts_ms, str(v.actor), str(v.reason), str(v.mode), str(v.previous_status)).changes;
    } else {
      const n = /(\d+)/.exec(row.phase ?? '')?.[1];
      if (n) recorded += phase.run(`phase:${Number(n)}`, row.ts_ms, `${storeKey} ${row.kind}`).changes;
    }
  }
  return recorded;
}
