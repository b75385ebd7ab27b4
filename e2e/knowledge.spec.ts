import fs from 'node:fs';
import { DEMO_IDS } from '../main/demo/ids';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

/** The operator's table of every lesson on the demo workspace. */
const grid = (page: Page) => page.getByRole('grid', { name: 'Knowledge entries' });
const dataRows = (page: Page) => grid(page).locator('[role=row][data-key]');
const rowOf = (page: Page, id: string) => grid(page).locator(`[role=row][data-key*="${id}"]`);
const entryCount = async (page: Page) => Number(/^(\d+)/.exec((await page.getByTestId('entry-count').textContent()) ?? '')?.[1] ?? NaN);

async function openKnowledge(page: Page, query = '') {
  await page.evaluate((hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/knowledge${query ? `?${query}` : ''}`);
  await expect(page.getByTestId('area-title')).toHaveText('Knowledge');
  await expect(dataRows(page).first()).toBeVisible();
}

test.describe('an operator finds and understands lessons', () => {
  test('narrows the table with facets and keeps the filter in a shareable URL', async ({ consolePage: page }) => {
    await openKnowledge(page);
    const all = await entryCount(page);
    expect(all).toBeGreaterThan(100);

    const facets = page.getByRole('complementary', { name: 'Facets' });
    const candidate = facets.getByRole('group', { name: 'Status' }).getByRole('checkbox', { name: /^candidate\b/ });
    const expected = Number(/(\d+)\s*$/.exec((await candidate.locator('xpath=..').textContent()) ?? '')?.[1]);
    await candidate.check();
    await expect(page).toHaveURL(/status=candidate/);
    await expect.poll(() => entryCount(page)).toBe(expected);
    // Every row on screen is a candidate (read in one go: the rows refill while the filter lands).
    const statusesOnScreen = () => grid(page).evaluate((el) => [...new Set([...el.querySelectorAll('[role=row][data-key]')].map((row) => row.querySelector('.badge')?.textContent))]);
    await expect.poll(statusesOnScreen).toEqual(['candidate']);

    await facets.getByRole('group', { name: 'Tier' }).getByRole('checkbox', { name: /^hive\b/ }).check();
    await expect(page).toHaveURL(/tier=hive/);
    // The URL changes at once; the count follows when the narrowed query answers.
    await expect.poll(() => entryCount(page)).toBeLessThan(expected);
    const narrowed = await entryCount(page);
    expect(narrowed).toBeGreaterThan(0);

    // Columns: hide one, move another; the choice is part of the shared URL too.
    const headers = () => grid(page).getByRole('columnheader').allTextContents();
    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose columns' });
    await chooser.getByRole('checkbox', { name: 'Category' }).uncheck();
    await chooser.getByRole('button', { name: 'Move Status up' }).click();
    await page.getByRole('button', { name: 'Columns' }).click();
    await expect(page).toHaveURL(/cols=lesson%2Cstatus%2Ctier/);
    expect((await headers()).slice(0, 3).map((h) => h.replace(/[▲▼]/g, '').trim())).toEqual(['Lesson', 'Status', 'Tier']);
    expect(await headers()).not.toContain('Category');

    await page.reload();
    await expect(page.getByTestId('area-title')).toHaveText('Knowledge');
    await expect(grid(page).getByRole('columnheader', { name: /^Lesson/ })).toBeVisible();
    await expect(grid(page).getByRole('columnheader', { name: /^Category/ })).toHaveCount(0);
    await expect.poll(() => entryCount(page)).toBe(narrowed);
    await expect(facets.getByRole('group', { name: 'Status' }).getByRole('checkbox', { name: /^candidate\b/ })).toBeChecked();
  });

  test('searches lessons, tags and actions and sees the matches highlighted', async ({ consolePage: page }) => {
    await openKnowledge(page);
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search lessons' });
    await expect(search).toBeFocused();
    await search.fill('declare_scope coder');
    await expect(page).toHaveURL(/q=declare_scope/);
    const row = rowOf(page, DEMO_IDS.scopeEscalated);
    await expect(row).toBeVisible();
    await expect(row.locator('mark').first()).toHaveText(/declare|coder/i);
    expect(await entryCount(page)).toBeLessThan(20);
    await page.keyboard.press('Escape');
    await expect(search).not.toBeFocused();
  });

  test('moves through the rows with the keyboard, opens one and reads everything about it', async ({ consolePage: page }) => {
    await openKnowledge(page, 'q=declare');
    await expect(page.getByRole('searchbox', { name: 'Search lessons' })).toHaveValue('declare');
    expect(await entryCount(page)).toBeGreaterThan(2);
    await page.getByTestId('table-scroll').focus();
    const selected = grid(page).locator('[role=row][aria-selected=true]');
    await expect(selected).toHaveAttribute('data-index', '0');
    await page.keyboard.press('j');
    await expect(selected).toHaveAttribute('data-index', '1');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowUp');
    await expect(selected).toHaveAttribute('data-index', '0');
    const firstLesson = (await selected.locator('[role=gridcell]').first().textContent())?.trim();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('complementary', { name: 'Entry detail' });
    await expect(detail.getByTestId('detail-lesson')).toHaveText(firstLesson ?? '');
    await page.keyboard.press('Escape');
    await expect(detail).toBeHidden();

    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toContainText('open the selected row');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();

    // The escalated critical directive: every field, counters, verdict, receipts, skill.
    await openKnowledge(page, `open=${DEMO_IDS.scopeEscalated}`);
    await expect(detail.getByTestId('detail-lesson')).toHaveText('Call declare_scope before any coder delegation that modifies source files.');
    const fields = detail.getByTestId('fields');
    for (const field of ['id', 'tier', 'confirmed_by', 'retrieval_outcomes', 'directive_priority', 'enforcement_mode', 'escalation_history', 'generated_skill_path']) {
      await expect(fields.locator('dt', { hasText: new RegExp(`^${field}$`) })).toHaveCount(1);
    }
    await expect(detail.getByTestId('counters')).toContainText('Legacy counters — frozen, no longer updated by the plugin');
    await expect(detail.getByTestId('counters')).toContainText('applied_count (legacy)');
    await expect(detail.getByTestId('maturity')).toContainText(/eligible for a skill/);
    await expect(detail.getByTestId('receipts')).toContainText(/\d+ events? name this entry/);
    await expect(detail.getByTestId('receipts').getByRole('link', { name: 'open in Receipts' })).toHaveAttribute('href', `#/receipts?entry=${DEMO_IDS.scopeEscalated}`);
    await expect(detail.getByTestId('citing-skills')).toContainText('scope-discipline');
    await expect(detail.locator('.timeline li')).toHaveCount(3);

    await detail.getByRole('button', { name: 'show raw JSON' }).click();
    const raw = JSON.parse((await detail.getByTestId('raw-json').textContent()) ?? '{}');
    expect(raw).toMatchObject({ id: DEMO_IDS.scopeEscalated, directive_priority: 'critical', enforcement_mode: 'enforce' });
  });

  test('scrolls to the end of the list and back, and every row still shows its own lesson', async ({ consolePage: page }) => {
    // Rows are recycled while scrolling: a row element that moved to another position must show
    // that position's lesson, never the one it showed before.
    await openKnowledge(page, 'collection=all');
    const total = await entryCount(page);
    const scroller = page.getByTestId('table-scroll');
    /** What the operator sees: the rows on screen, top to bottom, as index, key and lesson. */
    const onScreen = () =>
      scroller.evaluate((el) => {
        const view = el.getBoundingClientRect();
        return [...el.querySelectorAll('[role=row][data-key]')]
          .map((row) => ({ row, box: row.getBoundingClientRect() }))
          .filter(({ box }) => box.bottom > view.top + 30 && box.top < view.bottom)
          .sort((a, b) => a.box.top - b.box.top)
          .map(({ row }) => `${row.getAttribute('data-index')} ${row.getAttribute('data-key')} ${row.querySelector('[role=gridcell]')?.textContent}`);
      });
    const scrollTo = (fraction: number) => scroller.evaluate((el, f) => (el.scrollTop = (el.scrollHeight - el.clientHeight) * f), fraction);
    const indexes = (lines: string[]) => lines.map((line) => Number(line.split(' ')[0]));

    const top = await onScreen();
    expect(indexes(top)).toEqual(indexes(top).map((_, i) => i));
    for (const fraction of [0.3, 0.31, 0.7, 1]) {
      await scrollTo(fraction);
      await expect.poll(async () => indexes(await onScreen()).at(-1)).toBeGreaterThan(fraction * (total - 40));
    }
    const bottom = await onScreen();
    expect(indexes(bottom).at(-1)).toBe(total - 1);
    expect(indexes(bottom)).toEqual(indexes(bottom).map((_, i) => total - bottom.length + i));
    expect(new Set(bottom.map((line) => line.split(' ')[1])).size).toBe(bottom.length);

    await scrollTo(0.5);
    await scrollTo(0);
    await expect.poll(onScreen).toEqual(top);
    await scrollTo(1);
    await expect.poll(onScreen).toEqual(bottom);
  });

  test('follows a promoted lesson to its hive counterpart', async ({ consolePage: page }) => {
    await openKnowledge(page, `open=${DEMO_IDS.promotedWithCounterpart}`);
    const detail = page.getByRole('complementary', { name: 'Entry detail' });
    const counterparts = detail.getByTestId('counterparts');
    await expect(counterparts).toContainText('same lesson');
    await counterparts.getByRole('button').first().click();
    await expect(page).toHaveURL(new RegExp(`open=${DEMO_IDS.hiveCounterpart}`));
    await expect(detail.getByRole('heading', { name: 'Swarm counterpart' })).toBeVisible();
    await expect(detail.locator('.mono.small').first()).toContainText(DEMO_IDS.hiveCounterpart);
  });

  test('exports the filtered set as JSON Lines and CSV', async ({ consolePage: page }) => {
    await openKnowledge(page, 'status=candidate&tier=swarm');
    const count = await entryCount(page);
    expect(count).toBeGreaterThan(0);

    const [jsonlDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
    expect(jsonlDownload.suggestedFilename()).toMatch(/^knowledge-.*\.jsonl$/);
    const lines = fs.readFileSync((await jsonlDownload.path()) as string, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(count);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ status: 'candidate', tier: 'swarm' });

    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync((await csvDownload.path()) as string, 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('id,tier,collection,store,status,category,scope,priority,confidence,project,createdAt,updatedAt,phasesAlive,maxPhases,encounterScore,shownCount,tags,lesson,file,line');
    expect(csv).toHaveLength(count + 1);
    expect(csv.slice(1).every((row) => /,swarm,active,knowledge,candidate,/.test(row))).toBe(true);
  });

  test('triages the inboxes: rejected by layer, unactionable queue, near-duplicate clusters', async ({ consolePage: page }) => {
    await openKnowledge(page);
    await page.getByRole('tab', { name: 'Inboxes' }).click();
    const inboxes = page.getByTestId('inboxes');
    await expect(inboxes.getByTestId('rejected-layer-1')).toContainText('structural');
    await expect(inboxes.getByTestId('rejected-layer-2')).toContainText('dangerous command pattern detected');
    await expect(inboxes.getByTestId('rejected-layer-3')).toContainText('semantic');
    await expect(page.getByRole('region', { name: 'Unactionable queue' })).toContainText('neither a predicate nor a scope');
    const clusters = page.getByRole('region', { name: 'Near-duplicate clusters' });
    await expect(clusters.getByTestId('duplicate-cluster').first()).toBeVisible();
    const cluster = clusters.getByTestId('duplicate-cluster').first();
    expect(await cluster.locator('li').count()).toBeGreaterThanOrEqual(2);
    await cluster.getByRole('button').first().click();
    await expect(page.getByRole('complementary', { name: 'Entry detail' })).toBeVisible();
  });

  test('renders lessons that contain markup as plain text', async ({ consolePage: page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openKnowledge(page, 'q=onerror&collection=all');
    const row = rowOf(page, DEMO_IDS.xssImgLesson);
    await expect(row).toContainText('<img src=x onerror=alert(1)>');
    await expect(page.locator('.view img')).toHaveCount(0);
    await row.click();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('complementary', { name: 'Entry detail' });
    await expect(detail.getByTestId('detail-lesson')).toContainText('<img src=x onerror=alert(1)>');
    await expect(detail.locator('img')).toHaveCount(0);

    await page.getByRole('tab', { name: 'Inboxes' }).click();
    await expect(page.getByTestId('rejected-layer-2')).toContainText('<script>alert(1)</script>');
    await expect(page.locator('.view script')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });
});
