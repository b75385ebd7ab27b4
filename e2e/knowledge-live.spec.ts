import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

/** A project whose knowledge store another process (standing in for the plugin) appends to. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-knowledge-live-'));
const project = path.join(root, 'live-project');
const hive = path.join(root, 'hive');
const store = path.join(project, '.swarm', 'knowledge.jsonl');
const ENTRIES = 300;

function entry(n: number, updatedAt: string) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    tier: 'swarm',
    lesson: `Lesson number ${n}: keep the retry budget of worker ${n} below the queue timeout.`,
    category: 'process',
    tags: ['live'],
    scope: 'global',
    confidence: 0.6,
    status: 'candidate',
    confirmed_by: [],
    retrieval_outcomes: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    schema_version: 1,
    created_at: updatedAt,
    updated_at: updatedAt,
    project_name: 'live-project',
  };
}

fs.mkdirSync(path.dirname(store), { recursive: true });
fs.mkdirSync(hive, { recursive: true });
fs.writeFileSync(
  store,
  Array.from({ length: ENTRIES }, (_, i) => JSON.stringify(entry(i + 1, new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString()))).join('\n') + '\n',
);

test.use({ consoleOptions: { project, hive } });

/** Appends one line from a separate OS process, the way the plugin would. */
async function appendFromAnotherProcess(line: string) {
  const child = spawn(process.execPath, ['-e', 'require("fs").appendFileSync(process.argv[1], process.argv[2] + "\\n")', store, line]);
  await new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`append exited ${code}`)))));
}

const grid = (page: Page) => page.getByRole('grid', { name: 'Knowledge entries' });

test('a lesson written by another process arrives marked, and the rows under the cursor stay put', async ({ consolePage: page }) => {
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge'));
  await expect(page.getByTestId('entry-count')).toHaveText(`${ENTRIES} entries`);

  // Scroll into the list and select a row there: that is where the operator is reading.
  await page.getByTestId('table-scroll').focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('PageDown');
  const selected = grid(page).locator('[role=row][aria-selected=true]');
  await expect(selected).toHaveAttribute('data-index', '80');
  const key = await selected.getAttribute('data-key');
  const before = await selected.boundingBox();

  const newest = entry(ENTRIES + 1, new Date(Date.UTC(2026, 6, 2)).toISOString());
  newest.lesson = 'Freshly learned: pin the worker image digest before rolling the queue consumers.';
  await appendFromAnotherProcess(JSON.stringify(newest));

  await expect(page.getByTestId('entry-count')).toHaveText(`${ENTRIES + 1} entries`);
  // The new row sorts first (newest update): everything shifted down by one, the view followed it.
  await expect(selected).toHaveAttribute('data-index', '81');
  await expect(selected).toHaveAttribute('data-key', key ?? '');
  const after = await selected.boundingBox();
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThanOrEqual(1);

  await page.getByRole('button', { name: /new or moved row above/ }).click();
  const arrived = grid(page).locator(`[role=row][data-key*="${newest.id}"]`);
  await expect(arrived).toHaveAttribute('data-index', '0');
  await expect(arrived).toHaveClass(/\blive\b/);
  await expect(arrived).toContainText('Freshly learned');
});
