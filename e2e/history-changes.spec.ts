import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startConsole } from './console-host';
import { expect, test } from './fixtures';
import { startConsoleInTerminal, type TerminalConsole } from './pty-console';

type Entry = { id: string; lesson: string; status: string; confidence: number; retrieval_outcomes: Record<string, number> } & Record<string, unknown>;

const storeOf = (userDataDir: string) => path.join(userDataDir, 'demo', 'billing-api', '.swarm', 'knowledge.jsonl');
const readStore = (store: string): Entry[] =>
  fs
    .readFileSync(store, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry);

/** Rewrites the store as the plugin does (a temp file renamed over it), from this process while the console runs. */
function rewriteStore(store: string, entries: Entry[]) {
  fs.writeFileSync(`${store}.tmp`, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  fs.renameSync(`${store}.tmp`, store);
}

/** Two live lessons of the demo: one whose confidence falls and which gets applied once more, one the plugin drops. */
function pickTwo(entries: Entry[]): [Entry, Entry] {
  const live = entries.filter((e) => e.status !== 'archived' && typeof e.confidence === 'number' && e.confidence !== 0.42 && e.retrieval_outcomes);
  return [live[0]!, live[1]!];
}

function workTheStore(store: string): { changed: Entry; removed: Entry } {
  const entries = readStore(store);
  const [changed, removed] = pickTwo(entries);
  const next = entries
    .filter((e) => e.id !== removed.id)
    .map((e) => (e.id === changed.id ? { ...e, confidence: 0.42, retrieval_outcomes: { ...e.retrieval_outcomes, applied_count: (e.retrieval_outcomes.applied_count ?? 0) + 1 } } : e));
  rewriteStore(store, next);
  return { changed, removed };
}

// These walk the History area from an empty start: the demo without its scripted week (e2e/demo-week.spec.ts has it).
const NO_WEEK = { SWARM_CONSOLE_DEMO_WEEK: '0' };
const CAP_INFERENCE = 'no longer in the store (likely evicted by the 280-entry cap) — inferred by the console; no store records why';
test.use({ consoleOptions: { env: NO_WEEK } });

const current = (page: Page) => page.locator('[data-testid="history-change"][aria-selected="true"]');
const row = (page: Page, id: string) => page.locator(`[data-testid="history-change"][data-id="${id}"]`);

test('the operator opens History while the plugin works, reads what changed since they last looked, steps through it by keyboard and opens each entry', async ({ consolePage: page, consoleHost }) => {
  test.setTimeout(120_000);
  const store = storeOf(consoleHost.userDataDir);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('area-title')).toHaveText('History');
  // First time here: "since I last looked" is since history began, and nothing has changed yet.
  await expect(page.getByTestId('history-since-select')).toContainText('when you last looked (never here before: since history began');
  await expect(page.getByTestId('history-began')).toContainText('earlier changes are unknown');
  await expect(page.getByTestId('history-count-changed')).toHaveText(/^0 changed — /);
  await expect(page.getByTestId('history-changes-empty')).toHaveText('Nothing changed in this range, as far as history knows.');

  // The plugin rewrites its store: one confidence falls and a counter moves, one lesson is dropped.
  const { changed, removed } = workTheStore(store);

  await expect(page.getByTestId('history-count-changed')).toHaveText('1 changed — the same entry with a different line: fields that differ are listed');
  await expect(page.getByTestId('history-count-removed')).toHaveText('1 removed — entries that left the store they were in (the reason beside each)');
  await expect(page.getByTestId('history-count-added')).toHaveText(/^0 added — /);
  const changedRow = row(page, changed.id);
  await expect(changedRow).toContainText(changed.lesson);
  await expect(changedRow.getByTestId('history-change-detail')).toContainText(`confidence ${changed.confidence.toFixed(2)} → 0.42`);
  await expect(changedRow.getByTestId('history-change-detail')).toContainText(`retrieval_outcomes.applied_count ${changed.retrieval_outcomes.applied_count ?? 0} → ${(changed.retrieval_outcomes.applied_count ?? 0) + 1}`);
  await expect(changedRow).toContainText('swarm · active store · knowledge.jsonl');
  // The demo's store sits at its cap (swarm_max_entries 280), so a lesson gone without a trace is inferred evicted.
  await expect(row(page, removed.id).getByTestId('history-change-detail')).toHaveText(CAP_INFERENCE);

  // The keyboard: the list has the focus, j/k step and the position follows; the ends hold.
  const list = page.getByTestId('history-changes-list');
  await expect(list).toBeFocused();
  await expect(page.getByTestId('history-position')).toHaveText('1 of 2');
  const first = await current(page).getAttribute('data-id');
  await page.keyboard.press('j');
  await expect(page.getByTestId('history-position')).toHaveText('2 of 2');
  const second = await current(page).getAttribute('data-id');
  expect([first, second].sort()).toEqual([changed.id, removed.id].sort());
  await page.keyboard.press('j');
  await expect(page.getByTestId('history-position')).toHaveText('2 of 2');
  await page.keyboard.press('k');
  await expect(page.getByTestId('history-position')).toHaveText('1 of 2');
  await expect(list).toBeFocused();

  // Enter on the changed lesson opens it in Knowledge; Back returns to the same place.
  if (first !== changed.id) await page.keyboard.press('j');
  await expect(current(page)).toHaveAttribute('data-id', changed.id);
  expect(page.url()).toContain(`sel=${changed.id}`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('area-title')).toHaveText('Knowledge');
  await expect(page.getByTestId('detail-lesson')).toHaveText(changed.lesson);
  await page.goBack();
  await expect(page.getByTestId('area-title')).toHaveText('History');
  await expect(current(page)).toHaveAttribute('data-id', changed.id);
  await expect(list).toBeFocused();

  // The dropped lesson is in no live store: Enter opens its timeline here, Esc closes it and the list keeps the keyboard.
  await page.keyboard.press(first === changed.id ? 'j' : 'k');
  await expect(current(page)).toHaveAttribute('data-id', removed.id);
  await page.keyboard.press('Enter');
  const timeline = page.getByTestId('history-timeline');
  await expect(timeline).toContainText(removed.id);
  await expect(timeline.getByTestId('history-version')).toHaveCount(1);
  await expect(timeline.getByTestId('history-version')).toContainText(removed.lesson);
  await expect(timeline.getByTestId('history-version')).toContainText('likely evicted by the 280-entry cap');
  await page.keyboard.press('Escape');
  await expect(timeline).toHaveCount(0);
  await expect(list).toBeFocused();

  // Other moments: since phase 4 (before history began, and it says so), until a date and time before the work: nothing then.
  await page.getByTestId('history-since-select').selectOption('phase:4');
  expect(page.url()).toContain('since=phase%3A4');
  await expect(page.getByTestId('history-began')).toContainText('so this range starts before anything was recorded');
  await expect(page.getByTestId('history-count-changed')).toHaveText(/^1 changed/);
  await page.getByTestId('history-until-select').selectOption('date-time');
  await page.getByTestId('history-until-date').fill('2020-01-01T00:00');
  await expect(page.getByTestId('history-count-changed')).toHaveText(/^0 changed/);
  expect(page.url()).toContain('until=2020-01-01T00%3A00%3A00.000Z');
  await page.getByTestId('history-until-select').selectOption('now');
  await page.getByTestId('history-since-select').selectOption('last-looked');
  await expect(page.getByTestId('history-count-changed')).toHaveText(/^1 changed/);

  // Filters: only the hive tier (nothing there), then every change again.
  await page.getByTestId('history-tier-hive').click();
  await expect(page.getByTestId('history-changes-empty')).toHaveText('No change of the chosen tiers and kinds in this range.');
  expect(page.url()).toContain('tier=hive');
  await page.getByRole('button', { name: 'Show every change' }).click();
  await page.getByTestId('history-count-removed').click();
  await expect(page.getByTestId('history-change')).toHaveCount(1);
  await expect(page.getByTestId('history-position')).toHaveText('1 of 1 (filtered from 2 changes)');

  // Forgotten: the dropped lesson with why it left; no restore from a console nobody can confirm at, and it says why.
  await page.getByTestId('history-tab-forgotten').click();
  const forgotten = page.locator(`[data-testid="forgotten-entry"][data-id="${removed.id}"]`);
  await expect(forgotten).toContainText(removed.lesson);
  await expect(forgotten.getByTestId('forgotten-reason')).toContainText('likely evicted by the 280-entry cap');
  await expect(forgotten.getByTestId('forgotten-restore')).toBeDisabled();
  await expect(page.getByTestId('human-disabled')).toContainText('not started from an interactive terminal');
});

test('a history database that cannot be read is set aside with a banner, and the console opens and records again', async ({ page }) => {
  test.setTimeout(180_000);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-history-aside-'));
  const first = await startConsole({ userDataDir, env: NO_WEEK });
  await page.goto(first.launchUrl);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('history-counts')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('history-set-aside')).toHaveCount(0);
  await first.stop();

  // Between sessions the history database is damaged (a disk error, a bad copy).
  const workspaces = path.join(userDataDir, 'workspaces');
  const databases = fs.readdirSync(workspaces).map((key) => path.join(workspaces, key, 'history.db')).filter((file) => fs.existsSync(file));
  expect(databases.length).toBeGreaterThan(0);
  for (const file of databases) {
    for (const side of ['-wal', '-shm']) fs.rmSync(file + side, { force: true });
    fs.writeFileSync(file, 'this is not an SQLite database\n'.repeat(200));
  }

  const second = await startConsole({ userDataDir, env: NO_WEEK });
  try {
    await page.goto(second.launchUrl);
    await page.getByRole('link', { name: 'History' }).click();
    const banner = page.getByTestId('history-set-aside');
    await expect(banner).toContainText('The history database could not be read');
    await expect(banner).toContainText('history.db.corrupt-');
    await expect(page.getByTestId('history-began')).toContainText('History began');
    await expect(page.getByTestId('history-count-changed')).toHaveText(/^0 changed/);
  } finally {
    await second.stop();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
});

const CODE_LINE = /Confirm [^\n]*\(token [0-9a-f]{4}…\): (\d{6})/;

test.describe('restoring a forgotten lesson at a console started from a terminal', () => {
  let console_: TerminalConsole;
  test.beforeEach(async () => {
    console_ = await startConsoleInTerminal({ env: NO_WEEK });
  });
  test.afterEach(async () => {
    await console_.stop();
  });

  test('the operator restores a lesson the plugin dropped, after reading the preview and confirming with the terminal code', async ({ page }) => {
    test.setTimeout(180_000);
    const store = storeOf(console_.userDataDir);
    await page.goto(console_.launchUrl);
    await page.getByRole('link', { name: 'History' }).click();
    await expect(page.getByTestId('history-counts')).toBeVisible({ timeout: 60_000 });
    const { removed } = workTheStore(store);
    await expect(page.getByTestId('history-count-removed')).toHaveText(/^1 removed/);

    await page.getByTestId('history-tab-forgotten').click();
    const forgotten = page.locator(`[data-testid="forgotten-entry"][data-id="${removed.id}"]`);
    await expect(forgotten).toContainText(removed.lesson);
    await forgotten.getByTestId('forgotten-restore').click();
    const preview = page.getByTestId('restore-preview');
    await expect(preview).toContainText(removed.lesson);
    await expect(preview.getByTestId('restore-store-file')).toContainText('knowledge.jsonl');
    await expect(preview.getByTestId('restore-line')).toContainText(removed.id);
    const line = (await preview.getByTestId('restore-line').textContent()) ?? '';
    await expect(preview.getByTestId('restore-status')).toBeVisible();
    expect(readStore(store).some((e) => e.id === removed.id)).toBe(false);

    await page.getByTestId('confirm-reason').fill('the plugin dropped a lesson we still need');
    await page.getByTestId('request-code').click();
    const code = await console_.nextMatch(CODE_LINE, 0);
    await page.getByTestId('confirm-code').fill(code);
    await page.getByTestId('confirm-commit').click();
    const result = page.getByTestId('write-result');
    await expect(result).toContainText('Restored');
    await expect(result).toBeFocused();
    // Exactly the previewed line, appended.
    expect(fs.readFileSync(store, 'utf8').trimEnd().split('\n').at(-1)).toBe(line);
    expect(readStore(store).find((e) => e.id === removed.id)?.lesson).toBe(removed.lesson);
    await expect(forgotten).toHaveCount(0);
  });
});
