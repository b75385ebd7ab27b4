import { describe, expect, it } from 'vitest';
import { buildCounterRollups, effectiveOutcomes, outcomeSignal, storedOutcomes, violationsSince } from './counters';

const A = '9b1d7e52-0c3a-4e8f-a6b2-71d4c9e0f385';
const B = 'c2e8a4f0-5b6d-4c1e-8f93-2a7b0d6e4f18';
const C = '3f6c2a1e-8d4b-4f7a-9c21-5b0e7d9a4c12';

const event = (type: string, extra: Record<string, unknown>, timestamp = '2026-07-01T10:00:00.000Z') => ({ type, timestamp, event_id: 'e', ...extra });

describe('effective counters (baseline + events + legacy log, overlaid on stored)', () => {
  const rollups = buildCounterRollups({
    baseline: {
      [A]: { shown_count: 40, acknowledged_count: 9, applied_explicit_count: 7, ignored_count: 1, violated_count: 2, contradicted_count: 0, n_a_count: 3, succeeded_after_shown_count: 5, failed_after_shown_count: 1, partial_after_shown_count: 0, last_applied_at: '2026-06-01T10:00:00.000Z', violation_timestamps: ['2026-05-28T12:00:00.000Z', '2026-05-20T09:00:00.000Z'] },
      broken: 'not an object',
    },
    events: [
      event('retrieved', { result_ids: [A, B] }),
      event('retrieved', { result_ids: [A] }),
      event('applied', { knowledge_id: A }, '2026-07-01T10:05:00.000Z'),
      event('violated', { knowledge_id: A }, '2026-07-02T09:00:00.000Z'),
      event('n_a', { knowledge_id: B }),
      event('outcome', { knowledge_id: A, outcome: 'success' }),
      event('outcome', { knowledge_id: B, outcome: 'partial' }),
      event('override', { knowledge_id: A }),
      event('escalation', { entry_id: A }),
      'garbage line',
    ],
    applicationLog: [
      { knowledgeId: A, result: 'shown', timestamp: '2026-06-30T00:00:00.000Z' },
      { knowledgeId: C, result: 'shown', timestamp: '2026-06-30T00:00:00.000Z' },
      { knowledgeId: C, result: 'shown', timestamp: '2026-06-30T00:00:00.000Z' },
      { knowledgeId: C, result: 'applied', timestamp: '2026-06-30T01:00:00.000Z' },
      { knowledgeId: C, result: 'violated', timestamp: '2026-06-30T02:00:00.000Z' },
    ],
  });

  it('starts from the baseline and replays every counted event type', () => {
    const a = rollups.get(A)!;
    expect(a.shown_count).toBe(42);
    expect(a.applied_explicit_count).toBe(8);
    expect(a.violated_count).toBe(3);
    expect(a.succeeded_after_shown_count).toBe(6);
    expect(a.last_applied_at).toBe('2026-07-01T10:05:00.000Z');
    expect(a.violation_timestamps).toEqual(['2026-07-02T09:00:00.000Z', '2026-05-28T12:00:00.000Z', '2026-05-20T09:00:00.000Z']);
    const b = rollups.get(B)!;
    expect(b).toMatchObject({ shown_count: 1, n_a_count: 1, partial_after_shown_count: 1 });
  });

  it('counts a legacy "shown" only for ids without retrieval history, other legacy results always', () => {
    expect(rollups.get(A)!.shown_count).toBe(42); // the legacy shown for A is ignored
    expect(rollups.get(C)).toMatchObject({ shown_count: 2, applied_explicit_count: 1, violated_count: 1 });
  });

  it('replaces stored counters with the rollup but adds the after-shown outcomes', () => {
    const entry = { id: A, retrieval_outcomes: { applied_count: 0, shown_count: 12, applied_explicit_count: 4, succeeded_after_shown_count: 3, failed_after_shown_count: 1, violated_count: 1 }, last_applied_at: '2026-06-22T15:02:11.000Z' };
    const o = effectiveOutcomes(entry, rollups.get(A));
    expect(o.fromRollup).toBe(true);
    expect(o.shown_count).toBe(42);
    expect(o.applied_explicit_count).toBe(8);
    expect(o.succeeded_after_shown_count).toBe(3 + 6);
    expect(o.failed_after_shown_count).toBe(1 + 1);
    expect(o.last_applied_at).toBe('2026-07-01T10:05:00.000Z');
    expect(o.n_a_count).toBe(3);
  });

  it('uses the stored counters as-is without a rollup, normalising v1 shapes', () => {
    const legacy = { id: 'x', retrieval_outcomes: { applied_count: 4, succeeded_after_count: 1, failed_after_count: 0 } };
    const o = effectiveOutcomes(legacy, undefined);
    expect(o.fromRollup).toBe(false);
    expect(o.shown_count).toBe(4);
    expect(o.succeeded_after_shown_count).toBe(1);
    expect(o.legacy).toEqual({ applied_count: 4, succeeded_after_count: 1, failed_after_count: 0 });
    expect(storedOutcomes({ retrieval_outcomes: null }).shown_count).toBe(0);
  });

  it('computes the outcome signal (P − N)/(P + N + 4)', () => {
    const o = { applied_explicit_count: 4, succeeded_after_shown_count: 3, ignored_count: 0, violated_count: 1, contradicted_count: 0, failed_after_shown_count: 1 };
    expect(outcomeSignal(o)).toBeCloseTo((7 - 2) / (7 + 2 + 4));
    expect(outcomeSignal({ ...o, applied_explicit_count: 0, succeeded_after_shown_count: 0 })).toBeCloseTo(-2 / 6);
  });

  it('lists violations inside a window', () => {
    const o = effectiveOutcomes({ id: A }, rollups.get(A));
    expect(violationsSince(o, Date.parse('2026-06-25T00:00:00.000Z'))).toEqual(['2026-07-02T09:00:00.000Z']);
  });
});
