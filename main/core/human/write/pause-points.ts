/**
 * Test-only pause points for the crash-safety tests. When `SWARM_CONSOLE_PAUSE_AT` names a step,
 * the process prints `PAUSED <step>` on stderr when it reaches it and then waits (timers, such as
 * the lock refresh, keep running) until the test kills it. Without the variable this is a no-op.
 */
export type WriteStep = 'backup-written' | 'after-backup' | 'holding-lock' | 'after-temp-write' | 'after-rename' | 'before-audit';

/**
 * In-process observers for tests that act at a step (e.g. a writer that ignores the lock); empty
 * in the app. `where` names the folder concerned, when there is one (the backup's, at 'backup-written').
 */
export const stepObservers = new Set<(step: WriteStep, where?: string) => void>();

/** Tells the observers only, without pausing: for steps inside synchronous code ('backup-written'). */
export function observeStep(step: WriteStep, where?: string): void {
  for (const observe of stepObservers) observe(step, where);
}

export async function pausePoint(step: WriteStep): Promise<void> {
  for (const observe of stepObservers) observe(step);
  if (process.env.SWARM_CONSOLE_PAUSE_AT !== step) return;
  process.stderr.write(`PAUSED ${step}\n`);
  await new Promise<never>(() => {
    setInterval(() => undefined, 60_000);
  });
}
