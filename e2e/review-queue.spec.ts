import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoFrameworkText } from './framework-text';

// The kinds that have no store-writing decision on the demo workspace. Approving and rejecting
// the kinds that do (drafts, recommendations with a command) by keyboard is covered in skills.spec.ts.
const NO_DECISION_KINDS = 'rejected_lesson,unactionable_lesson,repeated_denial';

async function openQueue(page: Page, params: string): Promise<void> {
  await page.goto(`${new URL(page.url()).origin}/#/skills?tab=queue${params}`);
  await expect(page.getByTestId('review-queue')).toBeVisible();
}

test('the operator clears the queue items that need no decision by keyboard only, and they stay cleared', async ({ consolePage: page }) => {
  test.setTimeout(180_000);
  await openQueue(page, `&kinds=${NO_DECISION_KINDS}`);
  const items = page.getByTestId('queue-item');
  await expect(items.first()).toBeVisible();
  const total = await items.count();
  expect(total).toBeGreaterThan(1);
  await expect(page.getByTestId('queue-dismissed')).toHaveText('0 dismissed');
  await page.getByTestId('queue-list').focus();

  // The first one the operator has looked at and leaves as it is: `a` marks it reviewed.
  const first = await page.locator('.queue-item.current').getAttribute('data-key');
  await page.keyboard.press('a');
  await expect(items).toHaveCount(total - 1);
  await expect(page.locator(`[data-testid=queue-item][data-key="${first}"]`)).toHaveCount(0);

  // The rest each get a reason: r, type, Enter.
  for (let left = total - 1; left > 0; left--) {
    await page.keyboard.press('r');
    await expect(page.getByTestId('dismiss-reason')).toBeFocused();
    await page.keyboard.type(`validation was right about this one (${left})`);
    await page.keyboard.press('Enter');
    await expect(items).toHaveCount(left - 1);
    await expect(page.getByTestId('queue-list')).toBeFocused();
    await expect(page.getByTestId('queue-progress')).toHaveText(`${left > 1 ? 1 : 0} of ${left - 1} · decided ${total - left + 1} · skipped 0`);
    await expectNoFrameworkText(page, `dismissal ${left}`);
  }
  await expect(page.getByTestId('queue-empty')).toContainText('Nothing is waiting for a person');
  await expect(page.getByTestId('queue-empty')).toContainText(`${total} dismissed`);

  // Dismissals live in the console's user data: a reload keeps the queue clear.
  await page.reload();
  await expect(page.getByTestId('queue-empty')).toContainText(`${total} dismissed`);
  await expect(items).toHaveCount(0);
  // The kinds with a human-only decision are still waiting (they are decided, not dismissed).
  await page.getByTestId('queue-kind-skill_draft').click();
  await expect(items.first()).toBeVisible();
});

test('a reason is required, and Esc goes back to the queue without dismissing', async ({ consolePage: page }) => {
  test.setTimeout(120_000);
  await openQueue(page, '&kinds=unactionable_lesson');
  const items = page.getByTestId('queue-item');
  await expect(items.first()).toBeVisible();
  const total = await items.count();
  await page.getByTestId('queue-list').focus();
  await page.keyboard.press('r');
  await expect(page.getByTestId('dismiss-reason')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('dismiss-error')).toContainText('Say why');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('dismiss-panel')).toHaveCount(0);
  await expect(items).toHaveCount(total);
  await expect(page.getByTestId('queue-dismissed')).toHaveText('0 dismissed');
});

test('while the queue is still loading it shows no partial list, count or "nothing is waiting"', async ({ consolePage: page }) => {
  // The queue is three answers (the queue itself, the gate counters and their rules); hold back the slowest one.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/call/review.queue', async (route) => {
    await held;
    await route.continue();
  });
  await openQueue(page, `&kinds=${NO_DECISION_KINDS}`);
  await expect(page.getByTestId('queue-loading')).toBeVisible();
  // The repeated denial (from the gate counters) has answered by now; it must not be shown alone.
  await page.waitForTimeout(1_500);
  await expect(page.getByTestId('queue-item')).toHaveCount(0);
  await expect(page.getByTestId('queue-empty')).toHaveCount(0);
  await expect(page.getByTestId('queue-progress')).toHaveText('');
  release();
  await expect(page.getByTestId('queue-loading')).toHaveCount(0);
  expect(await page.getByTestId('queue-item').count()).toBeGreaterThan(1);
});
