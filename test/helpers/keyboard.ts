// Keyboard-alone driving for the console's browser tests: focus moves only by Tab (no click,
// no programmatic focus), so a control that cannot be reached or worked by keys fails.
import type { Locator, Page } from 'playwright-core';

/** Presses Tab until `target` has focus (failing after `max` presses). */
export async function tabTo(page: Page, target: Locator, max = 400): Promise<void> {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)} in ${max} presses`);
}

/** Tab to `target`, then press `key` (Enter on a button or link, Space on a checkbox). */
export async function press(page: Page, target: Locator, key = 'Enter'): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Tab to `target`, then type `text` (keys, not fill). */
export async function typeInto(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.type(text);
}

/** Waits until `target` has focus (the page moved it there itself). */
export async function focusedOn(target: Locator, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await target.evaluate((el) => el === document.activeElement).catch(() => false))) {
    if (Date.now() > until) throw new Error(`focus never reached ${String(target)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
