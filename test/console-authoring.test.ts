// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
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
import { press, typeInto, focusedOn } from './helpers/keyboard';

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

test('issue 40: the same template built, published, run, versioned and upgraded with the keyboard alone', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates`);
  await press(page, page.getByRole('link', { name: 'New template' }));
  await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
  await typeInto(page, page.getByLabel('Template name'), 'Keyboard purchase');
  // Adding a task or heading puts focus in its name.
  await press(page, page.getByRole('button', { name: 'Add heading' }));
  await focusedOn(page.getByLabel('Heading text'));
  await page.keyboard.type('Request');
  await press(page, page.getByRole('button', { name: 'Add task' }));
  await focusedOn(taskBox(page, 'Task 2').getByLabel('Task name'));
  await page.keyboard.type('Describe the purchase');
  const describe = taskBox(page, 'Task 2');
  // A select is worked by typing the start of an option; adding a field puts focus in its label.
  await typeInto(page, describe.getByLabel(/New field's type/), 'Sh');
  await press(page, describe.getByRole('button', { name: /^Add field/ }));
  await focusedOn(describe.locator('li.ed-field').nth(0).getByLabel('Label'));
  await page.keyboard.type('Item');
  await press(page, describe.locator('li.ed-field').nth(0).getByLabel('Required'), 'Space');
  await typeInto(page, describe.getByLabel(/New field's type/), 'Mu');
  await press(page, describe.getByRole('button', { name: /^Add field/ }));
  await focusedOn(describe.locator('li.ed-field').nth(1).getByLabel('Label'));
  await page.keyboard.type('Size');
  await typeInto(page, describe.locator('li.ed-field').nth(1).getByLabel('Options (one a line)'), 'Small\nLarge');
  await typeInto(page, describe.getByLabel(/New field's type/), 'Dr');
  await press(page, describe.getByRole('button', { name: /^Add field/ }));
  await focusedOn(describe.locator('li.ed-field').nth(2).getByLabel('Label'));
  await page.keyboard.type('Office');
  const office = describe.locator('li.ed-field').nth(2);
  await press(page, office.getByLabel('a list'), 'ArrowRight');
  await typeInto(page, office.getByLabel('Data Set', { exact: true }), 'Off');
  await press(page, page.getByRole('button', { name: 'Add task' }));
  await focusedOn(taskBox(page, 'Task 3').getByLabel('Task name'));
  await page.keyboard.type('Approve');
  await press(page, taskBox(page, 'Task 3').getByLabel('Stop task'), 'Space');
  // Reorder and remove by keys: focus follows the moved task's button.
  await press(page, page.getByRole('button', { name: 'Add task' }));
  await focusedOn(taskBox(page, 'Task 4').getByLabel('Task name'));
  await page.keyboard.type('Scratch');
  await press(page, page.getByRole('button', { name: 'Move up task 4 Scratch' }));
  await focusedOn(page.getByRole('button', { name: 'Move up task 3 Scratch' }));
  assert.equal(await taskBox(page, 'Task 4').getByLabel('Task name').inputValue(), 'Approve');
  await press(page, page.getByRole('button', { name: 'Remove task 3 Scratch' }));
  await taskBox(page, 'Task 4').waitFor({ state: 'detached' });
  assert.equal(await taskBox(page, 'Task 3').getByLabel('Task name').inputValue(), 'Approve');
  await validated(page);
  await press(page, page.getByRole('button', { name: 'Publish template' }));
  await page.getByRole('heading', { level: 1, name: 'Keyboard purchase' }).waitFor();
  const templateKey = keyOf(page.url(), 'templates');
  const doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${templateKey}/document`)).body;
  assert.deepEqual(doc.tasks.map((t: any) => [t.name, !!t.isHeading, !!t.isStop]), [['Request', true, false], ['Describe the purchase', false, false], ['Approve', false, true]]);
  assert.deepEqual(doc.tasks[1].fields.map((f: any) => [f.type, f.label, !!f.isRequired]), [['ShortText', 'Item', true], ['MultiChoice', 'Size', false], ['DropDown', 'Office', false]]);
  assert.deepEqual(doc.tasks[1].fields[1].options.map((o: any) => o.text), ['Small', 'Large']);
  assert.equal(doc.tasks[1].fields[2].dataSet.name, 'Offices');

  await typeInto(page, page.getByLabel('Checklist name'), 'Keyboard purchase: pens');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Keyboard purchase: pens' }).waitFor();
  const checklistKey = keyOf(page.url(), 'checklists');

  await page.goto(`${s.us}/app/templates/${templateKey}`);
  await press(page, page.getByRole('link', { name: 'Edit and publish a new version' }));
  await page.getByRole('heading', { level: 1, name: 'New version of Keyboard purchase' }).waitFor();
  await press(page, page.getByRole('button', { name: 'Add task' }));
  await focusedOn(taskBox(page, 'Task 4').getByLabel('Task name'));
  await page.keyboard.type('Receive the goods');
  await validated(page);
  await press(page, page.getByRole('button', { name: 'Publish new version' }));
  await page.getByRole('heading', { level: 2, name: 'Upgrade checklists to version 2' }).waitFor();
  await page.getByTestId('upgrade-candidates').filter({ hasText: '1 checklist on another version' }).waitFor();
  await press(page, page.getByRole('button', { name: 'Upgrade all to version 2' }));
  await page.getByTestId('upgrade-progress').filter({ hasText: 'Upgrade finished' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${checklistKey}`)).body.version, 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40 (POST /v3/templates/validate, 2.5): violations as you type at the control their path points to, warnings apart; the 422 refusal placed the same way; reorder, rename, remove; a due date and a condition in the form; markup in labels stays text', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/new`);
  await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
  await page.getByLabel('Template name').fill('Validation check');
  await page.getByRole('button', { name: 'Add task' }).click();
  // An empty task name: the API's error under that name's input, which names it.
  const first = taskBox(page, 'Task 1');
  const name = first.getByLabel('Task name');
  await validated(page, /1 error/);
  const issues = first.getByTestId('issues').filter({ hasText: 'name must not be empty.' });
  await issues.waitFor();
  assert.equal(await name.getAttribute('aria-invalid'), 'true');
  assert.equal(await name.getAttribute('aria-describedby'), await issues.getAttribute('id'));
  assert.equal(await issues.locator('li').getAttribute('data-path'), '$.tasks[0].name');
  // A DropDown without options: the error at its options.
  await first.getByLabel(/New field's type/).selectOption('DropDown');
  await first.getByRole('button', { name: /^Add field/ }).click();
  await first.locator('li.ed-field').getByLabel('Label').fill('<b>Size</b> <img src=x onerror="window.__owned=1">');
  await page.getByTestId('issues').filter({ hasText: 'A DropDown field needs options' }).waitFor();
  const options = first.getByLabel('Options (one a line)');
  assert.equal(await options.getAttribute('aria-invalid'), 'true');
  // Publishing anyway: the API's 422 in its words, its violations at the same places.
  await validated(page, /2 errors/);
  await page.getByRole('button', { name: 'Publish template' }).click();
  const refusal = page.getByTestId('refusal').filter({ hasText: '422 TEMPLATE_INVALID' });
  await refusal.waitFor();
  const direct = await s.api(KEYS.admin, 'POST', '/v3/templates', JSON.parse(await page.getByRole('textbox', { name: 'Document editor' }).inputValue()));
  assert.equal(direct.status, 422);
  await refusal.filter({ hasText: direct.body.error.message }).waitFor();
  await page.getByText('The API refused the document: 2 errors, 0 warnings').waitFor();
  assert.equal(await name.getAttribute('aria-invalid'), 'true');

  await name.fill('Measure');
  await options.fill('Small\nLarge');
  await options.blur();
  await validated(page, /^Validation: valid$/);
  // Markup typed into a label is text in the editor's legend and the preview (no element made from it).
  await page.getByTestId('preview').getByText('<b>Size</b>', { exact: false }).waitFor();
  assert.equal(await page.locator('form.editor b, form.editor img').count(), 0);
  assert.equal(await page.evaluate(() => (window as any).__owned), undefined);

  // A second task, renamed, moved above the first, a third removed.
  await page.getByRole('button', { name: 'Add task' }).click();
  await taskBox(page, 'Task 2').getByLabel('Task name').fill('Prepare');
  await page.getByRole('button', { name: 'Add task' }).click();
  await taskBox(page, 'Task 3').getByLabel('Task name').fill('Throw away');
  await page.getByRole('button', { name: 'Remove task 3 Throw away' }).click();
  await page.getByRole('button', { name: 'Move up task 2 Prepare' }).click();
  await taskBox(page, 'Task 1').getByLabel('Task name').waitFor();
  assert.equal(await taskBox(page, 'Task 1').getByLabel('Task name').inputValue(), 'Prepare');
  // A due date and a condition in the form.
  const measure = taskBox(page, 'Task 2');
  await measure.getByLabel('Relative to').selectOption('taskCompletion');
  await measure.getByLabel('Task', { exact: true }).selectOption({ label: 'Task 1: Prepare' });
  await measure.getByLabel('Days after').fill('2');
  await page.getByRole('button', { name: 'Add condition' }).click();
  const cond = page.locator('.ed-conditions > li').first();
  await cond.getByLabel('Action').selectOption('show');
  await cond.getByLabel('Task 1: Prepare').check();
  await cond.getByLabel('Field', { exact: true }).selectOption({ index: 1 });
  await cond.getByLabel('Operator').selectOption('is');
  await cond.getByLabel('Value').fill('Large');
  // A warning comes apart from errors, next to the document editor (what the form does not cover).
  const doc = JSON.parse(await page.getByRole('textbox', { name: 'Document editor' }).inputValue());
  doc.tasks.push({ ref: 'h1', name: 'Later', isHeading: true });
  doc.notifications = [{ ref: 'n1', on: 'taskCompleted', task: 'h1', to: [{ name: 'Ada Admin' }], subject: 'Done' }];
  await page.getByRole('textbox', { name: 'Document editor' }).fill(JSON.stringify(doc, null, 2));
  await validated(page, /0 errors, 1 warning/);
  const warning = page.locator('#ed-document ~ .issues .issue-list.issue-warning');
  await warning.filter({ hasText: 'is a heading' }).waitFor();
  assert.equal(await page.locator('.issue-list.issue-error').count(), 0);
  // Text that is not JSON: the form waits, and nothing is sent.
  await page.getByRole('textbox', { name: 'Document editor' }).fill('{"name": ');
  await page.getByTestId('json-error').waitFor();
  await page.getByRole('button', { name: 'Publish template' }).click();
  await page.getByRole('status').filter({ hasText: 'not JSON; nothing was sent' }).waitFor();
  await page.getByRole('textbox', { name: 'Document editor' }).fill(JSON.stringify(doc, null, 2));
  await validated(page, /0 errors, 1 warning/);
  await page.getByRole('button', { name: 'Publish template' }).click();
  await page.getByRole('heading', { level: 1, name: 'Validation check' }).waitFor();
  const saved = (await s.api(KEYS.admin, 'GET', `/v3/templates/${keyOf(page.url(), 'templates')}/document`)).body;
  assert.deepEqual(saved.tasks.map((t: any) => t.name), ['Prepare', 'Measure', 'Later']);
  assert.equal(saved.tasks[1].dueDate.relativeTo, 'taskCompletion');
  assert.equal(saved.tasks[1].dueDate.offsetDays, 2);
  assert.equal(saved.tasks[1].fields[0].label, '<b>Size</b> <img src=x onerror="window.__owned=1">');
  assert.equal(saved.conditions[0].action, 'show');
  assert.deepEqual(saved.conditions[0].when.map((w: any) => [w.operator, w.value]), [['is', 'Large']]);
  assert.equal(saved.notifications.length, 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40: a document the validator could not check is sent only after saying so; declined, nothing is sent', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/new`);
  await page.getByLabel('Template name').fill('Never sent');
  await validated(page);
  // The validator stops answering (the network fails): the editor asks before sending.
  await page.route('**/app/_/v3/templates/validate**', (r) => r.abort());
  await page.getByLabel('Template name').fill('Never sent either');
  let asked = '';
  page.once('dialog', (d) => ((asked = d.message()), void d.dismiss()));
  await page.getByRole('button', { name: 'Publish template' }).click();
  await page.waitForFunction(() => true);
  for (let i = 0; i < 50 && !asked; i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(asked, /could not be validated .*Send it anyway, unvalidated\?/);
  await page.getByRole('status').filter({ hasText: 'Nothing was sent: the document could not be validated.' }).waitFor();
  const list = await s.api(KEYS.admin, 'GET', '/v3/templates?pageSize=100');
  assert.ok(!list.body.items.some((t: any) => t.name.startsWith('Never sent')));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40 (4.4 rule 4, /v3/drafts): a draft saved, found again under Templates, changed and published as a new version', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/${DEMO.vendor}/edit`);
  await page.getByRole('heading', { level: 1, name: 'New version of Vendor Review' }).waitFor();
  await page.getByRole('button', { name: 'Add task' }).click();
  const count = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.vendor}/document`)).body.tasks.length;
  await taskBox(page, `Task ${count + 1}`).getByLabel('Task name').fill('File the review');
  await validated(page);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('heading', { level: 1, name: 'Draft of Vendor Review' }).waitFor();
  const draftKey = keyOf(page.url(), 'drafts');
  const stored = await s.api(KEYS.admin, 'GET', `/v3/drafts/${draftKey}`);
  assert.equal(stored.body.template.key, DEMO.vendor);
  assert.equal(stored.body.document.tasks.at(-1).name, 'File the review');

  // Come back to it from the template list.
  await page.goto(`${s.us}/app/templates`);
  await page.getByRole('link', { name: 'Vendor Review' }).first().waitFor();
  await page.locator('section[aria-labelledby="drafts-h"]').getByRole('link', { name: 'Vendor Review' }).click();
  await page.getByRole('heading', { level: 1, name: 'Draft of Vendor Review' }).waitFor();
  await taskBox(page, `Task ${count + 1}`).getByLabel('Task name').fill('File the vendor review');
  await validated(page);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/drafts/${draftKey}`)).body.document.tasks.at(-1).name, 'File the vendor review');
  const before = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.vendor}`)).body.version;
  await page.getByRole('button', { name: 'Publish draft as a new version' }).click();
  await page.getByRole('heading', { level: 2, name: `Upgrade checklists to version ${before + 1}` }).waitFor();
  const after = await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.vendor}/document`);
  assert.equal(after.body.tasks.at(-1).name, 'File the vendor review');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/drafts/${draftKey}/commit`)).body.state, 'succeeded');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40: axe-core finds no serious or critical violation on the editor pages at 1280 and 390 px; screenshots', async () => {
  const page = await browser.tab();
  const draft = await s.api(KEYS.admin, 'POST', '/v3/drafts', { document: { name: 'Axe draft', tasks: [{ name: '', fields: [{ type: 'DropDown', label: 'Pick', options: [] }] }] } });
  assert.equal(draft.status, 201, draft.text);
  const pages: [string, string, string][] = [
    ['new-template', '/app/templates/new', 'New template'],
    ['new-version', `/app/templates/${DEMO.onboarding}/edit`, 'New version of Employee Onboarding'],
    ['draft', `/app/drafts/${draft.body.key}`, 'Draft'],
    ['templates-with-drafts', '/app/templates', 'Templates'],
  ];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    for (const [name, path, heading] of pages) {
      await page.goto(s.us + path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (name === 'templates-with-drafts') await page.getByRole('heading', { level: 2, name: 'Drafts' }).waitFor();
      else await validated(page, /valid|error|warning/);
      await axe(page, `${name} at ${width}px`);
      await page.screenshot({ path: join(ARTIFACTS, `console-${name}-${width}.png`), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40 (4.4 rule 4): a new template saved as a draft, then published from the draft as a template (the commit polled until it ran)', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/new`);
  await page.getByLabel('Template name').fill('Drafted from scratch');
  await page.getByRole('button', { name: 'Add task' }).click();
  await taskBox(page, 'Task 1').getByLabel('Task name').fill('Only task');
  await validated(page);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('heading', { level: 1, name: 'Draft' }).waitFor();
  const draftKey = keyOf(page.url(), 'drafts');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/drafts/${draftKey}`)).body.template, undefined);
  await page.getByRole('button', { name: 'Publish draft as a template' }).click();
  await page.getByRole('heading', { level: 1, name: 'Drafted from scratch' }).waitFor();
  const templateKey = keyOf(page.url(), 'templates');
  const commit = await s.api(KEYS.admin, 'GET', `/v3/drafts/${draftKey}/commit`);
  assert.equal(commit.body.state, 'succeeded');
  assert.equal(commit.body.templateKey, templateKey);
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/templates/${templateKey}/document`)).body.tasks.map((t: any) => t.name), ['Only task']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40: an editor left open makes no request once its document is validated (validation runs on change only)', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/${DEMO.vendor}/edit`);
  await page.getByRole('heading', { level: 1, name: 'New version of Vendor Review' }).waitFor();
  await validated(page);
  const seen: string[] = [];
  page.on('request', (r) => seen.push(r.url()));
  await new Promise((r) => setTimeout(r, 3000));
  assert.deepEqual(seen, []);
  // One change: one validation, after the pause.
  await page.getByLabel('Template name').fill('Vendor Review (edited)');
  await validated(page);
  await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(seen.map((u) => new URL(u).pathname), ['/app/_/v3/templates/validate']);
  assert.deepEqual(page.errors, []);
  await page.close();
});
