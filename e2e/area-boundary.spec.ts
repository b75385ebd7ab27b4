import { expect, test } from './fixtures';
import { expectNoFrameworkText } from './framework-text';

test('an area that cannot go on says so in plain words with "Reload this area", never the framework text, and reloads once the host answers again', async ({ consolePage: page, consoleHost }) => {
  test.setTimeout(120_000);
  await page.getByRole('link', { name: 'Hive quarantine' }).click();
  await expect(page.getByTestId('hive-view')).toBeVisible();
  // Every call now fails at the network: the page's reads of failed queries throw inside the area.
  await page.route('**/api/call/**', (route) => route.abort());
  await page.getByRole('link', { name: 'Skills' }).click();
  await page.getByRole('link', { name: 'Hive quarantine' }).click();
  const failure = page.getByTestId('area-error');
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('The Hive quarantine area could not go on: The console host did not answer');
  await expect(page.getByTestId('status-bar')).toBeVisible();
  await expectNoFrameworkText(page, 'a failed area');
  // The host answers again: Reload this area starts it afresh.
  await page.unroute('**/api/call/**');
  await failure.getByRole('button', { name: 'Reload this area' }).click();
  await expect(page.getByTestId('hive-view')).toBeVisible();
  await expect(page.getByTestId('area-error')).toHaveCount(0);
  expect(consoleHost.output()).toContain('Open:');
});
