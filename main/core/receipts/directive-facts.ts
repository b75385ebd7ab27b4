import type { CounterRollup } from '../rules/counters';
import { effectiveOutcomes } from '../rules/counters';

/**
 * What a receipt view needs to know about a displayed entry from its knowledge record. The released
 * plugin's legacy logs record displays and answers but never the directive's priority or
 * enforcement, so on legacy-only data those come from the entry itself ("derived from legacy logs").
 */
export interface DirectiveFacts {
  /** `directive_priority` as written (absent: null; the plugin then treats it as medium). */
  priority: string | null;
  enforcement: string | null;
  /** The entry as written, for the effective counters. */
  entry: Record<string, unknown>;
}

export type FactsLookup = (ids: readonly string[]) => Promise<ReadonlyMap<string, DirectiveFacts>>;

interface Queryable {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
}

const CHUNK = 500;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Facts for `ids` from the workspace's store index: the active entry the plugin would use (its own
 * knowledge store before the hive, never an orphaned local file of a linked worktree).
 */
export function factsFromIndex(db: Queryable, ids: readonly string[]): Map<string, DirectiveFacts> {
  const facts = new Map<string, DirectiveFacts>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const rows = db
      .prepare(
        `SELECT e.id, stored_line(f.path, e.offset, e.bytes, e.hash) AS raw FROM entries e JOIN files f ON f.id = e.file_id
          WHERE e.collection = 'active' AND f.orphaned = 0 AND e.id IN (${chunk.map(() => '?').join(', ')})
          ORDER BY e.tier = 'hive', e.rid`,
      )
      .all(...chunk) as { id: string; raw: string }[];
    for (const row of rows) {
      if (facts.has(row.id)) continue;
      let entry: Record<string, unknown>;
      try {
        const parsed = JSON.parse(row.raw) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
        entry = parsed as Record<string, unknown>;
      } catch {
        continue;
      }
      facts.set(row.id, { priority: str(entry.directive_priority), enforcement: str(entry.enforcement_mode), entry });
    }
  }
  return facts;
}

/** The plugin's effective `acknowledged_count` for an entry (stored counters overlaid by the rollup). */
export function effectiveAcknowledged(facts: DirectiveFacts | undefined, rollup: CounterRollup | undefined): number | null {
  if (!facts) return null;
  return effectiveOutcomes(facts.entry as never, rollup).acknowledged_count;
}
