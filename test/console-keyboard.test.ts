// Issue 21 "Keyboard and screen reader" and "Details", in headless Chromium: focus goes back
// to the control that acted after each task action, on success and on refusal; opening a
// task focuses its heading; each task row has a real checkbox named by the task that
// completes it; a refusal box goes away after the next success; results are announced in
// the polite live region; list filters live in the URL and survive a reload.
// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { KEYS, DEMO, type TestServer } from './helpers/server';
import { startConsole, stopConsole, type Browser } from './helpers/console';

const { test, before, after } = browserSuite('console keyboard and focus in Chromium (issue 21)');

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole());
});

after(() => stopConsole(browser, s));

const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent?.trim(), id: document.activeElement?.id }));

async function expenseChecklist(name: string): Promise<{ key: string; task: string; amount: string }> {
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name });
  assert.equal(made.status, 201, made.text);
  const tasks = await s.api(KEYS.admin, 'GET', `/v3/checklists/${made.body.key}/tasks`);
  const task = tasks.body.tasks.find((t: { name: string }) => t.name === 'Submit receipts');
  const detail = await s.api(KEYS.admin, 'GET', `/v3/checklists/${made.body.key}/tasks/${task.key}`);
  return { key: made.body.key, task: task.key, amount: detail.body.fields.find((f: { name: string }) => f.name === 'Amount').key };
}

test('issue 21 keyboard: opening a task focuses its heading; focus stays on the acting control after Complete (refused, then done), Uncomplete and Not applicable; a refusal box goes after the next success; each result announced', async () => {
  const c = await expenseChecklist('Keyboard: focus');
  const page = await browser.tab();
  await page.goto(`${s.us}/app/checklists/${c.key}`);
  await page.getByRole('link', { name: 'Submit receipts' }).click();
  await page.getByRole('heading', { level: 2, name: 'Submit receipts' }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'task-h');
  assert.deepEqual(await focused(page), { tag: 'H2', text: 'Submit receipts', id: 'task-h' });

  // Refused (Amount is required): the API's words, focus still on the button.
  await page.getByRole('button', { name: 'Complete task' }).focus();
  await page.keyboard.press('Enter');
  const refusal = page.getByTestId('refusal').filter({ hasText: 'CONFLICT' });
  await refusal.waitFor();
  await page.waitForTimeout(800);
  assert.equal((await focused(page)).text, 'Complete task');

  // Answered through the API; completed from the keyboard: focus on the same control, now Uncomplete.
  assert.equal((await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${c.key}/tasks/${c.task}/fields`, { fields: [{ key: c.amount, value: '12.50' }] })).status, 200);
  await page.keyboard.press('Enter');
  await page.getByTestId('task-status').filter({ hasText: /^Complete$/ }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Task completed' }).waitFor();
  await refusal.waitFor({ state: 'detached' });
  await page.waitForTimeout(800);
  assert.equal((await focused(page)).text, 'Uncomplete');
  await page.keyboard.press('Enter');
  await page.getByTestId('task-status').filter({ hasText: /^Incomplete$/ }).waitFor();
  await page.waitForTimeout(800);
  assert.equal((await focused(page)).text, 'Complete task');

  await page.getByRole('button', { name: 'Not applicable' }).focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('task-status').filter({ hasText: 'NotApplicable' }).waitFor();
  await page.waitForTimeout(800);
  assert.equal((await focused(page)).tag, 'BUTTON');
  assert.match((await focused(page)).text!, /Clear not applicable|Complete task/);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}/tasks/${c.task}`)).body.status, 'NotApplicable');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21 keyboard: each task row has a real checkbox named by the task; it completes and uncompletes; a refused one stays unchecked with the API message and keeps focus', async () => {
  const c = await expenseChecklist('Keyboard: list');
  assert.equal((await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${c.key}/tasks/${c.task}/fields`, { fields: [{ key: c.amount, value: '3.00' }] })).status, 200);
  const page = await browser.tab();
  await page.goto(`${s.us}/app/checklists/${c.key}`);
  const box = page.getByRole('checkbox', { name: 'Submit receipts' });
  await box.focus();
  await page.keyboard.press('Space');
  await page.getByRole('status').filter({ hasText: 'Submit receipts: completed' }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-task] .badge-Complete') !== null);
  assert.equal(await box.isChecked(), true);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}/tasks/${c.task}`)).body.status, 'Complete');
  assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'focus stays on the checkbox');
  await page.keyboard.press('Space');
  await page.getByRole('status').filter({ hasText: 'Submit receipts: uncompleted' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}/tasks/${c.task}`)).body.status, 'Incomplete');

  // A halted task (Jane Doe's "Set up equipment" waits behind the manager's approval): refused.
  await page.goto(`${s.us}/app/checklists/${DEMO.janeDoe}`);
  const halted = page.getByRole('checkbox', { name: 'Set up equipment' });
  await halted.focus();
  await page.keyboard.press('Space');
  const direct = await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.setUpEquipment}/complete`);
  assert.equal(direct.status, 409);
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  await page.waitForTimeout(800);
  assert.equal(await halted.isChecked(), false);
  assert.equal(await halted.evaluate((el) => el === document.activeElement), true, 'focus stays on the refused checkbox');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21 details: the checklist list filters live in the URL and a reload restores them; a checklist links to the template version it runs', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/checklists`);
  await page.getByRole('link', { name: 'Onboarding: Jane Doe' }).waitFor();
  await page.getByLabel('Template').selectOption(DEMO.expense);
  await page.getByLabel('Status').selectOption('Complete');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/status=Complete/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('templateKey'), DEMO.expense);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Checklists' }).waitFor();
  assert.equal(await page.getByLabel('Template').inputValue(), DEMO.expense);
  assert.equal(await page.getByLabel('Status').inputValue(), 'Complete');
  const want = await s.api(KEYS.admin, 'GET', `/v3/checklists?templateKey=${DEMO.expense}&status=Complete&pageSize=100&sort=name`);
  await page.waitForFunction((n) => document.querySelectorAll('main tbody tr').length === n, want.body.items.length);
  assert.deepEqual(await page.locator('main tbody tr td:first-child a').allTextContents(), want.body.items.map((c: { name: string }) => c.name));
  await page.goBack();
  await page.getByRole('link', { name: 'Onboarding: Jane Doe' }).waitFor();

  // A version 1 checklist links to version 1 of its template.
  const old = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.johnRoe}`);
  await page.goto(old.body.url);
  const link = page.getByRole('link', { name: `${old.body.template.name} v${old.body.version}` });
  await link.click();
  await page.getByText(new RegExp(`^version ${old.body.version}( \\(latest\\)| of \\d+)`)).first().waitFor();
  assert.match(page.url(), new RegExp(`version=${old.body.version}$`));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21 details: on a narrow screen, opening a task scrolls its detail into view', async () => {
  const page = await browser.tab();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${s.us}/app/checklists/${DEMO.janeDoe}`);
  const link = page.getByRole('link', { name: 'First day welcome' });
  await link.scrollIntoViewIfNeeded();
  await link.click();
  await page.getByRole('heading', { level: 2, name: 'First day welcome' }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'task-h');
  const box = await page.evaluate(() => {
    const r = document.getElementById('task-h')!.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight };
  });
  assert.ok(box.top >= 0 && box.bottom <= box.height, `the task heading is on screen: ${JSON.stringify(box)}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
