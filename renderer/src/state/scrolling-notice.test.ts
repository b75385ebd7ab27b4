import { describe, expect, it } from 'vitest';
import { IDLE_NOTICE_GAP_MS, NOTICE_GAP_MS, throttledNotice, watchScrolling } from './scrolling-notice';

describe('telling the console the operator scrolls', () => {
  it('sends at most one notice per NOTICE_GAP_MS, the first at once', () => {
    let now = 0;
    const sent: number[] = [];
    const { notice } = throttledNotice(async () => (sent.push(now), { backgroundWork: true }), () => now);
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
      const { notice: rejecting } = throttledNotice(async () => {
        calls++;
        throw new Error('The console host did not answer');
      }, () => now);
      const { notice: throwing } = throttledNotice(() => {
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

  it('spaces notices out to IDLE_NOTICE_GAP_MS while the console says it has no background work, and back once it has or is woken', async () => {
    let now = 0;
    let backgroundWork = false;
    const sent: number[] = [];
    const { notice, wake } = throttledNotice(async () => (sent.push(now), { backgroundWork }), () => now);
    /** A scroll event every frame for `ms`, answers arriving between frames. */
    const scroll = async (ms: number) => {
      for (const end = now + ms; now < end; now += 16) {
        notice();
        await Promise.resolve();
        await Promise.resolve();
      }
    };
    await scroll(5000);
    // The first answer said "nothing to hold back": one notice per IDLE_NOTICE_GAP_MS after it.
    expect(sent).toEqual([0, IDLE_NOTICE_GAP_MS, 2 * IDLE_NOTICE_GAP_MS]);

    sent.length = 0;
    wake(); // a store changed: the console may be warming up again
    backgroundWork = true;
    await scroll(1000);
    expect(sent).toHaveLength(5);
    expect(sent.slice(1).every((at, i) => at - sent[i]! >= NOTICE_GAP_MS && at - sent[i]! < IDLE_NOTICE_GAP_MS)).toBe(true);

    // Work done: the next answer spaces them out again.
    sent.length = 0;
    backgroundWork = false;
    await scroll(3000);
    expect(sent.length).toBeLessThanOrEqual(3);
  });

  it('lets no answer to a notice sent before a wake space notices out', async () => {
    let now = 0;
    const answers: Array<(answer: { backgroundWork: boolean }) => void> = [];
    const sent: number[] = [];
    const { notice, wake } = throttledNotice(() => new Promise((resolve) => (sent.push(now), answers.push(resolve))), () => now);
    notice(); // sent at 0, answered late
    wake();
    answers[0]!({ backgroundWork: false });
    await Promise.resolve();
    now = NOTICE_GAP_MS;
    notice();
    expect(sent).toEqual([0, NOTICE_GAP_MS]);
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
