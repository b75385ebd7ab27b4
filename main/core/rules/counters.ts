import { num, str, type RawEntry } from './entry-fields';

/**
 * Effective retrieval-outcome counters, reproduced from the plugin's
 * `readKnowledgeCounterRollups` + `effectiveRetrievalOutcomes` (`src/hooks/knowledge-events.ts`):
 * baseline → replay of `knowledge-events.jsonl` → fold of the legacy `knowledge-application.jsonl`,
 * then an overlay on the counters stored in the entry.
 */
const ROLLUP_COUNTERS = [
  'shown_count',
  'acknowledged_count',
  'applied_explicit_count',
  'ignored_count',
  'violated_count',
  'contradicted_count',
  'n_a_count',
  'succeeded_after_shown_count',
  'failed_after_shown_count',
  'partial_after_shown_count',
] as const;
export type RollupCounter = (typeof ROLLUP_COUNTERS)[number];

export type CounterRollup = Record<RollupCounter, number> & {
  last_applied_at?: string;
  last_acknowledged_at?: string;
  /** Newest first, at most 10. */
  violation_timestamps: string[];
};

const MAX_VIOLATION_TIMESTAMPS = 10;

export const emptyRollup = (): CounterRollup => ({
  shown_count: 0,
  acknowledged_count: 0,
  applied_explicit_count: 0,
  ignored_count: 0,
  violated_count: 0,
  contradicted_count: 0,
  n_a_count: 0,
  succeeded_after_shown_count: 0,
  failed_after_shown_count: 0,
  partial_after_shown_count: 0,
  violation_timestamps: [],
});

/** Milliseconds since epoch, or NaN; timestamps are compared as instants, not as strings. */
export const instant = (iso: string | null | undefined): number => (iso ? Date.parse(iso) : Number.NaN);

const later = (a: string | undefined, b: string | undefined): string | undefined => {
  if (!a) return b;
  if (!b) return a;
  const [ta, tb] = [instant(a), instant(b)];
  if (Number.isNaN(tb)) return a;
  if (Number.isNaN(ta)) return b;
  return ta >= tb ? a : b;
};

const newestFirst = (a: string, b: string): number => {
  const [ta, tb] = [instant(a), instant(b)];
  if (Number.isNaN(ta) || Number.isNaN(tb)) return Number.isNaN(ta) ? (Number.isNaN(tb) ? 0 : 1) : -1;
  return tb - ta;
};

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

interface RollupSources {
  /** Parsed `knowledge-counter-baseline.json` (an object `id → rollup`); anything else is ignored like a corrupt file. */
  baseline?: unknown;
  /** Parsed lines of `knowledge-events.jsonl`, file order. */
  events?: Iterable<unknown>;
  /** Parsed lines of the legacy `knowledge-application.jsonl`, file order. */
  applicationLog?: Iterable<unknown>;
}

const EVENT_COUNTER: Record<string, RollupCounter> = {
  acknowledged: 'acknowledged_count',
  applied: 'applied_explicit_count',
  ignored: 'ignored_count',
  violated: 'violated_count',
  contradicted: 'contradicted_count',
  n_a: 'n_a_count',
};

const OUTCOME_COUNTER: Record<string, RollupCounter> = {
  success: 'succeeded_after_shown_count',
  failure: 'failed_after_shown_count',
  partial: 'partial_after_shown_count',
};

const LEGACY_COUNTER: Record<string, RollupCounter> = {
  acknowledged: 'acknowledged_count',
  applied: 'applied_explicit_count',
  ignored: 'ignored_count',
  violated: 'violated_count',
};

export function buildCounterRollups(sources: RollupSources): Map<string, CounterRollup> {
  const rollups = new Map<string, CounterRollup>();
  const rollupFor = (id: string) => {
    let rollup = rollups.get(id);
    if (!rollup) rollups.set(id, (rollup = emptyRollup()));
    return rollup;
  };
  const hasRetrievals = new Set<string>();

  const baseline = asRecord(sources.baseline);
  if (baseline) {
    for (const [id, value] of Object.entries(baseline)) {
      const folded = asRecord(value);
      if (!folded) continue;
      const rollup = rollupFor(id);
      for (const key of ROLLUP_COUNTERS) rollup[key] = num(folded[key]) ?? 0;
      rollup.last_applied_at = str(folded.last_applied_at);
      rollup.last_acknowledged_at = str(folded.last_acknowledged_at);
      rollup.violation_timestamps = Array.isArray(folded.violation_timestamps)
        ? folded.violation_timestamps.filter((t): t is string => typeof t === 'string')
        : [];
      if (rollup.shown_count > 0) hasRetrievals.add(id);
    }
  }

  for (const raw of sources.events ?? []) {
    const event = asRecord(raw);
    if (!event) continue;
    const type = str(event.type);
    const timestamp = str(event.timestamp);
    if (type === 'retrieved') {
      if (!Array.isArray(event.result_ids)) continue;
      for (const id of event.result_ids) {
        if (typeof id !== 'string') continue;
        rollupFor(id).shown_count += 1;
        hasRetrievals.add(id);
      }
      continue;
    }
    const id = str(event.knowledge_id);
    if (!id) continue;
    if (type === 'outcome') {
      const counter = OUTCOME_COUNTER[str(event.outcome) ?? ''];
      if (counter) rollupFor(id)[counter] += 1;
      continue;
    }
    const counter = type ? EVENT_COUNTER[type] : undefined;
    if (!counter) continue; // override, archived, escalation, skill-stale-batch carry no counter
    const rollup = rollupFor(id);
    rollup[counter] += 1;
    if (type === 'acknowledged') rollup.last_acknowledged_at = later(rollup.last_acknowledged_at, timestamp);
    if (type === 'applied') rollup.last_applied_at = later(rollup.last_applied_at, timestamp);
    if (type === 'violated' && timestamp) rollup.violation_timestamps.push(timestamp);
  }

  for (const raw of sources.applicationLog ?? []) {
    const line = asRecord(raw);
    if (!line) continue;
    const id = str(line.knowledgeId);
    const result = str(line.result);
    if (!id || !result) continue;
    const timestamp = str(line.timestamp);
    if (result === 'shown') {
      if (!hasRetrievals.has(id)) rollupFor(id).shown_count += 1;
      continue;
    }
    const counter = LEGACY_COUNTER[result];
    if (!counter) continue;
    const rollup = rollupFor(id);
    rollup[counter] += 1;
    if (result === 'acknowledged') rollup.last_acknowledged_at = later(rollup.last_acknowledged_at, timestamp);
    if (result === 'applied') rollup.last_applied_at = later(rollup.last_applied_at, timestamp);
    if (result === 'violated' && timestamp) rollup.violation_timestamps.push(timestamp);
  }

  for (const rollup of rollups.values()) {
    rollup.violation_timestamps = [...rollup.violation_timestamps].sort(newestFirst).slice(0, MAX_VIOLATION_TIMESTAMPS);
  }
  return rollups;
}

/** The frozen pre-v2 counters: always written, never incremented any more. */
export interface LegacyCounters {
  applied_count: number;
  succeeded_after_count: number;
  failed_after_count: number;
}

/** The v2 counters stored on an entry's `retrieval_outcomes` (n_a and partial never reach an entry). */
export interface StoredCounters {
  shown_count: number;
  acknowledged_count: number;
  applied_explicit_count: number;
  ignored_count: number;
  violated_count: number;
  contradicted_count: number;
  succeeded_after_shown_count: number;
  failed_after_shown_count: number;
}

export interface EffectiveOutcomes extends StoredCounters {
  /** Event-only counters: present only when a rollup exists (never stored on entries). */
  partial_after_shown_count: number;
  n_a_count: number;
  violation_timestamps: string[];
  last_applied_at: string | null;
  last_acknowledged_at: string | null;
  legacy: LegacyCounters;
  /** True when baseline/events/application log mention the entry, so the rollup overrode stored values. */
  fromRollup: boolean;
}

/** The stored counters after the plugin's v1→v2 read normalisation. */
export function storedOutcomes(entry: RawEntry) {
  const ro = asRecord(entry.retrieval_outcomes) ?? {};
  const legacy: LegacyCounters = {
    applied_count: num(ro.applied_count) ?? 0,
    succeeded_after_count: num(ro.succeeded_after_count) ?? 0,
    failed_after_count: num(ro.failed_after_count) ?? 0,
  };
  return {
    shown_count: num(ro.shown_count) ?? num(ro.applied_count) ?? 0,
    acknowledged_count: num(ro.acknowledged_count) ?? 0,
    applied_explicit_count: num(ro.applied_explicit_count) ?? 0,
    ignored_count: num(ro.ignored_count) ?? 0,
    violated_count: num(ro.violated_count) ?? 0,
    contradicted_count: num(ro.contradicted_count) ?? 0,
    succeeded_after_shown_count: num(ro.succeeded_after_shown_count) ?? num(ro.succeeded_after_count) ?? 0,
    failed_after_shown_count: num(ro.failed_after_shown_count) ?? num(ro.failed_after_count) ?? 0,
    legacy,
    // The snapshot writes these at the entry's top level; older shapes kept them in retrieval_outcomes.
    last_applied_at: str(entry.last_applied_at) ?? str(ro.last_applied_at) ?? null,
    last_acknowledged_at: str(entry.last_acknowledged_at) ?? str(ro.last_acknowledged_at) ?? null,
  };
}

export function effectiveOutcomes(entry: RawEntry, rollup: CounterRollup | undefined): EffectiveOutcomes {
  const stored = storedOutcomes(entry);
  if (!rollup) {
    return { ...stored, partial_after_shown_count: 0, n_a_count: 0, violation_timestamps: [], fromRollup: false };
  }
  return {
    shown_count: rollup.shown_count,
    acknowledged_count: rollup.acknowledged_count,
    applied_explicit_count: rollup.applied_explicit_count,
    ignored_count: rollup.ignored_count,
    violated_count: rollup.violated_count,
    contradicted_count: rollup.contradicted_count,
    // The two post-phase outcome counters are the only ones the plugin ADDS rather than replaces.
    succeeded_after_shown_count: stored.succeeded_after_shown_count + rollup.succeeded_after_shown_count,
    failed_after_shown_count: stored.failed_after_shown_count + rollup.failed_after_shown_count,
    partial_after_shown_count: rollup.partial_after_shown_count,
    n_a_count: rollup.n_a_count,
    violation_timestamps: rollup.violation_timestamps,
    last_applied_at: rollup.last_applied_at ?? stored.last_applied_at,
    last_acknowledged_at: rollup.last_acknowledged_at ?? stored.last_acknowledged_at,
    legacy: stored.legacy,
    fromRollup: true,
  };
}

type SignalCounters = Pick<
  EffectiveOutcomes,
  'applied_explicit_count' | 'succeeded_after_shown_count' | 'ignored_count' | 'violated_count' | 'contradicted_count' | 'failed_after_shown_count'
>;

/** `(P − N)/(P + N + 4)`: P = applied + succeeded-after-shown, N = ignored + violated + contradicted + failed-after-shown. */
export function outcomeSignal(o: SignalCounters): number {
  const positive = o.applied_explicit_count + o.succeeded_after_shown_count;
  const negative = o.ignored_count + o.violated_count + o.contradicted_count + o.failed_after_shown_count;
  return (positive - negative) / (positive + negative + 4);
}

/** Violations at or after `sinceMs`, from the effective violation timestamps (kept newest 10). */
export const violationsSince = (o: Pick<EffectiveOutcomes, 'violation_timestamps'>, sinceMs: number): string[] =>
  o.violation_timestamps.filter((t) => instant(t) >= sinceMs);
