// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
// Issue 40 "Schedules and Data Set views", in headless Chromium: a schedule re-planned (start,
// zone, recurrence) and a Data Set view created and changed (filters, sorts, hidden fields),
// each with the mouse and with the keyboard alone, and read back through the API. axe: 0
// serious or critical at 1280 and 390 px with the new forms open.
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, DEMO, ROOT, type TestServer } from './helpers/server';
import { startConsole, stopConsole, axe, type Browser, tabFor } from './helpers/console';
import { tabTo, typeInto, chooseOption, press } from './helpers/keyboard-by-name';

const { test, before, after } = browserSuite('console schedules and Data Set views in Chromium (issue 40)');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const F = { name: '51000000-0000-4000-8000-000000000001', headcount: '51000000-0000-4000-8000-000000000002', contact: '51000000-0000-4000-8000-000000000003' };

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole());
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(() => stopConsole(browser, s));

const tab = (t: { after(fn: () => Promise<void>): void }) => tabFor(browser, t);

async function schedule(name: string) {
  const made = await s.api(KEYS.admin, 'POST', '/v3/schedules', { name, templateKey: DEMO.vendor, timeZone: 'UTC', startDateTime: '2035-03-05T09:00:00' });
  assert.equal(made.status, 201, made.text);
  return made.body;
}

test('issue 40 schedules: re-planned with the mouse (start, zone, weekly on two days, ending after 5 runs); the API reads the new plan; a past start is the API\'s refusal', async (t) => {
  const x = await schedule('Re-plan by mouse');
  const page = await tab(t);
  await page.goto(`${s.us}/app/schedules/${x.id}`);
  await page.getByRole('heading', { level: 1, name: 'Re-plan by mouse' }).waitFor();
  await page.getByLabel('Starts (wall clock in its zone)').fill('2035-04-02T08:30:00');
  await page.getByLabel('Time zone').fill('Europe/Berlin');
  await page.getByLabel('Repeats').selectOption('Weekly');
  await page.getByLabel('Every').fill('2');
  await page.getByLabel('Monday').check();
  await page.getByLabel('Thursday').check();
  await page.getByLabel('Ends').selectOption('count');
  await page.getByLabel('Runs in all').fill('5');
  await page.getByRole('button', { name: 'Re-plan schedule' }).click();
  await page.getByRole('status').filter({ hasText: 'Schedule re-planned' }).waitFor();
  const after = (await s.api(KEYS.admin, 'GET', `/v3/schedules/${x.id}`)).body;
  assert.equal(after.startDateTime, '2035-04-02T08:30:00');
  assert.equal(after.timeZone, 'Europe/Berlin');
  assert.deepEqual(after.recurrence, { ...after.recurrence, frequency: 'Weekly', interval: 2, daysOfWeek: ['Monday', 'Thursday'], count: 5 });
  await page.locator('.summary').filter({ hasText: '2035-04-02T08:30:00 Europe/Berlin' }).waitFor();
  // Back to one run only: recurrence null.
  await page.getByLabel('Repeats').selectOption('');
  await page.getByRole('button', { name: 'Re-plan schedule' }).click();
  await page.locator('.summary').filter({ hasText: /· once$/ }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/schedules/${x.id}`)).body.recurrence, undefined);
  // A start in the past: the API's refusal, word for word.
  await page.getByLabel('Starts (wall clock in its zone)').fill('2001-01-01T09:00:00');
  await page.getByRole('button', { name: 'Re-plan schedule' }).click();
  const direct = await s.api(KEYS.admin, 'PATCH', `/v3/schedules/${x.id}`, { startDateTime: '2001-01-01T09:00:00' });
  assert.equal(direct.status, 400);
  // (The message ends with the emulator's now, to the millisecond: compared up to there.)
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message.split(' It is ')[0] }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'console-schedule-replan-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('issue 40 schedules, keyboard alone: a schedule re-planned to daily in another zone', async (t) => {
  const x = await schedule('Re-plan by keyboard');
  const page = await tab(t);
  await page.goto(`${s.us}/app/schedules/${x.id}`);
  await page.getByRole('heading', { level: 1, name: 'Re-plan by keyboard' }).waitFor();
  await typeInto(page, 'Time zone', 'America/New_York');
  await chooseOption(page, 'Repeats', 'Daily');
  await typeInto(page, 'Every', '3');
  await press(page, 'Re-plan schedule');
  await page.getByRole('status').filter({ hasText: 'Schedule re-planned' }).waitFor();
  const after = (await s.api(KEYS.admin, 'GET', `/v3/schedules/${x.id}`)).body;
  assert.equal(after.timeZone, 'America/New_York');
  assert.equal(after.startDateTime, '2035-03-05T09:00:00');
  assert.equal(after.recurrence.frequency, 'Daily');
  assert.equal(after.recurrence.interval, 3);
  assert.deepEqual(page.errors, []);
});

test('issue 40 Data Set views: one created with the mouse (a filter, two sorts, a hidden field) shows its records as the API applies it; then changed and deleted', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/data-sets/${DEMO.offices}`);
  await page.getByRole('heading', { level: 1, name: 'Offices' }).waitFor();
  await page.getByRole('button', { name: 'New view' }).click();
  const form = page.getByRole('form', { name: 'New view' });
  await form.getByLabel('View name').fill('Big offices');
  await form.getByRole('button', { name: 'Add filter' }).click();
  await form.getByLabel('Filter 1 field').selectOption(F.headcount);
  await form.getByLabel('Filter 1 operator').selectOption('gte');
  await form.getByLabel('Filter 1 value').fill('50');
  await form.getByRole('button', { name: 'Add sort' }).click();
  await form.getByLabel('Sort 1 field').selectOption(F.headcount);
  await form.getByLabel('Sort 1 direction').selectOption('desc');
  await form.getByRole('button', { name: 'Add sort' }).click();
  await form.getByLabel('Sort 2 field').selectOption(F.name);
  await form.getByRole('button', { name: 'Move sort 2 up' }).click();
  await form.getByLabel('Hide Contact').check();
  await form.getByRole('button', { name: 'Create view' }).click();
  await page.getByRole('status').filter({ hasText: 'View Big offices created' }).waitFor();
  const set = (await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}`)).body;
  const view = set.views.find((v: any) => v.name === 'Big offices');
  assert.equal(view.filters.length, 1);
  assert.deepEqual([view.filters[0].fieldKey, view.filters[0].operator, String(view.filters[0].value)], [F.headcount, 'gte', '50']);
  assert.deepEqual(view.sorts.map((x: any) => [x.fieldKey, x.direction]), [[F.name, 'asc'], [F.headcount, 'desc']]);
  assert.deepEqual(view.hiddenFields, [F.contact]);
  // The page now shows the view: the records the API gives through it, without the hidden column.
  assert.match(page.url(), new RegExp(`view=${view.key}`));
  const api = (await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}/records?viewKey=${view.key}`)).body.items;
  await page.locator('[data-record]').first().waitFor();
  assert.deepEqual(await page.locator('[data-record]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-record'))), api.map((r: any) => r.key));
  assert.equal(await page.getByTestId('records').getByRole('columnheader', { name: /Contact/ }).count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'console-dataset-view-1280.png'), fullPage: true });

  // Changed: the filter removed, Contact shown again.
  await page.getByRole('button', { name: 'Edit view Big offices' }).click();
  const edit = page.getByRole('form', { name: 'Edit view Big offices' });
  await edit.getByRole('button', { name: 'Remove filter 1' }).click();
  await edit.getByLabel('Hide Contact').uncheck();
  await edit.getByLabel('View name').fill('All offices by size');
  await edit.getByRole('button', { name: 'Save view' }).click();
  await page.getByRole('status').filter({ hasText: 'View All offices by size saved' }).waitFor();
  const changed = (await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}/views/${view.key}`)).body;
  assert.deepEqual([changed.name, changed.filters, changed.hiddenFields, changed.sorts.length], ['All offices by size', [], [], 2]);
  // A refusal in the API's words: view names are unique within a Data Set.
  await page.getByRole('button', { name: 'New view' }).click();
  await page.getByRole('form', { name: 'New view' }).getByLabel('View name').fill('All offices by size');
  await page.getByRole('form', { name: 'New view' }).getByRole('button', { name: 'Create view' }).click();
  const clash = await s.api(KEYS.admin, 'POST', `/v3/data-sets/${DEMO.offices}/views`, { name: 'All offices by size' });
  assert.ok(clash.status >= 400, clash.text);
  await page.getByTestId('refusal').filter({ hasText: clash.body.error.message }).waitFor();
  await page.getByRole('form', { name: 'New view' }).getByRole('button', { name: 'Cancel' }).click();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Edit view All offices by size' }).click();
  await page.getByRole('button', { name: 'Delete view' }).click();
  await page.getByRole('status').filter({ hasText: 'View All offices by size deleted' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}/views/${view.key}`)).status, 404);
  assert.deepEqual(page.errors, []);
});

test('issue 40 Data Set views, keyboard alone: a view with a filter and a hidden field is created', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/data-sets/${DEMO.offices}`);
  await page.getByRole('heading', { level: 1, name: 'Offices' }).waitFor();
  await page.locator('[data-record]').first().waitFor();
  await press(page, 'New view');
  await typeInto(page, 'View name', 'Berlin only');
  await press(page, 'Add filter');
  await chooseOption(page, 'Filter 1 operator', 'starts with');
  await typeInto(page, 'Filter 1 value', 'Ber');
  await tabTo(page, 'Hide Headcount');
  await page.keyboard.press('Space');
  await press(page, 'Create view');
  await page.getByRole('status').filter({ hasText: 'View Berlin only created' }).waitFor();
  const view = (await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}`)).body.views.find((v: any) => v.name === 'Berlin only');
  assert.deepEqual(view.filters, [{ fieldKey: F.name, operator: 'starts_with', value: 'Ber' }]);
  assert.deepEqual(view.hiddenFields, [F.headcount]);
  await page.locator('[data-record]').filter({ hasText: 'Berlin' }).waitFor();
  assert.equal(await page.locator('[data-record]').count(), 1);
  assert.deepEqual(page.errors, []);
});

test('issue 40: axe finds no serious or critical violation on the re-plan form and the view editor at 1280 and 390 px', async (t) => {
  const x = await schedule('Axe schedule');
  const page = await tab(t);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await page.goto(`${s.us}/app/schedules/${x.id}`);
    await page.getByRole('button', { name: 'Re-plan schedule' }).waitFor();
    await page.getByLabel('Repeats').selectOption('Weekly');
    await page.getByLabel('Ends').selectOption('date');
    await axe(page, `schedule re-plan at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-schedule-${width}.png`), fullPage: true });
    await page.goto(`${s.us}/app/data-sets/${DEMO.offices}`);
    await page.getByRole('button', { name: 'New view' }).click();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Add sort' }).click();
    await axe(page, `view editor at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-dataset-views-${width}.png`), fullPage: true });
  }
  assert.deepEqual(page.errors, []);
});
