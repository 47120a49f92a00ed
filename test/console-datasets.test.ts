// Issue 21 "Data Set pages", in headless Chromium: the `url` the API gives a Data Set opens
// its page; records through a view, switching views, a filter, adding and editing a record,
// a refused value in the API's words, CSV export and import, and the set's connections.
// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { KEYS, DEMO, type TestServer } from './helpers/server';
import { startConsole, stopConsole, axe, type Browser } from './helpers/console';

const { test, before, after } = browserSuite('console Data Set pages in Chromium (issue 21)');

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole());
});

after(() => stopConsole(browser, s));

 
const records = async (query = ''): Promise<any[]> => (await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}/records?pageSize=100${query}`)).body.items;

test('issue 21 Data Set pages: records through a view, switch view, filter, add and edit a record, a refused value in the API words, export and import, connections', async () => {
  const set = await s.api(KEYS.admin, 'GET', `/v3/data-sets/${DEMO.offices}`);
  const name = set.body.fields.find((f: { name: string }) => f.name === 'Name').key;
  const page = await browser.tab();
  await page.goto(set.body.url);
  await page.getByRole('heading', { level: 1, name: 'Offices' }).waitFor();
  const table = page.getByTestId('records');
  await page.getByText(`1–${set.body.recordCount} of ${set.body.recordCount}`).waitFor();
  const firstColumn = () => table.locator('tbody tr td:first-child').allTextContents();
  assert.deepEqual(await firstColumn(), (await records()).map((r) => r.values[name]));
  await axe(page, 'data set at 1280px');

  // Another view: its filters and sorts, as the API applies them.
  const open = set.body.views.find((v: { name: string }) => v.name === 'Open offices');
  await page.getByLabel('View').selectOption({ label: 'Open offices' });
  const want = (await records(`&viewKey=${open.key}`)).map((r) => r.values[name]);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="records"] tbody tr').length === n, want.length);
  assert.deepEqual(await firstColumn(), want);
  assert.match(page.url(), new RegExp(`view=${open.key}`));
  await page.getByLabel('View').selectOption({ label: 'All Records' });
  await page.getByLabel('Filter the records shown').fill('berl');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="records"] tbody tr').length === 1);
  assert.deepEqual(await firstColumn(), ['Berlin']);
  await page.getByLabel('Filter the records shown').fill('');

  // Add: a refused value first (the API's message), then a good one.
  const form = page.getByRole('form', { name: 'New record' });
  await form.getByLabel('Name').fill('Tromsø');
  await form.getByLabel('Headcount').fill('15');
  await form.getByLabel('Contact').fill('not-an-email');
  await form.getByRole('button', { name: 'Add record' }).click();
  const contact = set.body.fields.find((f: { name: string }) => f.name === 'Contact').key;
  const direct = await s.api(KEYS.admin, 'POST', `/v3/data-sets/${DEMO.offices}/records`, { values: { [name]: 'Tromsø', [contact]: 'not-an-email' } });
  assert.equal(direct.status, 400);
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  await form.getByLabel('Contact').fill('tromso@acme.test');
  await form.getByRole('button', { name: 'Add record' }).click();
  await page.getByRole('status').filter({ hasText: 'Record added' }).waitFor();
  const added = (await records()).find((r) => r.values[name] === 'Tromsø');
  assert.ok(added, 'the API has the new record');
  assert.equal(added.values[set.body.fields.find((f: { name: string }) => f.name === 'Headcount').key], 15);

  // Edit it in place.
  await page.getByRole('button', { name: `Edit record ${added.key}` }).click();
  const edit = page.getByRole('form', { name: `Edit record ${added.key}` });
  await edit.getByLabel('Headcount').fill('16');
  await edit.getByRole('button', { name: 'Save record' }).click();
  await page.getByRole('status').filter({ hasText: 'Record saved' }).waitFor();
  assert.equal((await records()).find((r) => r.key === added.key).values[set.body.fields.find((f: { name: string }) => f.name === 'Headcount').key], 16);

  // Export: the CSV the API exports; import it back changed.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = readFileSync((await download.path())!);
  const apiCsv = Buffer.from(await (await fetch(`${s.us}/v3/data-sets/${DEMO.offices}/export`, { headers: { 'X-API-KEY': KEYS.admin } })).arrayBuffer());
  assert.ok(csv.equals(apiCsv), 'the bytes the API exports');
  const changed = csv.toString('utf8').replace('Tromsø', 'Tromsø Fjord');
  await page.getByLabel('Import CSV (replaces the records)').setInputFiles({ name: 'offices.csv', mimeType: 'text/csv', buffer: Buffer.from(changed) });
  await page.getByRole('status').filter({ hasText: 'Imported offices.csv' }).waitFor();
  assert.ok((await records()).some((r) => r.values[name] === 'Tromsø Fjord'));

  // Connections: the template field that uses the set, with a link.
  await page.getByTestId('connections').getByRole('link', { name: 'Employee Onboarding' }).waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page, 'data set at 390px');
  await page.goto(`${s.us}/app/data-sets`);
  await page.getByRole('link', { name: 'Countries' }).waitFor();
  await axe(page, 'data sets at 390px');
  assert.deepEqual(page.errors, []);
  await page.close();
});
