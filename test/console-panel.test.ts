// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
// Issue 40 "The panel, complete", in headless Chromium: a fault rule added (each option the
// route takes is a control), created keys (the secret shown once) revoked, instances created
// and deleted, the overview's figures; each with the mouse and with the keyboard alone, and
// each read back through the control routes. axe: 0 serious or critical at 1280 and 390 px.
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, DEMO, ROOT, type TestServer } from './helpers/server';
import { startConsole, stopConsole, axe, type Browser, tabFor } from './helpers/console';
import { tabTo, typeInto, chooseOption, press } from './helpers/keyboard-by-name';

const { test, before, after } = browserSuite('console panel in Chromium (issue 40)');
const ARTIFACTS = join(ROOT, 'test-artifacts');

let s: TestServer;
let browser: Browser;

before(async () => {
  ({ s, browser } = await startConsole());
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(() => stopConsole(browser, s));

const tab = (t: { after(fn: () => Promise<void>): void }) => tabFor(browser, t);

const control = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(s.us + path, { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
};

test('issue 40 faults: a rule added with the mouse (path, method, status, Retry-After, times) faults the next call, shows its hit, and is deleted', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/emulator/faults`);
  await page.getByRole('heading', { level: 1, name: 'Emulator: fault rules' }).waitFor();
  await page.getByTestId('no-faults').waitFor();
  await page.getByLabel('Method').selectOption('GET');
  await page.getByLabel('Path pattern').fill('/v3/checklists/*');
  await page.getByLabel('Region').selectOption('US');
  await page.getByLabel('Status', { exact: true }).fill('503');
  await page.getByLabel('Retry-After (s)').fill('30');
  await page.getByLabel('Message').fill('Down for <b>maintenance</b>');
  await page.getByLabel('Times (empty: until removed)').fill('2');
  await page.getByRole('button', { name: 'Add fault rule' }).click();
  const row = page.locator('[data-fault]').first();
  await row.waitFor();
  const rules = (await control('GET', '/_emulator/faults')).body.items;
  assert.equal(rules.length, 1);
  assert.deepEqual({ method: rules[0].method, path: rules[0].path, region: rules[0].region, status: rules[0].status, retryAfter: rules[0].retryAfter, times: rules[0].times, message: rules[0].message },
    { method: 'GET', path: '/v3/checklists/*', region: 'US', status: 503, retryAfter: 30, times: 2, message: 'Down for <b>maintenance</b>' });
  // The rule works: the next GET of a checklist answers 503 with Retry-After, and the page shows the hit.
  const hit = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
  assert.equal(hit.status, 503);
  assert.equal(hit.headers.get('retry-after'), '30');
  await row.getByTestId('fault-hits').filter({ hasText: /^1$/ }).waitFor();
  // A refusal of the route shows in its words: a probability outside 0 to 1.
  await page.getByLabel('Probability (0 to 1)').fill('2');
  await page.getByRole('button', { name: 'Add fault rule' }).click();
  const direct = await control('POST', '/_emulator/faults', { path: '/v3/**', status: 503, probability: 2 });
  assert.equal(direct.status, 400);
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  assert.equal((await control('GET', '/_emulator/faults')).body.items.length, 1);
  await page.screenshot({ path: join(ARTIFACTS, 'console-faults-1280.png'), fullPage: true });
  await row.getByRole('button', { name: `Delete fault rule ${rules[0].id}` }).click();
  await page.getByTestId('no-faults').waitFor();
  assert.deepEqual((await control('GET', '/_emulator/faults')).body.items, []);
  assert.deepEqual(page.errors, []);
});

test('issue 40 faults, keyboard alone: an MCP tool rule with a delay and a seeded probability is added and deleted', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/emulator/faults`);
  await page.getByTestId('no-faults').waitFor();
  // A radio group is one Tab stop; the arrow keys move the choice.
  await tabTo(page, 'a path');
  await page.keyboard.press('ArrowDown');
  await typeInto(page, 'Tool name', 'get_task');
  await chooseOption(page, 'Answer', 'as usual, after a delay');
  await typeInto(page, 'Delay (ms)', '1500');
  await typeInto(page, 'Probability (0 to 1)', '0.5');
  await typeInto(page, 'Seed', '7');
  await press(page, 'Add fault rule');
  await page.locator('[data-fault]').first().waitFor();
  const [rule] = (await control('GET', '/_emulator/faults')).body.items;
  assert.deepEqual({ tool: rule.tool, delayMs: rule.delayMs, probability: rule.probability, seed: rule.seed, status: rule.status }, { tool: 'get_task', delayMs: 1500, probability: 0.5, seed: 7, status: undefined });
  await page.keyboard.press('Shift+Tab'); // back up the page, to the rule's Delete button further down
  await tabTo(page, `Delete fault rule ${rule.id}`);
  await page.keyboard.press('Enter');
  await page.getByTestId('no-faults').waitFor();
  assert.deepEqual((await control('GET', '/_emulator/faults')).body.items, []);
  assert.deepEqual(page.errors, []);
});

test('issue 40 keys: a key created with the mouse is shown once and works; edited; revoked and marked, then refused by the API; expired keys marked', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/emulator/keys`);
  await page.getByRole('heading', { level: 1, name: 'Emulator: API keys' }).waitFor();
  // The fixture's revoked and expired keys are marked.
  const listed = (await control('GET', '/_emulator/keys')).body.items;
  const expired = listed.find((k: any) => k.state === 'expired');
  const revoked = listed.find((k: any) => k.state === 'revoked');
  await page.locator(`[data-key-id="${expired.id}"]`).getByTestId('key-state').filter({ hasText: 'expired' }).waitFor();
  await page.locator(`[data-key-id="${revoked.id}"]`).getByTestId('key-state').filter({ hasText: 'revoked' }).waitFor();
  await page.getByLabel('Workspace').selectOption(DEMO.acme);
  await page.getByLabel('Key name').fill('CI robot');
  await page.getByLabel('Member id').fill(String(DEMO.members.omar));
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('new-key-value').textContent())!;
  assert.match(secret, /^wfe_/);
  // The key works at once, as the member it acts as.
  const me = await s.api(secret, 'GET', '/v3/auth/test');
  assert.equal(me.status, 200, me.text);
  const made = (await control('GET', '/_emulator/keys')).body.items.find((k: any) => k.name === 'CI robot');
  assert.equal(made.actsAs.id, DEMO.members.omar);
  await page.getByRole('button', { name: 'I have copied it' }).click();
  assert.equal(await page.getByTestId('new-key-value').count(), 0); // shown once
  const row = page.locator(`[data-key-id="${made.id}"]`);
  await row.getByRole('button', { name: 'Edit key CI robot' }).click();
  await row.getByLabel('Name').fill('CI robot (nightly)');
  await row.getByLabel('Expires (empty: never)').fill('2099-12-31');
  await row.getByRole('button', { name: 'Save key' }).click();
  await row.getByRole('cell', { name: 'CI robot (nightly)', exact: true }).waitFor();
  const edited = (await control('GET', `/_emulator/keys/${made.id}`)).body;
  assert.equal(edited.name, 'CI robot (nightly)');
  assert.equal(edited.expiresOn, '2099-12-31');
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Revoke key CI robot (nightly)' }).click();
  await row.getByTestId('key-state').filter({ hasText: 'revoked' }).waitFor();
  assert.equal((await control('GET', `/_emulator/keys/${made.id}`)).body.state, 'revoked');
  const refused = await s.api(secret, 'GET', '/v3/auth/test');
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error.code, 'API_KEY_REVOKED');
  // A refusal of the route shows in its words: a Guest cannot be acted as (spec v3 5.2).
  await page.getByLabel('Key name').fill('guest key');
  await page.getByLabel('Member id').fill(String(DEMO.members.gus));
  await page.getByRole('button', { name: 'Create key' }).click();
  const direct = await control('POST', '/_emulator/keys', { workspace: DEMO.acme, name: 'guest key', actsAs: { type: 'member', id: DEMO.members.gus } });
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'console-keys-1280.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('issue 40 keys, keyboard alone: a workspace key created, its secret read, then revoked', async (t) => {
  const page = await tab(t);
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${s.us}/app/emulator/keys`);
  await page.getByRole('heading', { level: 1, name: 'Emulator: API keys' }).waitFor();
  await page.locator('[data-key-id]').first().waitFor();
  await typeInto(page, 'Key name', 'Keyboard key');
  await chooseOption(page, 'Acts as', 'the workspace');
  await typeInto(page, 'Key value (empty: generated)', 'kbd-key-0001');
  await press(page, 'Create key');
  await page.getByTestId('new-key-value').filter({ hasText: 'kbd-key-0001' }).waitFor();
  assert.equal((await s.api('kbd-key-0001', 'GET', '/v3/auth/test')).status, 200);
  const made = (await control('GET', '/_emulator/keys')).body.items.find((k: any) => k.name === 'Keyboard key');
  assert.deepEqual(made.actsAs, { type: 'workspace' });
  await press(page, 'Revoke key Keyboard key');
  await page.locator(`[data-key-id="${made.id}"]`).getByTestId('key-state').filter({ hasText: 'revoked' }).waitFor();
  assert.equal((await s.api('kbd-key-0001', 'GET', '/v3/auth/test')).status, 401);
  assert.deepEqual(page.errors, []);
});

test('issue 40 instances: one created with the mouse (fixture, frozen clock, budget) is listed with its addresses and console link, then deleted; another with the keyboard alone', async (t) => {
  const page = await tab(t);
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${s.us}/app/emulator/instances`);
  await page.getByRole('heading', { level: 1, name: 'Emulator: instances' }).waitFor();
  await page.getByLabel('Fixture').fill('demo');
  await page.getByLabel('Clock (UTC)').fill('2030-01-31T09:00:00');
  await page.getByLabel('frozen').check();
  await page.getByLabel('Standard budget').fill('50');
  await page.getByRole('button', { name: 'Create instance' }).click();
  const row = page.locator('[data-instance]').first();
  await row.waitFor();
  const [inst] = (await control('GET', '/_emulator/instances')).body.items;
  assert.equal(inst.fixture, 'demo');
  await row.getByRole('link', { name: inst.baseUrls.US }).waitFor();
  assert.equal(await row.getByRole('link', { name: inst.baseUrls.US }).getAttribute('href'), `${inst.baseUrls.US}/app`);
  const clock = await (await fetch(`${inst.baseUrls.US}/_emulator/clock`)).json();
  assert.deepEqual({ now: clock.now, frozen: clock.frozen }, { now: '2030-01-31T09:00:00.000Z', frozen: true });
  const spent = await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, {}, inst.baseUrls.US);
  assert.equal(spent.headers.get('x-ratelimit-limit'), spent.headers.get('x-ratelimit-bucket') === 'standard' ? '50' : spent.headers.get('x-ratelimit-limit'));
  // A refusal in the route's words: an unknown fixture.
  await page.getByLabel('Fixture').fill('../etc');
  await page.getByRole('button', { name: 'Create instance' }).click();
  const direct = await control('POST', '/_emulator/instances', { fixture: '../etc' });
  await page.getByTestId('refusal').filter({ hasText: direct.body.error.message }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'console-instances-1280.png'), fullPage: true });
  await row.getByRole('button', { name: `Delete instance ${inst.id}` }).click();
  await page.locator(`[data-instance="${inst.id}"]`).waitFor({ state: 'detached' });
  assert.equal((await control('GET', `/_emulator/instances/${inst.id}`)).status, 404);

  // Keyboard alone: the defaults, then delete.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Emulator: instances' }).waitFor();
  await typeInto(page, 'Fixture', '');
  await press(page, 'Create instance');
  await page.locator('[data-instance]').first().waitFor();
  const [second] = (await control('GET', '/_emulator/instances')).body.items;
  await press(page, `Delete instance ${second.id}`);
  await page.locator(`[data-instance="${second.id}"]`).waitFor({ state: 'detached' });
  assert.deepEqual((await control('GET', '/_emulator/instances')).body.items, []);
  assert.deepEqual(page.errors, []);
});

test('issue 40 overview: budgets spent per workspace, deliveries, instances and database size; re-read as requests are journaled', async (t) => {
  const page = await tab(t);
  await page.goto(`${s.us}/app/emulator`);
  const acme = page.locator(`[data-workspace="${DEMO.acme}"]`);
  await acme.waitFor();
  await page.getByTestId('overview-database').filter({ hasText: /\d+(\.\d)? (KB|MB) \(memory/ }).waitFor();
  await page.getByTestId('overview-instances').filter({ hasText: /0 running of at most \d+/ }).waitFor();
  await page.getByTestId('overview-deliveries').filter({ hasText: /\d+ pending/ }).waitFor();
  await page.getByTestId('overview-clock').filter({ hasText: /^\d{4}-\d\d-\d\d \d\d:\d\d UTC \((running|frozen)\)/ }).waitFor();
  const o = (await control('GET', '/_emulator/overview')).body;
  const used = o.workspaces.find((w: any) => w.key === DEMO.acme).budgets.standard.used;
  await acme.getByText(`${used} of ${o.workspaces[0].budgets.standard.limit}`).first().waitFor();
  for (let i = 0; i < 3; i++) await s.api(KEYS.member, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name: `Spend ${i}` });
  const now = (await control('GET', '/_emulator/overview')).body.workspaces.find((w: any) => w.key === DEMO.acme).budgets.standard.used;
  assert.ok(now >= used + 3);
  await acme.getByText(`${now} of `).first().waitFor();
  assert.deepEqual(page.errors, []);
});

test('issue 40: axe finds no serious or critical violation on the panel pages at 1280 and 390 px; screenshots', async (t) => {
  const page = await tab(t);
  await control('POST', '/_emulator/faults', { path: '/v3/nothing/**', status: 500, times: 1 });
  for (const [name, path] of [['overview', '/app/emulator'], ['faults', '/app/emulator/faults'], ['keys', '/app/emulator/keys'], ['instances', '/app/emulator/instances']]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      await page.goto(s.us + path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await axe(page, `${name} at ${width}px`);
      await page.screenshot({ path: join(ARTIFACTS, `console-panel-${name}-${width}.png`), fullPage: true });
    }
  }
  await control('DELETE', '/_emulator/faults');
  assert.deepEqual(page.errors, []);
});
