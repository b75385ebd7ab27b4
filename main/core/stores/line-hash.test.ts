import { describe, expect, it } from 'vitest';
import { bytesHash, lineHash } from './line-hash';

describe('line hash', () => {
  it('is the same for the same bytes wherever they sit in memory, and differs when any one byte changes', () => {
    const line = '{"id":"a","lesson":"naïve — 日本語 ✓","n":12345}';
    // Every length from 1 to the whole line, so every split into words and tail bytes is met.
    for (let length = 1; length <= Buffer.byteLength(line); length++) {
      const bytes = Buffer.from(line, 'utf8').subarray(0, length);
      const expected = bytesHash(bytes);
      for (let shift = 0; shift < 9; shift++) {
        const memory = Buffer.alloc(bytes.length + 32, 0x41);
        bytes.copy(memory, shift);
        expect(bytesHash(memory.subarray(shift, shift + bytes.length))).toBe(expected);
      }
      for (let at = 0; at < bytes.length; at++) {
        const changed = Buffer.from(bytes);
        changed[at] = changed[at]! ^ 0x01;
        expect(bytesHash(changed)).not.toBe(expected);
      }
      if (length > 1) expect(bytesHash(bytes.subarray(0, length - 1))).not.toBe(expected);
    }
    expect(lineHash(line)).toBe(bytesHash(Buffer.from(line, 'utf8')));
  });
});
