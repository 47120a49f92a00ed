// The Tasks grid: list_my_work (spec v3 2.6 work item, 4.5, 4.6, 4.1 rule 11, 5.3, 5.9) on
// REST and MCP; EMULATOR.md "assignee=me includes groups". Snoozes: test/my-work-snooze.test.ts;
// saved views: test/my-work-views.test.ts.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, callTool, withoutRequestId, type TestServer } from './helpers/server';
import { refused } from './helpers/checklists';

let s: TestServer;
const NOW = Date.parse('2026-03-10T12:00:00Z');
let vendor: string; // a Vendor Review checklist (Mia: ViewOnly; Nora: no rule)
let groupTask: string; // Collect employee details on a fresh Onboarding checklist: assigned to Operations (Mia's group)
let onboarding: string;

const keys = (body: { items: { key: string }[] }) => body.items.map((i) => i.key);
const grid = (key: string, query = '', headers: Record<string, string> = {}) => s.api(key, 'GET', `/v3/my-work${query}`, undefined, headers);
/** A standalone task raised by Ada (assignees and due date as given); returns its key. */
async function raise(name: string, body: Record<string, unknown> = {}): Promise<string> {
  const r = await s.api(KEYS.admin, 'POST', '/v3/tasks', { name, ...body });
  assert.equal(r.status, 201, r.text);
  return r.body.key;
}
const toMia = { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] };

before(async () => {
  s = await startTestServer();
  s.emu.clock.set(NOW, true);
  vendor = (await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name: 'Vendor: Grid Widgets' })).body.key;
  onboarding = (await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name: 'Onboarding: Grid Person' })).body.key;
  groupTask = DEMO.tasks.collectDetails;
});
after(async () => {
  await s.close();
});

test('4.6 list_my_work: a member sees their own work by default, with every work-item field of 2.6', async () => {
  const r = await grid(KEYS.member);
  assert.equal(r.status, 200, r.text);
  assert.equal(typeof r.body.total, 'number');
  assert.equal(r.body.hasMore, false);
  assert.ok(r.body.items.length > 0);
  for (const row of r.body.items) {
    assert.ok(['Incomplete', 'DueInFuture', 'DueToday', 'Overdue'].includes(row.status), row.status);
    assert.equal(row.isAssignedToActor, true);
    assert.ok(Array.isArray(row.assignees) && Array.isArray(row.tags));
    assert.equal(typeof row.commentCount, 'number');
    assert.equal(typeof row.canActorAccess, 'boolean');
    assert.equal(typeof row.isAssignedExclusively, 'boolean');
    if (row.isStandalone) assert.match(row.url, /\/app\/tasks\//);
    else {
      assert.match(row.url, /\/app\/checklists\/.+\/tasks\//);
      assert.ok(row.checklist.template.key && row.checklist.template.name && row.checklist.template.version);
    }
  }
  const jane = r.body.items.find((i: { key: string; checklist?: { key: string } }) => i.key === DEMO.tasks.collectDetails && i.checklist?.key === DEMO.janeDoe);
  assert.ok(jane, 'Collect employee details on Jane Doe (assigned to Mia)');
  assert.deepEqual(jane.tags, ['urgent']);
  assert.equal(jane.checklist.name, 'Onboarding: Jane Doe');
  assert.ok(keys(r.body).includes(DEMO.renewInsurance), 'the standalone task assigned to Mia');
});

test('EMULATOR.md: assignee=me includes tasks assigned through a group, and isAssignedToActor is true for them', async () => {
  const r = await grid(KEYS.member, `?checklist=${onboarding}`);
  assert.equal(r.status, 200, r.text);
  const row = r.body.items.find((i: { key: string }) => i.key === groupTask);
  assert.ok(row, r.text);
  assert.deepEqual(row.assignees.map((a: { type: string }) => a.type), ['Group']);
  assert.equal(row.isAssignedToActor, true);
  // Nora is not in Operations: not her work.
  const nora = await grid(KEYS.noperm, `?checklist=${onboarding}`);
  assert.equal(nora.status, 200, nora.text);
  assert.deepEqual(nora.body.items, []);
});

test('4.6 rule 3, 5.9: the workspace key is refused on the grid with 403 API_KEY_ACTS_AS_WORKSPACE (REST and MCP)', async () => {
  refused(await grid(KEYS.workspace), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  const c = await s.mcp(KEYS.workspace);
  const r = await callTool(c, 'list_my_work', {});
  assert.equal(r.isError, true);
  assert.equal(r.body.error.code, 'API_KEY_ACTS_AS_WORKSPACE');
});

test('4.6 list_my_work status: comma lists, any spelling, all; unknown, empty or all with others is 400 field status', async () => {
  const done = await raise('Grid: done already', toMia);
  await s.api(KEYS.admin, 'POST', `/v3/tasks/${done}/complete`);
  assert.ok(!keys((await grid(KEYS.member)).body).includes(done), 'Complete is not in the default');
  const all = await grid(KEYS.member, '?status=all');
  assert.equal(all.status, 200, all.text);
  assert.equal(all.body.items.find((i: { key: string }) => i.key === done).status, 'Complete');
  const complete = await grid(KEYS.member, '?status=complete,%20not-applicable');
  assert.equal(complete.status, 200, complete.text);
  assert.ok(complete.body.items.every((i: { status: string }) => i.status === 'Complete' || i.status === 'NotApplicable'));
  assert.ok(keys(complete.body).includes(done));
  refused(await grid(KEYS.member, '?status=Bogus'), 400, 'VALIDATION_ERROR', 'status');
  refused(await grid(KEYS.member, '?status='), 400, 'VALIDATION_ERROR', 'status');
  refused(await grid(KEYS.member, '?status=all,Complete'), 400, 'VALIDATION_ERROR', 'status');
  refused(await grid(KEYS.member, '?status=Overdue,,DueToday'), 400, 'VALIDATION_ERROR', 'status');
});

test('4.6 list_my_work assignee: all, unassigned, TeamMember:<id>, Group:<id>, lists; bad forms are 400 field assignee', async () => {
  const nobody = await raise('Grid: nobody');
  const forOps = await raise('Grid: for Operations', { assignees: [{ type: 'Group', id: DEMO.groups.operations }] });
  const forAlex = await raise('Grid: for Alex', { assignees: [{ type: 'TeamMember', id: DEMO.members.alexKim2 }] });
  const admin = async (q: string) => {
    const r = await grid(KEYS.admin, q);
    assert.equal(r.status, 200, `${q}: ${r.text}`);
    return keys(r.body);
  };
  const all = await admin('?assignee=all&pageSize=100');
  for (const k of [nobody, forOps, forAlex]) assert.ok(all.includes(k));
  const unassigned = await admin('?assignee=unassigned&pageSize=100');
  assert.ok(unassigned.includes(nobody) && !unassigned.includes(forOps) && !unassigned.includes(forAlex));
  const group = await admin(`?assignee=Group:${DEMO.groups.operations}&pageSize=100`);
  assert.ok(group.includes(forOps) && !group.includes(nobody));
  const alex = await admin(`?assignee=TeamMember:${DEMO.members.alexKim2}&pageSize=100`);
  assert.deepEqual(alex, [forAlex]);
  const both = await admin(`?assignee=teammember:${DEMO.members.alexKim2},%20unassigned&pageSize=100`);
  assert.ok(both.includes(forAlex) && both.includes(nobody) && !both.includes(forOps));
  // Alex Kim (the first) is in Operations: his work includes the group's.
  const alex1 = await admin(`?assignee=TeamMember:${DEMO.members.alexKim1}&pageSize=100`);
  assert.ok(alex1.includes(forOps));
  for (const bad of ['all,me', 'me,all', 'TeamMember:abc', 'TeamMember:', 'Group:0', 'Group:-1', 'Person:3', 'TeamMember:99999', 'Group:99999', 'me,,unassigned', '']) {
    refused(await grid(KEYS.admin, `?assignee=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', 'assignee');
  }
});

test('4.6 list_my_work assignee: widening never widens what the member may see (5.4)', async () => {
  const ada = await grid(KEYS.admin, `?assignee=all&checklist=${vendor}`);
  assert.equal(ada.status, 200, ada.text);
  assert.equal(ada.body.total, 3, 'the three Vendor Review tasks');
  // Nora has no rule on Vendor Review and nothing assigned there.
  const nora = await grid(KEYS.noperm, `?assignee=all&checklist=${vendor}`);
  assert.equal(nora.status, 200, nora.text);
  assert.deepEqual(nora.body, { items: [], hasMore: false, total: 0 });
  // Mia may view (ViewOnly): visible, but canActorAccess false.
  const mia = await grid(KEYS.member, `?assignee=all&checklist=${vendor}`);
  assert.equal(mia.body.total, 3);
  assert.ok(mia.body.items.every((i: { canActorAccess: boolean; isAssignedToActor: boolean }) => i.canActorAccess === false && i.isAssignedToActor === false));
  // Standalone tasks Nora did not raise and is not assigned are not hers to see.
  const noraAll = await grid(KEYS.noperm, '?assignee=all&pageSize=100');
  assert.ok(!keys(noraAll.body).includes(DEMO.renewInsurance));
});

test('4.6 list_my_work template: narrows checklist tasks only; keys are checked (400 template, 404 TEMPLATE_NOT_FOUND)', async () => {
  const r = await grid(KEYS.admin, `?assignee=all&template=${DEMO.vendor}&pageSize=100`);
  assert.equal(r.status, 200, r.text);
  const checklistRows = r.body.items.filter((i: { isStandalone: boolean }) => !i.isStandalone);
  assert.ok(checklistRows.length >= 3);
  assert.ok(checklistRows.every((i: { checklist: { template: { key: string } } }) => i.checklist.template.key === DEMO.vendor));
  assert.ok(r.body.items.some((i: { isStandalone: boolean }) => i.isStandalone), 'standalone tasks are not narrowed by template');
  const two = await grid(KEYS.admin, `?assignee=all&template=${DEMO.vendor},${DEMO.onboarding}&includeStandalone=false&pageSize=100`);
  assert.ok(two.body.items.some((i: { checklist: { template: { key: string } } }) => i.checklist.template.key === DEMO.onboarding));
  refused(await grid(KEYS.admin, '?template=not-a-key'), 400, 'VALIDATION_ERROR', 'template');
  refused(await grid(KEYS.admin, `?template=${DEMO.vendor},`), 400, 'VALIDATION_ERROR', 'template');
  refused(await grid(KEYS.admin, '?template=99999999-9999-4999-8999-999999999999'), 404, 'TEMPLATE_NOT_FOUND');
  refused(await grid(KEYS.admin, `?template=${DEMO.globexAudit}`), 404, 'TEMPLATE_NOT_FOUND');
});

test('4.6 list_my_work checklist and includeStandalone', async () => {
  const r = await grid(KEYS.admin, `?assignee=all&checklist=${DEMO.janeDoe}&pageSize=100`);
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.items.every((i: { checklist: { key: string } }) => i.checklist.key === DEMO.janeDoe));
  assert.ok(keys(r.body).includes(DEMO.businessCards), 'the standalone task attached to Jane Doe');
  const without = await grid(KEYS.admin, `?assignee=all&checklist=${DEMO.janeDoe}&includeStandalone=false&pageSize=100`);
  assert.ok(!keys(without.body).includes(DEMO.businessCards));
  assert.equal(without.body.total, r.body.total - 1);
  const mine = await grid(KEYS.member, '?includeStandalone=false&pageSize=100');
  assert.ok(mine.body.items.every((i: { isStandalone: boolean }) => !i.isStandalone));
  refused(await grid(KEYS.admin, '?checklist=nope'), 400, 'VALIDATION_ERROR', 'checklist');
  refused(await grid(KEYS.admin, '?checklist=99999999-9999-4999-8999-999999999999'), 404, 'CHECKLIST_NOT_FOUND');
  // The archived checklist's tasks are not work.
  const archived = await grid(KEYS.admin, `?assignee=all&status=all&checklist=${DEMO.archivedOnboarding}`);
  assert.equal(archived.body.total, 0);
});

test('4.6 list_my_work sort: five fields, both directions; no due date last in both; other fields are 400 field sort', async () => {
  const q = '?assignee=all&status=all&pageSize=100';
  for (const dir of ['asc', 'desc']) {
    const r = await grid(KEYS.admin, `${q}&sort=dueDateTime:${dir}`);
    assert.equal(r.status, 200, r.text);
    const dues = r.body.items.map((i: { dueDateTime?: string }) => i.dueDateTime);
    const firstMissing = dues.findIndex((d: string | undefined) => d === undefined);
    assert.ok(firstMissing > 0, 'some have due dates, some not');
    assert.ok(dues.slice(firstMissing).every((d: string | undefined) => d === undefined), `${dir}: no due date last`);
    const dated = dues.slice(0, firstMissing).map((d: string) => Date.parse(d));
    const sorted = [...dated].sort((a, b) => (dir === 'asc' ? a - b : b - a));
    assert.deepEqual(dated, sorted);
  }
  const names = (await grid(KEYS.admin, `${q}&sort=name:desc`)).body.items.map((i: { name: string }) => i.name.toLowerCase());
  assert.deepEqual(names, [...names].sort().reverse());
  const byName = (await grid(KEYS.admin, `${q}&sort=NAME`)).body.items.map((i: { name: string }) => i.name.toLowerCase());
  assert.deepEqual(byName, [...byName].sort());
  for (const field of ['checklistName', 'templateName']) {
    for (const dir of ['asc', 'desc']) {
      const r = await grid(KEYS.admin, `${q}&sort=${field}:${dir}`);
      assert.equal(r.status, 200, r.text);
      const vals = r.body.items.map((i: { checklist?: { name: string; template: { name: string } } }) =>
        i.checklist ? (field === 'checklistName' ? i.checklist.name : i.checklist.template.name).toLowerCase() : undefined,
      );
      const firstMissing = vals.indexOf(undefined);
      assert.ok(firstMissing > 0 && vals.slice(firstMissing).every((v: unknown) => v === undefined), `${field}:${dir}: unattached standalone tasks last`);
      const present = vals.slice(0, firstMissing);
      assert.deepEqual(present, [...present].sort((a: string, b: string) => (dir === 'asc' ? (a < b ? -1 : a > b ? 1 : 0) : a < b ? 1 : a > b ? -1 : 0)));
    }
  }
  await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.setUpEquipment}/comments`, { text: 'one' });
  await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.setUpEquipment}/comments`, { text: 'two' });
  const counts = (await grid(KEYS.admin, `${q}&sort=commentCount:desc`)).body.items.map((i: { commentCount: number }) => i.commentCount);
  assert.equal(counts[0], 2);
  assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
  for (const bad of ['status', 'assignees', 'tags', 'dueDateTime:up', 'name:asc:desc', '']) {
    refused(await grid(KEYS.admin, `?sort=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', 'sort');
  }
});

test('4.1 rule 11: pages of a keyset cursor cover every row once; pageSize outside 1..100 is 400 field pageSize', async () => {
  const q = '?assignee=all&status=all&sort=name:asc';
  const whole = await grid(KEYS.admin, `${q}&pageSize=100`);
  const seen: string[] = [];
  let after: string | undefined;
  let pages = 0;
  do {
    const r = await grid(KEYS.admin, `${q}&pageSize=3${after ? `&after=${after}` : ''}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.total, whole.body.total);
    assert.ok(r.body.items.length <= 3);
    seen.push(...r.body.items.map((i: { key: string; checklist?: { key: string } }) => `${i.checklist?.key}/${i.key}`));
    assert.equal(r.body.hasMore, r.body.nextCursor !== undefined);
    after = r.body.nextCursor;
    pages++;
  } while (after && pages < 100);
  assert.deepEqual(seen, whole.body.items.map((i: { key: string; checklist?: { key: string } }) => `${i.checklist?.key}/${i.key}`));
  for (const bad of ['0', '101', 'ten', '1.5']) refused(await grid(KEYS.admin, `?pageSize=${bad}`), 400, 'VALIDATION_ERROR', 'pageSize');
});

test('4.1 rule 11, 4.6: a cursor used with another query, another pageSize or by another member is refused (400 field after)', async () => {
  const first = await grid(KEYS.admin, '?assignee=all&status=all&pageSize=2');
  const cursor = first.body.nextCursor;
  assert.ok(cursor);
  assert.equal((await grid(KEYS.admin, `?assignee=all&status=all&pageSize=2&after=${cursor}`)).status, 200);
  refused(await grid(KEYS.admin, `?assignee=all&status=Complete&pageSize=2&after=${cursor}`), 400, 'VALIDATION_ERROR', 'after');
  refused(await grid(KEYS.admin, `?assignee=all&status=all&pageSize=3&after=${cursor}`), 400, 'VALIDATION_ERROR', 'after');
  refused(await grid(KEYS.admin, `?assignee=all&status=all&pageSize=2&sort=name&after=${cursor}`), 400, 'VALIDATION_ERROR', 'after');
  refused(await grid(KEYS.owner, `?assignee=all&status=all&pageSize=2&after=${cursor}`), 400, 'VALIDATION_ERROR', 'after');
  refused(await grid(KEYS.admin, '?after=garbage'), 400, 'VALIDATION_ERROR', 'after');
  refused(await grid(KEYS.admin, `?after=${Buffer.from('{"k":1,"i":"x","b":"y"}').toString('base64url')}`), 400, 'VALIDATION_ERROR', 'after');
});

test('4.6 status judgement: due 23:30 local is DueToday, 00:30 the next day is DueInFuture (member zone, then X-SVC-Timezone)', async () => {
  // The clock is frozen at 2026-03-10T12:00Z; Mia's profile zone is Europe/Berlin (UTC+1 in March).
  const late = await raise('Grid: due 23:30 Berlin', { ...toMia, dueDateTime: '2026-03-10T23:30:00+01:00' });
  const early = await raise('Grid: due 00:30 Berlin tomorrow', { ...toMia, dueDateTime: '2026-03-11T00:30:00+01:00' });
  const past = await raise('Grid: due 11:59Z', { ...toMia, dueDateTime: '2026-03-10T11:59:00Z' });
  const undated = await raise('Grid: no due date', toMia);
  const statusOf = async (headers: Record<string, string> = {}) => {
    const r = await grid(KEYS.member, '?pageSize=100', headers);
    assert.equal(r.status, 200, r.text);
    const by = new Map(r.body.items.map((i: { key: string; status: string }) => [i.key, i.status]));
    return [by.get(late), by.get(early), by.get(past), by.get(undated)];
  };
  assert.deepEqual(await statusOf(), ['DueToday', 'DueInFuture', 'Overdue', 'Incomplete']);
  assert.deepEqual(await statusOf({ 'X-SVC-Timezone': 'UTC' }), ['DueToday', 'DueToday', 'Overdue', 'Incomplete']);
  assert.deepEqual(await statusOf({ 'X-SVC-Timezone': 'Asia/Tokyo' }), ['DueInFuture', 'DueInFuture', 'Overdue', 'Incomplete']);
  assert.deepEqual(await statusOf({ 'X-SVC-Timezone': 'W. Europe Standard Time' }), ['DueToday', 'DueInFuture', 'Overdue', 'Incomplete']);
  // The filters judge the same way.
  const today = await grid(KEYS.member, '?status=DueToday&pageSize=100');
  assert.ok(keys(today.body).includes(late) && !keys(today.body).includes(early));
  const future = await grid(KEYS.member, '?status=DueInFuture&pageSize=100');
  assert.ok(keys(future.body).includes(early) && !keys(future.body).includes(late));
  const overdue = await grid(KEYS.member, '?status=Overdue&pageSize=100');
  assert.ok(keys(overdue.body).includes(past));
  const incomplete = await grid(KEYS.member, '?status=Incomplete&pageSize=100');
  assert.ok(keys(incomplete.body).includes(undated) && !keys(incomplete.body).includes(late));
  refused(await grid(KEYS.member, '', { 'X-SVC-Timezone': 'Mars/Olympus' }), 400, 'VALIDATION_ERROR', 'X-SVC-Timezone');
  // An hour later on the clock, the 23:30 task is still today; after midnight Berlin it is Overdue.
  s.emu.clock.set(Date.parse('2026-03-10T23:00:00Z'), true);
  assert.deepEqual((await statusOf()).slice(0, 2), ['Overdue', 'DueToday']);
  s.emu.clock.set(NOW, true);
});

test('2.4, 4.6: tasks behind an incomplete stop task are Halted, out of the default grid', async () => {
  // Manager approval (a stop task) halts Set up equipment and First day welcome on Jane Doe's checklist.
  const r = await grid(KEYS.admin, `?assignee=all&status=all&checklist=${DEMO.janeDoe}&includeStandalone=false&pageSize=100`);
  const by = new Map(r.body.items.map((i: { key: string; status: string }) => [i.key, i.status]));
  assert.equal(by.get(DEMO.tasks.setUpEquipment), 'Halted');
  assert.notEqual(by.get(DEMO.tasks.managerApproval), 'Halted');
  const halted = await grid(KEYS.admin, `?assignee=all&status=Halted&checklist=${DEMO.janeDoe}`);
  assert.ok(keys(halted.body).includes(DEMO.tasks.setUpEquipment));
  const open = await grid(KEYS.admin, `?assignee=all&checklist=${DEMO.janeDoe}&pageSize=100`);
  assert.ok(!keys(open.body).includes(DEMO.tasks.setUpEquipment));
  // Completing the stop task releases them; un-completing halts them again.
  const stop = `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}/complete`;
  assert.equal((await s.api(KEYS.admin, 'POST', stop)).status, 200);
  const released = await grid(KEYS.admin, `?assignee=all&checklist=${DEMO.janeDoe}&pageSize=100`);
  assert.ok(keys(released.body).includes(DEMO.tasks.setUpEquipment));
  assert.equal((await s.api(KEYS.admin, 'DELETE', stop)).status, 200);
  const again = await grid(KEYS.admin, `?assignee=all&status=Halted&checklist=${DEMO.janeDoe}`);
  assert.ok(keys(again.body).includes(DEMO.tasks.setUpEquipment));
});

test('4.6 rule 1: list_my_work over MCP answers what REST answers; refusals carry the same error', async () => {
  const c = await s.mcp(KEYS.member);
  for (const args of [{}, { status: 'all', sort: 'name:desc', pageSize: 3 }, { assignee: 'all', includeStandalone: false }]) {
    const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString();
    const rest = await grid(KEYS.member, query ? `?${query}` : '');
    const tool = await callTool(c, 'list_my_work', args);
    assert.equal(tool.isError, false, tool.text);
    assert.deepEqual(tool.body, rest.body);
  }
  const page = await callTool(c, 'list_my_work', { status: 'all', pageSize: 1 });
  const next = await callTool(c, 'list_my_work', { status: 'all', pageSize: 1, after: page.body.nextCursor });
  assert.equal(next.isError, false, next.text);
  for (const [args, field] of [
    [{ status: 'Nope' }, 'status'],
    [{ assignee: 'Group:x' }, 'assignee'],
    [{ sort: 'tags' }, 'sort'],
    [{ pageSize: 0 }, 'pageSize'],
    [{ after: page.body.nextCursor }, 'after'],
    [{ includeStandalone: 'yes' }, 'includeStandalone'],
  ] as const) {
    const tool = await callTool(c, 'list_my_work', args);
    assert.equal(tool.isError, true, JSON.stringify(args));
    assert.equal(tool.body.error.code, 'VALIDATION_ERROR');
    assert.equal(tool.body.error.field, field);
  }
  const rest = await grid(KEYS.member, '?template=99999999-9999-4999-8999-999999999999');
  const tool = await callTool(c, 'list_my_work', { template: '99999999-9999-4999-8999-999999999999' });
  assert.deepEqual(withoutRequestId(tool.body), withoutRequestId(rest.body));
});

test('2.2 page envelope: total follows every write, also between the pages of one walk', async () => {
  const q = '?assignee=all&pageSize=2';
  const first = await grid(KEYS.admin, q);
  const n = first.body.total;
  assert.equal((await grid(KEYS.admin, q)).body.total, n);
  const key = await raise('Grid: counted');
  const next = await grid(KEYS.admin, `${q}&after=${first.body.nextCursor}`);
  assert.equal(next.status, 200, next.text);
  assert.equal(next.body.total, n + 1);
  await s.api(KEYS.admin, 'POST', `/v3/tasks/${key}/complete`);
  assert.equal((await grid(KEYS.admin, q)).body.total, n);
  // A snooze is the member's: it leaves their count, not Ada's.
  const mine = await grid(KEYS.member, '?assignee=all&pageSize=2');
  await s.api(KEYS.member, 'POST', '/v3/my-work/snooze', { snoozedUntil: '2026-03-20T00:00:00Z', tasks: [{ taskKey: DEMO.renewInsurance }] });
  assert.equal((await grid(KEYS.member, '?assignee=all&pageSize=2')).body.total, mine.body.total - 1);
  assert.equal((await grid(KEYS.admin, q)).body.total, n);
  await s.api(KEYS.member, 'DELETE', '/v3/my-work/snooze', { tasks: [{ taskKey: DEMO.renewInsurance }] });
  assert.equal((await grid(KEYS.member, '?assignee=all&pageSize=2')).body.total, mine.body.total);
});

test('4.6 status: every combination of the dated statuses admits exactly the rows judged so', async () => {
  await raise('Grid: due tonight', { ...toMia, dueDateTime: '2026-03-10T20:00:00Z' });
  await raise('Grid: overdue', { ...toMia, dueDateTime: '2026-03-01T20:00:00Z' });
  await raise('Grid: next month', { ...toMia, dueDateTime: '2026-04-10T20:00:00Z' });
  const all = (await grid(KEYS.member, '?pageSize=100')).body.items as { key: string; status: string }[];
  const row = (i: { key: string; checklist?: { key: string } }) => `${i.checklist?.key}/${i.key}`;
  const names = ['Incomplete', 'Overdue', 'DueToday', 'DueInFuture'];
  for (let mask = 1; mask < 16; mask++) {
    const set = names.filter((_, i) => mask & (1 << i));
    const r = await grid(KEYS.member, `?pageSize=100&status=${set.join(',')}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.items.map(row).sort(), all.filter((i) => set.includes(i.status)).map(row).sort(), set.join(','));
    assert.equal(r.body.total, r.body.items.length);
  }
});
