import { describe, expect, it } from 'vitest';
import { formatHash, parseHash } from '../../../state/route';
import { dateTimeToMoment, momentFromParams, momentLabel, momentParam, momentToDateTime, whenToSecond } from './moment-param';

describe('the as-of moment in the URL', () => {
  it('round-trips each kind of moment through the hash', () => {
    for (const moment of ['last-looked', 'phase:4', '2026-12-01T23:40:12.000Z']) {
      const hash = formatHash({ area: 'knowledge', params: { status: 'candidate', ...(momentParam(moment) as Record<string, string>) } });
      expect(momentFromParams(parseHash(hash).params)).toEqual({ moment, invalid: null });
    }
    expect(formatHash({ area: 'knowledge', params: momentParam('phase:4') as Record<string, string> })).toBe('#/knowledge?asOf=phase%3A4');
  });

  it('no moment, or now, is the live table; setting now removes the param', () => {
    expect(momentFromParams({})).toEqual({ moment: null, invalid: null });
    expect(momentFromParams({ asOf: 'now' })).toEqual({ moment: null, invalid: null });
    expect(momentParam('now')).toEqual({ asOf: null });
    expect(momentParam(null)).toEqual({ asOf: null });
  });

  it('a param that is not a moment is reported, not guessed at', () => {
    expect(momentFromParams({ asOf: 'yesterday-ish' })).toEqual({ moment: null, invalid: 'yesterday-ish' });
    expect(momentFromParams({ asOf: 'phase:x' })).toEqual({ moment: null, invalid: 'phase:x' });
    expect(momentFromParams({ asOf: '2026-13-45T99:00' }).moment).toBeNull();
  });

  it('names moments as an operator says them', () => {
    expect(momentLabel('last-looked')).toBe('when you last looked');
    expect(momentLabel('phase:04')).toBe('when phase 4 completed');
    expect(momentLabel('2026-12-01T10:00:00Z')).toBe('a chosen time');
  });

  it('reads the date-time picker as UTC, to the second, and refuses impossible dates', () => {
    expect(dateTimeToMoment('2026-12-01T23:40')).toBe('2026-12-01T23:40:00.000Z');
    expect(dateTimeToMoment('2026-12-01T23:40:12')).toBe('2026-12-01T23:40:12.000Z');
    expect(dateTimeToMoment('2026-02-31T10:00')).toBeNull();
    expect(dateTimeToMoment('tomorrow')).toBeNull();
    expect(momentToDateTime('2026-12-01T23:40:12.345Z')).toBe('2026-12-01T23:40:12');
    expect(whenToSecond('2026-12-01T23:40:12.345Z')).toBe('2026-12-01 23:40:12 UTC');
    expect(whenToSecond(null)).toBe('—');
  });
});
