import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { swarmEntryV2 } from '../testing/stores/sample-records';
import { expect, test } from './fixtures';

// Issue 10 item 8, as an operator meets it: a cloned project whose store is a symlink out of the
// workspace is not read (and says so), unless the operator opens it allowing exactly that.

test('a store symlinked out of the workspace is shown as not read, and read only when the operator allows it', async ({ consolePage: page }) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-symlinks-'));
  const project = path.join(root, 'cloned-repo');
  const hive = path.join(root, 'hive');
  const outside = path.join(root, 'elsewhere', 'store.jsonl');
  fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
  fs.mkdirSync(hive);
  fs.mkdirSync(path.dirname(outside));
  const entry = swarmEntryV2({ id: 'outside-entry', lesson: 'Lesson kept outside the workspace, read only when allowed' }) as { lesson: string };
  fs.writeFileSync(outside, `${JSON.stringify(entry)}\n`);
  fs.symlinkSync(outside, path.join(project, '.swarm', 'knowledge.jsonl'));

  const open = async (allow: boolean) => {
    await page.getByRole('button', { name: /Project/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch project' });
    await dialog.getByLabel('Project folder').fill(project);
    await dialog.getByLabel('Hive folder (optional)').fill(hive);
    await dialog.getByLabel('Read store files symlinked outside the project and hive').setChecked(allow);
    await dialog.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('status-project')).toHaveText(project);
  };

  await open(false);
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Knowledge' }).click();
  const banner = page.getByTestId('defects-knowledge');
  await expect(banner).toContainText(`symlink outside the workspace — not read (it leads to ${outside})`);
  await expect(page.getByText(entry.lesson)).toHaveCount(0);

  await open(true);
  await expect(page.getByText(entry.lesson).first()).toBeVisible();
  await expect(banner).toHaveCount(0);
  fs.rmSync(root, { recursive: true, force: true });
});
