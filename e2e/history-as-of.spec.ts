import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * An operator looks back: while the console runs, the plugin rewrites the demo project's store (a
 * curator pass lowers one lesson's confidence and drops another). They see the change in the
 * entry's history, then put the Knowledge table as of when they last looked — the old confidence,
 * the lesson that is gone — and come back to now.
 */
const liveGrid = (page: Page) => page.getByRole('grid', { name: 'Knowledge entries', exact: true });
const asOfGrid = (page: Page) => page.getByRole('grid', { name: 'Knowledge entries as of a moment' });
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search lessons' });
const rowOf = (grid: ReturnType<typeof liveGrid>, id: string) => grid.locator(`[role=row][data-key*="${id}"]`);
const fieldValue = (page: Page, field: string) => page.getByTestId('fields').locator('dt', { hasText: new RegExp(`^${field}$`) }).locator('xpath=following-sibling::dd[1]');

interface Line {
  id: string;
  lesson: string;
  status?: string;
  confidence?: number;
}

/** Words of a lesson to search for: they narrow the table to a few rows, the id finds the one. */
const snippet = (lesson: string) => lesson.split(/\s+/).slice(0, 6).join(' ');

test('the Knowledge table as of when I last looked, and an entry’s history', async ({ consolePage: page, consoleHost }) => {
  const store = path.join(consoleHost.userDataDir, 'demo', 'billing-api', '.swarm', 'knowledge.jsonl');
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge?cols=lesson,tier,status,confidence'));
  await expect(liveGrid(page).locator('[role=row][data-key]').first()).toBeVisible();

  // Two ordinary lessons of the project's store: one the curator re-scores, one it drops.
  const raw = fs.readFileSync(store, 'utf8').split('\n').filter((line) => line.trim());
  const lines = raw.map((text) => JSON.parse(text) as Line);
  const ordinary = lines.filter((l) => typeof l.confidence === 'number' && l.confidence !== 0.42 && l.status !== 'archived' && typeof l.lesson === 'string');
  const rescored = ordinary[0]!;
  const dropped = ordinary[1]!;
  const rewritten = raw.flatMap((text, i) => {
    const line = lines[i]!;
    if (line.id === dropped.id) return [];
    return [line.id === rescored.id ? JSON.stringify({ ...line, confidence: 0.42 }) : text];
  });
  // Written whole to a temp file and renamed over the store, as the plugin rewrites it.
  fs.writeFileSync(`${store}.tmp`, rewritten.join('\n') + '\n');
  fs.renameSync(`${store}.tmp`, store);

  // Live: the re-scored lesson shows its new confidence; its history says what changed and how history learned of it.
  await search(page).fill(snippet(rescored.lesson));
  const rescoredRow = rowOf(liveGrid(page), rescored.id);
  await expect(rescoredRow).toContainText('0.42');
  await rescoredRow.click();
  const history = page.getByTestId('entry-history');
  await expect(history.getByRole('heading', { name: 'History' })).toBeVisible();
  const versions = history.getByTestId('history-version');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText(`confidence ${Number(rescored.confidence).toFixed(2)} → 0.42`);
  await expect(versions.first()).toContainText('seen live');
  await expect(versions.nth(1)).toContainText('baseline');
  await expect(history.getByTestId('history-start')).toContainText('History began');
  // Each version is a focus stop.
  await versions.first().focus();
  await page.keyboard.press('Tab');
  await expect(versions.nth(1)).toBeFocused();

  // As of when I last looked (a first visit: since history began) — before the curator's pass.
  await page.getByRole('combobox', { name: 'As of' }).selectOption('last-looked');
  await expect(page).toHaveURL(/asOf=last-looked/);
  const banner = page.getByTestId('as-of-banner');
  await expect(banner.getByTestId('as-of-title')).toContainText("(when you last looked) — read-only; history's record of the stores then");
  await expect(banner.getByTestId('as-of-counts')).toContainText('were in the stores then');
  await expect(page.getByRole('button', { name: 'Export JSONL' })).toHaveCount(0);

  // The open entry is shown as it was then: the old confidence, the version marked, no actions.
  const detail = page.getByTestId('detail');
  await expect(detail.getByRole('heading', { name: /^Entry as of/ })).toBeVisible();
  await expect(fieldValue(page, 'confidence')).toHaveText(String(rescored.confidence));
  await expect(detail.locator('[data-testid=history-version][aria-current=true]')).toContainText('baseline');
  await expect(detail.getByRole('button', { name: /Quarantine|Archive|Promote|Restore|Reveal/ })).toHaveCount(0);
  const rescoredThen = rowOf(asOfGrid(page), rescored.id);
  await expect(rescoredThen).toContainText(String(rescored.confidence));

  // The dropped lesson is there as of then, and its history says it ended.
  await search(page).fill(snippet(dropped.lesson));
  const droppedThen = rowOf(asOfGrid(page), dropped.id);
  await expect(droppedThen).toBeVisible();
  await expect(page.getByTestId('entry-count')).toHaveText(/^\d+ (entry|entries) as of then$/);
  await droppedThen.click();
  await expect(detail.getByTestId('detail-lesson')).toHaveText(dropped.lesson);
  await expect(detail.getByTestId('history-version').first()).toContainText('ended:');

  // The moment is in the URL: a reload keeps the historical view.
  await page.reload();
  await expect(page).toHaveURL(/asOf=last-looked/);
  await expect(page.getByTestId('as-of-banner')).toBeVisible();
  await expect(rowOf(asOfGrid(page), dropped.id)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'As of' })).toHaveValue('last-looked');

  // Back to now: live again, and the dropped lesson is gone from the store.
  await page.getByRole('button', { name: 'Back to now' }).click();
  await expect(page).not.toHaveURL(/asOf=/);
  await expect(page.getByTestId('as-of-banner')).toHaveCount(0);
  await expect(liveGrid(page).locator('[role=row][data-key]').first()).toBeVisible();
  await expect(rowOf(liveGrid(page), dropped.id)).toHaveCount(0);
  // A link to the dropped lesson: no store holds it now, and its history says when it left.
  await page.evaluate((hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/knowledge?open=${dropped.id}`);
  await expect(page.getByTestId('detail-not-found')).toBeVisible();
  await expect(page.getByTestId('entry-history').getByTestId('history-version').first()).toContainText('ended:');

  // A date and time before history began: nothing is known then, and the banner says when history began.
  await page.getByRole('combobox', { name: 'As of' }).selectOption('date-time');
  await page.getByRole('textbox', { name: 'As of date and time (UTC)' }).fill('2020-01-01T09:30:00');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/asOf=2020-01-01T09%3A30%3A00\.000Z/);
  await expect(page.getByTestId('as-of-title')).toContainText('As of 2020-01-01 09:30:00 UTC (a chosen time)');
  await expect(page.getByTestId('as-of-before-history')).toContainText('History began');
  await expect(page.getByTestId('entry-count')).toHaveText('0 entries as of then');

  // A phase the plugin completed (the demo's phases come from its outcome events).
  const phases = await page.getByRole('combobox', { name: 'As of' }).locator('option[value^="phase:"]').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
  expect(phases.length).toBeGreaterThan(0);
  await page.getByRole('combobox', { name: 'As of' }).selectOption(phases[0]!);
  await expect(page).toHaveURL(new RegExp(`asOf=${encodeURIComponent(phases[0]!)}`));
  await expect(page.getByTestId('as-of-title')).toContainText(`(when phase ${phases[0]!.slice(6)} completed)`);
});
