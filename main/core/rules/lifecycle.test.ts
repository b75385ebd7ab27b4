import { describe, expect, it } from 'vitest';
import { effectiveOutcomes } from './counters';
import { expiryMarker, qualityMarkers, utilityScore } from './lifecycle';
import { DEFAULT_THRESHOLDS, resolveThresholds } from './thresholds';

const t = DEFAULT_THRESHOLDS;

describe('archives-in-N countdown', () => {
  it('counts the sweeps left before phases_alive exceeds max_phases ?? default_max_phases', () => {
    expect(expiryMarker({ status: 'candidate', phases_alive: 0 }, t)).toMatchObject({ action: 'archived', phasesLeft: 11, limit: 10, limitSource: 'default_max_phases' });
    expect(expiryMarker({ status: 'established', phases_alive: 9, max_phases: 10 }, t)).toMatchObject({ phasesLeft: 2, limitSource: 'max_phases' });
    expect(expiryMarker({ status: 'candidate', phases_alive: 10 }, t)?.phasesLeft).toBe(1);
    expect(expiryMarker({ status: 'candidate', phases_alive: 14 }, t)?.phasesLeft).toBe(0);
  });

  it('gives todo entries their own, shorter TTL and deletes rather than archives them', () => {
    expect(expiryMarker({ status: 'candidate', category: 'todo', phases_alive: 2 }, t)).toMatchObject({ action: 'deleted', phasesLeft: 2, limitSource: 'todo_max_phases' });
  });

  it('has no countdown for entries the sweep skips', () => {
    expect(expiryMarker({ status: 'promoted', phases_alive: 40 }, t)).toBeNull();
    expect(expiryMarker({ status: 'archived' }, t)).toBeNull();
    expect(expiryMarker({ status: 'quarantined_unactionable' }, t)).toBeNull();
  });

  it('uses the thresholds in force', () => {
    const custom = resolveThresholds({ default_max_phases: 4, todo_max_phases: 'x' as unknown as number });
    expect(custom.todo_max_phases).toBe(3);
    expect(expiryMarker({ status: 'candidate', phases_alive: 1 }, custom)?.phasesLeft).toBe(4);
  });
});

describe('utility, evergreen and low-utility markers', () => {
  const withCounts = (ro: Record<string, number>, confidence = 0.95) => {
    const entry = { confidence, retrieval_outcomes: ro };
    return { entry, o: effectiveOutcomes(entry, undefined) };
  };

  it('defines utility as the good-outcome share of showings, unknown below min_retrievals_for_utility', () => {
    expect(utilityScore({ shown_count: 2, applied_explicit_count: 2, succeeded_after_shown_count: 0 }, t)).toBeNull();
    expect(utilityScore({ shown_count: 10, applied_explicit_count: 4, succeeded_after_shown_count: 4 }, t)).toBeCloseTo(0.8);
    expect(utilityScore({ shown_count: 3, applied_explicit_count: 3, succeeded_after_shown_count: 3 }, t)).toBe(1);
  });

  it('marks evergreen at confidence ≥ 0.9 and utility ≥ 0.8', () => {
    const { entry, o } = withCounts({ shown_count: 10, applied_explicit_count: 5, succeeded_after_shown_count: 3 });
    expect(qualityMarkers(entry, o, t)).toMatchObject({ evergreen: true, lowUtility: false });
    const lowConfidence = withCounts({ shown_count: 10, applied_explicit_count: 5, succeeded_after_shown_count: 3 }, 0.85);
    expect(qualityMarkers(lowConfidence.entry, lowConfidence.o, t).evergreen).toBe(false);
  });

  it('marks low-utility only with utility ≤ 0.3 after at least 5 showings', () => {
    const many = withCounts({ shown_count: 6, applied_explicit_count: 1, succeeded_after_shown_count: 0 });
    expect(qualityMarkers(many.entry, many.o, t)).toMatchObject({ lowUtility: true, evergreen: false });
    const few = withCounts({ shown_count: 4, applied_explicit_count: 0, succeeded_after_shown_count: 0 });
    expect(qualityMarkers(few.entry, few.o, t).lowUtility).toBe(false);
  });
});
