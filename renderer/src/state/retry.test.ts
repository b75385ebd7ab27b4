import { describe, expect, it } from 'vitest';
import { ConsoleError } from '../../../shared/contract';
import { RETRY_MAX_MS, retriesOnItsOwn, retryDelayMs } from './retry';

describe('retrying a failed load', () => {
  it('backs off 2 s, 4 s, 8 s, 16 s, then every 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, RETRY_MAX_MS, RETRY_MAX_MS, RETRY_MAX_MS]);
  });

  it('retries on its own only when the host did not answer; a refusal or a bad input would answer the same', () => {
    expect(retriesOnItsOwn(new ConsoleError('unavailable', 'The console host did not answer: Failed to fetch'))).toBe(true);
    for (const code of ['invalid_input', 'invalid_output', 'unknown_operation', 'not_found', 'failed', 'forbidden'] as const) {
      expect(retriesOnItsOwn(new ConsoleError(code, 'no'))).toBe(false);
    }
    // A page fault (a TypeError in the page) is not the host's: asking again would not help.
    expect(retriesOnItsOwn(new TypeError('x is undefined'))).toBe(false);
    expect(retriesOnItsOwn(undefined)).toBe(false);
  });
});
