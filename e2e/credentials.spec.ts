import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';

/**
 * A project whose lessons quote credentials, on a newer plugin that imported knowledge.jsonl into
 * swarm.db: the console reads the `.imported` archive, says so, and masks the credentials in the
 * table and the detail until a person reveals one entry (audited without the secret).
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-credentials-'));
const project = path.join(root, 'upgraded-project');
const hive = path.join(root, 'hive');
const SECRET = 'Zq9longsecret';
const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const LESSON = `Staging runs on postgres://billing:${SECRET}@db.staging/billing and CI pushed with ${TOKEN}`;
const MASKED = 'Staging runs on postgres://billing:•••@db.staging/billing and CI pushed with •••';

const entry = (id: string, lesson: string) =>
  JSON.stringify({
    id,
    tier: 'swarm',
    lesson,
    category: 'security',
    tags: [],
    scope: 'global',
    confidence: 0.7,
    status: 'candidate',
    confirmed_by: [],
    retrieval_outcomes: { applied_count: 0, succeeded_after_count: 0, failed_after_count: 0 },
    schema_version: 1,
    created_at: '2026-06-01T00:00:00.000Z',
    updated_at: '2026-06-01T00:00:00.000Z',
    project_name: 'upgraded-project',
  });

fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
fs.mkdirSync(hive, { recursive: true });
const archive = path.join(project, '.swarm', 'knowledge.jsonl.imported');
fs.writeFileSync(archive, `${entry('cred-0000-4000-8000-000000000001', LESSON)}\n${entry('cred-0000-4000-8000-000000000002', 'See https://example.com/path for the runbook.')}\n`);
fs.utimesSync(archive, new Date('2026-07-10T08:00:00Z'), new Date('2026-07-10T08:00:00Z'));
const db = new Database(path.join(project, '.swarm', 'swarm.db'));
db.pragma('user_version = 4');
db.exec("CREATE TABLE knowledge (id TEXT PRIMARY KEY, body TEXT); INSERT INTO knowledge VALUES ('a', '{}');");
db.close();

test.use({ consoleOptions: { project, hive } });

test('credentials show masked in the table and detail; Reveal shows one entry and the audit log records it without the secret', async ({ consolePage: page, consoleHost }) => {
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge'));
  await expect(page.getByTestId('status-plugin-upgrade')).toContainText("this project's plugin keeps Swarm knowledge in swarm.db since 2026-07-10T08:00:00.000Z");
  await expect(page.getByTestId('swarm-db-archive')).toContainText('the console shows the archived JSONL as of then');
  await expect(page.getByTestId('swarm-db-tables')).toContainText('knowledge — 1 row (knowledge), not read yet');

  const grid = page.getByRole('grid', { name: 'Knowledge entries' });
  const row = grid.locator('[role=row][data-key]', { hasText: 'Staging runs on' });
  await expect(row).toContainText(MASKED);
  await expect(grid).not.toContainText(SECRET);
  await expect(grid.locator('[role=row][data-key]', { hasText: 'runbook' })).toContainText('https://example.com/path');

  await row.click();
  await page.keyboard.press('Enter');
  const detail = page.getByRole('complementary', { name: 'Entry detail' });
  await expect(detail.getByTestId('detail-lesson')).toHaveText(MASKED);
  await expect(detail).toContainText('.swarm/knowledge.jsonl.imported');
  await expect(detail).not.toContainText(SECRET);
  expect(await page.content()).not.toContain(SECRET);

  await detail.getByTestId('detail-reveal').click();
  await expect(detail.getByTestId('detail-revealed')).toHaveText(LESSON);

  const audit = fs.readFileSync(path.join(consoleHost.userDataDir, 'human-only', 'audit.jsonl'), 'utf8');
  const reveal = audit.trim().split('\n').map((l) => JSON.parse(l)).find((r) => r.event === 'reveal');
  expect(reveal).toMatchObject({ op: 'stores.reveal', outcome: 'ok', ids: ['cred-0000-4000-8000-000000000001'] });
  expect(audit).not.toContain(SECRET);
  expect(audit).not.toContain(TOKEN);
});
