import { expect, test } from './fixtures';

// Issue 20: the demo opens with a scripted week of plugin writes in its history (main/demo/week-script.ts), so an
// operator can ask "what changed since I last looked?" and "what did the plugin forget?" on the first start.
test('the operator opens the demo after its week: Changes since they last looked, a lesson the cap evicted, and Forgotten', async ({ consolePage: page }) => {
  test.setTimeout(120_000);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('area-title')).toHaveText('History');
  // They looked two days ago (mid-week), and the week since shows.
  await expect(page.getByTestId('history-since-select')).toContainText('when you last looked');
  await expect(page.getByTestId('history-since-select')).not.toContainText('never here before');
  await expect(page.getByTestId('history-count-added')).toHaveText(/^[1-9]\d* added — /, { timeout: 60_000 });
  await expect(page.getByTestId('history-count-changed')).toHaveText(/^[1-9]\d* changed — /);
  await expect(page.getByTestId('history-count-removed')).toHaveText(/^[1-9]\d* removed — /);

  // Only what left: the lessons knowledge_add evicted at the store's cap, said as the console's inference.
  await page.getByTestId('history-count-removed').click();
  const evicted = page.locator('[data-testid="history-change"]').filter({ hasText: 'likely evicted by the 280-entry cap' });
  await expect(evicted.first()).toBeVisible();
  expect(await evicted.count()).toBeGreaterThan(0);
  const list = page.getByTestId('history-changes-list');
  await list.focus();
  await expect(page.getByTestId('history-position')).toHaveText(/^1 of \d+/);
  await page.keyboard.press('j');
  await expect(page.getByTestId('history-position')).toHaveText(/^2 of \d+/);

  // Forgotten: the evicted lesson, with why it left and a restore offered (off here: no terminal to confirm at).
  await page.getByTestId('history-tab-forgotten').click();
  const forgotten = page.locator('[data-testid="forgotten-entry"]').filter({ hasText: 'likely evicted by the 280-entry cap' });
  await expect(forgotten.first()).toBeVisible();
  await expect(forgotten.first().getByTestId('forgotten-restore')).toBeVisible();
});
