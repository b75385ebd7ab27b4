import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { DEMO_IDS } from '../main/demo/ids';
import { expect, test } from './fixtures';
import { expectNoFrameworkText } from './framework-text';
import { startConsoleInTerminal, type TerminalConsole } from './pty-console';

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A call made by script in the page itself, with the tab's own session: what an injected script could do. */
function scriptCall(page: Page, name: string, input: unknown) {
  return page.evaluate(
    async ([op, body]) => {
      const session = sessionStorage.getItem('swarm-console-session') ?? '';
      const response = await fetch(`/api/call/${op}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-session': session }, body: JSON.stringify(body) });
      return response.json();
    },
    [name, input] as const,
  );
}

const CODE_LINE = /Confirm [^\n]*\(token [0-9a-f]{4}…\): (\d{6})/;

test.describe('hive quarantine at a console started from a terminal', () => {
  let console_: TerminalConsole;
  test.beforeEach(async () => {
    console_ = await startConsoleInTerminal();
  });
  test.afterEach(async () => {
    await console_.stop();
  });

  test('the operator quarantines two entries with the terminal code, checks the backup, rolls back to identical bytes and reads it all in the audit log', async ({ page }) => {
    test.setTimeout(240_000);
    const store = path.join(console_.hiveDir, 'shared-learnings.jsonl');
    const originalSha = sha(store);
    await page.goto(console_.launchUrl);
    await page.getByRole('link', { name: 'Hive quarantine' }).click();
    await expect(page.getByTestId('human-disabled')).toHaveCount(0);
    await expect(page.getByTestId('status-confirmations')).toHaveText('Confirmations by a code on the serve terminal');

    const picks = page.locator('[data-testid^="pick-"]');
    await expect(picks.first()).toBeVisible({ timeout: 60_000 });
    const ids = [(await picks.nth(0).getAttribute('data-testid'))!.slice(5), (await picks.nth(1).getAttribute('data-testid'))!.slice(5)];
    await picks.nth(0).check();
    await picks.nth(1).check();
    await expect(page.getByTestId('selected-ids')).toContainText(ids[0]!);
    await page.getByTestId('quarantine-preview-button').click();
    const preview = page.getByTestId('quarantine-preview');
    await expect(preview).toContainText('2 entries would move');
    await expect(preview.getByTestId('blast-radius')).toContainText('Projects that confirmed it');
    await expect(preview.getByTestId('preview-fingerprint')).toContainText(originalSha.slice(0, 12));
    expect(sha(store)).toBe(originalSha);

    await page.getByTestId('confirm-reason').fill('leaked scratch-project lessons');
    await page.getByTestId('request-code').click();
    const code = await console_.nextMatch(CODE_LINE, 0);
    expect(console_.terminal()).toMatch(/Confirm hive quarantine of 2 entries \(token [0-9a-f]{4}…\): \d{6}/);
    await expect(page.locator('body')).not.toContainText(code);

    // A wrong code is refused and changes nothing; so is a commit with no code at all.
    await page.getByTestId('confirm-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('confirm-commit').click();
    await expect(page.getByTestId('quarantine-error')).toContainText('Wrong code; 2 tries left');
    expect(sha(store)).toBe(originalSha);

    await page.getByTestId('confirm-code').fill(code);
    await page.getByTestId('confirm-commit').click();
    const result = page.getByTestId('write-result');
    await expect(result).toContainText('Quarantined 2 entries');
    await expect(result).toContainText('(verified)');
    await expect(result).toBeFocused();
    await expect(page.getByTestId('quarantine-preview')).toHaveCount(0);
    await expect(page.getByTestId('confirm-box')).toHaveCount(0);
    await expectNoFrameworkText(page, 'the quarantine');
    const text = fs.readFileSync(store, 'utf8');
    for (const id of ids) expect(text).not.toContain(`"${id}"`);
    const sidecar = fs.readFileSync(path.join(console_.hiveDir, 'shared-learnings-quarantined.jsonl'), 'utf8');
    for (const id of ids) expect(sidecar).toContain(`"${id}"`);

    await result.getByRole('button', { name: 'Done' }).click();
    const newest = page.getByTestId('backup-row').first();
    await expect(newest.getByTestId('backup-state')).toHaveText('committed');
    await expect(newest).toContainText('verified');
    // Cancel leaves a rollback preview without writing anything.
    await newest.getByTestId('rollback-start').click();
    await expect(page.getByTestId('rollback-preview')).toContainText('original bytes come back whole');
    await page.getByTestId('backups-panel').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('rollback-preview')).toHaveCount(0);
    await newest.getByTestId('rollback-start').click();
    await expect(page.getByTestId('rollback-preview')).toContainText('original bytes come back whole');
    await page.getByTestId('confirm-reason').fill('false alarm');
    await page.getByTestId('request-code').click();
    await page.getByTestId('confirm-code').fill(await console_.nextMatch(CODE_LINE, 1));
    await page.getByTestId('confirm-commit').click();
    await expect(page.getByTestId('write-result')).toContainText('byte for byte the store the quarantine backed up');
    expect(sha(store)).toBe(originalSha);
    await expect(page.getByTestId('backup-row').first().getByTestId('backup-state')).toHaveText('rolled_back');
    // One result state: no spent form under it, nothing from the framework, and Done is the way back.
    await expect(page.getByTestId('write-result')).toHaveCount(1);
    await expect(page.getByTestId('write-result').getByRole('heading')).toHaveText('Rolled back');
    await expect(page.getByTestId('rollback-preview')).toHaveCount(0);
    await expect(page.getByTestId('confirm-box')).toHaveCount(0);
    await expect(page.getByTestId('rollback-error')).toHaveCount(0);
    await expectNoFrameworkText(page, 'the rollback');
    await page.getByTestId('write-result').getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('write-result')).toHaveCount(0);
    await expectNoFrameworkText(page, 'closing the rollback result');

    const audit = page.getByTestId('audit-panel');
    await expect(audit.getByTestId('audit-chain')).toContainText('Chain intact');
    const events = await audit.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => `${r.children[2]?.textContent}:${r.children[4]?.textContent}`).reverse());
    // The cancelled rollback preview is audited too (a preview that was never confirmed).
    expect(events).toEqual(['preview:ok', 'confirmation:ok', 'refusal:refused', 'commit:ok', 'preview:ok', 'preview:ok', 'confirmation:ok', 'rollback:ok']);
  });

  test('a backup this console did not sign is labelled, refused without its own checkbox, and previewed with the lesson text it would put back', async ({ page }) => {
    test.setTimeout(180_000);
    const store = path.join(console_.hiveDir, 'shared-learnings.jsonl');
    const before = sha(store);
    await page.goto(console_.launchUrl);
    await page.getByRole('link', { name: 'Hive quarantine' }).click();
    await expect(page.getByTestId('human-disabled')).toHaveCount(0);
    // The demo generator is not this console: its backup carries no signature.
    const row = page.getByTestId('backup-row').filter({ has: page.getByTestId('rollback-allow-unsigned') }).first();
    await expect(row.getByTestId('backup-trust')).toHaveText('unsigned (made before signing)', { timeout: 60_000 });
    await row.getByTestId('rollback-start').click();
    await expect(page.getByTestId('rollback-error')).toContainText('not rolled back without a separate, explicit choice');
    await expect(page.getByTestId('rollback-preview')).toHaveCount(0);
    await row.getByTestId('rollback-allow-unsigned').check();
    await row.getByTestId('rollback-start').click();
    const preview = page.getByTestId('rollback-preview');
    await expect(preview.getByTestId('rollback-trust')).toContainText('unsigned (made before signing)');
    const items = preview.getByTestId('rollback-lines').locator('li');
    await expect(items.first()).toBeVisible();
    for (const text of await items.allTextContents()) expect(text).toMatch(/^\S+: .{10,}/);
    expect(sha(store)).toBe(before);
  });

  test('a commit made by script in the page without the terminal code is refused', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(console_.launchUrl);
    await expect(page.getByTestId('status-project')).toBeVisible({ timeout: 60_000 });
    const store = path.join(console_.hiveDir, 'shared-learnings.jsonl');
    const before = sha(store);
    const id = /"id":"([^"]+)"/.exec(fs.readFileSync(store, 'utf8'))?.[1] as string;
    const preview = await scriptCall(page, 'hive.quarantine.preview', { ids: [id] });
    expect(preview.ok).toBe(true);
    const missing = await scriptCall(page, 'hive.quarantine.commit', { token: preview.value.token, reason: 'script', confirmation: {} });
    expect(missing).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('No code was issued') } });
    await scriptCall(page, 'human.beginConfirmation', { token: preview.value.token });
    const guessed = await scriptCall(page, 'hive.quarantine.commit', { token: preview.value.token, reason: 'script', confirmation: { code: '123456' } });
    expect(guessed.ok).toBe(false);
    expect(sha(store)).toBe(before);
  });
});

test.describe('hive quarantine at a console started without a terminal', () => {
  test('shows everything but disables quarantine with the reason, and refuses the calls', async ({ consolePage: page, consoleHost }) => {
    // Said from the start, on the terminal and in the status bar, not first when a button is pressed.
    await expect(page.getByTestId('status-confirmations')).toContainText('off — This console was not started from an interactive terminal');
    expect(consoleHost.output()).toContain('Human-only commands are off: This console was not started from an interactive terminal');
    expect(consoleHost.output()).not.toContain('Press Enter');
    await page.getByRole('link', { name: 'Hive quarantine' }).click();
    await expect(page.getByTestId('human-disabled')).toContainText('not started from an interactive terminal');
    await expect(page.locator('[data-testid^="pick-"]').first()).toBeVisible({ timeout: 60_000 });
    await page.locator('[data-testid^="pick-"]').first().check();
    await expect(page.getByTestId('quarantine-preview-button')).toBeDisabled();
    await expect(page.getByTestId('backup-row').first()).toBeVisible();
    for (const [name, input] of [
      ['hive.quarantine.preview', { ids: ['any'] }],
      ['hive.quarantine.commit', { token: 'skc1.a.b', reason: 'x', confirmation: { code: '123456' } }],
      ['hive.rollback.preview', { token: null }],
      ['human.beginConfirmation', { token: 'skc1.a.b' }],
    ] as const) {
      expect(await scriptCall(page, name, input)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });
});

test.describe("a project's own knowledge at a console started from a terminal", () => {
  test('the operator quarantines a swarm entry from its detail pane and restores it to its prior status', async ({ page }) => {
    test.setTimeout(240_000);
    const terminal = await startConsoleInTerminal();
    try {
      await page.goto(terminal.launchUrl);
      await expect(page.getByTestId('status-project')).toBeVisible({ timeout: 60_000 });
      await page.evaluate((id) => (location.hash = `#/knowledge?open=${id}`), DEMO_IDS.scopeEscalated);
      const detail = page.getByRole('complementary', { name: 'Entry detail' });
      await detail.getByTestId('entry-quarantine').click();
      await expect(detail.getByTestId('swarm-preview')).toContainText('knowledge-quarantined.jsonl: append 1 record');
      await detail.getByTestId('confirm-reason').fill('superseded directive');
      await detail.getByTestId('request-code').click();
      await detail.getByTestId('confirm-code').fill(await terminal.nextMatch(CODE_LINE, 0));
      await detail.getByTestId('confirm-commit').click();
      await expect(detail.getByTestId('write-result')).toContainText('Quarantined 1 entry of the project');
      await expect(detail.getByTestId('confirm-box')).toHaveCount(0);
      await expectNoFrameworkText(page, 'the swarm quarantine');
      expect(terminal.terminal()).toMatch(/Confirm quarantine of 1 entry of the project's knowledge \(token [0-9a-f]{4}…\): \d{6}/);

      // Once re-indexed, the entry shows up from the quarantine file, with Restore… offered.
      await page.evaluate(() => (location.hash = '#/knowledge'));
      await page.evaluate((id) => (location.hash = `#/knowledge?open=${id}`), DEMO_IDS.scopeEscalated);
      await expect(detail.getByTestId('entry-restore')).toBeVisible({ timeout: 60_000 });
      await detail.getByTestId('entry-restore').click();
      await expect(detail.getByTestId('swarm-preview')).toContainText('quarantined');
      await detail.getByTestId('confirm-reason').fill('back in force');
      await detail.getByTestId('request-code').click();
      await detail.getByTestId('confirm-code').fill(await terminal.nextMatch(CODE_LINE, 1));
      await detail.getByTestId('confirm-commit').click();
      await expect(detail.getByTestId('write-result')).toContainText('Restored 1 entry to their prior status');
      await expect(detail.getByTestId('confirm-box')).toHaveCount(0);
      await expectNoFrameworkText(page, 'the restore');
      await detail.getByTestId('write-result').getByRole('button', { name: 'Done' }).click();
      await expect(detail.getByTestId('write-result')).toHaveCount(0);
    } finally {
      await terminal.stop();
    }
  });
});
