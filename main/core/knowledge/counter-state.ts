import { buildCounterRollups, effectiveOutcomes, instant, outcomeSignal, violationsSince, type CounterRollup, type EffectiveOutcomes } from '../rules/counters';
import { entryId, str } from '../rules/entry-fields';
import type { EntryMarkers, KnowledgeInputs, SourceEntry } from './model-types';
import { expiryMarker, qualityMarkers } from '../rules/lifecycle';
import type { KnowledgeThresholds } from '../rules/thresholds';

export const VIOLATION_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

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

