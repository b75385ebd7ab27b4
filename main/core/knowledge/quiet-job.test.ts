import { describe, expect, it, vi } from 'vitest';
import { QuietJob } from './quiet-job';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('QuietJob', () => {
  it('runs only the latest job once quiet, at once when flushed, and never after dispose', async () => {
    const ran: string[] = [];
    const job = new QuietJob(40);
    job.schedule(async () => void ran.push('first'));
    job.schedule(async () => void ran.push('second'));
    expect(job.busy).toBe(true);
    await tick(10);
    expect(ran).toEqual([]);
    await tick(60);
    expect(ran).toEqual(['second']);
    expect(job.busy).toBe(false);

    job.schedule(async () => void ran.push('flushed'));
    await job.flush();
    expect(ran).toEqual(['second', 'flushed']);

    job.schedule(async () => void ran.push('dropped'));
    await job.dispose();
    await tick(60);
    expect(ran).toEqual(['second', 'flushed']);
  });

  it('runs one job at a time: a job scheduled while one runs starts after it', async () => {
    const events: string[] = [];
    const job = new QuietJob(0);
    job.schedule(async () => {
      events.push('a:start');
      await tick(30);
      events.push('a:end');
    });
    await tick(5);
    job.schedule(async () => void events.push('b'));
    await job.flush();
    expect(events).toEqual(['a:start', 'a:end', 'b']);
  });

  it('reports a job that throws, before or after its first await, and goes on with the next (nothing escapes its timer)', async () => {
    const escaped: unknown[] = [];
    const onEscape = (reason: unknown) => escaped.push(reason);
    process.on('unhandledRejection', onEscape);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const ran: string[] = [];
      const job = new QuietJob(5);
      job.schedule(() => {
        throw new Error('database connection is not open');
      });
      await tick(40);
      job.schedule(async () => {
        await tick(1);
        throw new Error('later failure');
      });
      await tick(40);
      job.schedule(async () => void ran.push('next'));
      await job.flush();
      await tick(10);
      expect(ran).toEqual(['next']);
      expect(escaped).toEqual([]);
      expect(warn.mock.calls.map((c) => c[1])).toEqual(['database connection is not open', 'later failure']);
      expect(job.busy).toBe(false);
    } finally {
      process.off('unhandledRejection', onEscape);
      warn.mockRestore();
    }
  });
});
