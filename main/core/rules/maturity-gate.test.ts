import { describe, expect, it } from 'vitest';
import { effectiveOutcomes } from './counters';
import { maturityVerdict } from './maturity-gate';
import { DEFAULT_THRESHOLDS } from './thresholds';

const phases = (...numbers: number[]) => numbers.map((n) => ({ phase_number: n, confirmed_at: `2026-06-0${n}T00:00:00.000Z`, project_name: 'p' }));

function verdict(entry: Record<string, unknown>) {
  return maturityVerdict(entry, effectiveOutcomes(entry, undefined), DEFAULT_THRESHOLDS);
}

describe('skill maturity gate', () => {
  it('rejects a negative outcome signal whatever else holds', () => {
    const v = verdict({ confidence: 1, confirmed_by: phases(1, 2, 3), retrieval_outcomes: { applied_explicit_count: 3, violated_count: 5 } });
    expect(v.eligible).toBe(false);
    expect(v.decidedBy).toBe('negative_signal');
    expect(v.reasons[0]).toMatch(/negative outcome signal \(-0\.17\)/);
  });

  it('lets a strong outcome record with a positive signal bypass confidence and confirmations', () => {
    const v = verdict({ confidence: 0.3, confirmed_by: [], retrieval_outcomes: { succeeded_after_shown_count: 3 } });
    expect(v).toMatchObject({ eligible: true, decidedBy: 'strong_record' });
  });

  it('fast-tracks high/critical priority at one phase and confidence ≥ 0.60', () => {
    expect(verdict({ directive_priority: 'critical', confidence: 0.6, confirmed_by: phases(4) })).toMatchObject({ eligible: true, decidedBy: 'fast_track' });
    const tooLow = verdict({ directive_priority: 'high', confidence: 0.55, confirmed_by: phases(4) });
    expect(tooLow.eligible).toBe(false);
    expect(tooLow.reasons.join(' ')).toMatch(/fast track needs/);
  });

  it('otherwise needs confidence ≥ 0.70 AND ≥ 2 distinct phases, and says which one failed', () => {
    expect(verdict({ confidence: 0.7, confirmed_by: phases(1, 2) })).toMatchObject({ eligible: true, decidedBy: 'standard' });
    const onePhase = verdict({ confidence: 0.9, confirmed_by: [...phases(3), ...phases(3)] });
    expect(onePhase.eligible).toBe(false);
    expect(onePhase.distinctPhases).toBe(1);
    expect(onePhase.reasons).toEqual(['Only 1 distinct phase confirmed it; min_skill_confirmations is 2.']);
    const lowConfidence = verdict({ confidence: 0.65, confirmed_by: phases(1, 2) });
    expect(lowConfidence.reasons[0]).toMatch(/Confidence 0\.65 is below min_skill_confidence 0\.70/);
    expect(lowConfidence.checks.map((c) => [c.rule, c.passed])).toEqual([
      ['negative_signal', true],
      ['strong_record', false],
      ['confidence', false],
      ['confirmations', true],
    ]);
  });

  it('counts hive confirmations per project when they carry no phase', () => {
    const v = verdict({ tier: 'hive', confidence: 0.8, confirmed_by: [{ project_name: 'a' }, { project_name: 'b' }] });
    expect(v).toMatchObject({ eligible: true, confirmationsFrom: 'projects', distinctPhases: 2 });
  });
});
