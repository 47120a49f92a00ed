// Issue 21 "Start and manage work the way the app does", in headless Chromium: each action
// goes through the v3 operation a client would call, and the API then reads back what the
// page did: a checklist run from a template and its first task completed, a standalone
// task raised and deleted, a schedule created and its run started now, an upgrade started
// and watched to its end, a webhook subscription added and its delivery seen, tags and
// archive of a checklist.
// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { KEYS, DEMO, PATIENCE_MS, type TestServer } from './helpers/server';
import { startReceiver, type Receiver } from './helpers/webhooks';
import { startConsole, stopConsole, type Browser } from './helpers/console';

const { test, before, after } = browserSuite('console managing work in Chromium (issue 21)');

let s: TestServer;
let rx: Receiver;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole({ upgrades: { delayMs: 0 }, webhooks: { retryBaseMs: 1000 } }));
  rx = await startReceiver();
});

after(() => stopConsole(browser, s, rx));

test('issue 21: a checklist run from a template in the page, its first task answered and completed; the API reads back both', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/${DEMO.vendor}`);
  await page.getByRole('heading', { level: 1, name: 'Vendor Review' }).waitFor();
  await page.getByLabel('Checklist name').fill('Console run: Acme Paper');
  await page.getByRole('button', { name: 'Run checklist' }).click();
  await page.getByRole('heading', { level: 1, name: 'Console run: Acme Paper' }).waitFor();
  const key = /\/app\/checklists\/([^/?]+)/.exec(page.url())![1];
  const made = await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`);
  assert.equal(made.status, 200);
  assert.equal(made.body.name, 'Console run: Acme Paper');
  assert.equal(made.body.template.key, DEMO.vendor);

  await page.getByRole('link', { name: 'Collect vendor information' }).click();
  await page.getByRole('heading', { level: 2, name: 'Collect vendor information' }).waitFor();
  await page.getByLabel(/Vendor name/).fill('Acme Paper');
  await page.getByRole('button', { name: 'Save fields' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved 1 field' }).waitFor();
  await page.getByRole('button', { name: 'Complete task' }).click();
  await page.getByTestId('task-status').filter({ hasText: /^Complete$/ }).waitFor();
  const tasks = await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}/tasks`);
  const first = tasks.body.tasks.find((t: { isHeading: boolean }) => !t.isHeading);
  assert.equal(first.name, 'Collect vendor information');
  assert.equal(first.status, 'Complete');
  // A refused run (no name): the API's own 400, in its words.
  await page.goto(`${s.us}/app/templates/${DEMO.vendor}`);
  await page.getByRole('button', { name: 'Run checklist' }).click();
  const direct = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name: '' });
  assert.equal(direct.status, 400);
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  // A template with a parameter: the run form asks for it, and the field it fills reads it back.
  await page.goto(`${s.us}/app/templates/${DEMO.onboarding}`);
  await page.getByLabel('Checklist name').fill('Console run: Ann Lee');
  await page.getByLabel('Parameter employeeName').fill('Ann Lee');
  await page.getByRole('button', { name: 'Run checklist' }).click();
  await page.getByRole('heading', { level: 1, name: 'Console run: Ann Lee' }).waitFor();
  const annKey = /\/app\/checklists\/([^/?]+)/.exec(page.url())![1];
  const annTasks = await s.api(KEYS.admin, 'GET', `/v3/checklists/${annKey}/tasks`);
  const details = annTasks.body.tasks.find((t: { name: string }) => t.name === 'Collect employee details');
  const detail = await s.api(KEYS.admin, 'GET', `/v3/checklists/${annKey}/tasks/${details.key}`);
  assert.equal(detail.body.fields.find((f: { name: string }) => f.name === 'Employee name').value, 'Ann Lee');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21: a standalone task raised from My work, renamed, tagged and deleted in the page', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/my-work`);
  await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
  await page.getByText('New standalone task').click();
  await page.getByLabel('Task name').fill('Order more paper');
  await page.getByRole('button', { name: 'Create task' }).click();
  await page.getByRole('heading', { level: 2, name: 'Order more paper' }).waitFor();
  const key = /\/app\/tasks\/([^/?]+)/.exec(page.url())![1];
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/tasks/${key}`)).body.name, 'Order more paper');

  await page.getByLabel('Rename to').fill('Order more paper (A4)');
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('heading', { level: 2, name: 'Order more paper (A4)' }).waitFor();
  await page.getByLabel('Add a tag').fill('supplies');
  await page.getByRole('button', { name: 'Add task tag' }).click();
  await page.getByRole('status').filter({ hasText: 'Tag supplies added' }).waitFor();
  const tagged = await s.api(KEYS.admin, 'GET', `/v3/tasks/${key}`);
  assert.equal(tagged.body.name, 'Order more paper (A4)');
  assert.deepEqual(tagged.body.tags, ['supplies']);

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete task' }).click();
  await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/tasks/${key}`)).status, 404);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21: a schedule created in the page and its next run started now; the run and its checklist read back through the API', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/schedules`);
  await page.getByRole('heading', { level: 1, name: 'Schedules' }).waitFor();
  await page.getByLabel('Name').fill('Weekly vendor review');
  await page.getByLabel('Template').selectOption(DEMO.vendor);
  await page.getByLabel('Starts (wall clock)').fill('2035-03-05T09:00:00');
  await page.getByLabel('Repeats').selectOption('Weekly');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await page.getByRole('heading', { level: 1, name: 'Weekly vendor review' }).waitFor();
  const id = /\/app\/schedules\/(\d+)/.exec(page.url())![1];
  const made = await s.api(KEYS.admin, 'GET', `/v3/schedules/${id}`);
  assert.equal(made.status, 200);
  assert.equal(made.body.recurrence.frequency, 'Weekly');
  assert.equal(made.body.startDateTime, '2035-03-05T09:00:00');

  const run = page.locator(`[data-run="${made.body.nextRun.id}"]`);
  await run.getByRole('button', { name: 'Create its checklist now' }).click();
  await run.getByTestId('run-status').filter({ hasText: 'Started' }).waitFor();
  const runs = await s.api(KEYS.admin, 'GET', `/v3/schedules/${id}/runs`);
  const started = runs.body.items.find((r: { id: number }) => r.id === made.body.nextRun.id);
  assert.equal(started.status, 'Started');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${started.checklist.key}`)).body.name, 'Weekly vendor review');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21: an upgrade started from the template page is watched to its end', async () => {
  const candidates = await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.onboarding}/upgrades`);
  assert.ok(candidates.body.total >= 1);
  const page = await browser.tab();
  await page.goto(`${s.us}/app/templates/${DEMO.onboarding}`);
  await page.getByRole('heading', { level: 1, name: 'Employee Onboarding' }).waitFor();
  await page.getByTestId('upgrade-candidates').filter({ hasText: `${candidates.body.total} checklist` }).waitFor();
  await page.getByRole('button', { name: /^Upgrade all to version \d+$/ }).click();
  await page.getByTestId('upgrade-progress').filter({ hasText: 'Upgrade finished' }).waitFor({ timeout: PATIENCE_MS });
  const latest = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.onboarding}`)).body.version;
  for (const c of candidates.body.items) assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}`)).body.version, latest);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.onboarding}/upgrades`)).body.total, 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21: a webhook subscription added in the page; its delivery shows under it', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/webhooks`);
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  await page.getByLabel('Event type').selectOption('new_checklist');
  await page.getByLabel('Scope', { exact: true }).selectOption('Template');
  await page.getByLabel('Template key').fill(DEMO.expense);
  await page.getByLabel('Target URL').fill(rx.url);
  await page.getByRole('button', { name: 'Add subscription' }).click();
  const sub = page.getByTestId('subscription').filter({ hasText: rx.url });
  await sub.waitFor();
  const listed = await s.api(KEYS.admin, 'GET', '/v3/webhooks');
  assert.ok(listed.body.items.some((w: { targetUrl: string; eventType: string }) => w.targetUrl === rx.url && w.eventType === 'new_checklist'));
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Hooked' });
  assert.equal(made.status, 201);
  await rx.waitFor(1);
  await sub.getByTestId('subscription-delivery').filter({ hasText: 'delivered' }).waitFor({ timeout: PATIENCE_MS });
  // A refused subscription (not a URL): the API's words.
  await page.getByLabel('Target URL').fill('not a url');
  await page.getByLabel('Target URL').evaluate((el) => el.setAttribute('type', 'text'));
  await page.getByRole('button', { name: 'Add subscription' }).click();
  await page.getByTestId('refusal').filter({ hasText: 'VALIDATION_ERROR' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 21: tags, archive and unarchive of a checklist from its page', async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/checklists/${DEMO.expenseMarch}`);
  await page.getByRole('heading', { level: 1, name: 'Expense Report: March' }).waitFor();
  await page.getByLabel('Add a tag').first().fill('q1');
  await page.getByRole('button', { name: 'Add tag', exact: true }).click();
  await page.getByRole('button', { name: 'Remove tag q1' }).waitFor();
  assert.ok((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.expenseMarch}`)).body.tags.includes('q1'));
  await page.getByRole('button', { name: 'Archive' }).click();
  await page.getByRole('button', { name: 'Unarchive' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.expenseMarch}`)).body.isArchived, true);
  await page.getByRole('button', { name: 'Unarchive' }).click();
  await page.getByRole('button', { name: 'Archive' }).waitFor();
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.expenseMarch}`)).body.isArchived, false);
  await page.getByRole('button', { name: 'Remove tag q1' }).click();
  await page.getByRole('button', { name: 'Remove tag q1' }).waitFor({ state: 'detached' });
  assert.ok(!(await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.expenseMarch}`)).body.tags?.includes('q1'));
  assert.deepEqual(page.errors, []);
  await page.close();
});
