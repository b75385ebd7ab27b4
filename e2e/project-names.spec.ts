import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hiveEntry, lines, swarmEntryV1 } from '../testing/stores/sample-records';
import { expect, test } from './fixtures';

/**
 * A project the plugin knows under two names, as it writes them: its own entries carry the plan
 * title as project_name, a lesson it promoted with `/swarm promote "<text>"` carries the folder name
 * as source_project in the hive, and an auto-promoted one carries the plan title again.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-project-names-'));
const project = path.join(root, 'billing-api');
const hive = path.join(root, 'opencode-swarm');
const title = 'Billing API hardening';
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
fs.mkdirSync(path.join(project, '.swarm'), { recursive: true });
fs.mkdirSync(hive, { recursive: true });
fs.writeFileSync(
  path.join(project, '.swarm', 'knowledge.jsonl'),
  lines([
    swarmEntryV1({ id: id(1), project_name: title, lesson: 'Pin the payment SDK to an exact version before a release branch is cut.' }),
    swarmEntryV1({ id: id(2), project_name: title, lesson: 'Replay the webhook fixtures after every change to the signature check.' }),
  ]),
);
fs.writeFileSync(
  path.join(hive, 'shared-learnings.jsonl'),
  lines([
    hiveEntry({ id: id(3), source_project: 'billing-api', lesson: 'Keep refunds idempotent by keying them on the provider refund id.' }),
    hiveEntry({ id: id(4), source_project: title, lesson: 'Run the ledger reconciliation test before merging any rounding change.' }),
    hiveEntry({ id: id(5), source_project: 'web-storefront', lesson: 'Escape merchant display names before they reach the receipt template.' }),
  ]),
);

test.use({ consoleOptions: { project, hive } });
test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test('an operator sees one project under its two names grouped in the Project facet, and filters by it', async ({ consolePage: page }) => {
  await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/knowledge'));
  await expect(page.getByTestId('entry-count')).toHaveText(/^5 entries/);
  const facet = page.getByRole('complementary', { name: 'Facets' }).getByRole('group', { name: 'Project' });
  const group = facet.getByTestId('project-group');
  await expect(group.getByRole('checkbox', { name: /^this project \(billing-api\)\s*4$/ })).toBeVisible();
  await expect(group.getByRole('checkbox', { name: new RegExp(`^${title}\\s*3$`) })).toBeVisible();
  await expect(group.getByRole('checkbox', { name: /^billing-api\s*1$/ })).toBeVisible();
  await expect(group.getByTestId('project-group-why')).toContainText('the plan title on its own entries, the folder name on hive entries');
  // The other project stays apart.
  await expect(facet.getByRole('checkbox', { name: /^web-storefront\s*1$/ })).toBeVisible();
  await expect(group.getByRole('checkbox', { name: /web-storefront/ })).toHaveCount(0);

  await group.getByRole('checkbox', { name: /^this project/ }).check();
  await expect(page).toHaveURL(/project=Billing(\+|%20)API(\+|%20)hardening%2Cbilling-api|project=billing-api%2CBilling/);
  await expect(page.getByTestId('entry-count')).toHaveText(/^4 entries/);
  await group.getByRole('checkbox', { name: /^this project/ }).uncheck();
  await expect(page.getByTestId('entry-count')).toHaveText(/^5 entries/);
});
