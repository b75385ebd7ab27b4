import { expect, test } from './fixtures';
import type { CDPSession, Page } from '@playwright/test';

/**
 * How Chromium composites the Knowledge table (components/table/table.css), read from Chromium
 * itself: every block of rows is an opaque layer of its own, no row is a layer, and the
 * scroller's own contents are hidden behind the blocks. In software compositing (no GPU: VMs,
 * remote desktops) that is what keeps a scrolled frame's compositor work low; a needless layer
 * per row, or a block that is not opaque (drawn over the scroller's contents, blended), costs
 * CPU on every frame while looking the same.
 */

interface CdpLayer {
  layerId: string;
  backendNodeId?: number;
  drawsContent: boolean;
  width: number;
  height: number;
}

/** The latest layer tree Chromium sent, once the table has scrolled a little (a change makes Chromium send the tree). */
async function layerTreeWhileScrolled(page: Page, cdp: CDPSession): Promise<() => CdpLayer[]> {
  let layers: CdpLayer[] = [];
  cdp.on('LayerTree.layerTreeDidChange', (event: { layers?: CdpLayer[] }) => {
    if (event.layers) layers = event.layers;
  });
  await cdp.send('DOM.getDocument', { depth: 0 });
  await cdp.send('LayerTree.enable');
  await page.getByTestId('table-scroll').evaluate((el) => (el.scrollTop += 300));
  await expect.poll(() => layers.length).toBeGreaterThan(0);
  return () => layers;
}

/** The class attribute of the element a layer paints, if it is an element's. */
async function classOf(cdp: CDPSession, backendNodeId: number | undefined): Promise<string> {
  if (backendNodeId === undefined) return '';
  // A node gone since the tree was sent has no class to read.
  const described = (await cdp.send('DOM.describeNode', { backendNodeId }).catch(() => null)) as { node: { attributes?: string[] } } | null;
  if (!described) return '';
  const { node } = described;
  const attributes = node.attributes ?? [];
  const at = attributes.indexOf('class');
  return at >= 0 ? (attributes[at + 1] ?? '') : '';
}

/** `contents_opaque` of each layer named after a `.vt-block`, from the compositor's own snapshot in a trace. */
async function blockLayersOpaque(page: Page): Promise<boolean[]> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['disabled-by-default-cc.debug'] });
  await page.getByTestId('table-scroll').evaluate(async (el) => {
    for (let i = 0; i < 5; i++) {
      el.scrollTop += 40;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  const trace = JSON.parse(String(await browser.stopTracing())) as { traceEvents: Array<{ name?: string; args?: { snapshot?: { active_tree?: { layers?: Array<{ layer_name?: string; contents_opaque?: boolean }> } } } }> };
  const snapshots = trace.traceEvents.filter((event) => event.name === 'LayerTreeHostImpl:snapshot' && event.args?.snapshot?.active_tree);
  const last = snapshots.at(-1)?.args?.snapshot?.active_tree?.layers ?? [];
  return last.filter((layer) => /class='vt-block'/.test(layer.layer_name ?? '')).map((layer) => layer.contents_opaque === true);
}

test.describe('the Knowledge table while it scrolls', () => {
  test.use({ viewport: { width: 1600, height: 1000 } });

  test('is composited as one opaque layer per block of rows, none per row', async ({ consolePage: page }) => {
    await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge?collection=all'));
    const rows = page.getByRole('grid', { name: 'Knowledge entries' }).locator('[role=row][data-key]');
    await expect(rows.first()).toBeVisible();
    expect(await page.locator('.vt-block:not([hidden])').count()).toBeGreaterThan(2);

    const cdp = await page.context().newCDPSession(page);
    const latestLayers = await layerTreeWhileScrolled(page, cdp);
    // The pool of shown blocks may grow as the table scrolls, and the tree Chromium sent may be a
    // frame behind the page: compare them once they agree on the same moment.
    await expect
      .poll(async () => {
        const layers = latestLayers();
        const classes = await Promise.all(layers.map((layer) => classOf(cdp, layer.backendNodeId)));
        const blockLayers = layers.filter((_, i) => classes[i]!.split(' ').includes('vt-block'));
        return {
          rowLayers: layers.filter((_, i) => classes[i]!.split(' ').includes('vt-row')).length,
          everyShownBlockIsALayer: blockLayers.length === (await page.locator('.vt-block:not([hidden])').count()),
          blockLayersDrawContent: blockLayers.every((layer) => layer.drawsContent),
        };
      }, { message: 'one compositing layer per shown block, drawing its rows, and none per row' })
      .toEqual({ rowLayers: 0, everyShownBlockIsALayer: true, blockLayersDrawContent: true });

    const opaque = await blockLayersOpaque(page);
    // The block layers of the compositor's last snapshot (their count was checked against the page above).
    expect(opaque.length).toBeGreaterThan(2);
    expect(opaque, 'every block layer is opaque (hides what lies under it, drawn without blending)').toEqual(opaque.map(() => true));
  });

  test('scrolls exactly to its last row, never into blank rows below it', async ({ consolePage: page }) => {
    await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge?collection=all'));
    const grid = page.getByRole('grid', { name: 'Knowledge entries' });
    const rows = grid.locator('[role=row][data-key]');
    await expect(rows.first()).toBeVisible();
    const rowCount = Number(await grid.getAttribute('aria-rowcount')) - 1;
    // Fewer rows than a whole number of blocks (BLOCK_ROWS = 8), or the last block would end with them.
    expect(rowCount % 8).not.toBe(0);
    const scroller = page.getByTestId('table-scroll');
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    // Once the last block is drawn (it holds the last row), the scroll range is what it will stay.
    await expect(grid.locator(`[role=row][aria-rowindex="${rowCount + 1}"]`)).toBeVisible();
    const measured = await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      const rowHeight = (el.querySelector('[role=row][aria-rowindex]:not(.vt-header)') as HTMLElement).getBoundingClientRect().height;
      const header = (el.querySelector('.vt-header') as HTMLElement).getBoundingClientRect().height;
      return { scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, rowHeight, header };
    });
    expect(measured.scrollHeight).toBe(Math.max(Math.round(measured.header + rowCount * measured.rowHeight), measured.clientHeight));
    const gapBelowLastRow = () =>
      scroller.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
        const rowsShown = [...el.querySelectorAll<HTMLElement>('[role=row][aria-rowindex]:not(.vt-header)')].filter((row) => !row.closest('[hidden]'));
        const lowest = Math.max(...rowsShown.map((row) => row.getBoundingClientRect().bottom));
        return el.getBoundingClientRect().bottom - lowest;
      });
    // Scrolled to the end, the last row ends at the scroller's bottom edge (within its border): no blank rows below.
    await expect.poll(gapBelowLastRow).toBeLessThan(measured.rowHeight);
  });
});
