import { describe, expect, it } from 'vitest';
import { resumed, type PassFacts } from './file-marks';

/** What a pass states when it takes over from one that stopped part-way (the recorder's test drives it end to end). */
describe('a pass taking over from one that stopped part-way', () => {
  const T0 = 1_000;
  const baseline: PassFacts = { origin: 'baseline', now: T0, after: null };
  const liveThen: PassFacts = { origin: 'live', now: T0, after: null };
  const catchUpThen: PassFacts = { origin: 'catch-up', now: T0, after: 500 };
  const catchUpNow: PassFacts = { origin: 'catch-up', now: 9_000, after: 4_000 };
  const liveNow: PassFacts = { origin: 'live', now: 9_000, after: null };

  it.each([
    ['the same state of the file: what the stopped pass would have said', baseline, true, catchUpNow, baseline],
    ['a later state, caught up on opening: since the stopped baseline began', baseline, false, catchUpNow, { origin: 'catch-up', now: 9_000, after: T0 }],
    ['a later state, caught up on opening: since the stopped catch-up’s own lower bound', catchUpThen, false, catchUpNow, { origin: 'catch-up', now: 9_000, after: 500 }],
    ['a later state, watched now, after a stopped baseline: found, not watched', baseline, false, liveNow, { origin: 'catch-up', now: 9_000, after: T0 }],
    ['a later state, watched then and now (the store changed under the pass): watched', liveThen, false, liveNow, liveNow],
    ['a later state, after a stopped watched pass, caught up on opening: since it', liveThen, false, catchUpNow, { origin: 'catch-up', now: 9_000, after: T0 }],
    ['a first recording over a later state: the baseline', catchUpThen, false, { origin: 'baseline', now: 9_000, after: null }, { origin: 'baseline', now: 9_000, after: null }],
  ] as const)('%s', (_, stopped, sameState, current, expected) => {
    expect(resumed(stopped, sameState, current)).toEqual(expected);
  });
});
