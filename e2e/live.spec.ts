import { startFakeLlm, type FakeLlm } from '../testing/bridge/fake-llm';
import { GATE_ACK, GATE_DIRECTIVE_ID } from '../testing/bridge/gate-plugin';
import { OpencodeServer } from '../testing/bridge/opencode-harness';
import { opencodeBinary } from '../testing/bridge/opencode-binary';
import { RELEASED_IDS } from '../main/demo/released/ids';
import { ACKNOWLEDGED_RULE, ANSWERED_RULE } from '../renderer/src/components/ack-terms';
import { DEMO_PROJECTS, openDemoProject } from './demo-projects';
import { expect, test, SWITCH_TIMEOUT } from './fixtures';
import type { Page } from '@playwright/test';

async function openProject(page: Page, project: string): Promise<void> {
  await page.getByRole('button', { name: /Project/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch project' });
  await dialog.getByLabel('Project folder').fill(project);
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('status-project')).toHaveText(project);
}

/**
 * An operator watches a real `opencode serve` (1.18.33) from the Live view: a loopback fake model
 * answers with scripted tool calls and a test plugin denies `knowledge_probe` in
 * tool.execute.before, exactly as the swarm knowledge gate does.
 */
let llm: FakeLlm;
let server: OpencodeServer;

// Without the opencode binary every test here reports itself skipped, with the reason.
test.skip(!opencodeBinary.ok, opencodeBinary.ok ? '' : opencodeBinary.reason);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!opencodeBinary.ok) return;
  llm = await startFakeLlm();
  server = await OpencodeServer.start({ llmBaseUrl: llm.baseUrl, password: 'live-e2e' });
});

test.afterAll(async () => {
  await server?.dispose();
  await llm?.close();
});

test.describe('an operator watches gate denials live', () => {
  test('connects to a password-protected server, sees a denial with its session, tool and directive, and is told when it repeats', async ({ consolePage: page, consoleHost }) => {
    test.setTimeout(240_000);
    await page.context().grantPermissions(['notifications'], { origin: consoleHost.origin });
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Live' }).click();
    await expect(page.getByTestId('live-view')).toBeVisible();
    // the project OpenCode works in: live history belongs to the workspace it came from
    await openProject(page, server.projectDir);

    // a wrong password first: the link says so plainly
    await page.getByLabel('Server URL').fill(server.url);
    await page.getByLabel('Password').fill('not-it');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByTestId('server-state')).toHaveAttribute('data-state', 'unauthorised');
    await expect(page.getByTestId('server-state')).toContainText('unauthorised');

    await page.getByLabel('Password').fill('live-e2e');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByTestId('server-state')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
    await expect(page.getByTestId('live-server')).toContainText('opencode 1.18.33');
    await expect(page.getByTestId('live-server')).not.toContainText('live-e2e');

    // an allowed call first: it must not show up as a denial
    const session = await server.createSession('e2e gate');
    await server.prompt(session.id, `CALL knowledge_probe {"topic":"allowed","ack":"${GATE_ACK}"}`);
    await server.prompt(session.id, 'CALL knowledge_probe {"topic":"db-migrations"}');

    const row = page.getByTestId('feed-row').filter({ hasText: session.id });
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    await expect(row.getByTestId('feed-tool')).toHaveText('knowledge_probe');
    await expect(row.getByTestId('feed-directives')).toHaveText(GATE_DIRECTIVE_ID);
    await expect(row).toHaveAttribute('data-kind', 'denial');

    await row.click();
    const detail = page.getByTestId('denial-detail');
    await expect(detail.getByTestId('denial-message')).toContainText(`KNOWLEDGE_ENFORCE_GATE_DENY: knowledge_probe blocked — critical knowledge directive(s) ${GATE_DIRECTIVE_ID}`);
    await expect(detail).toContainText(session.id);
    await expect(detail.getByTestId('directive-card')).toHaveAttribute('data-directive', GATE_DIRECTIVE_ID);
    await expect(detail.getByTestId('follow-up')).toContainText('gave up');
    await expect(page.getByTestId('live-session').filter({ hasText: 'e2e gate' })).toBeVisible();
    await expect(page.getByTestId('live-counter').filter({ hasText: GATE_DIRECTIVE_ID })).toBeVisible();

    // notify at the second denial of the same tool by the same directive
    await page.getByRole('spinbutton', { name: 'Repeat threshold' }).fill('2');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await server.prompt(session.id, 'CALL knowledge_probe {"topic":"again"}');
    await expect(page.getByTestId('repeat-alert')).toContainText(`Directive ${GATE_DIRECTIVE_ID} blocked knowledge_probe 2×`, { timeout: 30_000 });
    await expect(page.getByTestId('feed-row').filter({ hasText: session.id })).toHaveCount(2);
  });

  test('switching workspaces never shows another workspace’s history', async ({ consolePage: page }) => {
    test.setTimeout(240_000);
    // the demo ran first: its logged denials are in this user-data's feed database now
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Live' }).click();
    await expect(page.locator('[data-testid="feed-row"][data-kind="denial"]').first()).toBeVisible();
    await expect(page.getByTestId('live-counter').first()).toBeVisible();

    // the project OpenCode works in shows none of it, and then its own denial
    await openProject(page, server.projectDir);
    await expect(page.getByTestId('feed-row')).toHaveCount(0);
    await expect(page.getByTestId('live-counter')).toHaveCount(0);
    await page.getByLabel('Server URL').fill(server.url);
    await page.getByLabel('Password').fill('live-e2e');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByTestId('server-state')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
    const session = await server.createSession('e2e switch');
    await server.prompt(session.id, 'CALL knowledge_probe {"topic":"switching"}');
    await expect(page.getByTestId('feed-row').filter({ hasText: session.id })).toHaveCount(1, { timeout: 30_000 });
    // (earlier sessions of this server may be caught up too; none of the demo's rows are here)
    await expect(page.locator('[data-testid="feed-row"]:not([data-kind="denial"])')).toHaveCount(0);

    // the released-plugin demo: only its own gate warnings, never that denial
    await page.getByRole('button', { name: /Project/ }).click();
    await page.getByRole('dialog', { name: 'Switch project' }).getByRole('button', { name: 'Demo: inventory-api', exact: true }).click();
    await expect(page.getByTestId('current-project')).toContainText('inventory-api (demo)', { timeout: SWITCH_TIMEOUT });
    await expect(page.getByTestId('feed-row')).toHaveCount(5);
    await expect(page.locator('[data-testid="feed-row"][data-kind="warn"]')).toHaveCount(5);
    await expect(page.getByTestId('feed-row').filter({ hasText: session.id })).toHaveCount(0);
    await expect(page.getByTestId('live-counter')).toHaveCount(0);

    // and back: the project's denial is still its own
    await openProject(page, server.projectDir);
    await expect(page.getByTestId('feed-row').filter({ hasText: session.id })).toHaveCount(1);
    await expect(page.locator('[data-testid="feed-row"][data-kind="warn"]')).toHaveCount(0);
  });

  test('on a project the released plugin wrote: why did the gate stop the architect, and was the directive ever answered?', async ({ consolePage: page }) => {
    await openDemoProject(page, DEMO_PROJECTS.released);
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Live' }).click();
    // 7.103.2 logs no denials (it throws them); its warn-mode gate lines are the history there is.
    const rows = page.getByTestId('feed-row');
    await expect(rows).toHaveCount(5);
    await expect(page.locator('[data-testid="feed-row"][data-kind="denial"]')).toHaveCount(0);
    const warned = rows.filter({ has: page.getByTestId('feed-directives').filter({ hasText: RELEASED_IDS.criticalEnforced }) }).first();
    await warned.click();
    const card = page.getByTestId('denial-detail').locator(`[data-testid=directive-card][data-directive="${RELEASED_IDS.criticalEnforced}"]`);
    await expect(card).toContainText('Take a fresh snapshot of the shared staging database');
    await expect(card).toContainText('priority critical');
    await expect(card.getByTestId('card-answered')).toHaveText('answered 0');
    await expect(card.getByTestId('card-answered')).toHaveAttribute('title', ANSWERED_RULE);
    await expect(card.getByTestId('card-acknowledged')).toHaveText('acknowledged 0');
    await expect(card.getByTestId('card-acknowledged')).toHaveAttribute('title', ACKNOWLEDGED_RULE);
    await expect(card.getByTestId('directive-receipts')).toContainText('displays 20');
  });
});
