import { describe, expect, it } from 'vitest';
import { freshnessOf, initialFreshness, reduceFreshness, VERIFIED_RECEIPTS, type FreshnessAction } from './freshness-reducer';

const run = (...actions: FreshnessAction[]) => actions.reduce(reduceFreshness, initialFreshness);
const changed = (storeKey: string): FreshnessAction => ({ type: 'store-changed', storeKey });

describe('the freshness reducer', () => {
  it('counts changes per store and leaves the state it was given alone', () => {
    const before = run(changed('knowledge'));
    const after = reduceFreshness(before, changed('knowledge'));
    expect(before.stores).toEqual({ knowledge: 1 });
    expect(after.stores).toEqual({ knowledge: 2 });
  });

  it('moves a declared set only for the stores of its families', () => {
    const knowledge = ['knowledge', 'hive'];
    const state = run(changed('knowledge-rejected'), changed('hive-quarantined'), changed('skill-usage'), changed('link-pointer'), changed('orphaned:knowledge.jsonl'));
    expect(freshnessOf(state, knowledge)).toBe(2);
    expect(freshnessOf(state, ['skill'])).toBe(1);
    // `skill` is not `skills`: a family is the key or the key followed by a dash.
    expect(freshnessOf(run(changed('skills-generated')), ['skill'])).toBe(0);
    expect(freshnessOf(run(changed('knowledgeable')), knowledge)).toBe(0);
  });

  it('moves every store of a source when its stream came back, and only that source', () => {
    const state = run({ type: 'resync', source: 'stores' });
    expect(freshnessOf(state, ['knowledge'])).toBe(1);
    expect(freshnessOf(state, ['skill', 'curator'])).toBe(1);
    expect(freshnessOf(state, [VERIFIED_RECEIPTS])).toBe(0);
    expect(freshnessOf(run({ type: 'resync', source: 'receipts' }), [VERIFIED_RECEIPTS])).toBe(1);
  });

  it('follows verified receipts apart from the receipt files themselves', () => {
    // A receipt file's change comes before its verification: the receipts queries wait for the latter.
    const state = run(changed('receipts-journal'));
    expect(freshnessOf(state, [VERIFIED_RECEIPTS])).toBe(0);
    expect(freshnessOf(reduceFreshness(state, { type: 'receipts-verified' }), [VERIFIED_RECEIPTS])).toBe(1);
    expect(freshnessOf(run({ type: 'receipts-verified' }), ['receipts'])).toBe(0);
  });

  it('only ever grows, so a query never mistakes a later state for one it has fetched', () => {
    const actions: FreshnessAction[] = [changed('hive'), { type: 'resync', source: 'stores' }, changed('events'), changed('hive-events'), { type: 'receipts-verified' }];
    let state = initialFreshness;
    let last = 0;
    for (const action of actions) {
      state = reduceFreshness(state, action);
      const now = freshnessOf(state, ['hive', 'events']);
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    expect(last).toBe(4);
  });
});
