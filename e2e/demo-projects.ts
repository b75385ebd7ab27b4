import { expect, type Page } from '@playwright/test';

/** The two generated demo projects the operator questions run against. */
export const DEMO_PROJECTS = {
  /** The rich demo (V2 receipts, logged denials: formats ahead of the released plugin). */
  rich: 'billing-api',
  /** Written only as opencode-swarm 7.103.2 writes: legacy receipts, gate warnings, a linked worktree pair. */
  released: 'inventory-api',
} as const;

/** Opens a demo project from the switcher, as an operator would. */
export async function openDemoProject(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /Project/ }).click();
  await page.getByRole('dialog', { name: 'Switch project' }).getByRole('button', { name: `Demo: ${name}`, exact: true }).click();
  await expect(page.getByTestId('current-project')).toHaveText(`${name} (demo)`);
}
