import { describe, expect, it } from 'vitest';
import { dateTimeToMoment, isMoment, momentLabel, momentOptionText, momentToDateTime, whenToSecond } from './moments';

const MOMENTS = {
  now: '2026-12-01T15:00:00.000Z',
  lastLooked: null,
  phases: [{ moment: 'phase:3', phase: 3, at: '2026-12-01T11:00:00.000Z', source: 'knowledge-events.jsonl' }],
  historyBegan: '2026-12-01T09:00:00.000Z',
  observations: [],
  store: { file: 'history.db', setAside: null },
};

describe('moments', () => {
  it('accepts the moments the contract accepts', () => {
    for (const m of ['now', 'last-looked', 'phase:12', '2026-12-01', '2026-12-01T09:12:00Z']) expect(isMoment(m), m).toBe(true);
    for (const m of ['', 'phase:', 'phase:1234567', 'tomorrow', '2026-13-45']) expect(isMoment(m), m).toBe(false);
  });

  it('reads the date-time field as UTC, to the second, and refuses impossible dates', () => {
    expect(dateTimeToMoment('2026-12-01T23:40')).toBe('2026-12-01T23:40:00.000Z');
    expect(dateTimeToMoment('2026-12-01T23:40:12')).toBe('2026-12-01T23:40:12.000Z');
    expect(dateTimeToMoment('2026-02-31T10:00')).toBeNull();
    expect(dateTimeToMoment('2026-12-01')).toBeNull();
    expect(dateTimeToMoment('')).toBeNull();
    expect(dateTimeToMoment('tomorrow')).toBeNull();
    expect(momentToDateTime('2026-12-01T23:40:12.345Z')).toBe('2026-12-01T23:40:12');
    expect(momentToDateTime('phase:3')).toBe('');
    expect(whenToSecond('2026-12-01T23:40:12.345Z')).toBe('2026-12-01 23:40:12 UTC');
    expect(whenToSecond(null)).toBe('—');
  });

  it('names moments in a sentence as an operator says them', () => {
    expect(momentLabel('last-looked')).toBe('when you last looked');
    expect(momentLabel('phase:04')).toBe('when phase 4 completed');
    expect(momentLabel('2026-12-01T10:00:00Z')).toBe('a chosen time');
  });

  it('lists moments in a picker with the time the console knows for each', () => {
    expect(momentOptionText('last-looked', undefined)).toBe('when you last looked');
    expect(momentOptionText('last-looked', MOMENTS)).toBe('when you last looked (never here before: since history began, 2026-12-01 09:00 UTC)');
    expect(momentOptionText('last-looked', { ...MOMENTS, lastLooked: '2026-12-01T14:00:00.000Z' })).toBe('when you last looked (2026-12-01 14:00 UTC)');
    expect(momentOptionText('phase:3', MOMENTS)).toBe('phase 3 completed (2026-12-01 11:00 UTC)');
    expect(momentOptionText('phase:7', MOMENTS)).toBe('phase 7 completed');
    expect(momentOptionText('2026-12-01T10:00:00.000Z', MOMENTS)).toBe('2026-12-01 10:00 UTC');
  });
});
