import { describe, expect, it } from 'vitest';
import { maturityVerdict } from '../rules/maturity-gate';
import { DEFAULT_THRESHOLDS } from '../rules/thresholds';
import { effectiveOutcomes } from '../rules/counters';
import { sharedExpiry, sharedFunnel, sharedMaturity, stringList } from './row-parts';

const verdictOf = (value: Record<string, unknown>) => maturityVerdict(value, effectiveOutcomes(value, undefined), DEFAULT_THRESHOLDS);

describe('shared directive-row parts', () => {
  it('equal parts are one frozen object; every verdict reads exactly as computed', () => {
    const values = [
      { confidence: 0.5, confirmed_by: [{ phase_number: 1 }] },
      { confidence: 0.5, confirmed_by: [{ phase_number: 2 }] },
      { confidence: 0.9, confirmed_by: [{ phase_number: 1 }] },
      { confidence: 0.5, confirmed_by: [], directive_priority: 'high' },
      { confidence: 0.7, confirmed_by: [{ phase_number: 1 }], retrieval_outcomes: { applied_explicit_count: 2, shown_count: 4 } },
    ];
    const shared = values.map((v) => sharedMaturity(verdictOf(v)));
    values.forEach((v, i) => expect(shared[i]).toEqual(verdictOf(v)));
    // Phases 1 and 2 alike: one phase confirmed, so one verdict, kept once.
    expect(shared[1]).toBe(shared[0]);
    expect(shared[2]).not.toBe(shared[0]);
    expect(shared[2]!.checks[0]).toBe(shared[0]!.checks[0]);
    expect(Object.isFrozen(shared[0])).toBe(true);
    expect(Object.isFrozen(shared[0]!.checks[0])).toBe(true);
    const expiry = { action: 'archived', phasesLeft: 2, phasesAlive: 9, limit: 10, limitSource: 'default_max_phases' } as const;
    expect(sharedExpiry({ ...expiry })).toBe(sharedExpiry({ ...expiry }));
    expect(sharedExpiry({ ...expiry, phasesLeft: 3 })).toEqual({ ...expiry, phasesLeft: 3 });
    expect(sharedExpiry(null)).toBeNull();
    const funnel = { shown: 3, acknowledged: 1, applied: 0, ignored: 0, n_a: 0, contradicted: 0, violated: 2, succeeded_after_shown: 0, failed_after_shown: 0, partial_after_shown: 0 };
    expect(sharedFunnel({ ...funnel })).toBe(sharedFunnel({ ...funnel }));
    expect(sharedFunnel({ ...funnel, violated: 1 })).toEqual({ ...funnel, violated: 1 });
  });

  it('verdicts that differ in any field, -0 from 0 included, are not shared', () => {
    const base = verdictOf({ confidence: 0.5, confirmed_by: [{ phase_number: 1 }] });
    const variants = [{ ...base, confidence: -0 }, { ...base, confidence: 0 }, { ...base, signal: -0 }, { ...base, signal: 0 }, { ...base, hasSkill: !base.hasSkill }, { ...base, priority: 'low' as const }];
    const shared = variants.map((v) => sharedMaturity(v));
    variants.forEach((v, i) => expect(Object.is(shared[i]!.confidence, v.confidence) && Object.is(shared[i]!.signal, v.signal)).toBe(true));
    variants.forEach((v, i) => expect(shared[i]).toEqual(v));
    expect(new Set(shared).size).toBe(variants.length);
  });

  it('lists of strings are the entry own arrays, other lists their strings only', () => {
    const list = ['a', 'b'];
    expect(stringList(list)).toBe(list);
    expect(stringList(['a', 3, 'b'])).toEqual(['a', 'b']);
    expect(stringList('a')).toEqual([]);
    expect(stringList([])).toBe(stringList(undefined));
  });
});
