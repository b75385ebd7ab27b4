import { test as base, expect, type Page } from '@playwright/test';
import { startConsole, type RunningConsole } from './console-host';

interface ConsoleFixtures {
  /** Options for the console under test; override per file with `test.use({ consoleOptions: {...} })`. */
  consoleOptions: Parameters<typeof startConsole>[0];
  /** A running browser host (fresh user-data folder, demo workspace unless `consoleOptions.project`). */
  consoleHost: RunningConsole;
  /** A page already signed in through the launch URL and showing the shell. */
  consolePage: Page;
}

export const test = base.extend<ConsoleFixtures>({
  consoleOptions: [{}, { option: true }],
  consoleHost: async ({ consoleOptions }, use, testInfo) => {
    const running = await startConsole(consoleOptions);
    await use(running);
    // A host that died under the test explains every "did not answer" that follows: say so, with its output.
    const died = running.exited();
    await running.stop();
    if (testInfo.status !== testInfo.expectedStatus || died || running.output().includes('unhandled rejection in background work')) await testInfo.attach('console host output', { body: running.output(), contentType: 'text/plain' });
    expect(died, `the console host exited during the test:\n${running.output().slice(-4000)}`).toBeNull();
    expect(running.output(), 'background work of the console host failed without a handler').not.toContain('unhandled rejection in background work');
  },
  consolePage: async ({ page, consoleHost }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(consoleHost.launchUrl);
    await expect(page.getByTestId('status-project')).toBeVisible();
    await use(page);
    expect(problems.filter((p) => /Content Security Policy|Refused to/i.test(p)), 'no CSP violations').toEqual([]);
  },
});

export { expect };

/**
 * How long a project switch may take before its assertions fail: closing the previous workspace
 * waits for its pending history recording (bounded at 10 s, main/core/history/recorder.ts `drain`)
 * before the next one opens, which on a loaded 2-core CI machine has taken more than the default 10 s.
 */
export const SWITCH_TIMEOUT = 30_000;
