// test:slow: drives a headless Chromium (and needs one: see test/helpers/browser.ts).
// Issue 40 "Pickers" and "Refusals in plain words, at their place", in headless Chromium:
// assign through the people-and-groups picker (search by name or email, groups marked), set
// a due date through the date-and-time picker (the acting member's zone shown, UTC sent),
// mention with `@` in a comment, snooze and move the clock through the same date picker;
// each with the mouse and with the keyboard alone, read back through the API. A refusal's
// `field` is shown at the control it names, under its label, with the API's message intact;
// the newest refusal replaces the old one. axe at 1280 and 390 px with the picker open.
import { browserSuite } from './helpers/browser';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, DEMO, type TestServer } from './helpers/server';
import { startConsole, stopConsole, axe, type Browser } from './helpers/console';
import { press, typeInto, tabTo } from './helpers/keyboard';

const { test, before, after } = browserSuite('console pickers in Chromium (issue 40)');
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

let s: TestServer;
let browser: Browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ s, browser } = await startConsole());
});

after(() => stopConsole(browser, s));

/** A fresh checklist of the onboarding template (so each test has its own tasks), and its first task's page path. */
async function freshTask(name: string): Promise<{ path: string; base: string }> {
  const c = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name });
  assert.equal(c.status, 201, c.text);
  const tasks = await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.body.key}/tasks`);
  const task = tasks.body.tasks.find((t: any) => !t.isHeading);
  return { path: `/app/checklists/${c.body.key}/tasks/${task.key}`, base: `/v3/checklists/${c.body.key}/tasks/${task.key}` };
}

// The tests act as acme-admin-key, Ada Admin, whose profile zone in the demo fixture is
// America/New_York: the date picker shows that zone and sends the instant its wall clock is there.
const ADA_ZONE = 'America/New_York';

test('issue 40 (4.3 assignees, due date, comments): assign through the picker, a due date through the date picker and an @ mention, with the mouse', async () => {
  const page = await browser.tab();
  const t = await freshTask('Pickers with the mouse');
  await page.goto(s.us + t.path);
  await page.getByRole('heading', { level: 2 }).first().waitFor();
  // Search by email: the match lists name and email; a group is marked as one.
  const picker = page.getByRole('combobox', { name: 'Assignees (people and groups)' });
  await picker.click();
  await picker.fill('omar@');
  await page.getByRole('listbox').getByRole('option', { name: /Omar Owner/ }).filter({ hasText: 'omar@acme.test' }).click();
  await picker.fill('oper');
  const group = page.getByRole('listbox').getByRole('option', { name: /Operations/ });
  await group.getByText('group').waitFor();
  await group.click();
  await page.getByRole('button', { name: 'Save assignees' }).click();
  await page.getByRole('status').filter({ hasText: 'Assignees set' }).waitFor();
  const assigned = (await s.api(KEYS.admin, 'GET', t.base)).body.assignees.map((a: any) => `${a.type}:${a.id}`).sort();
  assert.deepEqual(assigned, [`Group:${DEMO.groups.operations}`, `TeamMember:${DEMO.members.omar}`]);

  // The date picker: the acting member's zone named, the UTC instant it sends said, and sent.
  await page.getByLabel('Due date', { exact: true }).fill('2035-03-02T09:30');
  const expected = '2035-03-02T14:30:00Z'; // 09:30 EST (UTC-05:00)
  await page.getByTestId('due-input-utc').filter({ hasText: `your zone ${ADA_ZONE} (UTC-05:00)` }).filter({ hasText: 'sends 2035-03-02 14:30:00 UTC' }).waitFor();
  await page.getByRole('button', { name: 'Set due date' }).click();
  await page.getByRole('status').filter({ hasText: 'Due date set' }).waitFor();
  assert.equal(Date.parse((await s.api(KEYS.admin, 'GET', t.base)).body.dueDateTime), Date.parse(expected));

  // Typing @ offers the people; a click writes the name and makes it a mention.
  const box = page.getByRole('combobox', { name: 'Add a comment' });
  await box.click();
  await box.pressSequentially('Please check, @Ad');
  await page.getByRole('listbox').getByRole('option', { name: /Ada Admin/ }).click();
  await box.pressSequentially('thanks <b>now</b>');
  assert.equal(await box.inputValue(), 'Please check, @Ada Admin thanks <b>now</b>');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Comment added' }).waitFor();
  const comment = (await s.api(KEYS.admin, 'GET', t.base)).body.comments.at(-1);
  // The API's text of a mention is the name without its @ (docs/tasks.md "Comments").
  assert.equal(comment.text, 'Please check, Ada Admin thanks <b>now</b>');
  assert.deepEqual(comment.mentions.map((m: any) => `${m.type}:${m.id}`), [`TeamMember:${DEMO.members.ada}`]);
  // The markup typed stays text on the page.
  await page.getByTestId('comment').filter({ hasText: 'thanks <b>now</b>' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40: the same with the keyboard alone (Tab, typing, arrows, Enter)', async () => {
  const page = await browser.tab();
  const t = await freshTask('Pickers with the keyboard');
  await page.goto(s.us + t.path);
  await page.getByRole('heading', { level: 2 }).first().waitFor();
  const picker = page.getByRole('combobox', { name: 'Assignees (people and groups)' });
  await typeInto(page, picker, 'sales');
  await page.getByRole('listbox').getByRole('option', { name: /Sales/ }).waitFor();
  assert.equal(await picker.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Enter');
  await page.keyboard.type('alex');
  // Two Alex Kims: the emails tell them apart; the arrow moves to the second.
  await page.getByRole('listbox').getByRole('option', { name: /alex\.kim2@acme\.test/ }).waitFor();
  await page.keyboard.press('ArrowDown');
  assert.equal(await picker.getAttribute('aria-activedescendant'), await page.getByRole('listbox').getByRole('option', { name: /alex\.kim2@acme\.test/ }).getAttribute('id'));
  await page.keyboard.press('Enter');
  await press(page, page.getByRole('button', { name: 'Save assignees' }));
  await page.getByRole('status').filter({ hasText: 'Assignees set' }).waitFor();
  const assigned = (await s.api(KEYS.admin, 'GET', t.base)).body.assignees.map((a: any) => `${a.type}:${a.id}`).sort();
  assert.deepEqual(assigned, [`Group:${DEMO.groups.sales}`, `TeamMember:${DEMO.members.alexKim2}`]);

  // The date picker's segments typed (the page's locale is en-US: month, day, year, hour, minute, AM/PM).
  await typeInto(page, page.getByLabel('Due date', { exact: true }), '04152036');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('0745AM');
  assert.equal(await page.getByLabel('Due date', { exact: true }).inputValue(), '2036-04-15T07:45');
  const expected = '2036-04-15T11:45:00Z'; // 07:45 EDT (UTC-04:00)
  await press(page, page.getByRole('button', { name: 'Set due date' }));
  await page.getByRole('status').filter({ hasText: 'Due date set' }).waitFor();
  assert.equal(Date.parse((await s.api(KEYS.admin, 'GET', t.base)).body.dueDateTime), Date.parse(expected));

  await typeInto(page, page.getByRole('combobox', { name: 'Add a comment' }), 'Over to @omar');
  await page.getByRole('listbox').getByRole('option', { name: /Omar Owner/ }).waitFor();
  await page.keyboard.press('Enter');
  await page.keyboard.type('today');
  await press(page, page.getByRole('button', { name: 'Comment', exact: true }));
  await page.getByRole('status').filter({ hasText: 'Comment added' }).waitFor();
  const comment = (await s.api(KEYS.admin, 'GET', t.base)).body.comments.at(-1);
  assert.equal(comment.text, 'Over to Omar Owner today');
  assert.deepEqual(comment.mentions.map((m: any) => `${m.type}:${m.id}`), [`TeamMember:${DEMO.members.omar}`]);
  // Escape closes the list without picking.
  await typeInto(page, page.getByRole('combobox', { name: 'Add a comment' }), '@m');
  await page.locator('[role=listbox] [role=option]').first().waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.getByRole('combobox', { name: 'Add a comment' }).getAttribute('aria-expanded'), 'false');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("issue 40: snooze (My work) and the clock (panel) take the same date picker and send UTC; a schedule's wall-clock start shown as the instant it is", async () => {
  const page = await browser.tab();
  const task = await s.api(KEYS.admin, 'POST', '/v3/tasks', { name: 'Snooze me through the picker' });
  assert.equal(task.status, 201, task.text);
  await page.goto(`${s.us}/app/my-work`);
  await page.getByLabel('Assignee').fill('all');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByLabel('Select Snooze me through the picker').check();
  await page.getByLabel('Snooze the selected tasks until').fill('2036-01-10T08:00');
  const until = '2036-01-10T13:00:00Z'; // 08:00 EST
  await page.getByRole('button', { name: 'Snooze', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Snoozed' }).waitFor();
  const snooze = await s.api(KEYS.admin, 'GET', `/v3/tasks/${task.body.key}/snooze`);
  assert.equal(Date.parse(snooze.body.snoozedUntil), Date.parse(until), snooze.text);

  // A schedule's start is wall clock in its own zone (docs/schedules.md): the form says which instant that is.
  await page.goto(`${s.us}/app/schedules`);
  // The form shows UTC until the acting member's zone has been read (one request after the page).
  await page.waitForFunction((zone) => (document.getElementById('schedule-zone') as HTMLInputElement | null)?.value === zone, ADA_ZONE, { timeout: 10_000 });
  assert.equal(await page.getByLabel('Time zone').inputValue(), ADA_ZONE);
  await page.getByLabel('Time zone').fill('Europe/Berlin');
  await page.getByLabel('Starts (wall clock)').fill('2035-07-01T09:00:00');
  await page.getByTestId('schedule-start-utc').filter({ hasText: '2035-07-01 07:00:00 UTC' }).waitFor();
  await page.getByLabel('Time zone').fill('America/New_York');
  await page.getByTestId('schedule-start-utc').filter({ hasText: '2035-07-01 13:00:00 UTC' }).waitFor();

  // The zone is the acting member's: Mia Member's profile zone, and UTC for a member without one (the API's rule, 4.1 rule 7).
  await page.goto(`${s.us}/app/my-work`);
  await page.getByLabel('Act as').selectOption(KEYS.member);
  await page.getByTestId('snooze-until-utc').filter({ hasText: 'your zone Europe/Berlin' }).waitFor();
  await page.getByLabel('Act as').selectOption(KEYS.owner);
  await page.getByTestId('snooze-until-utc').filter({ hasText: 'your zone UTC (UTC+00:00)' }).waitFor();
  await page.getByLabel('Act as').selectOption(KEYS.admin);
  await page.getByTestId('snooze-until-utc').filter({ hasText: `your zone ${ADA_ZONE}` }).waitFor();

  await page.goto(`${s.us}/app/emulator`);
  await page.getByLabel('Or pick a time').fill('2031-06-01T12:00');
  const at = '2031-06-01T16:00:00Z'; // 12:00 EDT
  await page.getByRole('button', { name: 'Move the clock there' }).click();
  await page.getByRole('status').filter({ hasText: `Clock set to ${at}` }).waitFor();
  const clock = await s.api(null, 'GET', '/_emulator/clock');
  assert.ok(Math.abs(Date.parse(clock.body.now) - Date.parse(at)) < 60_000, clock.text);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("issue 40: a refusal's field shown at its control under the field's label, the API's message intact; the newest refusal replaces the old one", async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/checklists/${DEMO.johnRoe}/tasks/${DEMO.tasks.collectDetails}`);
  await page.getByRole('heading', { level: 2, name: 'Collect employee details' }).waitFor();
  // First a refusal elsewhere on the page (an empty comment).
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await page.getByTestId('refusal').first().waitFor();
  assert.equal(await page.getByTestId('refusal').count(), 1);
  // Then a field refused by its regex: shown at Employee ID, not as fields[0].value, and the comment's refusal gone.
  const id = page.getByLabel(/Employee ID/);
  await id.fill('nope');
  await page.getByRole('button', { name: 'Save fields' }).click();
  const direct = await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${DEMO.johnRoe}/tasks/${DEMO.tasks.collectDetails}/fields`, { fields: [{ key: '22000000-0000-4000-8000-000000000101', value: 'nope' }] });
  assert.equal(direct.status, 400);
  const field = page.locator('.field.refused');
  const refusal = field.getByTestId('refusal');
  await refusal.filter({ hasText: direct.body.error.message }).waitFor();
  await refusal.getByText('at Employee ID').waitFor();
  assert.equal(await refusal.getByText('fields[0].value', { exact: true }).count(), 0);
  assert.ok((await id.getAttribute('aria-describedby'))!.includes(`field-22000000-0000-4000-8000-000000000101-refusal`));
  assert.equal(await page.getByTestId('refusal').count(), 1, 'the newest refusal replaced the comment refusal');
  // A form's refusal names the control by its label, the message as the API wrote it.
  await page.goto(`${s.us}/app/schedules`);
  await page.getByLabel('Name').fill('Refused schedule');
  await page.getByLabel('Template').selectOption(DEMO.vendor);
  await page.getByLabel('Time zone').fill('Mars/Base');
  await page.getByLabel('Starts (wall clock)').fill('2035-03-05T09:00:00');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  const zone = page.getByTestId('refusal');
  await zone.getByText('at Time zone').waitFor();
  await zone.getByText("timeZone 'Mars/Base' is not a time zone", { exact: false }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('issue 40: axe-core finds no serious or critical violation with the pickers open at 1280 and 390 px; screenshots', async () => {
  const page = await browser.tab();
  const t = await freshTask('Pickers under axe');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await page.goto(s.us + t.path);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    const picker = page.getByRole('combobox', { name: 'Assignees (people and groups)' });
    await tabTo(page, picker);
    await page.keyboard.type('a');
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    await axe(page, `task with the people picker open at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-pickers-${width}.png`), fullPage: true });
    await page.keyboard.press('Escape');
    await page.getByLabel('Due date', { exact: true }).fill('2035-03-02T09:30');
    await axe(page, `task with a due date picked at ${width}px`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `task at ${width}px scrolls sideways by ${overflow}px`);
    // My work with the view form open and its visibleTo picker listing people.
    await page.goto(`${s.us}/app/my-work`);
    await page.getByText('Save these filters as a view').click();
    await page.getByLabel('Shared with').selectOption('UsersGroups');
    await page.getByRole('combobox', { name: 'Visible to' }).fill('o');
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    await axe(page, `my work with the visibleTo picker open at ${width}px`);
    await page.screenshot({ path: join(ARTIFACTS, `console-view-picker-${width}.png`), fullPage: true });
    await page.goto(`${s.us}/app/schedules`);
    await page.getByLabel('Starts (wall clock)').fill('2035-07-01T09:00:00');
    await axe(page, `schedules with a start picked at ${width}px`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("issue 40 (4.6 create_my_work_view visibleTo): a UsersGroups view shared through the picker, with the mouse and with the keyboard alone", async () => {
  const page = await browser.tab();
  await page.goto(`${s.us}/app/my-work`);
  await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
  await page.getByText('Save these filters as a view').click();
  await page.getByLabel('View name').fill('Shared by mouse');
  await page.getByLabel('Shared with').selectOption('UsersGroups');
  const picker = page.getByRole('combobox', { name: 'Visible to' });
  await picker.click();
  await picker.fill('mia');
  await page.getByRole('listbox').getByRole('option', { name: /Mia Member/ }).click();
  await picker.fill('Operat');
  await page.getByRole('listbox').getByRole('option', { name: /Operations/ }).click();
  await page.getByRole('button', { name: 'Save view' }).click();
  await page.getByRole('status').filter({ hasText: 'View Shared by mouse saved' }).waitFor();

  await page.goto(`${s.us}/app/my-work`);
  await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
  await press(page, page.getByText('Save these filters as a view'));
  await typeInto(page, page.getByLabel('View name'), 'Shared by keyboard');
  await typeInto(page, page.getByLabel('Shared with'), 'chosen');
  await typeInto(page, page.getByRole('combobox', { name: 'Visible to' }), 'sales');
  await page.getByRole('listbox').getByRole('option', { name: /Sales/ }).waitFor();
  await page.keyboard.press('Enter');
  await press(page, page.getByRole('button', { name: 'Save view' }));
  await page.getByRole('status').filter({ hasText: 'View Shared by keyboard saved' }).waitFor();

  const views = (await s.api(KEYS.admin, 'GET', '/v3/my-work/views')).body;
  const list: any[] = Array.isArray(views) ? views : views.items;
  const seen = (n: string) => list.find((v) => v.name === n).visibleTo.map((x: any) => `${x.type}:${x.id}`).sort();
  assert.deepEqual(seen('Shared by mouse'), [`Group:${DEMO.groups.operations}`, `TeamMember:${DEMO.members.mia}`]);
  assert.deepEqual(seen('Shared by keyboard'), [`Group:${DEMO.groups.sales}`]);

  // A saved UsersGroups view's sharing changed: the chosen view's picker starts from its visibleTo.
  await page.getByLabel('Saved view').selectOption({ label: 'Shared by mouse' });
  const sharing = page.getByRole('form', { name: 'Who sees Shared by mouse' });
  await sharing.getByRole('button', { name: 'Remove Mia Member' }).click();
  await sharing.getByRole('combobox', { name: 'Shared by mouse is visible to' }).fill('sal');
  await page.getByRole('listbox').getByRole('option', { name: /Sales/ }).click();
  await sharing.getByRole('button', { name: 'Save sharing' }).click();
  await page.getByRole('status').filter({ hasText: 'View Shared by mouse shared' }).waitFor();
  const again = (await s.api(KEYS.admin, 'GET', '/v3/my-work/views')).body;
  const after = (Array.isArray(again) ? again : again.items).find((v: any) => v.name === 'Shared by mouse');
  assert.deepEqual(after.visibleTo.map((x: any) => `${x.type}:${x.id}`).sort(), [`Group:${DEMO.groups.operations}`, `Group:${DEMO.groups.sales}`]);
  assert.equal(after.type, 'UsersGroups');
  assert.deepEqual(page.errors, []);
  await page.close();
});
