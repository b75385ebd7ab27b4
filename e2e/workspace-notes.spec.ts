import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, SWITCH_TIMEOUT } from './fixtures';

/**
 * A linked worktree that still holds the local knowledge.jsonl it had before `/swarm link`, and the
 * plugin data folder `<share>/opencode-swarm` that holds its link store. The console is started
 * with `--hive <share>`: the folder *above* the data folder, a mistake that used to fail silently.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hive-notes-'));
const share = path.join(root, 'share');
const dataDir = path.join(share, 'opencode-swarm');
const project = path.join(root, 'worktree');
const emptyHive = path.join(root, 'empty');
fs.mkdirSync(path.join(dataDir, 'links', 'team'), { recursive: true });
fs.writeFileSync(path.join(dataDir, 'shared-learnings.jsonl'), '');
fs.writeFileSync(path.join(dataDir, 'links', 'team', 'knowledge.jsonl'), '');
fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
fs.writeFileSync(path.join(project, '.swarm', 'link.json'), JSON.stringify({ version: 1, linkId: 'team', createdAt: '2026-01-01T00:00:00Z', source: 'manual' }, null, 2));
fs.writeFileSync(path.join(project, '.swarm', 'knowledge.jsonl'), '');
fs.mkdirSync(emptyHive);

test.use({ consoleOptions: { project, hive: share } });
test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test.describe('an operator who named the wrong hive folder', () => {
  test('is told "no hive here" by serve and the status bar, and fixes it in one click', async ({ consolePage: page, consoleHost }) => {
    expect(consoleHost.output()).toContain(`Hive: no hive here: ${share} holds the plugin's data folder ${dataDir}`);
    const note = page.getByTestId('status-hive-check');
    await expect(note).toContainText('no hive here');
    await expect(page.getByTestId('status-link-missing')).toContainText('no link store under this hive');
    await note.getByRole('button', { name: 'use …/share/opencode-swarm' }).click();

    await expect(page.getByTestId('status-hive')).toHaveText(dataDir);
    await expect(page.getByTestId('status-hive-check')).toHaveCount(0);
    await expect(page.getByTestId('status-link-missing')).toHaveCount(0);
    // Now the link store is found, and the local copy from before `/swarm link` is named as ignored.
    await expect(page.getByTestId('status-bar')).toContainText('Link team');
    await expect(page.getByTestId('orphaned-local')).toContainText('ignored local .swarm/knowledge.jsonl (orphaned)');
  });

  test('reads "no hive here" in the switcher for an empty folder, and takes the data folder it offers for the folder above', async ({ consolePage: page }) => {
    const dialog = page.getByRole('dialog', { name: 'Switch project' });
    const openFolder = async (hive: string) => {
      await dialog.getByLabel('Project folder').fill(project);
      await dialog.getByLabel('Hive folder (optional)').fill(hive);
      await dialog.getByRole('button', { name: 'Open', exact: true }).click();
    };
    await page.getByRole('button', { name: /Project/ }).click();
    await openFolder(emptyHive);
    await expect(page.getByTestId('status-hive')).toHaveText(emptyHive);
    await expect(page.getByTestId('status-hive-check')).toContainText('no hive here');
    await page.getByRole('button', { name: /Project/ }).click();
    await expect(dialog.getByTestId('switcher-hive-note')).toContainText('no hive here');
    await expect(dialog.getByTestId('switcher-hive-note')).toHaveAttribute('title', /holds no shared-learnings\.jsonl/);

    // The folder above the data folder: the switcher stays open with the fix one click away.
    await openFolder(share);
    await expect(page.getByTestId('status-hive')).toHaveText(share);
    await dialog.getByTestId('switcher-hive-note').getByRole('button', { name: 'use …/share/opencode-swarm' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('status-hive')).toHaveText(dataDir);
    await expect(page.getByTestId('orphaned-local')).toBeVisible();
  });
});

test.describe('an operator on a linked worktree', () => {
  test.use({ consoleOptions: {} });

  test('sees the orphaned local knowledge.jsonl where the tier is shown, as inspect reports it', async ({ consolePage: page }) => {
    await page.getByRole('button', { name: /Project/ }).click();
    await page.getByRole('dialog', { name: 'Switch project' }).getByRole('button', { name: 'Demo: payments-worker' }).click();
    await expect(page.getByTestId('status-bar')).toContainText('Link payments-cohort', { timeout: SWITCH_TIMEOUT });
    await expect(page.getByTestId('orphaned-local')).toContainText('.swarm/knowledge.jsonl');
    const tierNote = page.getByRole('group', { name: 'Tier' }).getByTestId('orphaned-tier-note');
    await expect(tierNote).toContainText(/\.swarm\/knowledge\.jsonl: [1-9]\d* records? ignored while linked to payments-cohort/);
  });
});
