import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Route } from '@playwright/test';
import { expect, test } from './fixtures';

/** A project with one lesson; another process adds a second while the view's stream is down. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-resubscribe-'));
const project = path.join(root, 'project');
const store = path.join(project, '.swarm', 'knowledge.jsonl');
const lesson = (n: number) =>
  JSON.stringify({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    tier: 'swarm',
    lesson: `Lesson ${n}: drain the queue before rotating the worker credentials.`,
    category: 'process',
    tags: ['resubscribe'],
    scope: 'global',
    confidence: 0.6,
    status: 'candidate',
    confirmed_by: [],
    retrieval_outcomes: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    schema_version: 1,
    created_at: '2026-06-01T00:00:00.000Z',
    updated_at: `2026-06-0${n}T00:00:00.000Z`,
    project_name: 'project',
  }) + '\n';
fs.mkdirSync(path.dirname(store), { recursive: true });
fs.writeFileSync(store, lesson(1));
test.use({ consoleOptions: { project, hive: root } });

test('a view whose live stream broke catches up on what it missed once the stream is back', async ({ page, consoleHost }) => {
  // Hold the Knowledge view's first stream open without an answer, as a connection that died would.
  let held: Route | null = null;
  await page.route('**/api/subscribe/stores.changes*', (route) => {
    if (!held) held = route;
    else void route.continue();
  });
  await page.goto(`${consoleHost.launchUrl}#/knowledge`);
  await expect(page.getByTestId('entry-count')).toHaveText('1 entry');
  await expect.poll(() => held !== null).toBe(true);

  // Another process appends a lesson while no stream can tell the view; wait until the console has read it.
  fs.appendFileSync(store, lesson(2));
  const secret = await page.evaluate(() => sessionStorage.getItem('swarm-console-session'));
  await expect
    .poll(async () => {
      const response = await fetch(`${consoleHost.origin}/api/call/stores.entries`, {
        method: 'POST',
        headers: { 'x-console-session': secret ?? '', origin: consoleHost.origin, 'content-type': 'application/json' },
        body: '{}',
      });
      return ((await response.json()) as { value: { total: number } }).value.total;
    }, { timeout: 30_000 })
    .toBe(2);
  await expect(page.getByTestId('entry-count')).toHaveText('1 entry');

  // The stream fails; the adapter subscribes again and the view refetches what it missed.
  await (held as Route | null)?.abort('connectionreset');
  await expect(page.getByTestId('entry-count')).toHaveText('2 entries');
  await expect(page.getByRole('grid', { name: 'Knowledge entries' })).toContainText('Lesson 2: drain the queue');
});
