import { describe, expect, it } from 'vitest';
import { NOTICE_GAP_MS, throttledNotice, watchScrolling } from './scrolling-notice';

describe('telling the console the operator scrolls', () => {
  it('sends at most one notice per NOTICE_GAP_MS, the first at once', () => {
    let now = 0;
    const sent: number[] = [];
    const notice = throttledNotice(async () => sent.push(now), () => now);
    // A scroll event every frame for a second.
    for (now = 0; now < 1000; now += 16) notice();
    expect(sent).toEqual([0, 208, 416, 624, 832]);
    expect(sent.every((at, i) => i === 0 || at - sent[i - 1]! >= NOTICE_GAP_MS)).toBe(true);
  });

  it('ignores a failed or throwing send: a notice is only a hint, never awaited', async () => {
    let now = 0;
    let calls = 0;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const rejecting = throttledNotice(async () => {
        calls++;
        throw new Error('The console host did not answer');
      }, () => now);
      const throwing = throttledNotice(() => {
        calls++;
        throw new Error('adapter gone');
      }, () => now);
      expect(() => {
        rejecting();
        throwing();
      }).not.toThrow();
      now += NOTICE_GAP_MS;
      rejecting();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(calls).toBe(3);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('hears scroll and wheel events (caught while capturing) until stopped, and nothing else', () => {
    const target = new EventTarget();
    const heard: string[] = [];
    const stop = watchScrolling(target, () => heard.push('notice'));
    target.dispatchEvent(new Event('scroll'));
    target.dispatchEvent(new Event('wheel'));
    target.dispatchEvent(new Event('pointerdown'));
    target.dispatchEvent(new Event('keydown'));
    expect(heard).toHaveLength(2);
    stop();
    target.dispatchEvent(new Event('scroll'));
    expect(heard).toHaveLength(2);
  });
});
