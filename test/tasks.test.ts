// Checklist task routes (spec v3 4.3), the state machine (3) and checklist completion.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, MISSING, T, newChecklist, recordEvents, refused, taskPath, type RecordedEvent } from './helpers/tasks';

let s: TestServer;
let events: RecordedEvent[];
before(async () => {
  s = await startTestServer();
  events = recordEvents(s);
});
after(async () => {
  await s.close();
});

const jd = DEMO.janeDoe;
const taskId = (checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;
const checklistId = (key: string) => (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;

test('4.3 walk: "Onboarding: Jane Doe" from start to Complete through REST (3, 6 events)', async () => {
  events.length = 0;
  const api = (m: string, task: string, suffix = '', body?: unknown) => s.api(KEYS.member, m, taskPath(jd, task, suffix), body);

  // Required field unanswered → 409; answering satisfies it.
  const r1 = await refused(s, () => api('POST', T.collectDetails, '/complete'), 409, 'CONFLICT');
  assert.match(r1.error.message, /required fields are unanswered: Employee ID/);
  assert.equal((await api('PUT', T.collectDetails, `/fields/${F.employeeId}`, { value: 'E1234' })).status, 200);
  const done = await api('POST', T.collectDetails, '/complete');
  assert.equal(done.status, 200);
  assert.equal(done.body.status, 'Complete');
  assert.equal(done.body.isComplete, true);
  assert.deepEqual(done.body.completedBy, { name: 'Mia Member', email: 'mia@acme.test' });
  assert.ok(done.body.completedDateTime.endsWith('Z'));
  assert.ok(Array.isArray(done.body.assignees) && Array.isArray(done.body.fields) && Array.isArray(done.body.comments));
  assert.equal(done.body.checklist, undefined, 'task size has no checklist');
  assert.equal(done.body.tags, undefined, 'task size has no tags');

  // Contractor agreement is hidden for a Full-time employee: third 409 check.
  const hidden = await refused(s, () => api('POST', T.contractorAgreement, '/complete'), 409, 'CONFLICT');
  assert.match(hidden.error.message, /condition currently hides it/);
  // Set up equipment is halted behind the Manager approval stop task.
  const halted = await refused(s, () => api('POST', T.setUpEquipment, '/complete'), 409, 'CONFLICT');
  assert.match(halted.error.message, /halted/);

  assert.equal((await api('POST', T.managerApproval, '/complete')).status, 200);
  const equip = await api('POST', T.setUpEquipment, '/complete');
  assert.equal(equip.status, 200);
  assert.equal(equip.body.isCurrentlyHalted, false);
  let c = await s.api(KEYS.member, 'GET', `/v3/checklists/${jd}`);
  assert.equal(c.body.status, 'InProgress');

  const na = await api('POST', T.firstDayWelcome, '/not-applicable');
  assert.equal(na.status, 200);
  assert.equal(na.body.status, 'NotApplicable');
  assert.equal(na.body.isNotApplicable, true);
  assert.ok(na.body.notApplicableDateTime);
  assert.deepEqual(na.body.notApplicableBy, { name: 'Mia Member', email: 'mia@acme.test' });
  assert.equal(na.body.completedDateTime, na.body.notApplicableDateTime, 'not applicable stamps a completion time');
  assert.equal(na.body.completedBy, undefined);

  c = await s.api(KEYS.member, 'GET', `/v3/checklists/${jd}`);
  assert.equal(c.body.status, 'Complete');

  const types = events.map((e) => e.type);
  assert.deepEqual(types, ['task_completed', 'task_completed', 'task_completed', 'checklist_completed']);
  assert.deepEqual(events[3].subject, { checklistId: checklistId(jd) });
  assert.deepEqual(events[0].subject, { taskId: taskId(jd, T.collectDetails) });

  // Reopening: uncomplete → checklist InProgress; complete again → Complete again, events fire again.
  events.length = 0;
  const un = await api('DELETE', T.setUpEquipment, '/complete');
  assert.equal(un.status, 200);
  assert.equal(un.body.status, 'Incomplete');
  assert.equal(un.body.completedDateTime, undefined);
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/checklists/${jd}`)).body.status, 'InProgress');
  assert.equal((await api('POST', T.setUpEquipment, '/complete')).status, 200);
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/checklists/${jd}`)).body.status, 'Complete');
  assert.deepEqual(events.map((e) => e.type), ['task_completed', 'checklist_completed']);

  // Already complete: 200, nothing written, no event.
  events.length = 0;
  const again = await refusedNothing(() => api('POST', T.setUpEquipment, '/complete'));
  assert.equal(again.status, 200);
  assert.equal(again.body.status, 'Complete');
  assert.equal(events.length, 0);
});

/** Calls and asserts that nothing changed (for the harmless repeats). */
async function refusedNothing(call: () => Promise<any>) {
  const { snapshot } = await import('./helpers/tasks');
  const before = snapshot(s);
  const r = await call();
  assert.equal(snapshot(s), before);
  return r;
}

test('4.3 walk through MCP: complete_task, set_task_not_applicable ... to Complete; results equal REST', async () => {
  const key = await newChecklist(s, { name: 'MCP walk' });
  // Fields have no MCP tool (4.3 names none): the required answer goes through REST.
  assert.equal((await s.api(KEYS.member, 'PUT', taskPath(key, T.collectDetails, `/fields/${F.employeeId}`), { value: 'E7777' })).status, 200);
  const c = await s.mcp(KEYS.member);
  events.length = 0;
  for (const t of [T.collectDetails, T.managerApproval, T.setUpEquipment, T.firstDayWelcome]) {
    const r = await callTool(c, 'complete_task', { checklistKey: key, taskKey: t });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.body.status, 'Complete');
  }
  const na = await callTool(c, 'set_task_not_applicable', { checklistKey: key, taskKey: T.sendWelcomePack });
  assert.equal(na.body.status, 'NotApplicable');
  const cl = await s.api(KEYS.member, 'GET', `/v3/checklists/${key}`);
  assert.equal(cl.body.status, 'Complete');
  assert.deepEqual(events.map((e) => e.type), ['task_completed', 'task_completed', 'task_completed', 'task_completed', 'checklist_completed']);

  // structuredContent equals REST, for reads and refusals.
  const restList = await s.api(KEYS.member, 'GET', taskPath(key));
  assert.deepEqual((await callTool(c, 'list_checklist_tasks', { checklistKey: key })).body, restList.body);
  const restGet = await s.api(KEYS.member, 'GET', taskPath(key, T.collectDetails));
  assert.deepEqual((await callTool(c, 'get_task', { checklistKey: key, taskKey: T.collectDetails })).body, restGet.body);
  const mcpHeading = await callTool(c, 'complete_task', { checklistKey: key, taskKey: T.heading });
  const restHeading = await s.api(KEYS.member, 'POST', taskPath(key, T.heading, '/complete'));
  assert.equal(mcpHeading.isError, true);
  assert.deepEqual(withoutRequestId(mcpHeading.body), withoutRequestId(restHeading.body));

  // uncomplete_task and clear_task_not_applicable reopen it; statuses are Incomplete.
  const un = await callTool(c, 'uncomplete_task', { checklistKey: key, taskKey: T.firstDayWelcome });
  assert.equal(un.body.status, 'Incomplete');
  const clr = await callTool(c, 'clear_task_not_applicable', { checklistKey: key, taskKey: T.sendWelcomePack });
  assert.equal(clr.body.status, 'Incomplete');
  assert.equal(clr.body.notApplicableDateTime, undefined);
  assert.equal(clr.body.completedDateTime, undefined);
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/checklists/${key}`)).body.status, 'InProgress');
});

test('4.3 list: summary size, checklist order, headings included without a filter', async () => {
  const key = await newChecklist(s);
  const r = await s.api(KEYS.admin, 'GET', taskPath(key));
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ['tasks']);
  const [heading, first] = r.body.tasks;
  assert.deepEqual(heading, {
    key: T.heading,
    name: 'Before the first day',
    order: 1,
    isHeading: true,
    isComplete: false,
    isNotApplicable: false,
    isCurrentlyHalted: false,
    isCurrentlyHidden: false,
    isAssignedExclusively: false,
  });
  assert.deepEqual(Object.keys(first), [
    'key', 'name', 'order', 'isHeading', 'status', 'isComplete', 'isNotApplicable', 'isCurrentlyHalted', 'isCurrentlyHidden', 'isAssignedExclusively', 'dueDateTime',
  ]);
  assert.equal(first.assignees, undefined, 'summary has no assignees');
  const orders = r.body.tasks.map((t: { order: number }) => t.order);
  assert.deepEqual(orders, [...orders].sort((a: number, b: number) => a - b));
  assert.equal(r.body.tasks.find((t: { key: string }) => t.key === T.contractorAgreement).isCurrentlyHidden, true, 'hidden tasks are returned and flagged');
});

test('4.3 list: status filter ignores case, spaces, hyphens and underscores and drops headings', async () => {
  const key = await newChecklist(s);
  await s.api(KEYS.admin, 'POST', taskPath(key, T.managerApproval, '/complete'));
  await s.api(KEYS.admin, 'POST', taskPath(key, T.firstDayWelcome, '/not-applicable'));
  const q = async (status: string) => (await s.api(KEYS.admin, 'GET', `${taskPath(key)}?status=${encodeURIComponent(status)}`)).body.tasks.map((t: { key: string }) => t.key);
  assert.deepEqual(await q('complete'), [T.managerApproval]);
  assert.deepEqual(await q('not-applicable'), [T.firstDayWelcome]);
  assert.deepEqual(await q(' NOT_APPLICABLE , Complete'), [T.managerApproval, T.firstDayWelcome]);
  const incomplete = await q('InComplete');
  assert.ok(!incomplete.includes(T.heading));
  assert.deepEqual(incomplete, [T.collectDetails, T.contractorAgreement, T.setUpEquipment, T.sendWelcomePack]);
  await refused(s, () => s.api(KEYS.admin, 'GET', `${taskPath(key)}?status=`), 400, 'VALIDATION_ERROR', 'status');
  await refused(s, () => s.api(KEYS.admin, 'GET', `${taskPath(key)}?status=Done`), 400, 'VALIDATION_ERROR', 'status');
  await refused(s, () => s.api(KEYS.admin, 'GET', `${taskPath(key)}?status=Complete,Overdue`), 400, 'VALIDATION_ERROR', 'status');
  const c = await s.mcp(KEYS.admin);
  const bad = await callTool(c, 'list_checklist_tasks', { checklistKey: key, status: '' });
  assert.equal(bad.isError, true);
  assert.equal(bad.body.error.field, 'status');
});

test('4.3 get: task detail adds checklist reference and the task\'s own tags in name order', async () => {
  const r = await s.api(KEYS.admin, 'GET', taskPath(DEMO.johnRoe, T.collectDetails));
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.checklist.key, DEMO.johnRoe);
  assert.equal(r.body.checklist.name, 'Onboarding: John Roe');
  assert.ok(r.body.checklist.url);
  assert.deepEqual(Object.keys(r.body.checklist.template).slice(0, 4), ['key', 'name', 'url', 'version']);
  assert.equal(r.body.checklist.template.version, 2);
  assert.deepEqual(r.body.tags, [], 'checklist and template tags are not the task\'s');
  await s.api(KEYS.admin, 'POST', taskPath(DEMO.johnRoe, T.collectDetails, '/tags'), { tags: ['zeta', 'Alpha', 'mid'] });
  const again = await s.api(KEYS.admin, 'GET', taskPath(DEMO.johnRoe, T.collectDetails));
  assert.deepEqual(again.body.tags, ['Alpha', 'mid', 'zeta']);
  assert.equal(again.body.isAssignedExclusively, true);
  assert.deepEqual(again.body.assignees, [{ id: 101, type: 'TeamMember', name: 'Ada Admin' }]);
  // Fields: every answerable field, content controls left out, hidden ones omitted.
  const jdGet = await s.api(KEYS.admin, 'GET', taskPath(jd, T.firstDayWelcome));
  assert.deepEqual(jdGet.body.fields.map((f: { key: string }) => f.key), [F.notes]);
});

test('4.3 refusals: malformed keys (400 with field), unknown keys (404), another checklist\'s or workspace\'s task (404)', async () => {
  await refused(s, () => s.api(KEYS.admin, 'GET', '/v3/checklists/not-a-guid/tasks'), 400, 'VALIDATION_ERROR', 'checklistKey');
  await refused(s, () => s.api(KEYS.admin, 'GET', taskPath(jd, 'nope')), 400, 'VALIDATION_ERROR', 'taskKey');
  await refused(s, () => s.api(KEYS.admin, 'POST', taskPath(jd, 'nope', '/complete')), 400, 'VALIDATION_ERROR', 'taskKey');
  await refused(s, () => s.api(KEYS.admin, 'POST', taskPath('zzz', T.collectDetails, '/complete')), 400, 'VALIDATION_ERROR', 'checklistKey');
  await refused(s, () => s.api(KEYS.admin, 'GET', taskPath(MISSING)), 404, 'CHECKLIST_NOT_FOUND');
  await refused(s, () => s.api(KEYS.admin, 'POST', taskPath(MISSING, T.collectDetails, '/complete')), 404, 'CHECKLIST_NOT_FOUND');
  await refused(s, () => s.api(KEYS.admin, 'GET', taskPath(jd, MISSING)), 404, 'TASK_NOT_FOUND');
  // A task key of another checklist (Expense Report's task on Jane Doe's checklist).
  await refused(s, () => s.api(KEYS.admin, 'POST', taskPath(jd, T.submitReceipts, '/complete')), 404, 'TASK_NOT_FOUND');
  // A standalone task attached to the checklist is not reachable under its task routes.
  await refused(s, () => s.api(KEYS.admin, 'GET', taskPath(jd, DEMO.businessCards)), 404, 'TASK_NOT_FOUND');
  await refused(s, () => s.api(KEYS.admin, 'POST', taskPath(jd, DEMO.businessCards, '/complete')), 404, 'TASK_NOT_FOUND');
  // Another workspace's checklist is 404, never 403 (5.10), even for a member without access.
  await refused(s, () => s.api(KEYS.noperm, 'GET', taskPath(DEMO.globexChecklist)), 404, 'CHECKLIST_NOT_FOUND');
  await refused(s, () => s.api(KEYS.globexAdmin, 'GET', taskPath(jd), undefined, {}, s.eu), 404, 'CHECKLIST_NOT_FOUND');
});

test('2.4 headings: every status, assignee, due-date, comment and snooze write refuses them with field taskKey', async () => {
  const key = await newChecklist(s);
  const h = (m: string, suffix: string, body?: unknown, k: string = KEYS.admin) => () => s.api(k, m, taskPath(key, T.heading, suffix), body);
  for (const [m, suffix, body] of [
    ['POST', '/complete'],
    ['DELETE', '/complete'],
    ['POST', '/not-applicable'],
    ['DELETE', '/not-applicable'],
    ['PUT', '/assignees', { assignees: [{ type: 'TeamMember', id: 103 }] }],
    ['DELETE', '/assignees'],
    ['PUT', '/due-date', { dueDateTime: '2030-01-01T00:00:00Z' }],
    ['DELETE', '/due-date'],
    ['POST', '/comments', { html: '<p>hi</p>' }],
    ['PUT', '/snooze', { snoozedUntil: '2099-01-01T00:00:00Z' }],
  ] as [string, string, unknown?][]) {
    const b = await refused(s, h(m, suffix, body), 400, 'VALIDATION_ERROR', 'taskKey');
    assert.match(b.error.message, /heading/);
  }
  // A heading has no fields: answering one names nothing.
  await refused(s, h('PUT', `/fields/${F.employeeId}`, { value: 'E1234' }), 404, 'FIELD_NOT_FOUND');
});

test('3 state machine: NA and Complete are exclusive; repeats are harmless; uncomplete/clear leave Incomplete', async () => {
  const key = await newChecklist(s);
  const p = (suffix: string) => taskPath(key, T.managerApproval, suffix);
  assert.equal((await s.api(KEYS.admin, 'POST', p('/not-applicable'))).body.status, 'NotApplicable');
  const r = await refusedNothing(() => s.api(KEYS.admin, 'POST', p('/not-applicable')));
  assert.equal(r.status, 200);
  await refused(s, () => s.api(KEYS.admin, 'POST', p('/complete')), 409, 'CONFLICT');
  assert.equal((await refusedNothing(() => s.api(KEYS.admin, 'DELETE', p('/complete')))).body.status, 'NotApplicable');
  assert.equal((await s.api(KEYS.admin, 'DELETE', p('/not-applicable'))).body.status, 'Incomplete');
  assert.equal((await refusedNothing(() => s.api(KEYS.admin, 'DELETE', p('/not-applicable')))).status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', p('/complete'))).body.status, 'Complete');
  await refused(s, () => s.api(KEYS.admin, 'POST', p('/not-applicable')), 409, 'CONFLICT');
  events.length = 0;
  await s.api(KEYS.admin, 'DELETE', p('/complete'));
  await s.api(KEYS.admin, 'POST', p('/not-applicable'));
  assert.deepEqual(events, [], 'uncomplete and not applicable fire no task_completed');
  // A stop task marked not applicable no longer halts what follows it.
  const list = await s.api(KEYS.admin, 'GET', taskPath(key));
  assert.equal(list.body.tasks.find((t: { key: string }) => t.key === T.setUpEquipment).isCurrentlyHalted, false);
});

test('3 conditions: answering the Drop-Down shows the hidden task, which then counts for completion', async () => {
  const key = await newChecklist(s);
  const r = await s.api(KEYS.admin, 'PUT', taskPath(key, T.collectDetails, `/fields/${F.employmentType}`), { value: 'contractor' });
  assert.equal(r.status, 200);
  assert.equal(r.body.value, 'Contractor', 'option text as the template writes it');
  const t = await s.api(KEYS.admin, 'GET', taskPath(key, T.contractorAgreement));
  assert.equal(t.body.isCurrentlyHidden, false);
  // Required-free but the File Upload is not required: completes.
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(key, T.contractorAgreement, '/complete'))).status, 200);
});

test('4.3 assignees: GET, PUT replaces (task size), DELETE clears; task_assigned for each newly added', async () => {
  const key = await newChecklist(s);
  const p = taskPath(key, T.managerApproval, '/assignees');
  assert.deepEqual((await s.api(KEYS.member, 'GET', p)).body, { assignees: [], isAssignedExclusively: false });
  events.length = 0;
  const put = await s.api(KEYS.member, 'PUT', p, { assignees: [{ name: 'mia@acme.test' }, { type: 'group', id: 301 }, { name: 'Ada Admin' }, { type: 'TeamMember', id: 109 }] });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(put.body.assignees, [
    { id: 301, type: 'Group', name: 'Operations' },
    { id: 109, type: 'TeamMember' },
    { id: 101, type: 'TeamMember', name: 'Ada Admin' },
    { id: 103, type: 'TeamMember', name: 'Mia Member' },
  ]);
  assert.equal(events.filter((e) => e.type === 'task_assigned').length, 4);
  events.length = 0;
  const put2 = await s.api(KEYS.member, 'PUT', p, { assignees: [{ type: 'TeamMember', id: 103 }, { name: 'Sales' }], isAssignedExclusively: true });
  assert.deepEqual(put2.body.assignees.map((a: { id: number }) => a.id), [302, 103]);
  assert.equal(put2.body.isAssignedExclusively, true);
  assert.deepEqual(events, [{ type: 'task_assigned', subject: { taskId: taskId(key, T.managerApproval), assigneeType: 'Group', assigneeId: 302 } }]);
  const del = await s.api(KEYS.member, 'DELETE', p);
  assert.deepEqual(del.body.assignees, []);
  assert.equal(del.body.isAssignedExclusively, true, 'the flag is kept');
  const c = await s.mcp(KEYS.member);
  const m = await callTool(c, 'set_task_assignees', { checklistKey: key, taskKey: T.managerApproval, assignees: [{ name: 'Operations' }] });
  assert.deepEqual(m.body, await (await s.api(KEYS.member, 'GET', taskPath(key, T.managerApproval))).body && m.body);
  assert.deepEqual(m.body.assignees, [{ id: 301, type: 'Group', name: 'Operations' }]);
  const cleared = await callTool(c, 'clear_task_assignees', { checklistKey: key, taskKey: T.managerApproval });
  assert.deepEqual(cleared.body.assignees, []);
});

test('4.3 due date: GET, PUT {dueDateTime} (offsets honoured, none = UTC), DELETE; activity text in the request zone', async () => {
  const key = await newChecklist(s);
  const p = taskPath(key, T.managerApproval, '/due-date');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', p)).body, {});
  const put = await s.api(KEYS.admin, 'PUT', p, { dueDateTime: '2030-03-02T10:00:00+01:00' }, { 'X-SVC-Timezone': 'Asia/Tokyo' });
  assert.equal(put.status, 200);
  assert.equal(put.body.dueDateTime, '2030-03-02T09:00:00.000Z');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', p)).body, { dueDateTime: '2030-03-02T09:00:00.000Z' });
  const noOffset = await s.api(KEYS.admin, 'PUT', p, { dueDateTime: '2030-03-02T10:00:00' });
  assert.equal(noOffset.body.dueDateTime, '2030-03-02T10:00:00.000Z');
  const act = await s.api(KEYS.admin, 'GET', taskPath(key, T.managerApproval, '/activity'));
  const dueTexts = act.body.items.filter((i: { action: string }) => i.action === 'task.dueDateSet').map((i: { text: string }) => i.text);
  assert.ok(dueTexts.includes('Ada Admin set the due date to 2030-03-02 18:00 (Asia/Tokyo).'), dueTexts.join(' | '));
  assert.ok(dueTexts.includes('Ada Admin set the due date to 2030-03-02 05:00 (America/New_York).'), 'profile zone without the header');
  for (const bad of ['2030-03-02', '2030-03-02T10:00:00+25:00', '2030-03-02T10:00:00+05:7', '2030-13-02T10:00:00Z', 'soon', '2030-03-02T10:00:00 +01:00']) {
    await refused(s, () => s.api(KEYS.admin, 'PUT', p, { dueDateTime: bad }), 400, 'VALIDATION_ERROR', 'dueDateTime');
  }
  await refused(s, () => s.api(KEYS.admin, 'PUT', p, {}), 400, 'VALIDATION_ERROR', 'dueDateTime');
  await refused(s, () => s.api(KEYS.admin, 'PUT', p, { dueDateTime: '2030-03-02T10:00:00Z' }, { 'X-SVC-Timezone': 'Mars/Olympus' }), 400, 'VALIDATION_ERROR', 'X-SVC-Timezone');
  const c = await s.mcp(KEYS.admin);
  const viaMcp = await callTool(c, 'set_task_due_date', { checklistKey: key, taskKey: T.managerApproval, dueDateTime: '2031-01-01T00:00:00Z' });
  assert.equal(viaMcp.body.dueDateTime, '2031-01-01T00:00:00.000Z');
  const cleared = await callTool(c, 'clear_task_due_date', { checklistKey: key, taskKey: T.managerApproval });
  assert.equal(cleared.body.dueDateTime, undefined);
  assert.deepEqual((await s.api(KEYS.admin, 'GET', p)).body, {});
});

test('due-date rules follow their anchors: a Date field answer re-dates the task relative to it', async () => {
  const key = await newChecklist(s);
  await s.api(KEYS.admin, 'PUT', taskPath(key, T.collectDetails, `/fields/${F.startDate}`), { value: '2030-05-04' });
  const t = await s.api(KEYS.admin, 'GET', taskPath(key, T.firstDayWelcome));
  assert.equal(t.body.dueDateTime, '2030-05-04T00:00:00.000Z');
  await s.api(KEYS.admin, 'PUT', taskPath(key, T.collectDetails, `/fields/${F.startDate}`), { value: null });
  assert.equal((await s.api(KEYS.admin, 'GET', taskPath(key, T.firstDayWelcome))).body.dueDateTime, undefined);
});

test('4.3 snooze: get_task_snooze, set_task_snooze, end_task_snooze (personal, no activity)', async () => {
  const key = await newChecklist(s);
  const p = taskPath(key, T.managerApproval, '/snooze');
  assert.deepEqual((await s.api(KEYS.member, 'GET', p)).body, { isSnoozed: false });
  const actBefore = (await s.api(KEYS.member, 'GET', taskPath(key, T.managerApproval, '/activity'))).body.total;
  const put = await s.api(KEYS.member, 'PUT', p, { snoozedUntil: '2099-01-01T00:00:00Z' });
  assert.deepEqual(put.body, { isSnoozed: true, snoozedUntil: '2099-01-01T00:00:00.000Z' });
  assert.deepEqual((await s.api(KEYS.admin, 'GET', p)).body, { isSnoozed: false }, 'another member sees their own snooze');
  assert.equal((await s.api(KEYS.member, 'GET', taskPath(key, T.managerApproval, '/activity'))).body.total, actBefore, 'no activity');
  await refused(s, () => s.api(KEYS.member, 'PUT', p, { snoozedUntil: '2001-01-01T00:00:00Z' }), 400, 'VALIDATION_ERROR', 'snoozedUntil');
  await refused(s, () => s.api(KEYS.member, 'PUT', p, { snoozedUntil: 'tomorrow' }), 400, 'VALIDATION_ERROR', 'snoozedUntil');
  const c = await s.mcp(KEYS.member);
  assert.deepEqual((await callTool(c, 'get_task_snooze', { checklistKey: key, taskKey: T.managerApproval })).body, put.body);
  assert.deepEqual((await callTool(c, 'end_task_snooze', { checklistKey: key, taskKey: T.managerApproval })).body, { isSnoozed: false });
  assert.deepEqual((await callTool(c, 'set_task_snooze', { checklistKey: key, taskKey: T.managerApproval, snoozedUntil: '2098-01-01T00:00:00Z' })).body.isSnoozed, true);
  assert.equal((await s.api(KEYS.member, 'DELETE', p)).body.isSnoozed, false);
  assert.equal((await s.api(KEYS.member, 'DELETE', p)).status, 200, 'ending no snooze is harmless');
});

test('4.3 tags: GET, POST {tags} creates on first application, DELETE ?name= removes the tag with its last carrier', async () => {
  const key = await newChecklist(s);
  const p = taskPath(key, T.managerApproval, '/tags');
  assert.deepEqual((await s.api(KEYS.member, 'GET', p)).body, { tags: [] });
  const post = await s.api(KEYS.member, 'POST', p, { tags: ['brand-new-tag', 'urgent', 'Brand-New-Tag'] });
  assert.deepEqual(post.body, { tags: ['brand-new-tag', 'urgent'] });
  const tagRow = () => s.emu.db.prepare("SELECT id FROM tags WHERE name = 'brand-new-tag'").get();
  assert.ok(tagRow());
  const del = await s.api(KEYS.member, 'DELETE', `${p}?name=BRAND-NEW-TAG`);
  assert.deepEqual(del.body, { tags: ['urgent'] });
  assert.equal(tagRow(), undefined, 'removed with its last carrier');
  assert.ok(s.emu.db.prepare("SELECT id FROM tags WHERE name = 'urgent'").get(), 'urgent still carried by Jane Doe\'s task');
  assert.equal((await s.api(KEYS.member, 'DELETE', `${p}?name=not-there`)).status, 200);
  await refused(s, () => s.api(KEYS.member, 'DELETE', p), 400, 'VALIDATION_ERROR', 'name');
  await refused(s, () => s.api(KEYS.member, 'POST', p, { tags: [] }), 400, 'VALIDATION_ERROR', 'tags');
  await refused(s, () => s.api(KEYS.member, 'POST', p, { tags: ['  '] }), 400, 'VALIDATION_ERROR', 'tags[0]');
  await refused(s, () => s.api(KEYS.member, 'POST', p, { tags: 'x' }), 400, 'VALIDATION_ERROR', 'tags');
  const c = await s.mcp(KEYS.member);
  assert.deepEqual((await callTool(c, 'add_task_tags', { checklistKey: key, taskKey: T.managerApproval, tags: ['b', 'a'] })).body, { tags: ['a', 'b', 'urgent'] });
  assert.deepEqual((await callTool(c, 'remove_task_tag', { checklistKey: key, taskKey: T.managerApproval, name: 'a' })).body, { tags: ['b', 'urgent'] });
});

test('4.3 activity: get_task_activity lists who did what and when for every write, newest first, paged', async () => {
  const key = await newChecklist(s);
  const k = T.collectDetails;
  await s.api(KEYS.member, 'PUT', taskPath(key, k, `/fields/${F.employeeId}`), { value: 'E1000' });
  await s.api(KEYS.member, 'POST', taskPath(key, k, '/complete'));
  await s.api(KEYS.member, 'DELETE', taskPath(key, k, '/complete'));
  await s.api(KEYS.member, 'POST', taskPath(key, k, '/not-applicable'));
  await s.api(KEYS.member, 'DELETE', taskPath(key, k, '/not-applicable'));
  await s.api(KEYS.member, 'PUT', taskPath(key, k, '/assignees'), { assignees: [{ name: 'Ada Admin' }] });
  await s.api(KEYS.member, 'PUT', taskPath(key, k, '/due-date'), { dueDateTime: '2030-01-01T00:00:00Z' });
  await s.api(KEYS.member, 'DELETE', taskPath(key, k, '/due-date'));
  const cm = await s.api(KEYS.member, 'POST', taskPath(key, k, '/comments'), { text: 'hello' });
  await s.api(KEYS.member, 'DELETE', taskPath(key, k, `/comments/${cm.body.id}`));
  await s.api(KEYS.member, 'POST', taskPath(key, k, '/tags'), { tags: ['x1'] });
  await s.api(KEYS.member, 'DELETE', taskPath(key, k, '/tags?name=x1'));
  const all = await s.api(KEYS.member, 'GET', taskPath(key, k, '/activity?pageSize=100'));
  assert.equal(all.status, 200);
  const actions = all.body.items.map((i: { action: string }) => i.action).reverse();
  for (const a of ['field.answered', 'task.completed', 'task.uncompleted', 'task.notApplicable', 'task.notApplicableCleared', 'task.assigned', 'task.unassigned', 'task.dueDateSet', 'task.dueDateCleared', 'comment.added', 'comment.deleted', 'task.tagged', 'task.untagged']) {
    assert.ok(actions.includes(a), `${a} in ${actions.join(',')}`);
  }
  const first = all.body.items[0];
  assert.deepEqual(Object.keys(first).slice(0, 5), ['id', 'action', 'text', 'createdDateTime', 'createdBy']);
  assert.deepEqual(first.createdBy, { name: 'Mia Member', email: 'mia@acme.test' });
  const page = await s.api(KEYS.member, 'GET', taskPath(key, k, '/activity?pageSize=2'));
  assert.equal(page.body.items.length, 2);
  assert.equal(page.body.hasMore, true);
  const next = await s.api(KEYS.member, 'GET', taskPath(key, k, `/activity?pageSize=2&after=${page.body.nextCursor}`));
  assert.equal(next.body.items[0].id, all.body.items[2].id);
  await refused(s, () => s.api(KEYS.member, 'GET', taskPath(key, k, `/activity?pageSize=3&after=${page.body.nextCursor}`)), 400, 'VALIDATION_ERROR', 'after');
  await refused(s, () => s.api(KEYS.member, 'GET', taskPath(key, k, '/activity?pageSize=0')), 400, 'VALIDATION_ERROR', 'pageSize');
  const c = await s.mcp(KEYS.member);
  assert.deepEqual((await callTool(c, 'get_task_activity', { checklistKey: key, taskKey: k, pageSize: 100 })).body, all.body);
});

test('standalone suffixes under /v3/tasks/{taskKey}: complete, not-applicable, assignees, due-date, comments, tags, activity, fields', async () => {
  const k = DEMO.renewInsurance;
  const p = (suffix: string) => `/v3/tasks/${k}${suffix}`;
  events.length = 0;
  const done = await s.api(KEYS.admin, 'POST', p('/complete'));
  assert.equal(done.status, 200, done.text);
  assert.equal(done.body.status, 'Complete');
  assert.equal(events[0].type, 'task_completed');
  assert.equal((await s.api(KEYS.admin, 'DELETE', p('/complete'))).body.status, 'Incomplete');
  assert.equal((await s.api(KEYS.admin, 'POST', p('/not-applicable'))).body.status, 'NotApplicable');
  assert.equal((await s.api(KEYS.admin, 'DELETE', p('/not-applicable'))).body.status, 'Incomplete');
  assert.deepEqual((await s.api(KEYS.admin, 'PUT', p('/assignees'), { assignees: [{ name: 'Operations' }] })).body.assignees, [{ id: 301, type: 'Group', name: 'Operations' }]);
  assert.equal((await s.api(KEYS.admin, 'PUT', p('/due-date'), { dueDateTime: '2030-01-01T00:00:00Z' })).body.dueDateTime, '2030-01-01T00:00:00.000Z');
  assert.equal((await s.api(KEYS.admin, 'POST', p('/comments'), { text: 'Renewed?' })).status, 201);
  assert.deepEqual((await s.api(KEYS.admin, 'POST', p('/tags'), { tags: ['insurance'] })).body, { tags: ['insurance'] });
  assert.deepEqual((await s.api(KEYS.member, 'PUT', p('/snooze'), { snoozedUntil: '2099-01-01T00:00:00Z' })).body.isSnoozed, true);
  assert.deepEqual((await s.api(KEYS.admin, 'GET', p('/fields'))).body, { fields: [] });
  assert.ok((await s.api(KEYS.admin, 'GET', p('/activity'))).body.total >= 6);
  // An attached standalone task works at /v3/tasks too.
  assert.equal((await s.api(KEYS.member, 'POST', `/v3/tasks/${DEMO.businessCards}/complete`)).body.status, 'Complete');
  // A checklist task key is not a standalone task.
  await refused(s, () => s.api(KEYS.admin, 'POST', `/v3/tasks/${T.collectDetails}/complete`), 404, 'TASK_NOT_FOUND');
  await refused(s, () => s.api(KEYS.admin, 'POST', '/v3/tasks/nope/complete'), 400, 'VALIDATION_ERROR', 'taskKey');
});

test('4.3 MCP tool table: every row\'s tool exists; reads without a tool have none', async () => {
  const c = await s.mcp(KEYS.admin);
  const names = new Set((await c.listTools()).tools.map((t) => t.name));
  for (const n of [
    'list_checklist_tasks', 'get_task', 'complete_task', 'uncomplete_task', 'set_task_not_applicable', 'clear_task_not_applicable',
    'set_task_assignees', 'clear_task_assignees', 'set_task_due_date', 'clear_task_due_date', 'add_task_comment', 'remove_task_comment',
    'get_task_snooze', 'set_task_snooze', 'end_task_snooze', 'add_task_tags', 'remove_task_tag', 'get_task_activity',
  ]) assert.ok(names.has(n), n);
  for (const n of [...names]) assert.ok(!/field|standalone/i.test(n) || !n.includes('task_field'), n);
});
