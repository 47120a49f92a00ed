// Issue 21 "Field controls that match the field", in headless Chromium: each control saves
// what the API then reads back (DropDown select, a Data Set-linked DropDown, Date input,
// Members picker, Multi-Choice and Sub-Tasks checkboxes); a halted task's fields are
// read-only with the reason the API gives when written anyway.
// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { KEYS, DEMO, type TestServer } from './helpers/server';
import { startConsole, stopConsole, axe, type Browser } from './helpers/console';

const { test, before, after } = browserSuite('console field controls in Chromium (issue 21)');

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole());
});

after(() => stopConsole(browser, s));

 
const fieldsOf = async (checklist: string, task: string): Promise<Record<string, any>> => {
  const t = await s.api(KEYS.admin, 'GET', `/v3/checklists/${checklist}/tasks/${task}`);
  return Object.fromEntries(t.body.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
};

test('issue 21 fields: DropDown, Data Set DropDown, Date, Members, Multi-Choice and Sub-Tasks controls save what the API reads back; a halted task is read-only with the API reason', async () => {
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name: 'Fields: Ann Lee' });
  assert.equal(made.status, 201, made.text);
  const key = made.body.key;
  const tasks = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}/tasks`)).body.tasks as { name: string; key: string }[];
  const task = (name: string) => tasks.find((t) => t.name === name)!.key;
  const page = await browser.tab();

  await page.goto(`${s.us}/app/checklists/${key}/tasks/${task('Collect employee details')}`);
  await page.getByRole('heading', { level: 2, name: 'Collect employee details' }).waitFor();
  await page.getByLabel(/Employee ID/).fill('E2001');
  await page.getByLabel(/Employment type/).selectOption('Part-time');
  const office = page.getByLabel(/^Office/);
  await office.locator('option', { hasText: 'Berlin' }).waitFor({ state: 'attached' });
  await office.selectOption({ label: 'Berlin' });
  assert.equal(await page.getByLabel(/Start date/).getAttribute('type'), 'date');
  await page.getByLabel(/Start date/).fill('2031-02-03');
  await page.getByRole('button', { name: 'Save fields' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved 4 fields' }).waitFor();
  const details = await fieldsOf(key, task('Collect employee details'));
  assert.equal(details['Employee ID'], 'E2001');
  assert.equal(details['Employment type'], 'Part-time');
  assert.equal(details.Office.text, 'Berlin');
  assert.equal(details['Start date'], '2031-02-03');
  await axe(page, 'task with field controls at 1280px');

  // Members: a picker of active members (the email tells two Alex Kims apart).
  await page.getByRole('link', { name: 'Manager approval' }).click();
  await page.getByRole('heading', { level: 2, name: 'Manager approval' }).waitFor();
  const approver = page.getByLabel(/Approver/);
  await approver.locator('option', { hasText: 'mia@acme.test' }).waitFor({ state: 'attached' });
  await approver.selectOption({ label: 'Mia Member (mia@acme.test)' });
  await page.getByRole('button', { name: 'Save fields' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved 1 field' }).waitFor();
  assert.deepEqual((await fieldsOf(key, task('Manager approval'))).Approver.map((m: { id: number }) => m.id), [DEMO.members.mia]);

  // Behind the stop task, the equipment task is read-only, with the words the API answers a write with.
  await page.getByRole('link', { name: 'Set up equipment' }).click();
  await page.getByRole('heading', { level: 2, name: 'Set up equipment' }).waitFor();
  const refused = await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${key}/tasks/${task('Set up equipment')}/fields`, { fields: [{ key: (await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}/tasks/${task('Set up equipment')}`)).body.fields[0].key, value: ['Laptop'] }] });
  assert.equal(refused.status, 409);
  assert.equal(await page.getByTestId('fields-read-only').textContent(), refused.body.error.message);
  assert.equal(await page.getByRole('checkbox', { name: 'Laptop' }).isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Save fields' }).count(), 0);

  // The stop task completed: the fields open, and the ticks are saved as the API's arrays.
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/checklists/${key}/tasks/${task('Manager approval')}/complete`)).status, 200);
  await page.getByTestId('fields-read-only').waitFor({ state: 'detached' });
  await page.getByRole('checkbox', { name: 'Laptop' }).check();
  await page.getByRole('checkbox', { name: 'Monitor' }).check();
  await page.getByRole('checkbox', { name: 'Email' }).check();
  await page.getByRole('button', { name: 'Save fields' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved 2 fields' }).waitFor();
  const equipment = await fieldsOf(key, task('Set up equipment'));
  assert.deepEqual(equipment.Equipment, ['Laptop', 'Monitor']);
  assert.deepEqual(equipment.Accounts, ['Email']);
  assert.deepEqual(page.errors, []);
  await page.close();
});
