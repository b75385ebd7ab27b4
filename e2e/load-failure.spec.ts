import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** An operator whose console host stops answering for a while: no view ends in bare error text. */
const grid = (page: Page) => page.getByRole('grid', { name: 'Knowledge entries' });
const dataRows = (page: Page) => grid(page).locator('[role=row][data-key]');

test('the Knowledge table says the host did not answer, tries again on its own and fills in once the host is back', async ({ page, consoleHost }) => {
  // The host stops answering table pages, as a host restarting or a dropped connection would,
  // from the first page on (Knowledge is the first area: its rows are asked for at sign-in).
  let refused = 0;
  await page.route('**/api/call/knowledge.rows', (route) => {
    refused++;
    return route.abort('connectionrefused');
  });
  await page.goto(`${consoleHost.launchUrl}#/knowledge`);
  const failure = page.getByTestId('load-failure');
  await expect(failure).toContainText('Could not load entries: The console host did not answer');
  await expect(failure.getByTestId('retry-countdown')).toHaveText(/Trying again in [12] s\./);
  await expect(failure.getByRole('button', { name: 'Try again now' })).toBeVisible();
  // It really asks again on its own (2 s, then 4 s …), without a click.
  const before = refused;
  await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThan(before);
  await expect(failure.getByTestId('retry-countdown')).toHaveText(/Trying again in [1-4] s\./);

  // The host answers again: the rows come by themselves and the message goes.
  await page.unroute('**/api/call/knowledge.rows');
  await expect(dataRows(page).first()).toBeVisible({ timeout: 15_000 });
  await expect(failure).toHaveCount(0);
});

test('a refusal is not retried on a timer: it stays said, and "Try again now" asks once more', async ({ page, consoleHost }) => {
  // An answer that will be the same next time (here a scripted failure of the Live feed): no countdown.
  let feedCalls = 0;
  await page.route('**/api/call/live.feed', (route) => {
    feedCalls++;
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: false, error: { code: 'failed', message: 'The event index refused this filter <b>now</b>.' } }) });
  });
  await page.goto(`${consoleHost.launchUrl}#/live`);
  const failure = page.getByTestId('load-failure');
  // Store-derived text is shown as text, never as markup.
  await expect(failure).toContainText('The live view could not load: The event index refused this filter <b>now</b>.');
  await expect(failure.getByTestId('retry-countdown')).toHaveCount(0);
  const asked = feedCalls;
  await page.waitForTimeout(2_500); // longer than the first automatic retry would wait
  expect(feedCalls).toBe(asked);

  await page.unroute('**/api/call/live.feed');
  await failure.getByRole('button', { name: 'Try again now' }).click();
  await expect(failure).toHaveCount(0);
});
