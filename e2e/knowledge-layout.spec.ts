import { expect, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

/** The Knowledge table fits its pane, opens on a click, and its detail pane can be resized. */
const grid = (page: Page) => page.getByRole('grid', { name: 'Knowledge entries' });
const dataRows = (page: Page) => grid(page).locator('[role=row][data-key]');
const header = (page: Page, name: string) => grid(page).getByRole('columnheader', { name: new RegExp(`^${name.replace(/[.()]/g, '\\$&')}`) });

async function openKnowledge(page: Page, query = '') {
  await page.evaluate((hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/knowledge${query ? `?${query}` : ''}`);
  await expect(page.getByTestId('area-title')).toHaveText('Knowledge');
  await expect(dataRows(page).first()).toBeVisible();
}

/** No sideways scrolling: the scroller's content is no wider than the scroller. */
const overflowsSideways = (scroller: Locator) => scroller.evaluate((el) => el.scrollWidth > el.clientWidth);

/** The whole header cell lies inside the scroller's visible box (not scrolled or cut off). */
async function fullyInView(scroller: Locator, cell: Locator) {
  const [box, view] = await Promise.all([cell.boundingBox(), scroller.evaluate((el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.left + el.clientWidth }; })]);
  return !!box && box.x >= view.left - 0.5 && box.x + box.width <= view.right + 0.5;
}

/**
 * Cells only clip when their content is wider than their column (each clipped cell costs every
 * scrolled frame), so a cell that does not clip must fit: what spills past a cell's edge, by text.
 */
const spilledCells = (page: Page) =>
  dataRows(page)
    .locator('[role=gridcell]')
    .evaluateAll((cells) => cells.filter((cell) => !cell.classList.contains('clip') && cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent));
const clippedCells = (page: Page) => dataRows(page).locator('[role=gridcell].clip').count();

test.describe('an operator on a 1600×1000 screen', () => {
  test.use({ viewport: { width: 1600, height: 1000 } });

  test('sees every default column without scrolling sideways, and facet counts in full', async ({ consolePage: page }, testInfo) => {
    await openKnowledge(page);
    const scroller = page.getByTestId('table-scroll');
    expect(await overflowsSideways(scroller)).toBe(false);
    for (const name of ['Lesson', 'Tier', 'Status', 'Priority', 'Category', 'Archives in', 'Markers', 'Updated (UTC)', 'Project']) {
      expect(await fullyInView(scroller, header(page, name)), `${name} in view`).toBe(true);
    }
    // A clipped lesson carries its whole text as a tooltip.
    const lessonCell = dataRows(page).first().locator('[role=gridcell]').first();
    expect(await lessonCell.getAttribute('title')).toBe((await lessonCell.textContent())?.trim());
    await expect.poll(() => spilledCells(page)).toEqual([]);
    // Short values (tiers, most statuses and categories) do not clip: not every clippable cell is a clip.
    const rows = await dataRows(page).count();
    expect(await clippedCells(page)).toBeLessThan(rows * 3);

    const facets = page.getByRole('complementary', { name: 'Facets' });
    expect(await overflowsSideways(facets)).toBe(false);
    const cut = await facets.evaluate((aside) => {
      const edge = aside.getBoundingClientRect().left + aside.clientWidth;
      return [...aside.querySelectorAll('.facet-count')].filter((count) => count.getBoundingClientRect().right > edge + 0.5).map((count) => count.textContent);
    });
    expect(cut).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('knowledge-1600.png') });
  });

  test('opens a row with one click, as any table does', async ({ consolePage: page }) => {
    await openKnowledge(page, 'q=declare');
    const row = dataRows(page).nth(1);
    const lesson = (await row.locator('[role=gridcell]').first().textContent())?.trim();
    await row.click();
    const detail = page.getByRole('complementary', { name: 'Entry detail' });
    await expect(detail.getByTestId('detail-lesson')).toHaveText(lesson ?? '');
    await expect(page).toHaveURL(/open=/);
  });

  test('is told when a shared link names an entry that is not in this workspace', async ({ consolePage: page }) => {
    await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge?open=no-such-entry-4711'));
    await expect(page.getByTestId('detail-not-found')).toContainText('no-such-entry-4711 is not in this workspace');
  });
});

test.describe('an operator on a 1280×720 screen', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('keeps Lesson, Tier, Status and Priority in view with the detail open, and resizes the detail pane', async ({ consolePage: page }, testInfo) => {
    await openKnowledge(page);
    await dataRows(page).first().click();
    const detail = page.getByRole('complementary', { name: 'Entry detail' });
    await expect(detail.getByTestId('detail-lesson')).toBeVisible();
    const scroller = page.getByTestId('table-scroll');
    for (const name of ['Lesson', 'Tier', 'Status', 'Priority']) expect(await fullyInView(scroller, header(page, name)), `${name} in view`).toBe(true);
    // The table narrowed when the detail opened: cells that fit the wider table clip now if they must.
    await expect.poll(() => spilledCells(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('knowledge-1280-detail.png') });

    // Keyboard: the pane's edge is a focusable splitter; → narrows the detail, ← widens it.
    const splitter = page.getByRole('separator', { name: 'Resize the detail pane' });
    const widthOf = async () => (await detail.boundingBox())!.width;
    const before = await widthOf();
    await splitter.focus();
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(widthOf).toBeGreaterThan(before + 100);
    const widened = await widthOf();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(widthOf).toBeLessThan(widened - 40);
    expect(Number(await splitter.getAttribute('aria-valuenow'))).toBeLessThan(widened - 40);

    // Pointer: drag the edge to the left, the detail gets wider and the table narrower.
    const box = (await splitter.boundingBox())!;
    const start = await widthOf();
    await page.mouse.move(box.x + box.width / 2, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x - 150, box.y + 100, { steps: 5 });
    await page.mouse.up();
    await expect.poll(widthOf).toBeGreaterThan(start + 100);
  });
});

test.describe('an operator anywhere in the console', () => {
  test('gets the keyboard help with ? in every area', async ({ consolePage: page }) => {
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const [key, area] of [['1', 'Knowledge'], ['2', 'Directives'], ['3', 'Receipts'], ['4', 'Skills'], ['5', 'Hive quarantine'], ['6', 'Live']] as const) {
      await page.keyboard.press(`Alt+${key}`);
      await expect(page.getByTestId('area-title')).toHaveText(area);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('?');
      await expect(help, `help in ${area}`).toContainText('switch area');
      await page.keyboard.press('Escape');
      await expect(help).toBeHidden();
    }
    await page.keyboard.press('Alt+1');
    await page.keyboard.press('?');
    await expect(help).toContainText('open the row in the detail pane');
  });

  test('reads gate codes in full in Live, and the lesson beside each entry id in Receipts', async ({ consolePage: page }) => {
    await page.keyboard.press('Alt+6');
    const gates = page.getByTestId('feed-gate');
    await expect(gates.first()).toBeVisible();
    // Neither clipped inside its cell nor cut off by the feed's edge.
    const clipped = await gates.evaluateAll((cells) => {
      const feed = cells[0]!.closest('[data-testid=live-feed]')!;
      const edge = feed.getBoundingClientRect().left + feed.clientWidth;
      return cells.filter((cell) => cell.scrollWidth > cell.clientWidth || cell.getBoundingClientRect().right > edge + 0.5).map((cell) => cell.textContent);
    });
    expect(clipped).toEqual([]);
    expect(await gates.allTextContents()).toContain('KNOWLEDGE_ENFORCE_GATE_DENY');

    await page.keyboard.press('Alt+3');
    await page.getByTestId('tab-funnel').click();
    const row = page.getByTestId('funnel-row').first();
    await expect(row.getByTestId('receipt-lesson')).not.toBeEmpty();
    expect((await row.getByTestId('receipt-lesson').getAttribute('title'))?.length).toBeGreaterThan(8);
  });
});
