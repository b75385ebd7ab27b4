import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { startConsoleInTerminal, type TerminalConsole } from './pty-console';

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

const CODE_LINE = /Confirm [^\n]*\(token [0-9a-f]{4}…\): (\d{6})/;
const storeOf = (userDataDir: string) => path.join(userDataDir, 'demo', 'billing-api', '.swarm', 'knowledge.jsonl');
const idsIn = (store: string) =>
  fs
    .readFileSync(store, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);

test.describe('after the demo week, at a console started from a terminal', () => {
  let console_: TerminalConsole;
  test.beforeEach(async () => {
    console_ = await startConsoleInTerminal();
  });
  test.afterEach(async () => {
    await console_.stop();
  });

  test('the operator steps through what changed, opens a lesson the cap evicted, and restores it, warned that the plugin may evict it again', async ({ page }) => {
    test.setTimeout(240_000);
    const store = storeOf(console_.userDataDir);
    await page.goto(console_.launchUrl);
    await page.getByRole('link', { name: 'History' }).click();
    await expect(page.getByTestId('history-count-removed')).toHaveText(/^[1-9]\d* removed — /, { timeout: 90_000 });

    // What left since they last looked; the keyboard walks the rows, and Enter opens a removed lesson's timeline.
    await page.getByTestId('history-count-removed').click();
    const list = page.getByTestId('history-changes-list');
    await list.focus();
    await expect(page.getByTestId('history-position')).toHaveText(/^1 of \d+/);
    const evictedRows = page.locator('[data-testid="history-change"]').filter({ hasText: 'likely evicted by the 280-entry cap' });
    await expect(evictedRows.first()).toBeVisible();
    const evictedIndex = await page.locator('[data-testid="history-change"]').evaluateAll((rows) => rows.findIndex((row) => (row.textContent ?? '').includes('likely evicted by the 280-entry cap')));
    for (let i = 0; i < evictedIndex; i++) await page.keyboard.press('j');
    await expect(page.getByTestId('history-position')).toHaveText(new RegExp(`^${evictedIndex + 1} of \\d+`));
    await page.keyboard.press('Enter');
    const timeline = page.getByTestId('history-timeline');
    await expect(timeline).toBeVisible();
    await expect(timeline).toContainText('likely evicted by the 280-entry cap');
    await expect(timeline.getByTestId('history-version').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(timeline).toHaveCount(0);

    // Forgotten: bring one evicted lesson back. The store is at its cap, so the preview says the plugin may evict it again.
    await page.getByTestId('history-tab-forgotten').click();
    const forgotten = page.locator('[data-testid="forgotten-entry"]').filter({ hasText: 'likely evicted by the 280-entry cap' }).first();
    await expect(forgotten).toBeVisible();
    const id = (await forgotten.getAttribute('data-id')) ?? '';
    expect(id).not.toBe('');
    expect(idsIn(store)).not.toContain(id);
    await forgotten.getByTestId('forgotten-restore').click();
    const preview = page.getByTestId('restore-preview');
    await expect(preview.getByTestId('restore-line')).toContainText(id);
    await expect(preview.getByTestId('restore-cap')).toContainText('evict');
    const line = (await preview.getByTestId('restore-line').textContent()) ?? '';

    await page.getByTestId('confirm-reason').fill('the cap dropped a lesson the team still relies on');
    await page.getByTestId('request-code').click();
    const code = await console_.nextMatch(CODE_LINE, 0);
    await page.getByTestId('confirm-code').fill(code);
    await page.getByTestId('confirm-commit').click();
    await expect(page.getByTestId('write-result')).toContainText('Restored');
    expect(fs.readFileSync(store, 'utf8').trimEnd().split('\n').at(-1)).toBe(line);
    expect(idsIn(store)).toContain(id);
    await expect(page.locator(`[data-testid="forgotten-entry"][data-id="${id}"]`)).toHaveCount(0);
  });
});
