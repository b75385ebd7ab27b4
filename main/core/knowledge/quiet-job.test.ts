import { describe, expect, it } from 'vitest';
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
});
