import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { DEMO_IDS } from '../main/demo/ids';
import { RELEASED_IDS } from '../main/demo/released/ids';
import { ACKNOWLEDGED_RULE, ANSWERED_RULE } from '../renderer/src/components/ack-terms';
import { generateDemoWorkspace } from '../main/demo/generate';
import { startConsole } from './console-host';
import { DEMO_PROJECTS, openDemoProject } from './demo-projects';
import { expect, test } from './fixtures';

async function openReceipts(page: Page, query = '') {
  await page.evaluate((hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash), `#/receipts${query ? `?${query}` : ''}`);
  await expect(page.getByTestId('area-title')).toHaveText('Receipts');
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

test.describe('an operator checks whether the agent honoured what it was shown', () => {
  test('answers: which critical directives were shown in phase 4 and never answered, and did the gate release them or did the agent answer?', async ({ consolePage: page }) => {
    await openReceipts(page);

    // The ledger verifies before anything else is believed.
    const integrity = page.getByTestId('receipt-integrity');
    await expect(integrity).toHaveAttribute('data-verdict', 'ok');
    await integrity.getByTestId('integrity-details').click();
    await expect(integrity.getByTestId('integrity-journal')).toHaveAttribute('data-state', 'ok');
    await expect(integrity.getByTestId('integrity-journal').getByTestId('file-reason')).toContainText(/^ok — \d+ records verified/);
    await expect(integrity.getByTestId('integrity-snapshot').getByTestId('file-reason')).toContainText('matches a rebuild from the journal');
    await expect(integrity.getByTestId('integrity-quarantine')).toHaveAttribute('data-state', 'ok');

    // Phase 4's ack-required directives: one never answered, one released by the gate, the rest answered.
    await page.getByTestId('phase-filter').selectOption('Phase 4');
    await expect(page).toHaveURL(/phase=Phase(\+|%20)4/);
    const obligations = page.getByTestId('obligations');
    await expect(obligations.getByTestId('obligations-summary')).toContainText('1 still open (no answer to that display)');
    await expect(obligations.getByTestId('obligations-summary')).toContainText('(1 of them only after a gate release)');
    const open = obligations.locator(`[data-testid=obligation][data-entry="${DEMO_IDS.openObligation}"]`);
    await expect(open).toHaveAttribute('data-status', 'open');
    await expect(open.getByTestId('open-for')).toHaveText(/\d+d \d+h|\d+h \d+m/);
    await expect(open.getByTestId('answer')).toHaveCount(0);
    await expect(open.getByTestId('closed-unresolved')).toHaveText('phase closed with it unresolved (no verdict)');
    await expect(open).toContainText('denied 2/5');

    const released = obligations.locator(`[data-testid=obligation][data-entry="${DEMO_IDS.panReleased}"]`).first();
    await expect(released.getByTestId('release')).toContainText('denial-limit release');
    await expect(released.getByTestId('release')).toContainText('denials 5/5');
    await expect(released.getByTestId('release')).toContainText('nonterminal: not an answer, never counted as application');
    await expect(released.getByTestId('answer')).toContainText('by phase override');
    await expect(released.getByTestId('answer')).toContainText('answered after the gate had released it');
    await expect(obligations.getByTestId('escape-hatches')).toContainText('max_gate_denials 5, gate_staleness_ms 600000');

    // The traces behind it: exact displayed set, who answered, and audit-only events shown as such.
    await page.getByTestId('tab-traces').click();
    const traces = page.getByTestId('traces');
    await expect(traces.getByTestId('trace').first()).toBeVisible();
    await expect(traces.getByTestId('traces-count')).toContainText('traces');
    const openEntry = traces.locator(`[data-testid=trace-entry][data-entry="${DEMO_IDS.openObligation}"][data-status=open]`);
    await expect(openEntry).toContainText('no answer yet');
    await expect(traces.getByTestId('audit').first()).toContainText('audit only');
    await traces.getByLabel('Outcome').selectOption('released');
    await expect(page).toHaveURL(/outcome=released/);
    const releasedEntry = traces.locator(`[data-testid=trace-entry][data-entry="${DEMO_IDS.panReleased}"]`).first();
    await expect(releasedEntry.getByTestId('release')).toContainText('denial-limit release');
    await expect(releasedEntry.getByTestId('terminal')).toContainText('phase override');

    // Per directive: shown → answered → outcome → after-shown results, beside the plugin's acknowledged count.
    await page.getByTestId('tab-funnel').click();
    await expect(page.getByRole('columnheader', { name: 'Answered' })).toHaveAttribute('title', ANSWERED_RULE);
    await expect(page.getByRole('columnheader', { name: 'Acknowledged' })).toHaveAttribute('title', ACKNOWLEDGED_RULE);
    const row = page.locator(`[data-testid=funnel-row][data-entry="${DEMO_IDS.panReleased}"]`);
    await row.click();
    await expect(page.getByTestId('funnel-source').first()).toContainText('V2 journal');

    // Phase summaries: phase 4 closed and in its grace period, phase 5 still open.
    await page.getByTestId('tab-phases').click();
    await expect(page.locator('[data-testid=phase-row][data-phase="Phase 4"]').getByTestId('phase-state')).toHaveText('closed, in grace period');
    await expect(page.locator('[data-testid=phase-row][data-phase="Phase 5"]').getByTestId('phase-state')).toHaveText('open');

    // Sources: the V2 files and every legacy log.
    await page.getByTestId('tab-sources').click();
    await expect(page.getByTestId('source-row')).toHaveCount(8);
    await expect(page.locator('[data-testid=source-row][data-source=knowledge-application]')).toContainText('stored as "acknowledged"');
  });

  test('answers the same on a project the released plugin wrote: which critical directives were shown and never answered?', async ({ consolePage: page }) => {
    await openDemoProject(page, DEMO_PROJECTS.released);
    await openReceipts(page);
    // No V2 receipt files: normal for the released plugin, nothing to verify.
    await expect(page.getByTestId('receipt-integrity')).toHaveAttribute('data-verdict', 'ok');

    const obligations = page.getByTestId('obligations');
    const never = obligations.getByTestId('never-answered-item');
    await expect(never).toHaveCount(2);
    const enforced = obligations.locator(`[data-testid=never-answered-item][data-entry="${RELEASED_IDS.criticalEnforced}"]`);
    await expect(enforced.getByTestId('never-answered-displays')).toHaveText('20');
    await expect(enforced).toContainText('enforce');
    await expect(enforced).toContainText(/gate warnings? in events\.jsonl/);
    await expect(enforced.getByTestId('derived')).toHaveText('derived from legacy logs');
    await expect(obligations.locator(`[data-testid=never-answered-item][data-entry="${RELEASED_IDS.criticalUnanswered}"]`).getByTestId('never-answered-displays')).toHaveText('15');
    await expect(obligations.getByTestId('escape-hatches')).toContainText('has no gate escape hatch');
    // A directive answered with legacy markers is not among them, and its answered displays say how.
    await expect(obligations.locator(`[data-testid=never-answered-item][data-entry="${RELEASED_IDS.criticalApplied}"]`)).toHaveCount(0);
    await expect(obligations.locator(`[data-testid=obligation][data-entry="${RELEASED_IDS.criticalApplied}"][data-status=answered]`).first().getByTestId('answer')).toContainText('applied');

    // Traces and Funnel show the priority, derived from the knowledge entry.
    await page.getByTestId('tab-traces').click();
    const traceEntry = page.locator(`[data-testid=trace-entry][data-entry="${RELEASED_IDS.criticalUnanswered}"]`).first();
    await expect(traceEntry.getByTestId('trace-priority')).toHaveText('critical');
    await expect(traceEntry.getByTestId('derived')).toBeVisible();

    await page.getByTestId('tab-funnel').click();
    const row = page.locator(`[data-testid=funnel-row][data-entry="${RELEASED_IDS.criticalEnforced}"]`);
    await expect(row.getByTestId('funnel-priority')).toHaveText('critical');
    await expect(row.getByTestId('derived')).toBeVisible();
    await expect(row.getByTestId('funnel-answered')).toHaveText('0');
    await expect(row.getByTestId('funnel-acknowledged')).toHaveText('0');
    const applied = page.locator(`[data-testid=funnel-row][data-entry="${RELEASED_IDS.criticalApplied}"]`);
    await expect(applied.getByTestId('funnel-answered')).toHaveText('7');
    await expect(applied.getByTestId('funnel-acknowledged')).toHaveText('0');

    // Phases: completion comes from the legacy outcome events; the current phase (5) has none yet.
    await page.getByTestId('tab-phases').click();
    await expect(page.locator('[data-testid=phase-row][data-phase="Phase 1"]').getByTestId('phase-state')).toHaveText('completed (outcome events)');
    await expect(page.locator('[data-testid=phase-row][data-phase="Phase 2"]')).toContainText('outcome: failure');
    await expect(page.locator('[data-testid=phase-row][data-phase="Phase 4"]').getByTestId('phase-state')).toHaveText('completed (outcome events)');
    await expect(page.locator('[data-testid=phase-row][data-phase="Phase 5"]').getByTestId('phase-state')).toHaveText('not completed yet (no close record, no outcome events)');
  });

  test('sees exactly where a corrupted journal breaks, live, and the console never touches it', async ({ page }) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-receipts-'));
    const project = path.join(root, 'billing-api');
    generateDemoWorkspace({ projectDir: project, hiveDir: path.join(root, 'hive'), seed: 42 });
    const journal = path.join(project, '.swarm', 'knowledge-receipts-v2.jsonl');
    const host = await startConsole({ project, hive: path.join(root, 'hive') });
    try {
      await page.goto(host.launchUrl);
      await openReceipts(page);
      const integrity = page.getByTestId('receipt-integrity');
      await expect(integrity).toHaveAttribute('data-verdict', 'ok');

      // A byte flips in the middle of the journal while the view is open.
      const lines = fs.readFileSync(journal, 'utf8').split('\n');
      const target = Math.floor((lines.length - 1) / 2);
      const line = lines[target] as string;
      const at = line.indexOf('"ts":"') + 8;
      lines[target] = line.slice(0, at) + (line[at] === '1' ? '2' : '1') + line.slice(at + 1);
      fs.writeFileSync(journal, lines.join('\n'));
      const offset = Buffer.byteLength(lines.slice(0, target).join('\n')) + 1;
      const before = sha256(journal);

      await expect(integrity).toHaveAttribute('data-verdict', 'corrupt');
      const file = integrity.getByTestId('integrity-journal');
      await expect(file).toHaveAttribute('data-state', 'corrupt');
      await expect(file.getByTestId('break-line')).toHaveText(String(target + 1));
      await expect(file.getByTestId('break-offset')).toHaveText(String(offset));
      await expect(file.getByTestId('break-found')).toHaveText(JSON.parse(line).hash);
      await expect(file.getByTestId('break-expected')).toHaveText(/^[0-9a-f]{64}$/);
      await expect(file.getByTestId('recovery-journal')).toContainText('repair_knowledge_receipt_ledger with phase');
      await expect(integrity.getByTestId('integrity-snapshot')).toHaveAttribute('data-state', 'stale');
      await expect(page.getByTestId('prefix-notice')).toContainText(`Records from line ${target + 1} on are not shown`);

      // Reloading verifies again and still only reads.
      await page.reload();
      await openReceipts(page);
      await expect(page.getByTestId('receipt-integrity')).toHaveAttribute('data-verdict', 'corrupt');
      expect(sha256(journal)).toBe(before);
    } finally {
      await host.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
