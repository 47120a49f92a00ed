// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
// Issue 40 "The details above fixed", each proven in headless Chromium: a fresh browser on a deep
// link asks who to act as; Multi-Choice and Sub-Tasks option labels never wrap narrower than a
// word at 1280 px; My work at 390 px keeps its Due column on screen; an upgrade under way does
// not say "0 on another version"; a webhook subscription's id is labelled as one; "Run checklist"
// on the checklist list; Table rows edited in place; a halted task offers no usable Complete or
// Add row. axe: 0 serious or critical on these pages at 1280 and 390 px.
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { KEYS, DEMO, ROOT, type TestServer } from './helpers/server';
import { startConsole, stopConsole, launch, axe, type Browser, tabFor } from './helpers/console';
import { tabTo } from './helpers/keyboard-by-name';

const { test, before, after } = browserSuite('console details in Chromium (issue 40)');
const ARTIFACTS = join(ROOT, 'test-artifacts');

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole({ upgrades: { delayMs: 1500 } }));
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(() => stopConsole(browser, s));

const tab = (t: { after(fn: () => Promise<void>): void }, b = browser) => tabFor(b, t);

async function onboarding(name: string) {
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name });
  assert.equal(made.status, 201, made.text);
  const tasks = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${made.body.key}/tasks`)).body.tasks as { name: string; key: string }[];
  return { key: made.body.key as string, task: (n: string) => tasks.find((x) => x.name === n)!.key };
}

test('issue 40: a fresh browser on a deep link asks who to act as and reads nothing until chosen (mouse); the choice is kept', async (t) => {
  const fresh = await launch();
  t.after(() => fresh.close());
  const page = await tab(t, fresh);
  const reads: string[] = [];
  page.on('request', (r) => r.url().includes('/app/_/v3/') && reads.push(r.url()));
  await page.goto(`${s.us}/app/checklists/${DEMO.janeDoe}`);
  await page.getByRole('heading', { level: 1, name: 'Who do you want to act as?' }).waitFor();
  await page.getByTestId('choose-key').getByRole('button').first().waitFor();
  assert.deepEqual(reads, [], 'no API read before a key is chosen');
  assert.equal(await page.evaluate(() => localStorage.getItem('wfe.console.key')), null);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await axe(page, `who to act as at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-choose-key-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // The suggestion comes first; another key is chosen here: a member's.
  const member = page.getByRole('button', { name: new RegExp(`^Act as .*${KEYS.member}$`) });
  await member.click();
  await page.getByRole('heading', { level: 1, name: 'Onboarding: Jane Doe' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('wfe.console.key')), KEYS.member);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Onboarding: Jane Doe' }).waitFor();
  assert.deepEqual(page.errors, []);
});

test('issue 40: a fresh browser on a deep link chooses who to act as with the keyboard alone (a typed key too)', async (t) => {
  const fresh = await launch();
  t.after(() => fresh.close());
  const page = await tab(t, fresh);
  await page.goto(`${s.eu}/app/checklists/${DEMO.globexChecklist}`);
  await page.getByRole('heading', { level: 1, name: 'Who do you want to act as?' }).waitFor();
  await page.getByTestId('choose-key').getByRole('button').first().waitFor();
  await tabTo(page, /^Act as .*globex-admin-key$/);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Who do you want' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('wfe.console.key')), KEYS.globexAdmin);
  // Typed: on the other address (its own storage), the key field of the question.
  await page.goto(`${s.us}/app/my-work`);
  await page.getByRole('heading', { level: 1, name: 'Who do you want to act as?' }).waitFor();
  await tabTo(page, 'Or type a key');
  await page.keyboard.type(KEYS.member);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
  assert.deepEqual(page.errors, []);
});

/** Labels whose text is broken inside a word: a line of the text narrower than the longest word in it. */
async function narrowLabels(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((labels) => {
    const bad: string[] = [];
    for (const l of labels as HTMLElement[]) {
      const texts = [...l.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
      for (const t of texts) {
        const words = (t.textContent ?? '').trim().split(/\s+/);
        const range = document.createRange();
        range.selectNodeContents(t);
        const lines = [...range.getClientRects()].filter((r) => r.width > 0);
        // Each word measured on its own, unbroken, in the label's font.
        const probe = document.createElement('span');
        probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
        l.appendChild(probe);
        const longest = Math.max(...words.map((w) => ((probe.textContent = w), probe.getBoundingClientRect().width)));
        probe.remove();
        const widest = Math.max(...lines.map((r) => r.width));
        if (lines.length > words.length || widest + 0.5 < longest) bad.push(`${(t.textContent ?? '').trim()}: ${lines.length} lines, widest ${Math.round(widest)}px < word ${Math.round(longest)}px`);
      }
    }
    return bad;
  });
}

test('issue 40 layout: Multi-Choice and Sub-Tasks option labels are never narrower than a word at 1280 px (and at 390)', async (t) => {
  const c = await onboarding('Details: labels');
  const page = await tab(t);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${s.us}/app/checklists/${c.key}/tasks/${c.task('Set up equipment')}`);
    await page.getByRole('checkbox', { name: 'Laptop' }).waitFor();
    await page.getByRole('checkbox', { name: 'Email' }).waitFor();
    const count = await page.locator('.choices label').count();
    assert.ok(count >= 6, `${count} option labels`);
    assert.deepEqual(await narrowLabels(page, '.choices label'), [], `at ${width}px`);
    // Each option on one line: a short label never wraps at all.
    const heights = await page.locator('.choices label').evaluateAll((ls) => ls.map((l) => Math.round(l.getBoundingClientRect().height)));
    assert.ok(Math.max(...heights) < 2 * Math.min(...heights), `label heights ${heights}`);
    await page.screenshot({ path: join(ARTIFACTS, `console-choices-${width}.png`), fullPage: true });
  }
  assert.deepEqual(page.errors, []);
});

test('issue 40 layout: My work at 390 px keeps every column on screen (the Due column is not clipped in a sideways scroller)', async (t) => {
  const page = await tab(t);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${s.us}/app/my-work`);
  await page.getByTestId('my-work').waitFor();
  const due = page.getByTestId('my-work-due');
  assert.ok((await due.count()) > 0);
  const boxes = await due.evaluateAll((cells) => cells.map((c) => { const r = c.getBoundingClientRect(); return { left: r.left, right: r.right, width: r.width }; }));
  for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 390 && b.width > 40, `Due cell at ${JSON.stringify(b)}`);
  const region = await page.getByRole('region', { name: 'My work' }).evaluate((r) => ({ scroll: r.scrollWidth, client: r.clientWidth }));
  assert.ok(region.scroll <= region.client + 1, `scrolls sideways: ${JSON.stringify(region)}`);
  // Still a table for assistive technology: the column header names the cell.
  assert.equal(await page.getByRole('columnheader', { name: 'Due' }).count(), 1);
  await axe(page, 'my work at 390px');
  await page.screenshot({ path: join(ARTIFACTS, 'console-my-work-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await axe(page, 'my work at 1280px');
  assert.deepEqual(page.errors, []);
});

test('issue 40: an upgrade under way says how many are queued, never "0 on another version" beside "Upgrading: 0 of n"', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/templates/${DEMO.onboarding}`);
  const total = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.onboarding}/upgrades`)).body.total;
  assert.ok(total >= 1);
  await page.getByTestId('upgrade-candidates').filter({ hasText: `${total} checklist` }).waitFor();
  await page.getByRole('button', { name: /^Upgrade all to version \d+$/ }).click();
  await page.getByTestId('upgrade-progress').filter({ hasText: 'Upgrading' }).waitFor();
  const during = (await page.getByTestId('upgrade-candidates').textContent())!;
  assert.doesNotMatch(during, /^0 /);
  assert.match(during, new RegExp(`^${total} checklists? queued for version \\d+\\.$`));
  await page.getByTestId('upgrade-progress').filter({ hasText: 'Upgrade finished' }).waitFor({ timeout: 30_000 });
  await page.getByTestId('upgrade-candidates').filter({ hasText: /^0 checklists on another version/ }).waitFor();
  assert.deepEqual(page.errors, []);
});

test('issue 40: a webhook subscription shows its scope and its id under their own names (not "Workspace id")', async (t) => {
  const sub = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: 'http://127.0.0.1:9/hook' });
  assert.equal(sub.status, 201, sub.text);
  const page = await tab(t);
  await page.goto(`${s.us}/app/webhooks`);
  const facts = page.getByTestId('subscription-facts').filter({ hasText: sub.body.id });
  await facts.waitFor();
  assert.equal((await facts.locator('dt').allTextContents()).join('|'), 'Scope|Subscription id');
  assert.equal(await facts.locator('dd').nth(1).textContent(), sub.body.id);
  assert.doesNotMatch((await page.locator('main').textContent())!, /Workspace id/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await axe(page, `webhooks at ${width}px`);
  }
  await s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${sub.body.id}`);
  assert.deepEqual(page.errors, []);
});

test('issue 40: "Run checklist" on the checklist list starts one (mouse, then keyboard alone); the API reads it back', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/checklists`);
  await page.locator('summary', { hasText: 'Run checklist' }).click();
  await page.getByLabel('Start from').selectOption(DEMO.vendor);
  await page.getByLabel('New checklist name').fill('Listed run: Globex Paper');
  await page.getByRole('button', { name: 'Run checklist' }).click();
  await page.getByRole('heading', { level: 1, name: 'Listed run: Globex Paper' }).waitFor();
  const key = /\/app\/checklists\/([^/?]+)/.exec(page.url())![1];
  const made = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`)).body;
  assert.deepEqual([made.name, made.template.key], ['Listed run: Globex Paper', DEMO.vendor]);
  // A refused run (no name): the API's words.
  await page.goto(`${s.us}/app/checklists`);
  await page.locator('summary', { hasText: 'Run checklist' }).click();
  await page.getByRole('button', { name: 'Run checklist' }).click();
  const direct = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: (await s.api(KEYS.admin, 'GET', '/v3/templates?pageSize=100')).body.items[0].key, name: '' });
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await axe(page, `checklist list with Run checklist at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-checklists-run-${width}.png`), fullPage: true });
  }
  // Keyboard alone.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${s.us}/app/checklists`);
  await page.getByRole('heading', { level: 1, name: 'Checklists' }).waitFor();
  await tabTo(page, 'Run checklist');
  await page.keyboard.press('Enter');
  await tabTo(page, 'New checklist name');
  await page.keyboard.type('Listed run by keyboard');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Listed run by keyboard' }).waitFor();
  assert.deepEqual(page.errors, []);
});

test('issue 40: Table rows are edited in place (mouse and keyboard); a halted task offers no usable Complete or Add row, and says why in the API\'s words', async (t) => {
  const c = await onboarding('Details: table');
  const base = `/v3/checklists/${c.key}/tasks/${c.task('Set up equipment')}`;
  const fieldKey = (await s.api(KEYS.admin, 'GET', base)).body.fields.find((f: any) => f.type === 'Table').key;
  const page = await tab(t);
  await page.goto(`${s.us}/app/checklists/${c.key}/tasks/${c.task('Set up equipment')}`);
  await page.getByRole('heading', { level: 2, name: 'Set up equipment' }).waitFor();
  // Halted behind the stop task: Complete looks unusable, says why, and sends nothing.
  const complete = page.getByRole('button', { name: 'Complete task' });
  assert.equal(await complete.getAttribute('aria-disabled'), 'true');
  const refused = await s.api(KEYS.admin, 'POST', `${base}/complete`);
  assert.equal(refused.status, 409);
  assert.equal(await page.getByTestId('halted-note').textContent(), refused.body.error.message);
  assert.equal(await complete.evaluate((b) => getComputedStyle(b).cursor), 'not-allowed');
  await complete.click({ force: true }); // aria-disabled: pressed anyway, it sends nothing
  await page.getByRole('status').filter({ hasText: refused.body.error.message }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', base)).body.status, 'Incomplete');
  assert.equal(await page.getByRole('button', { name: 'Add row' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: /^Remove row/ }).count(), 0);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await axe(page, `halted task at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-halted-task-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The stop task done: rows are added, then a cell edited in place with the mouse, another with the keyboard.
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/checklists/${c.key}/tasks/${c.task('Manager approval')}/complete`)).status, 200);
  await page.getByRole('button', { name: 'Add row' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Complete task' }).getAttribute('aria-disabled'), null);
  assert.equal((await s.api(KEYS.admin, 'POST', `${base}/fields/${fieldKey}/rows`, { rows: [['a', 'b'], ['c', 'd']] })).status, 200);
  const cols = (await s.api(KEYS.admin, 'GET', base)).body.fields.find((f: any) => f.type === 'Table').columns;
  const cell = page.getByRole('textbox', { name: `Row 1 ${cols[0].name}` });
  await cell.waitFor();
  await cell.fill('edited by mouse');
  await page.getByRole('button', { name: 'Save row 1' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved row 1' }).waitFor();
  let rows = (await s.api(KEYS.admin, 'GET', base)).body.fields.find((f: any) => f.type === 'Table').value;
  assert.equal(rows[0][0], 'edited by mouse');
  assert.equal(rows[1][0], 'c');
  await tabTo(page, `Row 2 ${cols[cols.length > 1 ? 1 : 0].name}`);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('edited by keyboard');
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Saved row 2' }).waitFor();
  rows = (await s.api(KEYS.admin, 'GET', base)).body.fields.find((f: any) => f.type === 'Table').value;
  assert.equal(rows[1][cols.length > 1 ? 1 : 0], 'edited by keyboard');
  assert.deepEqual(page.errors, []);
});
