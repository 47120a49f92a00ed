// Issue 17, the web console, driven in a real headless Chromium (Debian's `chromium`,
// playwright-core): every `url` the API returns opens in the console; a required field is
// answered and the task completed through the page; the task_completed delivery shows in
// the panel with its exact body and signature; the clock moves and a task turns overdue
// without a reload; refusals are the API's words; HTML stays text; axe-core finds nothing
// serious; --admin-token and --no-admin. Screenshots go to test-artifacts/ (gitignored).
// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, KEYS, DEMO, PATIENCE_MS, ROOT, type TestServer } from './helpers/server';
import { startReceiver, type Receiver } from './helpers/webhooks';
import { browserSuite, CHROMIUM } from './helpers/browser';

const { test, before, after } = browserSuite('web console in Chromium (issue 17)');

const ARTIFACTS = join(ROOT, 'test-artifacts');
const SECRET = 'console-test-secret';

let s: TestServer;
let rx: Receiver;
let browser: BrowserContext;
let profile: string;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  s = await startTestServer({ webhooks: { retryBaseMs: 1000 } });
  rx = await startReceiver();
  // From source the client is bundled on the first page asked for; the single executable
  // ships it built. Bundle it now so the first page measured below is a page, not a build.
  assert.equal((await fetch(`${s.us}/app`)).status, 200);
  profile = mkdtempSync(join(tmpdir(), 'wfe-console-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  // Each address acts as its region's Administrator, as if chosen on the first visit (issue 40 asks).
  await browser.addInitScript((chosen: Record<string, string>) => {
    const k = chosen[location.origin];
    try {
      if (k && !localStorage.getItem('wfe.console.key')) localStorage.setItem('wfe.console.key', k);
    } catch {
      /* about:blank has no storage */
    }
  }, { [new URL(s.us).origin]: KEYS.admin, [new URL(s.eu).origin]: KEYS.globexAdmin });
});

after(async () => {
  await browser?.close();
  await s?.close();
  await rx?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A fresh tab that fails the test on any script error in the page. */
async function tab(): Promise<Page & { errors: string[] }> {
  const page = (await browser.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

async function axe(page: Page, label: string) {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help, target: v.nodes[0]?.target }));
  });
  const serious = result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${label}: axe-core serious violations ${JSON.stringify(serious)}`);
}

test('issue 17: a checklist url from an API answer opens; a required field is answered, the task completed, and the task_completed delivery shows in the panel with its exact body and signature', async () => {
  const sub = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: rx.url, secret: SECRET });
  assert.equal(sub.status, 201, sub.text);
  const checklist = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
  assert.equal(checklist.status, 200);
  const page = await tab();

  const started = Date.now();
  await page.goto(checklist.body.url);
  await page.getByRole('heading', { level: 1, name: 'Onboarding: Jane Doe' }).waitFor();
  await page.locator(`[data-task="${DEMO.tasks.collectDetails}"]`).waitFor();
  const firstPageMs = Date.now() - started;
  // The page's own clock: navigation start to the tasks on screen (logged; the 200 ms aim is for an idle machine).
  const rendered = await page.evaluate(() => Math.round(performance.getEntriesByName('wfe-first-content')[0]?.startTime ?? -1));
  console.log(`console: first page ${firstPageMs} ms by the test's clock, first content at ${rendered} ms by the page's`);
  assert.ok(rendered > 0);

  // Tasks in order, with the stop task named and the tasks behind it halted.
  await page.locator(`[data-task="${DEMO.tasks.managerApproval}"]`).getByText('Stop task').waitFor();
  assert.match((await page.locator(`[data-task="${DEMO.tasks.setUpEquipment}"]`).textContent())!, /Halted/);
  assert.match((await page.locator(`[data-task="${DEMO.tasks.contractorAgreement}"]`).textContent())!, /Hidden by a condition/);
  assert.deepEqual(
    await page.locator('ol.tasks > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-task') ?? 'heading')),
    ['heading', DEMO.tasks.collectDetails, DEMO.tasks.contractorAgreement, DEMO.tasks.managerApproval, DEMO.tasks.setUpEquipment, DEMO.tasks.firstDayWelcome],
  );
  await page.getByRole('link', { name: 'Collect employee details' }).click();
  await page.getByRole('heading', { level: 2, name: 'Collect employee details' }).waitFor();
  assert.match(page.url(), new RegExp(`/app/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}$`));

  // Completing with the required field unanswered: the API's 409, in its words.
  await page.getByRole('button', { name: 'Complete task' }).click();
  const conflict = page.getByTestId('refusal').filter({ hasText: 'CONFLICT' });
  await conflict.waitFor();
  const direct = await s.api(KEYS.member, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/complete`);
  assert.equal(direct.status, 409);
  assert.ok((await conflict.textContent())!.includes(direct.body.error.message), 'the page shows the API message');

  // A wrong answer: the template's regexMessage, as the API words it.
  const employeeId = page.getByLabel(/Employee ID/);
  await employeeId.fill('nope');
  await page.getByRole('button', { name: 'Save fields' }).click();
  await page.getByTestId('refusal').filter({ hasText: 'Employee IDs look like E1234.' }).waitFor();

  await employeeId.fill('E1234');
  await page.getByRole('button', { name: 'Save fields' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved 1 field' }).waitFor();
  await page.getByRole('button', { name: 'Complete task' }).click();
  await page.getByTestId('task-status').filter({ hasText: /^Complete$/ }).waitFor();
  const after = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}`);
  assert.equal(after.body.status, 'Complete');
  assert.equal(after.body.fields.find((f: { name: string }) => f.name === 'Employee ID').value, 'E1234');
  // The journal says who did it: the picked key, through the console's own route family, as
  // console traffic (shown only when asked for, so a test's journal stays its own).
  const isTheCompletion = (e: { method: string; path: string; status: number; keyName?: string; console?: boolean }) =>
    e.method === 'POST' && e.path === `/app/_/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/complete` && e.status === 200 && e.keyName === "Ada's integration" && e.console === true;
  const journal = await (await fetch(`${s.us}/_emulator/journal?limit=50&console=true`)).json();
  assert.ok(journal.items.some(isTheCompletion), 'the console write, marked as console traffic');
  const byDefault = await (await fetch(`${s.us}/_emulator/journal?limit=1000`)).json();
  assert.ok(!byDefault.items.some((e: { path: string; console?: boolean }) => e.console || e.path.startsWith('/app')), 'hidden by default');

  const [received] = await rx.waitFor(1);
  await page.getByRole('link', { name: 'Emulator' }).click();
  await page.getByRole('heading', { level: 1, name: 'Emulator' }).waitFor();
  const delivery = page.locator('[data-testid="delivery"][data-event="task_completed"]').first();
  await delivery.waitFor();
  await delivery.locator('summary').first().click();
  assert.equal(await delivery.getByTestId('delivery-body').textContent(), received.body, 'the body exactly as the receiver got it');
  const signature = received.headers['svc-signature'];
  assert.match(String(signature), /^sha256=[0-9a-f]{64}$/);
  assert.ok((await delivery.getByTestId('delivery-headers').textContent())!.toLowerCase().includes(`svc-signature: ${signature}`), 'the signature header as sent');
  assert.match((await delivery.locator('summary').first().textContent())!, /1 attempt/);
  await page.screenshot({ path: join(ARTIFACTS, 'console-panel-1280.png'), fullPage: true });

  // Replay from the panel: a second delivery of the same bytes.
  await delivery.getByRole('button', { name: 'Replay' }).click();
  const [, second] = await rx.waitFor(2);
  assert.equal(second.body, received.body);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 17: the clock advanced in the panel makes a task overdue, and a change made through the API shows without a reload', async (t) => {
  const page = await tab();
  const task = await s.api(KEYS.admin, 'GET', `/v3/tasks/${DEMO.renewInsurance}`);
  assert.equal(task.status, 200, task.text);
  await page.goto(`${s.us}/app/emulator`);
  await page.getByRole('heading', { level: 2, name: 'Clock' }).waitFor();

  // Opened in a second tab: the task page, which must change without being reloaded.
  const taskPage = await tab();
  await taskPage.goto(task.body.url ?? `${s.us}/app/tasks/${DEMO.renewInsurance}`);
  await taskPage.getByRole('heading', { level: 2, name: 'Renew insurance' }).waitFor();
  assert.equal(await taskPage.locator('.badge-Overdue').count(), 0, 'due in 7 days: not overdue yet');

  const before = await page.getByTestId('clock-now').getAttribute('datetime');
  await page.getByLabel('Advance by').fill('8');
  await page.getByLabel('Unit').selectOption('days');
  await page.getByRole('button', { name: 'Advance' }).click();
  // A running clock's card shows the time of its last render: wait for the advance itself.
  await page.waitForFunction((b) => Date.parse(document.querySelector('[data-testid="clock-now"]')?.getAttribute('datetime') ?? '') - Date.parse(b!) >= 8 * 86_400_000, before);
  const moved = Date.parse((await page.getByTestId('clock-now').getAttribute('datetime'))!) - Date.parse(before!);
  assert.ok(moved >= 8 * 86_400_000 && moved < 8 * 86_400_000 + 60_000, `moved ${moved} ms`);

  await taskPage.locator('.badge-Overdue').first().waitFor({ timeout: PATIENCE_MS });
  await taskPage.screenshot({ path: join(ARTIFACTS, 'console-overdue-1280.png'), fullPage: true });

  // Completed by someone else through the API: the open page follows.
  const done = await s.api(KEYS.admin, 'POST', `/v3/tasks/${DEMO.renewInsurance}/complete`);
  assert.equal(done.status, 200, done.text);
  await taskPage.getByTestId('task-status').filter({ hasText: /^Complete$/ }).waitFor({ timeout: PATIENCE_MS });
  assert.equal(await taskPage.locator('.badge-Overdue').count(), 0);

  // A checklist completed by a test shows as complete in an open page, without a reload.
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Console live check' });
  assert.equal(made.status, 201, made.text);
  await taskPage.goto(made.body.url);
  await taskPage.getByTestId('checklist-status').filter({ hasText: /^InProgress$/ }).waitFor();
  const base = `/v3/checklists/${made.body.key}/tasks`;
  assert.equal((await s.api(KEYS.admin, 'PUT', `${base}/21000000-0000-4000-8000-000000000201/fields/22000000-0000-4000-8000-000000000202`, { value: '12.50' })).status, 200);
  for (const t of ['201', '202', '203']) assert.equal((await s.api(KEYS.admin, 'POST', `${base}/21000000-0000-4000-8000-000000000${t}/complete`)).status, 200);
  const t0 = Date.now();
  await taskPage.getByTestId('checklist-status').filter({ hasText: /^Complete$/ }).waitFor({ timeout: PATIENCE_MS });
  t.diagnostic(`checklist shown complete ${Date.now() - t0} ms after the last API write`);
  assert.deepEqual([...page.errors, ...taskPage.errors], []);
  await page.close();
  await taskPage.close();
});

test('issue 17 panel: the journal follows requests live; export downloads the database, import and reset answer in the page', async () => {
  const page = await tab();
  await page.goto(`${s.us}/app/emulator`);
  const journal = page.getByTestId('journal');
  await journal.waitFor();
  const marker = `console-journal-${Date.now()}`;
  const r = await s.api(KEYS.member, 'GET', '/v3/auth/test', undefined, { 'X-Request-Id': marker });
  assert.equal(r.status, 200);
  // No reload: the row arrives through the change feed.
  await journal.getByRole('cell', { name: '/v3/auth/test' }).first().waitFor({ timeout: PATIENCE_MS });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export the database' }).click()]);
  const file = join(ARTIFACTS, 'console-export.sqlite');
  await download.saveAs(file);
  assert.equal(readFileSync(file).subarray(0, 15).toString('latin1'), 'SQLite format 3');
  await page.getByLabel('Import a database file').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: 'Imported console-export.sqlite' }).waitFor();

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Reset to the fixture' }).click();
  await page.getByRole('status').filter({ hasText: 'Reset to the fixture' }).waitFor();
  // A refusal of a control route is shown as the emulator words it.
  await page.getByLabel('Set to (ISO 8601)').fill('yesterday');
  await page.getByRole('button', { name: 'Set clock' }).click();
  await page.getByTestId('refusal').filter({ hasText: '400 VALIDATION_ERROR' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 17 bad input: a malformed or unknown key shows the API refusal; a key of the other region gets 421 WRONG_REGION; HTML in names and answers is text', async () => {
  const page = await tab();
  await page.goto(`${s.us}/app/checklists/not-a-guid`);
  const bad = page.getByTestId('refusal');
  await bad.waitFor();
  const api400 = await s.api(KEYS.admin, 'GET', '/v3/checklists/not-a-guid');
  assert.ok((await bad.textContent())!.includes('400 VALIDATION_ERROR'));
  assert.ok((await bad.textContent())!.includes(api400.body.error.message));
  assert.ok((await bad.textContent())!.includes(`field: ${api400.body.error.field}`));

  await page.goto(`${s.us}/app/checklists/30000000-0000-4000-8000-00000000ffff`);
  await page.getByTestId('refusal').filter({ hasText: '404 CHECKLIST_NOT_FOUND' }).waitFor();
  await page.goto(`${s.us}/app/templates/20000000-0000-4000-8000-00000000ffff`);
  await page.getByTestId('refusal').filter({ hasText: '404' }).waitFor();

  const evil = '<img src=x onerror="window.__pwned=1"><b>bold</b><script>window.__pwned=2</script>';
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name: evil });
  assert.equal(made.status, 201, made.text);
  const answered = await s.api(KEYS.admin, 'PUT', `/v3/checklists/${made.body.key}/tasks/${DEMO.tasks.collectDetails}/fields/22000000-0000-4000-8000-000000000112`, { value: evil });
  assert.equal(answered.status, 200, answered.text);
  const commented = await s.api(KEYS.admin, 'POST', `/v3/checklists/${made.body.key}/tasks/${DEMO.tasks.collectDetails}/comments`, { text: evil });
  assert.equal(commented.status, 201, commented.text);
  await page.goto(`${s.us}/app/checklists/${made.body.key}/tasks/${DEMO.tasks.collectDetails}`);
  await page.getByRole('heading', { level: 1 }).filter({ hasText: 'bold' }).waitFor();
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), evil);
  assert.equal(await page.getByLabel(/Employee name/).inputValue(), evil);
  assert.equal(await page.getByTestId('comment').locator('.comment-text').textContent(), evil);
  assert.equal(await page.locator('main img, main b, main script').count(), 0, 'no element was made from the strings');
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);

  // Acting as the EU key on the US address: the API's 421 and the way to the right address.
  await page.getByLabel('or a key').fill(KEYS.globexAdmin);
  await page.getByRole('button', { name: 'Use' }).click();
  const wrong = page.getByTestId('refusal').filter({ hasText: '421 WRONG_REGION' });
  await wrong.waitFor();
  assert.ok((await wrong.getByRole('link').getAttribute('href'))!.startsWith(s.eu));
  await page.getByLabel('Act as').selectOption(KEYS.admin);
  await page.getByRole('heading', { level: 1 }).filter({ hasText: 'bold' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 17: axe-core finds no serious violation at 1280 and 390 px; screenshots at both widths', async () => {
  const page = await tab();
  const schedule = await s.api(KEYS.admin, 'POST', '/v3/schedules', { name: 'Axe schedule', templateKey: DEMO.vendor, timeZone: 'UTC', startDateTime: '2035-01-01T09:00:00', recurrence: { frequency: 'Daily' } });
  assert.equal(schedule.status, 201, schedule.text);
  const standalone = await s.api(KEYS.admin, 'POST', '/v3/tasks', { name: 'Axe standalone task' });
  assert.equal(standalone.status, 201, standalone.text);
  // Every page type the console has, at both widths.
  const pages: [string, string, string][] = [
    ['checklist', `/app/checklists/${DEMO.johnRoe}/tasks/${DEMO.tasks.collectDetails}`, 'Collect employee details'],
    ['panel', '/app/emulator', 'Emulator'],
    ['checklists', '/app/checklists', 'Checklists'],
    ['templates', '/app/templates', 'Templates'],
    ['template', `/app/templates/${DEMO.onboarding}`, 'Employee Onboarding'],
    ['my-work', '/app/my-work', 'My work'],
    ['standalone task', `/app/tasks/${standalone.body.key}`, 'Axe standalone task'],
    ['members', '/app/members', 'Members'],
    ['groups', '/app/groups', 'Groups'],
    ['group', `/app/groups/${DEMO.groups.operations}`, 'Operations'],
    ['schedules', '/app/schedules', 'Schedules'],
    ['schedule', `/app/schedules/${schedule.body.id}`, 'Axe schedule'],
    ['webhooks', '/app/webhooks', 'Webhooks'],
    ['data sets', '/app/data-sets', 'Data Sets'],
    ['data set', `/app/data-sets/${DEMO.offices}`, 'Offices'],
    ['not found', '/app/nowhere', 'Not found'],
  ];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    for (const [name, path, heading] of pages) {
      await page.goto(s.us + path);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => {});
      await axe(page, `${name} at ${width}px`);
      if (name === 'checklist' || name === 'panel') await page.screenshot({ path: join(ARTIFACTS, `console-${name}-${width}.png`), fullPage: true });
      // Nothing wider than the window at 390 px but the scrollable regions made for it.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
    }
  }
  // The checklist list's filters are the API's: template and status narrow what GET /v3/checklists answers.
  await page.goto(`${s.us}/app/checklists`);
  await page.getByRole('heading', { level: 1, name: 'Checklists' }).waitFor();
  await page.getByRole('link', { name: 'Onboarding: Jane Doe' }).waitFor();
  await page.getByLabel('Template').selectOption(DEMO.expense);
  await page.getByLabel('Status').selectOption('Complete');
  await page.getByRole('button', { name: 'Apply' }).click();
  const want = await s.api(KEYS.admin, 'GET', `/v3/checklists?templateKey=${DEMO.expense}&status=Complete&pageSize=100&sort=name`);
  await page.getByRole('link', { name: 'Onboarding: Jane Doe' }).waitFor({ state: 'detached' });
  assert.deepEqual(await page.locator('main tbody tr td:first-child a').allTextContents(), want.body.items.map((c: { name: string }) => c.name));
  // Keyboard: the skip link is the first stop and lands on the main landmark.
  await page.goto(`${s.us}/app/checklists`);
  await page.getByRole('heading', { level: 1, name: 'Checklists' }).waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 17: --admin-token signs the panel in with the token; --no-admin leaves the app pages, acting with a key the user gives', async () => {
  const guarded = await startTestServer({ adminToken: 'console-token' });
  const off = await startTestServer({ noAdmin: true });
  try {
    const page = await tab();
    await page.goto(`${guarded.us}/app/emulator`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to the emulator panel' }).waitFor();
    await page.getByLabel('Admin token').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('refusal').filter({ hasText: '401 INVALID_ADMIN_TOKEN' }).waitFor();
    await page.getByLabel('Admin token').fill('console-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 2, name: 'Clock' }).waitFor();
    await page.getByTestId('clock-now').waitFor();
    // Signed in, the picker lists the fixture's keys and the app pages act with the one chosen (issue 40: asked, not picked).
    await page.getByRole('link', { name: 'Checklists' }).click();
    await page.getByRole('button', { name: new RegExp(`^Act as .*${KEYS.admin}$`) }).click();
    await page.getByRole('link', { name: 'Onboarding: Jane Doe' }).waitFor();

    await page.goto(`${off.us}/app/checklists`);
    await page.getByRole('heading', { level: 1, name: 'Who do you want to act as?' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Emulator' }).count(), 0, 'no panel link');
    assert.equal(await page.getByLabel('Act as').count(), 0, 'no key list without the control routes');
    assert.equal((await fetch(`${off.us}/_emulator/console/keys`)).status, 404);
    await page.getByRole('main').getByLabel('API key').fill(KEYS.member);
    await page.getByRole('button', { name: 'Act with this key' }).click();
    await page.getByRole('link', { name: 'Onboarding: Jane Doe' }).waitFor();
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operations' }).waitFor();
    await page.getByRole('cell', { name: 'Mia Member' }).waitFor();
    await page.goto(`${off.us}/app/emulator`);
    await page.getByText('The emulator panel is off (--no-admin).').waitFor();
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    await guarded.close();
    await off.close();
  }
});

test('issue 17 my work (spec v3 4.5, 4.6): the Tasks grid as the picked member, a saved view applied, snooze and end snooze of a selected row', async (t) => {
  const probe = await s.api(KEYS.member, 'GET', '/v3/my-work');
  if (probe.status === 404 && probe.body?.error?.code === 'NOT_FOUND') return t.skip('this build has no Tasks grid (GET /v3/my-work): the page shows that 404');
  const page = await tab();
  await page.goto(`${s.us}/app/my-work`);
  await page.getByLabel('Act as').selectOption(KEYS.member);
  const rows = page.locator('main table tbody tr');
  await page.getByRole('link', { name: 'Renew insurance' }).waitFor();
  const open = await rows.count();
  assert.equal(open, probe.body.items.length, 'the default list is the API default');

  await page.getByLabel('Saved view').selectOption({ label: 'All tasks' });
  await page.waitForFunction((n) => document.querySelectorAll('main table tbody tr').length > n, open);

  await page.getByRole('checkbox', { name: 'Select Renew insurance' }).check();
  await page.getByLabel(/Snooze the selected tasks until/).fill('2099-01-01T00:00');
  await page.getByRole('button', { name: 'Snooze', exact: true }).click();
  await page.getByRole('status').filter({ hasText: /^Snoozed$/ }).waitFor();
  const snoozed = await s.api(KEYS.member, 'GET', `/v3/tasks/${DEMO.renewInsurance}/snooze`);
  assert.equal(snoozed.body.isSnoozed, true);
  await page.getByRole('row', { name: /Renew insurance/ }).getByText('Snoozed').waitFor();

  await page.getByRole('checkbox', { name: 'Select Renew insurance' }).check();
  await page.getByRole('button', { name: 'End snooze' }).click();
  await page.getByRole('status').filter({ hasText: 'Snooze ended' }).waitFor();
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/tasks/${DEMO.renewInsurance}/snooze`)).body.isSnoozed, false);

  // A refusal of the grid in the API's words: a snooze date in the past.
  await page.getByRole('checkbox', { name: 'Select Renew insurance' }).check();
  await page.getByLabel(/Snooze the selected tasks until/).fill('2000-01-01T00:00');
  await page.getByRole('button', { name: 'Snooze', exact: true }).click();
  await page.getByTestId('refusal').filter({ hasText: '400 VALIDATION_ERROR' }).waitFor();
  await page.getByLabel('Act as').selectOption(KEYS.admin);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 17: console routes answer like the rest of the address: GET only, unknown assets 404, the shell is inert', async () => {
  const post = await fetch(`${s.us}/app/checklists`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET');
  assert.equal((await post.json()).error.code, 'METHOD_NOT_ALLOWED');
  const missing = await fetch(`${s.us}/app/_/nothing.js`);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, 'NOT_FOUND');
  const shell = await fetch(`${s.eu}/app/checklists/${DEMO.globexChecklist}`);
  assert.equal(shell.status, 200);
  assert.match(shell.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await shell.text();
  assert.match(html, /"region":"EU"/);
  const asset = /src="(\/app\/_\/app\.[0-9a-f]{12}\.js)"/.exec(html)![1];
  const js = await fetch(s.eu + asset);
  assert.equal(js.status, 200);
  assert.match(js.headers.get('cache-control') ?? '', /immutable/);
});
