import { describe, expect, it } from 'vitest';
import { historyParamChanges, parseHistoryParams, toggled } from './history-params';

describe('History URL params', () => {
  it('defaults to the changes since I last looked, until now, every tier and kind', () => {
    expect(parseHistoryParams({})).toEqual({ tab: 'changes', since: 'last-looked', until: 'now', tiers: [], changes: [], sel: null, timeline: null, refused: [] });
  });

  it('reads moments, filters, the selection and the open timeline', () => {
    const state = parseHistoryParams({ tab: 'forgotten', since: 'phase:4', until: '2026-12-01T09:12:00.000Z', tier: 'hive,swarm,bogus,hive', change: 'removed', sel: 'e-1', timeline: 'e-2' });
    expect(state).toEqual({ tab: 'forgotten', since: 'phase:4', until: '2026-12-01T09:12:00.000Z', tiers: ['hive', 'swarm'], changes: ['removed'], sel: 'e-1', timeline: 'e-2', refused: [] });
  });

  it('refuses a moment it cannot read, names it and falls back to the default', () => {
    const state = parseHistoryParams({ since: 'yesterday', until: 'phase:x' });
    expect(state.since).toBe('last-looked');
    expect(state.until).toBe('now');
    expect(state.refused).toEqual(['since=yesterday', 'until=phase:x']);
  });

  it('round-trips through the URL, leaving the defaults out', () => {
    const changes = historyParamChanges({ tab: 'changes', since: 'last-looked', until: 'phase:2', tiers: ['link'], changes: [], sel: 'abc', timeline: null });
    expect(changes).toEqual({ tab: null, since: null, until: 'phase:2', tier: 'link', change: null, sel: 'abc', timeline: null });
    const params = Object.fromEntries(Object.entries(changes).filter((e): e is [string, string] => e[1] !== null));
    expect(parseHistoryParams(params)).toMatchObject({ since: 'last-looked', until: 'phase:2', tiers: ['link'], changes: [], sel: 'abc' });
  });

  it('toggles one filter value', () => {
    expect(toggled(['swarm'], 'hive')).toEqual(['swarm', 'hive']);
    expect(toggled(['swarm', 'hive'], 'swarm')).toEqual(['hive']);
  });
});
