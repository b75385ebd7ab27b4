import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoWorkspaces } from '../main/demo/week/demo-workspaces';
import { startConsole, type RunningConsole } from './console-host';
import { expect, test } from './fixtures';

// Issue 19 item 9: every view's filters live in the URL, and each area comes back as it was left —
// after visiting another area and after a reload.
test('filters survive switching area and reloading', async ({ consolePage: page }) => {
  test.setTimeout(120_000);
  const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await expect(page.getByTestId('entry-count')).toContainText(/\d+ entries/, { timeout: 60_000 });

  await page.getByRole('searchbox', { name: 'Search lessons' }).fill('retry');
  await expect(page).toHaveURL(/#\/knowledge\?.*q=retry/);
  await page.locator('fieldset.facet', { hasText: 'Status' }).getByRole('checkbox').first().check();
  await expect(page).toHaveURL(/status=/);
  const knowledgeUrl = page.url();

  await nav('Receipts');
  await page.getByTestId('tab-funnel').click();
  await expect(page).toHaveURL(/#\/receipts\?.*tab=funnel/);

  await nav('Directives');
  await page.getByRole('searchbox', { name: 'Search directives' }).fill('scope');
  await page.getByRole('searchbox', { name: 'Search directives' }).press('Enter');
  await expect(page).toHaveURL(/#\/directives\?.*q=scope/);

  await nav('Live');
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('save_plan');
  await page.getByRole('searchbox', { name: 'Search messages' }).press('Enter');
  await expect(page).toHaveURL(/#\/live\?.*save_plan/);

  // Back to each area: its filters as they were left.
  await nav('Knowledge');
  expect(page.url()).toBe(knowledgeUrl);
  await expect(page.getByRole('searchbox', { name: 'Search lessons' })).toHaveValue('retry');
  await nav('Receipts');
  await expect(page.getByTestId('tab-funnel')).toHaveAttribute('aria-selected', 'true');
  await nav('Directives');
  await expect(page.getByRole('searchbox', { name: 'Search directives' })).toHaveValue('scope');

  // A reload keeps the open area's filters (the URL) and the others' (the tab's storage).
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search directives' })).toHaveValue('scope');
  await nav('Live');
  await expect(page.getByRole('searchbox', { name: 'Search messages' })).toHaveValue('save_plan');
  await nav('Knowledge');
  expect(page.url()).toBe(knowledgeUrl);
  await expect(page.getByRole('searchbox', { name: 'Search lessons' })).toHaveValue('retry');
});

test.describe('the switcher opening a linked worktree', () => {
  let root: string;
  let running: RunningConsole;
  test.beforeAll(async () => {
    // The released-plugin demo pair as a real project (outside the console's user-data, so not "demo"):
    // inventory-api and its linked worktree inventory-api-hotfix share the hive released-hive.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'carry-hive-e2e-'));
    await demoWorkspaces.ensure(root);
  });
  test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  test.afterEach(async () => {
    await running?.stop();
  });

  test('keeps the hive the console was started with', async ({ page }) => {
    test.setTimeout(120_000);
    const hive = path.join(root, 'demo', 'released-hive');
    running = await startConsole({ project: path.join(root, 'demo', 'inventory-api'), hive, userDataDir: path.join(root, 'user-data') });
    await page.goto(running.launchUrl);
    await expect(page.getByTestId('status-hive')).toHaveText(hive);
    await page.getByRole('button', { name: /^Project/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch project' });
    await dialog.locator('input[name="project"]').fill(path.join(root, 'demo', 'inventory-api-hotfix'));
    await expect(dialog.locator('input[name="hive"]')).toHaveAttribute('placeholder', `default: the open hive, ${hive}`);
    await dialog.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('current-project')).toHaveText('inventory-api-hotfix');
    await expect(page.getByTestId('status-hive')).toHaveText(hive);
    await expect(page.getByTestId('status-hive-check')).toHaveCount(0);
    await expect(page.getByTestId('status-link-missing')).toHaveCount(0);
    await expect(page.getByTestId('entry-count')).not.toHaveText('0 entries', { timeout: 60_000 });
    await expect(page.getByTestId('entry-count')).toContainText(/[1-9]\d* entries/);
  });
});
