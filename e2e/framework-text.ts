import { expect, type Page } from '@playwright/test';

/**
 * Text that only a bug in the page puts on screen: a Solid error ("Stale read from <Show>"), a
 * JavaScript error's message or name, a value printed without formatting. Human-only flows must
 * end in words the console chose, so every step of them is checked against these.
 */
const FRAMEWORK_TEXT = [/Stale read/, /Cannot read propert/, /is not a function/, /\bundefined\b/, /\bnull\b(?! \()/, /\[object Object\]/, /\bNaN\b/, /\b(Type|Reference|Range|Syntax)?Error:/, /The page hit an internal error/, /stopped because of an error in the page/];

export async function expectNoFrameworkText(page: Page, step: string): Promise<void> {
  const text = await page.locator('body').innerText();
  const found = FRAMEWORK_TEXT.flatMap((pattern) => {
    const match = pattern.exec(text);
    return match ? [`${pattern} → …${text.slice(Math.max(0, match.index - 80), match.index + 80)}…`] : [];
  });
  expect(found, `framework text on the page after ${step}`).toEqual([]);
}
