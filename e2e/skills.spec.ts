import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoFrameworkText } from './framework-text';
import { startConsoleInTerminal, type TerminalConsole } from './pty-console';

const CODE_LINE = /Confirm [^\n]*\(token [0-9a-f]{4}…\): (\d{6})/;

const HOSTILE = [
  '---',
  'name: hostile-render',
  'description: A draft whose body tries everything',
  'source_knowledge_ids:',
  '  - k-hostile',
  'generated_at: "2026-11-30T10:00:00.000Z"',
  'status: draft',
  '---',
  '',
  '# Hostile draft',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '',
  '[click me](javascript:window.__pwned=\'link\')',
  '',
  '![tracker](https://tracker.example.invalid/pixel.png)',
  '',
  '<a href="https://example.invalid/" target="_blank">plain link</a>',
  '',
].join('\n');

async function openSkills(page: Page, params = ''): Promise<void> {
  await page.goto(`${new URL(page.url()).origin}/#/skills${params}`);
  await expect(page.getByTestId('skills-view')).toBeVisible();
}

test.describe('skills at a console started from a terminal (demo workspace)', () => {
  let console_: TerminalConsole;
  let project: string;
  test.beforeEach(async () => {
    console_ = await startConsoleInTerminal();
    project = /project (\S+?)(?: \(demo\))?, hive /.exec(console_.terminal())?.[1] ?? '';
    expect(fs.existsSync(path.join(project, '.swarm'))).toBe(true);
  });
  test.afterEach(async () => {
    await console_.stop();
  });

  test('the operator reviews a revised draft: rendered text, diff against the active skill, eval side by side, sources and logs', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(console_.launchUrl);
    await page.getByRole('link', { name: 'Skills' }).click();
    await page.getByTestId('skills-tab-skills').click();
    await page.getByTestId('kind-draft').click();
    await page.getByTestId('skill-proposal:scope-discipline').click();
    const review = page.getByTestId('skill-review');
    await expect(review.getByTestId('skill-rendered')).toContainText('Declare scope before coder delegation');
    await review.getByTestId('pane-diff').click();
    await expect(review.locator('.diff-add')).toContainText(['3. compare the diff against the declared globs before review']);
    await expect(review.locator('.diff-del').first()).toBeVisible();
    await review.getByTestId('pane-eval').click();
    await expect(review.getByTestId('eval-status')).toHaveText('passed');
    await expect(review.getByTestId('eval-case')).toHaveCount(3);
    await expect(review.getByTestId('eval-case').nth(2)).toContainText('strictly better');
    await review.getByTestId('pane-sources').click();
    await expect(review.getByTestId('skill-sources')).toContainText('eligible');
    await review.getByTestId('pane-rejected').click();
    await expect(review.getByTestId('skill-rejected-edits')).toContainText('skill_apply');
    await review.getByTestId('pane-logs').click();
    await expect(review.getByTestId('skill-usage')).toBeVisible();
    // The selection is in the URL.
    expect(page.url()).toContain('slug=scope-discipline');

    await page.getByTestId('kind-motif').click();
    await page.getByTestId('skill-proposal:workflow-refund-endpoint').click();
    await expect(page.getByTestId('motif-flag')).toContainText('activates it without stamping any entry');

    await page.getByTestId('skills-tab-improver').click();
    await expect(page.getByTestId('improver-source')).toHaveText(['LLM analysis', 'deterministic fallback — not an LLM analysis']);
    await expect(page.getByTestId('improver-quotas')).toContainText('3/10 calls');
    await page.getByTestId('skills-tab-curator').click();
    await expect(page.getByTestId('curator-recommendation')).toHaveCount(5);
    await expect(page.getByTestId('drift-report')).toHaveCount(2);
  });

  test('a hostile SKILL.md renders inert: no script, no handler, no live link, no remote image', async ({ page }) => {
    test.setTimeout(120_000);
    fs.writeFileSync(path.join(project, '.swarm', 'skills', 'proposals', 'hostile-render.md'), HOSTILE);
    const remote: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(console_.origin)) remote.push(r.url());
    });
    await page.goto(console_.launchUrl);
    await openSkills(page, '?tab=skills&slug=hostile-render&at=proposal');
    await expect(page.getByTestId('skill-review-title')).toContainText('hostile-render');
    const rendered = page.getByTestId('skill-rendered');
    await expect(rendered).toContainText('Hostile draft');
    expect(await rendered.locator('script, [onerror], [href^="javascript:"], img, iframe').count()).toBe(0);
    expect(await rendered.locator('a[href]').count()).toBe(0);
    await expect(rendered.locator('.inert-link').first()).toHaveAttribute('title', /link not followed: javascript:/);
    await expect(rendered).toContainText('[image not loaded: tracker — https://tracker.example.invalid/pixel.png]');
    await rendered.getByText('click me').click();
    await rendered.getByText('plain link').click();
    expect(page.url()).toContain('/#/skills');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned ?? null)).toBeNull();
    expect(remote).toEqual([]);
  });

  test('the operator applies a draft with the terminal code, sees the active skill and the stamped entries; over a hand-edited skill apply is refused without force', async ({ page }) => {
    test.setTimeout(240_000);
    const knowledge = path.join(project, '.swarm', 'knowledge.jsonl');
    await page.goto(console_.launchUrl);
    await openSkills(page, '?tab=skills&slug=pan-masking&at=proposal');
    await expect(page.getByTestId('skill-review-title')).toContainText('pan-masking');
    const handEdited = path.join(project, '.opencode', 'skills', 'generated', 'pan-masking', 'SKILL.md');
    const handBefore = fs.readFileSync(handEdited, 'utf8');
    await page.getByTestId('apply-preview').click();
    await expect(page.getByTestId('apply-refusal')).toContainText('active SKILL.md is not generator-stamped (manual edit suspected)');
    await page.getByTestId('apply-force').check();
    await page.getByTestId('apply-preview').click();
    await expect(page.getByTestId('force-warning')).toContainText('FORCE');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(fs.readFileSync(handEdited, 'utf8')).toBe(handBefore);

    await openSkills(page, '?tab=skills&slug=secret-hygiene&at=proposal');
    await expect(page.getByTestId('skill-review-title')).toContainText('secret-hygiene');
    await page.getByTestId('apply-preview').click();
    const confirmation = page.getByTestId('apply-confirmation');
    await expect(confirmation.getByTestId('apply-plan')).toContainText('Would write .opencode/skills/generated/secret-hygiene/SKILL.md');
    await expect(confirmation.getByTestId('eval-status')).toHaveText('passed');
    await page.getByTestId('confirm-reason').fill('reviewed the secret-hygiene draft');
    await page.getByTestId('request-code').click();
    const code = await console_.nextMatch(CODE_LINE, 0);
    expect(console_.terminal()).toMatch(/Confirm skill apply of secret-hygiene \(token/);
    await page.getByTestId('confirm-code').fill(code);
    await page.getByTestId('confirm-commit').click();
    const result = page.getByTestId('skill-result');
    await expect(result).toContainText('Done');
    await expect(result.getByTestId('result-stamped')).toHaveText('stamped: true');
    await expect(result.getByTestId('result-written')).toContainText('.opencode/skills/generated/secret-hygiene/SKILL.md');
    await expect(result).toContainText('Read back and verified');
    await expect(result).toBeFocused();
    // The draft is gone: its pane says where it went instead of failing to re-read it.
    await expect(page.getByTestId('applied-note')).toContainText('Applied — the draft is now the active skill secret-hygiene');
    await expect(page.getByText('Could not load')).toHaveCount(0);
    await expect(page.getByTestId('apply-confirmation')).toHaveCount(0);
    await expectNoFrameworkText(page, 'the apply');
    await page.getByTestId('applied-link').click();
    await expect(page.getByTestId('skill-review-title')).toContainText('secret-hygiene');
    expect(page.url()).toContain('at=active');
    expect(fs.readFileSync(path.join(project, '.opencode', 'skills', 'generated', 'secret-hygiene', 'SKILL.md'), 'utf8')).toMatch(/^status: active$/m);
    expect(fs.existsSync(path.join(project, '.swarm', 'skills', 'proposals', 'secret-hygiene.md'))).toBe(false);
    const stamped = fs.readFileSync(knowledge, 'utf8').split('\n').filter((l) => l.includes('"generated_skill_slug":"secret-hygiene"'));
    expect(stamped).toHaveLength(2);

    // The active skill is listed, and its source entries show the stamp once the stores are re-read.
    await openSkills(page, '?tab=skills&kind=active&slug=secret-hygiene&at=active&pane=sources');
    await expect(page.getByTestId('skill-active:secret-hygiene')).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('skill-sources')).toContainText('stamped for secret-hygiene', { timeout: 5_000 });
    }).toPass({ timeout: 90_000 });

    // And the operator retires it again: one result state, Done closes it.
    await page.getByTestId('retire-preview').click();
    await expect(page.getByTestId('retire-confirmation')).toContainText('Retire secret-hygiene');
    await page.getByTestId('confirm-reason').fill('superseded by the platform secret scanner');
    await page.getByTestId('request-code').click();
    await page.getByTestId('confirm-code').fill(await console_.nextMatch(CODE_LINE, 1));
    await page.getByTestId('confirm-commit').click();
    const retired = page.getByTestId('skill-result');
    await expect(retired.getByTestId('result-written')).toContainText('retired.marker');
    await expect(page.getByTestId('retire-confirmation')).toHaveCount(0);
    expect(fs.existsSync(path.join(project, '.opencode', 'skills', 'generated', 'secret-hygiene', 'retired.marker'))).toBe(true);
    await expectNoFrameworkText(page, 'the retire');
    await retired.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('skill-result')).toHaveCount(0);
    await expectNoFrameworkText(page, 'closing the retire result');
  });

  test('the operator rejects a draft from the review queue by keyboard', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(console_.launchUrl);
    await openSkills(page, '?tab=queue&kinds=skill_draft');
    await expect(page.getByTestId('queue-kind-skill_draft')).toContainText('6');
    const items = page.getByTestId('queue-item');
    await expect(items).toHaveCount(6);
    const keys = await items.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
    const target = keys.indexOf('skill:idempotent-refunds');
    expect(target).toBeGreaterThanOrEqual(0);
    await page.getByTestId('queue-list').focus();
    for (let i = 0; i < target; i++) await page.keyboard.press('j');
    await expect(page.locator('.queue-item.current')).toHaveAttribute('data-key', 'skill:idempotent-refunds');
    await page.keyboard.press('s');
    await expect(items.last()).toHaveAttribute('data-key', 'skill:idempotent-refunds');
    for (let i = 0; i < 6; i++) await page.keyboard.press('j');
    await expect(page.locator('.queue-item.current')).toHaveAttribute('data-key', 'skill:idempotent-refunds');

    await page.keyboard.press('r');
    await expect(page.getByTestId('reject-confirmation')).toContainText('Reject the draft idempotent-refunds');
    await expect(page.getByTestId('confirm-reason')).toBeFocused();
    await page.keyboard.type('keys derived from Date.now() are listed as forbidden but the eval still fails');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('request-code')).toBeFocused();
    await page.keyboard.press('Enter');
    const code = await console_.nextMatch(CODE_LINE, 0);
    // The field is enabled once the page knows the code was printed; typed earlier, keys are lost.
    await expect(page.getByTestId('confirm-code')).toBeEnabled();
    await page.getByTestId('confirm-code').focus();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('skill-result')).toContainText('Appended an operator_reject record');
    await expect(page.getByTestId('skill-result')).toBeFocused();
    await expectNoFrameworkText(page, 'the reject');
    const ledger = fs.readFileSync(path.join(project, '.swarm', 'skills', 'rejected-edits.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(ledger.at(-1) as string)).toMatchObject({ slug: 'idempotent-refunds', operation: 'operator_reject', reason: 'keys derived from Date.now() are listed as forbidden but the eval still fails' });
    expect(fs.existsSync(path.join(project, '.swarm', 'skills', 'proposals', 'idempotent-refunds.md'))).toBe(true);
    await expect(items).toHaveCount(5);
    await expect(page.getByTestId('queue-kind-skill_draft')).toContainText('5');
  });
  test('the review queue keeps its place by keyboard: open an item, Esc back to it, skips kept, decide from the opened item and come back to the next one', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(console_.launchUrl);
    await openSkills(page, '?tab=queue&kinds=skill_draft');
    const items = page.getByTestId('queue-item');
    await expect(items).toHaveCount(6);
    const progress = page.getByTestId('queue-progress');
    const current = page.locator('.queue-item.current');
    await expect(progress).toHaveText('1 of 6 · decided 0 · skipped 0');
    await page.getByTestId('queue-list').focus();
    await page.keyboard.press('j');
    const skippedKey = (await current.getAttribute('data-key')) as string;
    // s moves the item to the end and the place on to the next one.
    await page.keyboard.press('s');
    await expect(items.last()).toHaveAttribute('data-key', skippedKey);
    await expect(progress).toHaveText('2 of 6 · decided 0 · skipped 1');
    const openedKey = (await current.getAttribute('data-key')) as string;
    expect(openedKey).not.toBe(skippedKey);
    const slug = openedKey.replace(/^skill:/, '');

    // Enter opens the item in Skills & drafts with the keyboard on it, not on <body>.
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('skill-review-title')).toContainText(slug);
    await expect(page.getByTestId('skill-item')).toBeFocused();
    await expect(page.getByTestId('from-queue')).toBeVisible();
    // Esc returns to the queue at the same item, with the skip kept.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('review-queue')).toBeVisible();
    await expect(page.getByTestId('queue-list')).toBeFocused();
    await expect(current).toHaveAttribute('data-key', openedKey);
    await expect(items.last()).toHaveAttribute('data-key', skippedKey);
    await expect(progress).toHaveText('2 of 6 · decided 0 · skipped 1');
    // Back from an opened item returns to the queue too (not to another area), at the same place.
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('skill-item')).toBeFocused();
    await page.goBack();
    await expect(page.getByTestId('area-title')).toHaveText('Skills');
    await expect(current).toHaveAttribute('data-key', openedKey);
    await expect(progress).toHaveText('2 of 6 · decided 0 · skipped 1');

    // Decide from the opened item: r, the reason, the code; the result keeps the keyboard; Esc goes back to the next item.
    await page.getByTestId('queue-list').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('skill-item')).toBeFocused();
    await page.keyboard.press('r');
    await expect(page.getByTestId('reject-confirmation')).toContainText(`Reject the draft ${slug}`);
    await expect(page.getByTestId('confirm-reason')).toBeFocused();
    await page.keyboard.type('the operator keeps the current practice');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('request-code')).toBeFocused();
    await page.keyboard.press('Enter');
    const code = await console_.nextMatch(CODE_LINE, 0);
    await expect(page.getByTestId('confirm-code')).toBeEnabled();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('confirm-code')).toBeFocused();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('skill-result')).toContainText('Appended an operator_reject record');
    await expect(page.getByTestId('skill-result')).toBeFocused();
    await expectNoFrameworkText(page, 'a reject from the opened item');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('queue-list')).toBeFocused();
    await expect(items).toHaveCount(5);
    await expect(page.locator(`[data-testid=queue-item][data-key="${openedKey}"]`)).toHaveCount(0);
    await expect(progress).toHaveText('2 of 5 · decided 1 · skipped 1');
    // j/k work at once, and the skipped item is still last.
    await page.keyboard.press('j');
    await expect(progress).toHaveText('3 of 5 · decided 1 · skipped 1');
    await expect(items.last()).toHaveAttribute('data-key', skippedKey);
    await expectNoFrameworkText(page, 'returning to the queue');
  });

  test('from the review queue a curator recommendation opens the human-only command that carries it out', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(console_.launchUrl);
    await openSkills(page, '?tab=queue&kinds=curator_recommendation,hive_contradiction');
    const items = page.getByTestId('queue-item');
    await expect(items.first()).toBeVisible({ timeout: 60_000 });
    const commands = await items.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-command')));
    const target = commands.findIndex((c) => c);
    expect(target).toBeGreaterThanOrEqual(0);
    await page.getByTestId('queue-list').focus();
    for (let i = 0; i < target; i++) await page.keyboard.press('j');
    await page.keyboard.press('a');
    const panel = page.getByTestId('command-panel');
    await expect(panel.getByTestId('confirm-box')).toBeVisible();
    await expect(page.getByTestId('confirm-reason')).toBeFocused();
    // A recommendation without a command has nothing to approve: `a` marks it reviewed (console data only).
    const plain = commands.findIndex((c) => !c);
    if (plain >= 0) {
      await page.getByRole('button', { name: 'Back to the queue' }).click();
      await page.getByTestId('queue-list').focus();
      for (let i = 0; i < 10; i++) await page.keyboard.press('k');
      for (let i = 0; i < plain; i++) await page.keyboard.press('j');
      const key = await page.locator('.queue-item.current').getAttribute('data-key');
      await page.keyboard.press('a');
      await expect(page.locator(`[data-testid=queue-item][data-key="${key}"]`)).toHaveCount(0);
      await expect(page.getByTestId('queue-dismissed')).toHaveText('1 dismissed');
    }
  });

  test('the operator clears the whole review queue by keyboard: decisions through the confirmation, the rest dismissed', async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto(console_.launchUrl);
    await openSkills(page, '?tab=queue');
    const items = page.getByTestId('queue-item');
    await expect(items.first()).toBeVisible({ timeout: 60_000 });
    const list = page.getByTestId('queue-list');
    await list.focus();
    let codes = 0;
    const confirmByCode = async (reason: string) => {
      await expect(page.getByTestId('confirm-reason')).toBeFocused();
      await page.keyboard.type(reason);
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('request-code')).toBeFocused();
      await page.keyboard.press('Enter');
      const code = await console_.nextMatch(CODE_LINE, codes++);
      await expect(page.getByTestId('confirm-code')).toBeEnabled();
      await page.getByTestId('confirm-code').focus();
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    };
    for (let step = 0; step < 80 && (await items.count()) > 0; step++) {
      const before = await items.count();
      const current = page.locator('.queue-item.current');
      const key = (await current.getAttribute('data-key')) ?? '';
      if (key.startsWith('skill:')) {
        // A draft is rejected as a person: an operator_reject record, after which it waits no more.
        await page.keyboard.press('r');
        await confirmByCode('not this content: the operator keeps the current practice');
        await expect(page.getByTestId('skill-result')).toContainText('Appended an operator_reject record');
        await expectNoFrameworkText(page, `rejecting ${key}`);
        await page.keyboard.press('Escape');
      } else if (await current.getAttribute('data-command')) {
        await page.keyboard.press('a');
        await confirmByCode('the curator is right about this entry');
        await expect(page.getByTestId('command-result')).toBeVisible();
        await expect(page.getByTestId('command-panel').getByTestId('confirm-box')).toHaveCount(0);
        await expectNoFrameworkText(page, `the command on ${key}`);
        await page.keyboard.press('Escape');
      } else {
        await page.keyboard.press('r');
        await expect(page.getByTestId('dismiss-reason')).toBeFocused();
        await page.keyboard.type('looked at it: nothing more to do');
        await page.keyboard.press('Enter');
      }
      await expect(page.locator(`[data-testid=queue-item][data-key="${key}"]`)).toHaveCount(0);
      await expectNoFrameworkText(page, `deciding ${key}`);
      test.info().annotations.push({ type: 'queue', description: `${key}: ${before} → ${await items.count()}` });
      await list.focus();
    }
    await expect(page.getByTestId('queue-empty')).toContainText('Nothing is waiting for a person.');
    await expect(page.getByTestId('queue-empty')).toContainText('dismissed');
  });
});
