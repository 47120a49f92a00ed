// Corners of the v3 task rules where the emulator once answered differently from the spec
// (spec v3 2.4, 4.1, 5.4, 5.8, 5.10). Each test is named after the sentence it enforces.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, DEMO, KEYS, type TestServer } from './helpers/server';
import { MISSING, T, newChecklist, refused, taskPath } from './helpers/tasks';
import { upgradeKit } from './helpers/upgrades';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

test('5.8 "Delete a comment | its author or an Administrator": an author who cannot see the checklist deletes her own comment (REST and MCP)', async () => {
  const key = await newChecklist(s, { name: 'Author deletes' });
  const p = taskPath(key, T.collectDetails, '/comments');
  // Nora has no permission on Onboarding: she may comment (any key may, 5.8) but not read.
  assert.equal((await s.api(KEYS.noperm, 'GET', p)).status, 403);
  const one = await s.api(KEYS.noperm, 'POST', p, { text: 'mine' });
  const two = await s.api(KEYS.noperm, 'POST', p, { text: 'mine too' });
  assert.equal(one.status, 201, one.text);
  assert.equal(two.status, 201, two.text);
  const del = await s.api(KEYS.noperm, 'DELETE', `${p}/${one.body.id}`);
  assert.equal(del.status, 204, del.text);
  const c = await s.mcp(KEYS.noperm);
  const m = await callTool(c, 'remove_task_comment', { checklistKey: key, taskKey: T.collectDetails, commentId: two.body.id });
  assert.equal(m.isError, false, m.text);
  const left = await s.api(KEYS.admin, 'GET', p);
  assert.deepEqual(left.body.comments.map((x: { id: number }) => x.id).filter((id: number) => id === one.body.id || id === two.body.id), []);
});

test('5.8 "Delete a comment | its author or an Administrator": anyone else is refused 403 FORBIDDEN, REST and MCP alike', async () => {
  const key = await newChecklist(s, { name: 'Not the author' });
  const p = taskPath(key, T.collectDetails, '/comments');
  const admins = await s.api(KEYS.admin, 'POST', p, { text: 'the admin wrote this' });
  const rest = await refused(s, () => s.api(KEYS.noperm, 'DELETE', `${p}/${admins.body.id}`), 403, 'FORBIDDEN');
  await refused(s, () => s.api(KEYS.member, 'DELETE', `${p}/${admins.body.id}`), 403, 'FORBIDDEN');
  const c = await s.mcp(KEYS.noperm);
  const m = await callTool(c, 'remove_task_comment', { checklistKey: key, taskKey: T.collectDetails, commentId: admins.body.id });
  assert.equal(m.isError, true);
  assert.deepEqual(withoutRequestId(m.body), withoutRequestId(rest));
});

test('5.10 "the resource is looked up first, so another workspace\'s resource is 404, never 403": snoozes with a workspace key (REST and MCP)', async () => {
  const globexTasks = await s.api(KEYS.globexAdmin, 'GET', `/v3/checklists/${DEMO.globexChecklist}/tasks`, undefined, {}, s.eu);
  assert.equal(globexTasks.status, 200, globexTasks.text);
  const globexTask = (globexTasks.body.items ?? globexTasks.body.tasks)[0].key;
  const c = await s.mcp(KEYS.workspace);
  const cases: { path: string; tool: Record<string, unknown>; status: number; code: string; field?: string }[] = [
    { path: taskPath(DEMO.globexChecklist, globexTask, '/snooze'), tool: { checklistKey: DEMO.globexChecklist, taskKey: globexTask }, status: 404, code: 'CHECKLIST_NOT_FOUND' },
    { path: taskPath(MISSING, T.collectDetails, '/snooze'), tool: { checklistKey: MISSING, taskKey: T.collectDetails }, status: 404, code: 'CHECKLIST_NOT_FOUND' },
    { path: taskPath(DEMO.janeDoe, MISSING, '/snooze'), tool: { checklistKey: DEMO.janeDoe, taskKey: MISSING }, status: 404, code: 'TASK_NOT_FOUND' },
    { path: taskPath('not-a-key', T.collectDetails, '/snooze'), tool: { checklistKey: 'not-a-key', taskKey: T.collectDetails }, status: 400, code: 'VALIDATION_ERROR', field: 'checklistKey' },
    { path: '/v3/tasks/not-a-key/snooze', tool: {}, status: 400, code: 'VALIDATION_ERROR', field: 'taskKey' },
    { path: `/v3/tasks/${MISSING}/snooze`, tool: {}, status: 404, code: 'TASK_NOT_FOUND' },
  ];
  for (const k of cases) {
    for (const [method, tool, body] of [
      ['GET', 'get_task_snooze', undefined],
      ['PUT', 'set_task_snooze', { snoozedUntil: '2099-01-01T00:00:00Z' }],
      ['DELETE', 'end_task_snooze', undefined],
    ] as const) {
      const r = await refused(s, () => s.api(KEYS.workspace, method, k.path, body), k.status, k.code, k.field);
      if (!('checklistKey' in k.tool)) continue;
      const m = await callTool(c, tool, { ...k.tool, ...(body ?? {}) });
      assert.equal(m.isError, true, `${tool} ${k.path}`);
      assert.deepEqual(withoutRequestId(m.body), withoutRequestId({ error: r.error }), `${tool} ${k.path}`);
    }
  }
});

test('5.8 "Snooze | a member key … | 403 API_KEY_ACTS_AS_WORKSPACE": an existing task of the workspace is refused for the workspace key (REST and MCP)', async () => {
  const key = await newChecklist(s, { name: 'Workspace snooze' });
  const p = taskPath(key, T.managerApproval, '/snooze');
  const c = await s.mcp(KEYS.workspace);
  for (const [method, tool, body] of [
    ['GET', 'get_task_snooze', undefined],
    ['PUT', 'set_task_snooze', { snoozedUntil: '2099-01-01T00:00:00Z' }],
    ['DELETE', 'end_task_snooze', undefined],
  ] as const) {
    const r = await refused(s, () => s.api(KEYS.workspace, method, p, body), 403, 'API_KEY_ACTS_AS_WORKSPACE');
    const m = await callTool(c, tool, { checklistKey: key, taskKey: T.managerApproval, ...(body ?? {}) });
    assert.deepEqual(withoutRequestId(m.body), withoutRequestId(r));
  }
  const raised = await s.api(KEYS.workspace, 'POST', '/v3/tasks', { name: 'Workspace raised' });
  assert.equal(raised.status, 201, raised.text);
  await refused(s, () => s.api(KEYS.workspace, 'PUT', `/v3/tasks/${raised.body.key}/snooze`, { snoozedUntil: '2099-01-01T00:00:00Z' }), 403, 'API_KEY_ACTS_AS_WORKSPACE');
});

test('4.1 rule 3 "A body that is not valid JSON gives 400": routes that take no body refuse a broken one and write nothing', async () => {
  const key = await newChecklist(s, { name: 'Broken bodies' });
  const bad = '{"broken": ';
  const t = T.collectDetails;
  await s.api(KEYS.admin, 'PUT', taskPath(key, t, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] });
  await s.api(KEYS.admin, 'PUT', taskPath(key, t, '/due-date'), { dueDateTime: '2099-01-01T00:00:00Z' });
  await s.api(KEYS.admin, 'POST', taskPath(key, t, '/tags'), { tags: ['fidelity'] });
  for (const [method, suffix] of [
    ['POST', '/complete'],
    ['POST', '/not-applicable'],
    ['DELETE', '/assignees'],
    ['DELETE', '/due-date'],
    ['DELETE', '/tags?name=fidelity'],
  ] as const) {
    const b = await refused(s, () => s.api(KEYS.admin, method, taskPath(key, t, suffix), bad), 400, 'VALIDATION_ERROR');
    assert.match(b.error.message, /invalid request body/i, `${method} ${suffix}`);
  }
  const task = await s.api(KEYS.admin, 'GET', taskPath(key, t));
  assert.equal(task.body.status, 'Incomplete');
  assert.equal(task.body.assignees.length, 1);
  assert.equal(task.body.dueDateTime, '2099-01-01T00:00:00.000Z');
  assert.deepEqual(task.body.tags, ['fidelity']);
  // An empty body is no body: these routes still answer.
  const empty = await s.api(KEYS.admin, 'DELETE', taskPath(key, t, '/due-date'), '');
  assert.equal(empty.status, 200, empty.text);
});

test('2.5 template detail "selectionMode (Members: single or multiple; a single field refuses two people)": a Members field sent without it is multiple everywhere', async () => {
  const kit = upgradeKit(s);
  const doc = { name: 'Members default', tasks: [{ ref: 'pick', name: 'Pick people', fields: [{ ref: 'who', type: 'Members', label: 'Who' }] }] };
  const { key: tpl, doc: exported } = await kit.createTemplate(doc);
  const detail = await kit.ok(s.api(KEYS.admin, 'GET', `/v3/templates/${tpl}`));
  const field = detail.tasks[0].fields[0];
  assert.equal(field.selectionMode, 'multiple', 'the detail reports the default');
  const two = [DEMO.members.mia, DEMO.members.nora];
  // Start: two people through parameters.<label>.
  const c = await kit.start(tpl, 'Two people', { Who: two });
  const taskKey = detail.tasks[0].key;
  const ids = (f: { value?: { id: number }[] }) => (f.value ?? []).map((p) => p.id);
  assert.deepEqual(ids(await kit.field(c, taskKey, field.key)), two);
  // Answer: two people through the field route, and through MCP.
  const d = await kit.start(tpl, 'Answered later');
  await kit.answer(d, taskKey, field.key, two);
  assert.deepEqual(ids(await kit.field(d, taskKey, field.key)), two);
  // MCP's template detail reports the same default.
  const m = await s.mcp(KEYS.admin);
  const got = await callTool(m, 'get_template', { key: tpl });
  assert.equal(got.isError, false, got.text);
  assert.equal(got.body.tasks[0].fields[0].selectionMode, 'multiple');
  // Upgrade to a version that still does not say: both people are carried.
  exported.tasks[0].name = 'Pick people (v2)';
  await kit.publish(tpl, exported, KEYS.admin);
  await kit.upgradeNow(tpl, c);
  assert.deepEqual(ids(await kit.field(c, taskKey, field.key)), two, 'the upgrade keeps every person');
  // The explicit single mode still refuses two people.
  const single = await kit.createTemplate({ name: 'Members single', tasks: [{ ref: 'pick', name: 'Pick one', fields: [{ ref: 'who', type: 'Members', label: 'Who', selectionMode: 'single' }] }] });
  const sd = await kit.ok(s.api(KEYS.admin, 'GET', `/v3/templates/${single.key}`));
  assert.equal(sd.tasks[0].fields[0].selectionMode, 'single');
  const r = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: single.key, name: 'x', parameters: { Who: two } });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error.field, 'parameters.Who');
});

test('5.4 "an attached standalone task [is] readable only when the member could open the checklist": its raiser loses every route with the checklist', async () => {
  const key = await newChecklist(s, { template: DEMO.expense, name: 'Attached and lost' });
  const raised = await s.api(KEYS.member, 'POST', '/v3/tasks', { name: 'Raised by Mia' });
  assert.equal(raised.status, 201, raised.text);
  const t = raised.body.key;
  const attach = await s.api(KEYS.member, 'PUT', `/v3/tasks/${t}/attachment`, { checklistKey: key });
  assert.equal(attach.status, 200, attach.text);
  const p = (suffix = '') => `/v3/tasks/${t}${suffix}`;
  const reads = ['', '/comments', '/activity', '/tags', '/assignees', '/due-date', '/fields'];
  for (const r of reads) assert.equal((await s.api(KEYS.member, 'GET', p(r))).status, 200, `before: GET ${r}`);
  const rules = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.expense}/permissions`)).body.permissions;
  assert.equal((await s.api(KEYS.admin, 'PUT', `/v3/templates/${DEMO.expense}/permissions`, { permissions: [] })).status, 200);
  try {
    assert.equal((await s.api(KEYS.member, 'GET', `/v3/checklists/${key}`)).status, 403, 'Mia no longer opens the checklist');
    for (const r of reads) await refused(s, () => s.api(KEYS.member, 'GET', p(r)), 403, 'FORBIDDEN');
    for (const [method, suffix, body] of [
      ['POST', '/complete', undefined],
      ['POST', '/not-applicable', undefined],
      ['DELETE', '/complete', undefined],
      ['DELETE', '/not-applicable', undefined],
      ['PUT', '/due-date', { dueDateTime: '2099-01-01T00:00:00Z' }],
      ['DELETE', '/due-date', undefined],
      ['PUT', '/assignees', { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] }],
      ['DELETE', '/assignees', undefined],
      ['PUT', '/snooze', { snoozedUntil: '2099-01-01T00:00:00Z' }],
    ] as const) {
      await refused(s, () => s.api(KEYS.member, method, p(suffix), body), 403, 'FORBIDDEN');
    }
    // "Add comment, tag, untag | any key of the workspace | none" (5.8) still holds.
    assert.equal((await s.api(KEYS.member, 'POST', p('/comments'), { text: 'still may comment' })).status, 201);
    // Somebody assigned to it reads it: a task of the checklist is assigned to them (5.4).
    assert.equal((await s.api(KEYS.admin, 'PUT', p('/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] })).status, 200);
    assert.equal((await s.api(KEYS.noperm, 'GET', p())).status, 200);
    assert.equal((await s.api(KEYS.noperm, 'GET', p('/comments'))).status, 200);
  } finally {
    assert.equal((await s.api(KEYS.admin, 'PUT', `/v3/templates/${DEMO.expense}/permissions`, { permissions: rules })).status, 200);
  }
  assert.equal((await s.api(KEYS.member, 'GET', p('/comments'))).status, 200, 'back with the permission');
});

test('5.8 assign row "any Administrator or Member; when exclusive, only assignees and Administrators", with 5.4: every path that assigns needs the checklist (REST and MCP)', async () => {
  const key = await newChecklist(s, { name: 'Assign paths' });
  const t = T.managerApproval;
  const c = await s.mcp(KEYS.noperm);
  // Nora cannot open the checklist: neither path assigns her.
  const put = await refused(s, () => s.api(KEYS.noperm, 'PUT', taskPath(key, t, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] }), 403, 'FORBIDDEN');
  const viaComment = await refused(s, () => s.api(KEYS.noperm, 'POST', taskPath(key, t, '/comments'), { text: 'me', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.nora }] }), 403, 'FORBIDDEN');
  assert.equal(viaComment.error.message, put.error.message, 'the same refusal on both paths');
  const m1 = await callTool(c, 'set_task_assignees', { checklistKey: key, taskKey: t, assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] });
  const m2 = await callTool(c, 'add_task_comment', { checklistKey: key, taskKey: t, text: 'me', assignedMentioned: [{ name: 'Nora Noperm' }] });
  assert.deepEqual(withoutRequestId(m1.body), withoutRequestId(put));
  assert.deepEqual(withoutRequestId(m2.body), withoutRequestId(viaComment));
  assert.equal((await s.api(KEYS.noperm, 'GET', `/v3/checklists/${key}`)).status, 403, 'she still cannot open the checklist');
  // A plain comment is still anybody's (5.8 "Add comment … any key … none").
  assert.equal((await s.api(KEYS.noperm, 'POST', taskPath(key, t, '/comments'), { text: 'just a comment' })).status, 201);
  // A member who may open it assigns on both paths.
  const mia = await s.api(KEYS.member, 'POST', taskPath(key, t, '/comments'), { text: 'over to Nora', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.nora }] });
  assert.equal(mia.status, 201, mia.text);
  const miaMcp = await callTool(await s.mcp(KEYS.member), 'add_task_comment', { checklistKey: key, taskKey: T.setUpEquipment, text: 'and this', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.nora }] });
  assert.equal(miaMcp.isError, false, miaMcp.text);
  // Exclusive: only assignees and Administrators, on both paths.
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, t, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.nora }], isAssignedExclusively: true })).status, 200);
  await refused(s, () => s.api(KEYS.member, 'PUT', taskPath(key, t, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] }), 403, 'FORBIDDEN');
  await refused(s, () => s.api(KEYS.member, 'POST', taskPath(key, t, '/comments'), { text: 'me too', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.mia }] }), 403, 'FORBIDDEN');
  assert.equal((await s.api(KEYS.noperm, 'POST', taskPath(key, t, '/comments'), { text: 'adding Mia', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.mia }] })).status, 201, 'an assignee may');
});

test('2.4 isAssignedExclusively "Only assignees (and Administrators) may complete, reassign or re-date": not applicable, its clear and uncomplete stay open to run permission (REST and MCP)', async () => {
  const key = await newChecklist(s, { name: 'Exclusive list' });
  const t = T.managerApproval;
  // Exclusively Nora's; Mia has Run and View on Onboarding but is not an assignee.
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, t, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.nora }], isAssignedExclusively: true })).status, 200);
  const mia = await s.mcp(KEYS.member);
  const args = { checklistKey: key, taskKey: t };
  // Complete, reassign, re-date: refused, REST and MCP alike.
  const complete = await refused(s, () => s.api(KEYS.member, 'POST', taskPath(key, t, '/complete')), 403, 'FORBIDDEN');
  assert.deepEqual(withoutRequestId((await callTool(mia, 'complete_task', args)).body), withoutRequestId(complete));
  await refused(s, () => s.api(KEYS.member, 'PUT', taskPath(key, t, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] }), 403, 'FORBIDDEN');
  await refused(s, () => s.api(KEYS.member, 'PUT', taskPath(key, t, '/due-date'), { dueDateTime: '2099-01-01T00:00:00Z' }), 403, 'FORBIDDEN');
  // Not applicable and its clear: open.
  const na = await s.api(KEYS.member, 'POST', taskPath(key, t, '/not-applicable'));
  assert.equal(na.status, 200, na.text);
  assert.equal(na.body.status, 'NotApplicable');
  const cleared = await callTool(mia, 'clear_task_not_applicable', args);
  assert.equal(cleared.isError, false, cleared.text);
  assert.equal(cleared.body.status, 'Incomplete');
  const naMcp = await callTool(mia, 'set_task_not_applicable', args);
  assert.equal(naMcp.body.status, 'NotApplicable');
  assert.equal((await s.api(KEYS.member, 'DELETE', taskPath(key, t, '/not-applicable'))).status, 200);
  // Uncomplete: open, once the assignee completed it.
  assert.equal((await s.api(KEYS.noperm, 'POST', taskPath(key, t, '/complete'))).status, 200, 'the assignee completes');
  const un = await s.api(KEYS.member, 'DELETE', taskPath(key, t, '/complete'));
  assert.equal(un.status, 200, un.text);
  assert.equal(un.body.status, 'Incomplete');
  assert.equal((await s.api(KEYS.noperm, 'POST', taskPath(key, t, '/complete'))).status, 200);
  const unMcp = await callTool(mia, 'uncomplete_task', args);
  assert.equal(unMcp.isError, false, unMcp.text);
  assert.equal(unMcp.body.status, 'Incomplete');
  // Without run permission, none of them (5.8 row 1): Nora's group rule does not exist; a stranger key.
  const globex = await s.api(KEYS.globexAdmin, 'POST', taskPath(key, t, '/not-applicable'), undefined, {}, s.eu);
  assert.equal(globex.status, 404);
});

test('2.4 isCurrentlyHalted "True while behind an incomplete halt task", a stop task a condition hides halting nothing: the Tasks grid agrees with the task routes (REST and MCP)', async () => {
  const doc = {
    name: 'Hidden stop',
    tasks: [
      { ref: 'ask', name: 'Ask', fields: [{ ref: 'gate', type: 'DropDown', label: 'Gate', options: [{ text: 'Open' }, { text: 'Closed' }] }] },
      { ref: 'stop', name: 'Sign-off', isStop: true },
      { ref: 'after', name: 'After the stop' },
    ],
    conditions: [{ ref: 'gate_closed', action: 'show', targets: ['stop'], match: 'all', when: [{ field: 'gate', operator: 'is', value: 'Closed' }] }],
  };
  const made = await s.api(KEYS.admin, 'POST', '/v3/templates', doc);
  assert.equal(made.status, 201, made.text);
  const exported = (await s.api(KEYS.admin, 'GET', `/v3/templates/${made.body.key}/document`)).body;
  const [ask, stop, behind] = exported.tasks.map((t: { id: string }) => t.id);
  const gate = exported.tasks[0].fields[0].id;
  const key = await newChecklist(s, { template: made.body.key, name: 'Hidden stop run' });
  const c = await s.mcp(KEYS.admin);
  const gridStatus = async () => {
    const r = await s.api(KEYS.admin, 'GET', `/v3/my-work?assignee=all&checklist=${key}&status=Incomplete,Halted,DueToday,DueInFuture,Overdue`);
    assert.equal(r.status, 200, r.text);
    const m = await callTool(c, 'list_my_work', { assignee: 'all', checklist: key, status: 'Incomplete,Halted,DueToday,DueInFuture,Overdue' });
    assert.equal(m.isError, false, m.text);
    const rest = new Map(r.body.items.map((i: { key: string; status: string }) => [i.key, i.status]));
    const mcp = new Map(m.body.items.map((i: { key: string; status: string }) => [i.key, i.status]));
    assert.deepEqual([...mcp], [...rest], 'MCP lists what REST lists');
    return rest;
  };
  const taskHalted = async () => (await s.api(KEYS.admin, 'GET', taskPath(key, behind))).body.isCurrentlyHalted;
  // The stop task is hidden (shown only when Gate is Closed): nothing is halted, anywhere.
  assert.equal((await s.api(KEYS.admin, 'GET', taskPath(key, stop))).body.isCurrentlyHidden, true);
  assert.equal(await taskHalted(), false);
  assert.notEqual((await gridStatus()).get(behind), 'Halted');
  const onlyHalted = await s.api(KEYS.admin, 'GET', `/v3/my-work?assignee=all&checklist=${key}&status=Halted`);
  assert.deepEqual(onlyHalted.body.items, [], 'the Halted filter agrees');
  // Show the stop task: both halt.
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, ask, `/fields/${gate}`), { value: 'Closed' })).status, 200);
  assert.equal(await taskHalted(), true);
  assert.equal((await gridStatus()).get(behind), 'Halted');
  // Hide it again: neither halts; the task completes.
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, ask, `/fields/${gate}`), { value: 'Open' })).status, 200);
  assert.equal(await taskHalted(), false);
  assert.notEqual((await gridStatus()).get(behind), 'Halted');
  // Started with the stop shown by a parameter: both halt from the start.
  const shown = (await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: made.body.key, name: 'Shown from the start', parameters: { Gate: 'Closed' } })).body.key;
  assert.equal((await s.api(KEYS.admin, 'GET', taskPath(shown, behind))).body.isCurrentlyHalted, true);
  const g = await s.api(KEYS.admin, 'GET', `/v3/my-work?assignee=all&checklist=${shown}&status=Halted`);
  assert.deepEqual(g.body.items.map((i: { key: string }) => i.key), [behind]);
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(key, behind, '/complete'))).status, 200, 'completing works behind a hidden stop');
});
