import { describe, expect, it } from 'vitest';
import { expiryText, plural, when } from './format';

describe('one clock', () => {
  it('writes every time as UTC, 24-hour, with the zone named', () => {
    expect(when('2026-11-29T14:03:59.999Z')).toBe('2026-11-29 14:03 UTC');
    expect(when(Date.UTC(2026, 10, 29, 23, 5))).toBe('2026-11-29 23:05 UTC');
    // an offset in the store is converted, never shown as local time
    expect(when('2026-11-29T02:03:00-05:00')).toBe('2026-11-29 07:03 UTC');
    expect(when(null)).toBe('—');
    expect(when('')).toBe('—');
    expect(when('yesterday-ish')).toBe('yesterday-ish');
    expect(when(Number.NaN)).toBe('NaN');
  });
});

describe('plural', () => {
  it('agrees the noun with the count', () => {
    expect(plural(1, 'session')).toBe('1 session');
    expect(plural(0, 'session')).toBe('0 sessions');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(12_345, 'line')).toBe('12,345 lines');
    expect(expiryText({ action: 'archived', phasesLeft: 1 })).toBe('archives in 1 phase');
    expect(expiryText({ action: 'deleted', phasesLeft: 3 })).toBe('deleted in 3 phases');
  });
});
