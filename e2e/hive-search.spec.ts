import { DEMO_IDS } from '../main/demo/ids';
import { expect, test } from './fixtures';
import { startConsoleInTerminal, type TerminalConsole } from './pty-console';

// Issue 19 item 11: quarantine among the demo hive's entries without paging — full-text search,
// facets (status, category, source project) and "select the shown", whose exact ids the preview
// still lists one by one before anything is written.
test.describe('hive search and select the shown', () => {
  let console_: TerminalConsole;
  test.beforeEach(async () => {
    console_ = await startConsoleInTerminal();
  });
  test.afterEach(async () => {
    await console_.stop();
  });

  test('narrows the demo hive by search and source project, selects exactly the shown ids and previews them', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(console_.launchUrl);
    await page.getByRole('link', { name: 'Hive quarantine' }).click();
    const count = page.getByTestId('hive-shown-count');
    await expect(count).toContainText(/^1–\d+ of \d+$/, { timeout: 60_000 });
    const total = Number(/of (\d+)/.exec((await count.textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(100);
    // Every active entry is on one page: no paging to tick them.
    await expect(page.getByTestId('hive-entry-row')).toHaveCount(total);

    await page.getByTestId('hive-search').fill('stream');
    await expect(count).toContainText('matching');
    await expect(page.getByTestId(`pick-${DEMO_IDS.hiveStream}`)).toBeVisible();
    const matching = Number(/of (\d+)/.exec((await count.textContent()) ?? '')?.[1]);
    expect(matching).toBeLessThan(total);

    await page.getByTestId('hive-facet-project').getByRole('checkbox', { name: /ingest-svc/ }).check();
    await expect(page).toHaveURL(/#\/hive\?.*q=stream/);
    await expect(page).toHaveURL(/project=ingest-svc/);
    const rows = page.getByTestId('hive-entry-row');
    await expect(async () => {
      const projects = await rows.locator('td:nth-child(6)').allTextContents();
      expect(projects.length).toBeGreaterThan(0);
      expect(new Set(projects)).toEqual(new Set(['ingest-svc']));
    }).toPass();
    const shown = (await rows.locator('td:nth-child(2)').allTextContents()).sort();
    expect(shown).toContain(DEMO_IDS.hiveStream);

    await page.getByTestId('select-shown').click();
    await expect(page.getByRole('heading', { name: `Selected for quarantine (${shown.length})` })).toBeVisible();
    expect(((await page.getByTestId('selected-ids').textContent()) ?? '').split(', ').sort()).toEqual(shown);

    // The preview names every selected id, one row each, before any write.
    await page.getByTestId('quarantine-preview-button').click();
    const preview = page.getByTestId('quarantine-preview');
    await expect(preview).toContainText(`${shown.length} ${shown.length === 1 ? 'entry' : 'entries'} would move`);
    expect((await preview.locator('tbody tr td:first-child').allTextContents()).sort()).toEqual(shown);

    // The search and facet are the area's state: kept across a switch to Knowledge and back, and a reload.
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('link', { name: 'Hive quarantine' }).click();
    await expect(page.getByTestId('hive-search')).toHaveValue('stream');
    await expect(page.getByTestId('hive-facet-project').getByRole('checkbox', { name: /ingest-svc/ })).toBeChecked();
    await page.reload();
    await expect(page.getByTestId('hive-search')).toHaveValue('stream');
    await expect(count).toContainText('matching');
  });
});
