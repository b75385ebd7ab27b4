import { describe, expect, it } from 'vitest';
import { when } from '../../state/format';
import { duration, shortHash, shortId, stateLabel, stateTone } from './format';

describe('receipts format', () => {
  it('writes durations an operator reads at a glance', () => {
    expect([duration(450), duration(42_000), duration(200_000), duration(3_900_000), duration(2 * 86_400_000 + 4 * 3_600_000), duration(null)]).toEqual([
      '450 ms',
      '42s',
      '3m 20s',
      '1h 05m',
      '2d 4h',
      '—',
    ]);
  });

  it('writes UTC times and short ids', () => {
    // One clock (issue 19 item 4): the receipts views use the console's formatter, minutes and the zone named.
    expect(when('2026-07-01T10:05:07.123Z')).toBe('2026-07-01 10:05 UTC');
    expect(when('not a time')).toBe('not a time');
    expect(shortId('1f2e3d4c-5b6a-4789-8a9b-0c1d2e3f4a5b')).toBe('1f2e3d4c');
    expect(shortId('t1')).toBe('t1');
    expect(shortHash('a'.repeat(64))).toBe('aaaaaaaaaa…aaaaaa');
  });

  it('names and colours file states', () => {
    expect([stateTone('ok'), stateTone('absent'), stateTone('corrupt'), stateTone('incomplete_tail'), stateTone('stale')]).toEqual(['ok', 'muted', 'danger', 'warn', 'warn']);
    expect(stateLabel('stale')).toBe('snapshot stale');
    expect(stateLabel('incomplete_tail')).toBe('incomplete tail');
  });
});
