import fs from 'node:fs';
import { buildCounterRollups, effectiveOutcomes, outcomeSignal, type CounterRollup } from '../rules/counters';
import type { StoreSnapshot } from '../human/write/store-snapshot';
import { INACTIVE_STATUSES } from './restore-version';

/**
 * The plugin's cap eviction order (`selectKnowledgeCapSurvivors`, docs/plugin-formats.md#caps-and-ttl-archive):
 * promoted entries are never evicted unless every entry is promoted; inactive entries go first,
 * then the lowest outcome signal (over the effective counters, docs/plugin-formats.md#effective-counters),
 * then the oldest in file order. `knowledge_add` alone evicts naively, oldest first.
 */
export interface CapEntry {
  id: string;
  lesson: string;
  status: string | null;
  signal: number;
  /** Position in the file (0 = oldest). */
  index: number;
}

/** The counter sources of a knowledge family (swarm or link); the hive has none, so its stored counters count. */
export interface CounterFiles {
  events: StoreSnapshot;
  application: StoreSnapshot;
  baseline: string;
}

function readBaseline(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; // absent or corrupt: the plugin ignores it too
  }
}

export function rollupsOf(files: CounterFiles | null): Map<string, CounterRollup> {
  if (!files) return new Map();
  return buildCounterRollups({ baseline: readBaseline(files.baseline), events: files.events.lines.map((l) => l.value), applicationLog: files.application.lines.map((l) => l.value) });
}

/** The entries as the plugin ranks them, from a store's lines plus any appended record. */
export function capEntries(records: readonly Record<string, unknown>[], rollups: Map<string, CounterRollup>): CapEntry[] {
  return records.map((value, index) => {
    const id = typeof value.id === 'string' ? value.id : '';
    return {
      id,
      lesson: typeof value.lesson === 'string' ? value.lesson : '',
      status: typeof value.status === 'string' ? value.status : null,
      signal: outcomeSignal(effectiveOutcomes(value, rollups.get(id))),
      index,
    };
  });
}

/** The entry the plugin's cap enforcement would evict first, or null for an empty store. */
export function firstEvicted(entries: readonly CapEntry[]): CapEntry | null {
  const allPromoted = entries.every((e) => e.status === 'promoted');
  const pool = allPromoted ? [...entries] : entries.filter((e) => e.status !== 'promoted');
  const inactive = (e: CapEntry) => (e.status !== null && INACTIVE_STATUSES.has(e.status) ? 0 : 1);
  pool.sort((a, b) => inactive(a) - inactive(b) || a.signal - b.signal || a.index - b.index);
  return pool[0] ?? null;
}
