// Who may do what with checklists and tasks (spec v3 5.4, 5.8, 5.9, 5.10) for every fixture key,
// and the naming rules of 2.4 (ambiguous Alex Kim 107/108, deactivated Dee Departed 106).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, KEYS, DEMO, type TestServer, type ApiAnswer } from './helpers/server';
import { F, T, newChecklist, recordEvents, refused, taskPath } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
  recordEvents(s);
});
after(async () => {
  await s.close();
});

const ok = async (p: Promise<ApiAnswer>, status = 200): Promise<ApiAnswer> => {
  const r = await p;
  assert.equal(r.status, status, r.text);
  return r;
};

test('5.4 reading Jane Doe\'s checklist: Administrators, workspace key and Operations (RunAndView) read; Nora is refused', async () => {
  for (const k of [KEYS.admin, KEYS.owner, KEYS.member, KEYS.workspace]) {
    await ok(s.api(k, 'GET', taskPath(DEMO.janeDoe)));
    await ok(s.api(k, 'GET', taskPath(DEMO.janeDoe, T.collectDetails)));
    await ok(s.api(k, 'GET', taskPath(DEMO.janeDoe, T.collectDetails, '/activity')));
  }
  for (const suffix of ['', `/${T.collectDetails}`, `/${T.collectDetails}/assignees`, `/${T.collectDetails}/due-date`, `/${T.collectDetails}/comments`, `/${T.collectDetails}/tags`, `/${T.collectDetails}/activity`, `/${T.collectDetails}/fields`]) {
    const b = await refused(s, () => s.api(KEYS.noperm, 'GET', `/v3/checklists/${DEMO.janeDoe}/tasks${suffix}`), 403, 'FORBIDDEN');
    assert.match(b.error.message, /An Administrator can/);
  }
  const c = await s.mcp(KEYS.noperm);
  const m = await callTool(c, 'get_task', { checklistKey: DEMO.janeDoe, taskKey: T.collectDetails });
  const rest = await s.api(KEYS.noperm, 'GET', taskPath(DEMO.janeDoe, T.collectDetails));
  assert.equal(m.isError, true);
  assert.deepEqual(withoutRequestId(m.body), withoutRequestId(rest.body));
});

test('5.8 row 1 (complete, uncomplete, NA, clear NA) for each key on an Onboarding checklist', async () => {
  const key = await newChecklist(s);
  const p = (suffix: string) => taskPath(key, T.managerApproval, suffix);
  for (const k of [KEYS.admin, KEYS.owner, KEYS.member]) {
    await ok(s.api(k, 'POST', p('/complete')));
    await ok(s.api(k, 'DELETE', p('/complete')));
    await ok(s.api(k, 'POST', p('/not-applicable')));
    await ok(s.api(k, 'DELETE', p('/not-applicable')));
  }
  for (const [m, suffix] of [['POST', '/complete'], ['DELETE', '/complete'], ['POST', '/not-applicable'], ['DELETE', '/not-applicable']]) {
    await refused(s, () => s.api(KEYS.noperm, m, p(suffix)), 403, 'FORBIDDEN');
    // The workspace key reads everything but runs only where a rule grants the anonymous member run access (5.9).
    const w = await refused(s, () => s.api(KEYS.workspace, m, p(suffix)), 403, 'FORBIDDEN');
    assert.match(w.error.message, /anonymous member/);
  }
});

test('5.9 workspace key runs tasks where AllUsers grants run access (Expense Report)', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const r = await ok(s.api(KEYS.workspace, 'POST', taskPath(key, '21000000-0000-4000-8000-000000000202', '/complete')));
  assert.deepEqual(r.body.completedBy, { name: 'Acme Workspace' });
  // Nora has no Onboarding rule but AllUsers RunAndView on Expense Report.
  await ok(s.api(KEYS.noperm, 'POST', taskPath(key, '21000000-0000-4000-8000-000000000203', '/complete')));
});

test('5.8 row 2 (assign, unassign, set or clear due date) for each key; workspace key refused', async () => {
  const key = await newChecklist(s);
  const p = (suffix: string) => taskPath(key, T.managerApproval, suffix);
  for (const k of [KEYS.admin, KEYS.owner, KEYS.member]) {
    await ok(s.api(k, 'PUT', p('/assignees'), { assignees: [{ type: 'TeamMember', id: 103 }] }));
    await ok(s.api(k, 'DELETE', p('/assignees')));
    await ok(s.api(k, 'PUT', p('/due-date'), { dueDateTime: '2030-01-01T00:00:00Z' }));
    await ok(s.api(k, 'DELETE', p('/due-date')));
  }
  for (const k of [KEYS.noperm, KEYS.workspace]) {
    await refused(s, () => s.api(k, 'PUT', p('/assignees'), { assignees: [{ type: 'TeamMember', id: 103 }] }), 403, 'FORBIDDEN');
    await refused(s, () => s.api(k, 'DELETE', p('/assignees')), 403, 'FORBIDDEN');
    await refused(s, () => s.api(k, 'PUT', p('/due-date'), { dueDateTime: '2030-01-01T00:00:00Z' }), 403, 'FORBIDDEN');
    await refused(s, () => s.api(k, 'DELETE', p('/due-date')), 403, 'FORBIDDEN');
  }
});

test('2.4 isAssignedExclusively: John Roe\'s collect-details task (Ada only): only assignees and Administrators complete, reassign, re-date', async () => {
  const p = (suffix: string) => taskPath(DEMO.johnRoe, T.collectDetails, suffix);
  for (const [m, suffix, body] of [
    ['POST', '/complete'],
    ['PUT', '/assignees', { assignees: [{ type: 'TeamMember', id: 103 }] }],
    ['DELETE', '/assignees'],
    ['PUT', '/due-date', { dueDateTime: '2030-01-01T00:00:00Z' }],
    ['DELETE', '/due-date'],
    ['PUT', `/fields/${F.employeeId}`, { value: 'E1234' }],
  ] as [string, string, unknown?][]) {
    const b = await refused(s, () => s.api(KEYS.member, m, p(suffix), body), 403, 'FORBIDDEN');
    assert.match(b.error.message, /exclusively/);
  }
  // Mia may still read it (an exclusive assignment limits who may change, not who may read).
  await ok(s.api(KEYS.member, 'GET', p('')));
  // Not applicable is not on 2.4's list (docs/decisions.md "Exclusive assignment"): Mia, who may run, marks and clears it.
  await ok(s.api(KEYS.member, 'POST', p('/not-applicable')));
  await ok(s.api(KEYS.member, 'DELETE', p('/not-applicable')));
  // Comments and tags: any key.
  await ok(s.api(KEYS.member, 'POST', p('/comments'), { text: 'can I help?' }), 201);
  // Omar, another Administrator, may.
  await ok(s.api(KEYS.owner, 'PUT', p('/due-date'), { dueDateTime: '2030-01-01T00:00:00Z' }));
});

test('2.4 isAssignedExclusively: no effect while nobody is assigned; an empty group keeps nobody out', async () => {
  const key = await newChecklist(s);
  const p = (suffix: string) => taskPath(key, T.managerApproval, suffix);
  await ok(s.api(KEYS.admin, 'PUT', p('/assignees'), { assignees: [], isAssignedExclusively: true }));
  await ok(s.api(KEYS.member, 'PUT', p('/due-date'), { dueDateTime: '2030-01-01T00:00:00Z' }));
  await ok(s.api(KEYS.admin, 'PUT', p('/assignees'), { assignees: [{ name: 'Empty Group' }], isAssignedExclusively: true }));
  await ok(s.api(KEYS.member, 'POST', p('/complete')));
  await ok(s.api(KEYS.member, 'DELETE', p('/complete')));
  // A group with people in it is exclusive: Mia (Operations) in, Nora's Sales out... and Mia when only Sales.
  await ok(s.api(KEYS.admin, 'PUT', p('/assignees'), { assignees: [{ name: 'Operations' }], isAssignedExclusively: true }));
  await ok(s.api(KEYS.member, 'POST', p('/complete')));
  await ok(s.api(KEYS.admin, 'PUT', p('/assignees'), { assignees: [{ name: 'Sales' }], isAssignedExclusively: true }));
  // Uncompleting is not on 2.4's list (docs/decisions.md "Exclusive assignment"); completing is.
  await ok(s.api(KEYS.member, 'DELETE', p('/complete')));
  await refused(s, () => s.api(KEYS.member, 'POST', p('/complete')), 403, 'FORBIDDEN');
});

test('5.4 assignment through a group opens the whole checklist to Nora (read and run)', async () => {
  const key = await newChecklist(s);
  await refused(s, () => s.api(KEYS.noperm, 'GET', taskPath(key)), 403, 'FORBIDDEN');
  await ok(s.api(KEYS.admin, 'PUT', taskPath(key, T.firstDayWelcome, '/assignees'), { assignees: [{ name: 'Sales' }] }));
  await ok(s.api(KEYS.noperm, 'GET', taskPath(key)));
  await ok(s.api(KEYS.noperm, 'GET', taskPath(key, T.collectDetails)));
  await ok(s.api(KEYS.noperm, 'POST', taskPath(key, T.managerApproval, '/complete')));
});

test('2.5 Assigned permission levels: ViewAssignedOnly reads only where assigned; ViewOnly reads but does not run', async () => {
  const vendor = await newChecklist(s, { template: DEMO.vendor });
  // Mia: ViewOnly on Vendor Review.
  await ok(s.api(KEYS.member, 'GET', taskPath(vendor)));
  const v = await refused(s, () => s.api(KEYS.member, 'POST', taskPath(vendor, '21000000-0000-4000-8000-000000000302', '/complete')), 403, 'FORBIDDEN');
  assert.match(v.error.message, /not change its tasks/);
  // Nora (Sales): add a ViewAssignedOnly rule for Sales.
  const tid = (s.emu.db.prepare('SELECT id FROM templates WHERE key = ?').get(DEMO.vendor) as { id: number }).id;
  s.emu.db.prepare("INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, 'Group', 302, 'ViewAssignedOnly')").run(tid);
  await refused(s, () => s.api(KEYS.noperm, 'GET', taskPath(vendor)), 403, 'FORBIDDEN');
  await ok(s.api(KEYS.admin, 'PUT', taskPath(vendor, '21000000-0000-4000-8000-000000000303', '/assignees'), { assignees: [{ type: 'TeamMember', id: 104 }] }));
  await ok(s.api(KEYS.noperm, 'GET', taskPath(vendor, '21000000-0000-4000-8000-000000000301')));
});

test('5.8 comment, tag, untag: any key of the workspace; snooze: member keys that may see the checklist', async () => {
  const key = await newChecklist(s);
  const p = (suffix: string) => taskPath(key, T.managerApproval, suffix);
  for (const k of [KEYS.admin, KEYS.owner, KEYS.member, KEYS.noperm, KEYS.workspace]) {
    await ok(s.api(k, 'POST', p('/comments'), { text: `from ${k}` }), 201);
    await ok(s.api(k, 'POST', p('/tags'), { tags: ['any-key'] }));
    await ok(s.api(k, 'DELETE', p('/tags?name=any-key')));
  }
  for (const k of [KEYS.admin, KEYS.owner, KEYS.member]) {
    await ok(s.api(k, 'PUT', p('/snooze'), { snoozedUntil: '2099-01-01T00:00:00Z' }));
    await ok(s.api(k, 'GET', p('/snooze')));
    await ok(s.api(k, 'DELETE', p('/snooze')));
  }
  await refused(s, () => s.api(KEYS.noperm, 'PUT', p('/snooze'), { snoozedUntil: '2099-01-01T00:00:00Z' }), 403, 'FORBIDDEN');
  // Reading or ending one's own snooze is never refused for lost visibility.
  assert.deepEqual((await ok(s.api(KEYS.noperm, 'GET', p('/snooze')))).body, { isSnoozed: false });
  await ok(s.api(KEYS.noperm, 'DELETE', p('/snooze')));
  for (const [m, body] of [['GET'], ['PUT', { snoozedUntil: '2099-01-01T00:00:00Z' }], ['DELETE']] as [string, unknown?][]) {
    await refused(s, () => s.api(KEYS.workspace, m, p('/snooze'), body), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  }
  const c = await s.mcp(KEYS.workspace);
  const m = await callTool(c, 'set_task_snooze', { checklistKey: key, taskKey: T.managerApproval, snoozedUntil: '2099-01-01T00:00:00Z' });
  assert.equal(m.body.error.code, 'API_KEY_ACTS_AS_WORKSPACE');
});

test('5.8 last row: answering fields — workspace key and unseen checklist refused', async () => {
  const key = await newChecklist(s);
  const p = taskPath(key, T.collectDetails, `/fields/${F.employeeId}`);
  for (const k of [KEYS.admin, KEYS.owner, KEYS.member]) await ok(s.api(k, 'PUT', p, { value: 'E1000' }));
  await refused(s, () => s.api(KEYS.noperm, 'PUT', p, { value: 'E1000' }), 403, 'FORBIDDEN');
  const w = await refused(s, () => s.api(KEYS.workspace, 'PUT', p, { value: 'E1000' }), 403, 'FORBIDDEN');
  assert.match(w.error.message, /acts as the workspace/);
});

test('5.10 refusal order: lookup first; another workspace\'s checklist is 404 for every key', async () => {
  for (const k of [KEYS.admin, KEYS.member, KEYS.noperm, KEYS.workspace]) {
    await refused(s, () => s.api(k, 'POST', taskPath(DEMO.globexChecklist, '21000000-0000-4000-8000-000000000501', '/complete')), 404, 'CHECKLIST_NOT_FOUND');
  }
});

test('2.4 naming rules: ambiguous Alex Kim lists candidates; Dee Departed never matches; type rules', async () => {
  const key = await newChecklist(s);
  const p = taskPath(key, T.managerApproval, '/assignees');
  const put = (assignees: unknown) => s.api(KEYS.admin, 'PUT', p, { assignees });
  const amb = await refused(s, () => put([{ name: 'Alex Kim' }]), 400, 'VALIDATION_ERROR', 'assignees[0].name');
  assert.match(amb.error.message, /TeamMember 107, TeamMember 108/);
  const byEmail = await ok(put([{ name: 'ALEX.KIM2@acme.test' }]));
  assert.deepEqual(byEmail.body.assignees, [{ id: 108, type: 'TeamMember', name: 'Alex Kim' }]);
  await refused(s, () => put([{ name: 'Dee Departed' }]), 400, 'VALIDATION_ERROR', 'assignees[0].name');
  await refused(s, () => put([{ name: 'dee@acme.test' }]), 400, 'VALIDATION_ERROR', 'assignees[0].name');
  await refused(s, () => put([{ type: 'TeamMember', id: 106 }]), 400, 'VALIDATION_ERROR', 'assignees[0].id');
  await refused(s, () => put([{ type: 'TeamMember', id: 999 }]), 400, 'VALIDATION_ERROR', 'assignees[0].id');
  await refused(s, () => put([{ type: 'Group', id: 999 }]), 400, 'VALIDATION_ERROR', 'assignees[0].id');
  for (const type of ['Unassigned', 'CurrentUser', 'checklistcreator']) {
    await refused(s, () => put([{ type, id: 1 }]), 400, 'VALIDATION_ERROR', 'assignees[0].type');
    await refused(s, () => put([{ type }]), 400, 'VALIDATION_ERROR', 'assignees[0].type');
  }
  await refused(s, () => put([{ type: 'Robot', id: 1 }]), 400, 'VALIDATION_ERROR', 'assignees[0].type');
  // Neither id nor name; id without type.
  await refused(s, () => put([{}]), 400, 'VALIDATION_ERROR', 'assignees[0]');
  await refused(s, () => put([{ type: 'TeamMember' }]), 400, 'VALIDATION_ERROR', 'assignees[0]');
  await refused(s, () => put([{ id: 103 }]), 400, 'VALIDATION_ERROR', 'assignees[0].type');
  await refused(s, () => put(['Mia']), 400, 'VALIDATION_ERROR', 'assignees[0]');
  await refused(s, () => put('Mia'), 400, 'VALIDATION_ERROR', 'assignees');
  await refused(s, () => s.api(KEYS.admin, 'PUT', p, {}), 400, 'VALIDATION_ERROR', 'assignees');
  // Both id and name: the name is ignored (2.4), even an ambiguous one.
  const both = await ok(put([{ type: 'teammember', id: 103, name: 'Alex Kim' }]));
  assert.deepEqual(both.body.assignees, [{ id: 103, type: 'TeamMember', name: 'Mia Member' }]);
  // Group names and a type with a name narrow the match.
  assert.deepEqual((await ok(put([{ name: 'operations' }]))).body.assignees, [{ id: 301, type: 'Group', name: 'Operations' }]);
  // Guests can be assigned; the anonymous member cannot be named.
  assert.deepEqual((await ok(put([{ name: 'Gus Guest' }]))).body.assignees, [{ id: 105, type: 'TeamMember', name: 'Gus Guest' }]);
  await refused(s, () => put([{ name: 'Acme Workspace' }]), 400, 'VALIDATION_ERROR', 'assignees[0].name');
  // Refused before the task is looked up (400 before 404).
  await refused(s, () => s.api(KEYS.admin, 'PUT', taskPath('99999999-0000-4000-8000-000000000000', T.managerApproval, '/assignees'), { assignees: [{ name: 'Alex Kim' }] }), 400, 'VALIDATION_ERROR');
  // MCP gives the same refusal.
  const c = await s.mcp(KEYS.admin);
  const m = await callTool(c, 'set_task_assignees', { checklistKey: key, taskKey: T.managerApproval, assignees: [{ name: 'Alex Kim' }] });
  const rest = await put([{ name: 'Alex Kim' }]);
  assert.deepEqual(withoutRequestId(m.body), withoutRequestId(rest.body));
});
