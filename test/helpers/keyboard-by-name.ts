// Driving a console page with the keyboard alone (issue 40: "each step works with the mouse and
// with the keyboard alone"): Tab (or Shift+Tab) until the focused control has the wanted name,
// then type, pick an option with the arrow keys, press Enter or Space. No click, no .fill().
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** The focused element's name as a user hears it: its label, aria-label, or text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const labelled = el.getAttribute('aria-labelledby');
    const byId = labelled ? labelled.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : '';
    const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return (el.getAttribute('aria-label') || byId || label || el.textContent || '').replace(/\s+/g, ' ').trim();
  });

/** Presses Tab until the focused control's name matches; fails after `max` presses. */
export async function tabTo(page: Page, name: string | RegExp, max = 250): Promise<void> {
  const ok = (n: string) => (typeof name === 'string' ? n === name : name.test(n));
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    const n = await focusedName(page);
    if (ok(n)) return;
    seen.push(n);
    await page.keyboard.press('Tab');
  }
  assert.fail(`no control named ${String(name)} within ${max} Tab presses; passed ${JSON.stringify(seen.slice(-30))}`);
}

/** Tabs to a text control and types into it (after selecting what it holds). */
export async function typeInto(page: Page, name: string | RegExp, text: string): Promise<void> {
  await tabTo(page, name);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  if (text) await page.keyboard.type(text);
}

/** Tabs to a select and moves its choice with the arrow keys until the selected option's text matches. */
export async function chooseOption(page: Page, name: string | RegExp, option: string | RegExp): Promise<void> {
  await tabTo(page, name);
  const ok = (t: string) => (typeof option === 'string' ? t === option : option.test(t));
  const selected = () => page.evaluate(() => {
    const el = document.activeElement as HTMLSelectElement;
    return { text: el.selectedOptions?.[0]?.textContent?.trim() ?? '', index: el.selectedIndex, count: el.options?.length ?? 0 };
  });
  await page.keyboard.press('Home');
  for (let i = 0; i < 200; i++) {
    const s = await selected();
    if (ok(s.text)) return;
    if (s.index >= s.count - 1) break;
    await page.keyboard.press('ArrowDown');
  }
  assert.fail(`no option ${String(option)} in ${String(name)}`);
}

/** Tabs to a button or link and presses Enter. */
export async function press(page: Page, name: string | RegExp, key = 'Enter'): Promise<void> {
  await tabTo(page, name);
  await page.keyboard.press(key);
}
