import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';

/** A project and hive whose stores hold the defects a console meets in the wild. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-knowledge-defects-'));
const project = path.join(root, 'broken-project');
const hive = path.join(root, 'hive');

const good = (id: string, lesson: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    tier: 'swarm',
    lesson,
    category: 'testing',
    tags: [],
    scope: 'global',
    confidence: 0.7,
    status: 'candidate',
    confirmed_by: [],
    retrieval_outcomes: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    schema_version: 1,
    created_at: '2026-06-01T00:00:00.000Z',
    updated_at: '2026-06-01T00:00:00.000Z',
    project_name: 'broken-project',
    ...extra,
  });

fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
fs.mkdirSync(hive, { recursive: true });
fs.writeFileSync(
  path.join(project, '.swarm', 'knowledge.jsonl'),
  [
    good('11111111-0000-4000-8000-000000000001', 'Run the focused test file before delegating the review.'),
    '{"id":"22222222-0000-4000-8000-000000000002","lesson":"truncated by a crash',
    good('33333333-0000-4000-8000-000000000003', 'Confidence written as a word by a hand edit.', { confidence: 'high' }),
    good('44444444-0000-4000-8000-000000000004', 'A status the console does not know yet stays visible.', { status: 'pending_review' }),
  ].join('\n') + '\n',
);
fs.writeFileSync(
  path.join(hive, 'shared-learnings.jsonl'),
  [good('55555555-0000-4000-8000-000000000005', 'Hive lesson written twice by a racing promotion.', { tier: 'hive', source_project: 'x' }), good('55555555-0000-4000-8000-000000000005', 'Hive lesson written twice by a racing promotion.', { tier: 'hive', source_project: 'x' })].join('\n') + '\n',
);

test.use({ consoleOptions: { project, hive } });

test('defects are shown in place, per store, with file:line and reason, and the good lines stay usable', async ({ consolePage: page }) => {
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge'));
  const swarmBanner = page.getByRole('region', { name: 'Defects in Swarm knowledge' });
  await expect(swarmBanner).toContainText(/\d+ defects?/);
  await swarmBanner.getByRole('button', { name: /show lines/ }).click();
  await expect(swarmBanner.locator('li', { hasText: 'invalid_json' })).toContainText(/knowledge\.jsonl:2/);
  await expect(swarmBanner).toContainText(/knowledge\.jsonl:3/);
  await expect(swarmBanner).toContainText('confidence');
  await expect(swarmBanner).toContainText('pending_review');

  const hiveBanner = page.getByRole('region', { name: 'Defects in Hive knowledge' });
  await expect(hiveBanner).toContainText('1 defect');
  await hiveBanner.getByRole('button', { name: /show lines/ }).click();
  await expect(hiveBanner).toContainText(/shared-learnings\.jsonl:2/);
  await expect(hiveBanner).toContainText('duplicate_id');

  // The readable lines are all in the table, including the one with an unknown status.
  const grid = page.getByRole('grid', { name: 'Knowledge entries' });
  await expect(grid.locator('[role=row][data-key]', { hasText: 'Run the focused test file' })).toBeVisible();
  await expect(grid.locator('[role=row][data-key]', { hasText: 'A status the console does not know yet' })).toContainText('pending_review');
  await grid.locator('[role=row][data-key]', { hasText: 'Confidence written as a word' }).click();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Entry detail' }).getByTestId('fields')).toContainText('high');
});
