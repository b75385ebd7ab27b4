import { buildCounterRollups, effectiveOutcomes, instant, outcomeSignal, violationsSince, type CounterRollup, type EffectiveOutcomes } from '../rules/counters';
import { entryId, str } from '../rules/entry-fields';
import type { EntryMarkers, KnowledgeInputs, SourceEntry } from './model-types';
import { expiryMarker, qualityMarkers } from '../rules/lifecycle';
import type { KnowledgeThresholds } from '../rules/thresholds';

export const VIOLATION_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface CounterChanges {
  ids: ReadonlySet<string>;
  asOfMoved: boolean;
}

function sameRollup(a: CounterRollup, b: CounterRollup | undefined): boolean {
  if (!b) return false;
  for (const key of Object.keys(a) as (keyof CounterRollup)[]) {
    if (key === 'violation_timestamps') continue;
    if (a[key] !== b[key]) return false;
  }
  if (Object.keys(a).length !== Object.keys(b).length) return false;
  const [ta, tb] = [a.violation_timestamps, b.violation_timestamps];
  return ta.length === tb.length && ta.every((t, i) => t === tb[i]);
}

/** Effective-counter rollups and the "this week" anchor, from the counter sources alone. */
export class CounterState {
  readonly rollups: Map<string, CounterRollup>;
  /** Reference time for "this week": the latest recorded activity, never later than now. */
  readonly asOf: number;

  constructor(inputs: Pick<KnowledgeInputs, 'knowledgeEvents' | 'applicationLog' | 'baseline'>, now: number = Date.now()) {
    this.rollups = buildCounterRollups({
      baseline: inputs.baseline,
      events: inputs.knowledgeEvents.map((e) => e.value),
      applicationLog: inputs.applicationLog.map((e) => e.value),
    });
    let latest = Number.NEGATIVE_INFINITY;
    for (const event of [...inputs.knowledgeEvents, ...inputs.applicationLog]) {
      const t = instant(str(event.value.timestamp));
      if (t > latest) latest = t;
    }
    this.asOf = Number.isFinite(latest) ? Math.min(latest, now) : now;
  }

  /**
   * What differs from an earlier state of the same stores: the ids whose rollup changed (so
   * their outcomes and markers may have), and whether the "this week" anchor moved (so markers
   * of entries with violation timestamps may have).
   */
  changedSince(previous: CounterState): CounterChanges {
    const ids = new Set<string>();
    for (const [id, rollup] of this.rollups) if (!sameRollup(rollup, previous.rollups.get(id))) ids.add(id);
    for (const id of previous.rollups.keys()) if (!this.rollups.has(id)) ids.add(id);
    return { ids, asOfMoved: previous.asOf !== this.asOf };
  }

  get windowStart(): number {
    return this.asOf - VIOLATION_WINDOW_DAYS * DAY_MS;
  }

  outcomes(entry: SourceEntry): EffectiveOutcomes {
    return effectiveOutcomes(entry.value, this.rollups.get(entryId(entry.value)));
  }

  markers(entry: SourceEntry, thresholds: KnowledgeThresholds): EntryMarkers {
    const outcomes = this.outcomes(entry);
    const inWindow = violationsSince(outcomes, this.windowStart).filter((t) => instant(t) <= this.asOf);
    return {
      expiry: entry.collection === 'active' ? expiryMarker(entry.value, thresholds) : null,
      quality: qualityMarkers(entry.value, outcomes, thresholds),
      signal: outcomeSignal(outcomes),
      shown: outcomes.shown_count,
      violationsInWindow: inWindow.length,
      lastViolationAt: outcomes.violation_timestamps[0] ?? null,
    };
  }
}

