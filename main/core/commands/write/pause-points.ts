/**
 * Test-only pause points for the crash-safety tests. When `SWARM_CONSOLE_PAUSE_AT` names a step,
 * the process prints `PAUSED <step>` on stderr when it reaches it and then waits (timers, such as
 * the lock refresh, keep running) until the test kills it. Without the variable this is a no-op.
 */
export type WriteStep = 'after-backup' | 'holding-lock' | 'after-temp-write' | 'after-rename' | 'before-audit';

export async function pausePoint(step: WriteStep): Promise<void> {
  if (process.env.SWARM_CONSOLE_PAUSE_AT !== step) return;
  process.stderr.write(`PAUSED ${step}\n`);
  await new Promise<never>(() => {
    setInterval(() => undefined, 60_000);
  });
}
