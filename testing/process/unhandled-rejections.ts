/**
 * Collects the process's unhandled rejections while `body` runs, then lets the process report
 * any still pending (they surface after the microtasks of the tick they happened in) and returns
 * them. The console host prints such a rejection as background work that failed without a
 * handler, which the e2e fixture fails on; a core test reproduces that here, without a host.
 */
export async function unhandledRejectionsDuring(body: () => Promise<void>, settleMs = 20): Promise<string[]> {
  const orphans: string[] = [];
  const onUnhandled = (reason: unknown) => orphans.push(String((reason as Error)?.stack ?? reason));
  process.on('unhandledRejection', onUnhandled);
  try {
    await body();
    await new Promise((resolve) => setTimeout(resolve, settleMs));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return orphans;
}
