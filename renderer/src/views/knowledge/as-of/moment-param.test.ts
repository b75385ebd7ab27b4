import { describe, expect, it } from 'vitest';
import { formatHash, parseHash } from '../../../state/route';
import { momentFromParams, momentParam } from './moment-param';

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
});
