// Standalone tasks at /v3/tasks/{taskKey}: raise, read, change, delete, attach and detach
// (spec v3 2.1, 4.3 intro, 5.4, 5.5, 5.9, 5.10).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { GUID_RE, keysOf, refused } from './helpers/checklists';

let s: TestServer;
const events: { type: string; subject: Record<string, unknown> }[] = [];
let vendorChecklist: string;
let expenseChecklist: string;
before(async () => {
  s = await startTestServer();
  const previous = s.emu.hooks.event;
  s.emu.hooks.event = (ctx, type, subject) => {
    events.push({ type, subject });
    previous?.(ctx, type, subject);
  };
  vendorChecklist = (await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name: 'Vendor: Acme Widgets' })).body.key;
  expenseChecklist = (await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Expenses: May' })).body.key;
});
after(async () => {
  await s.close();
});

const taskCount = () => (s.emu.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE checklist_id IS NULL').get() as { n: number }).n;
const raise = (key: string, body: Record<string, unknown> | string) => s.api(key, 'POST', '/v3/tasks', body);

test('2.4 get: a standalone task reads as task detail plus its own properties', async () => {
  const r = await s.api(KEYS.admin, 'GET', `/v3/tasks/${DEMO.renewInsurance}`);
  assert.equal(r.status, 200, r.text);
  const t = r.body;
  assert.equal(t.key, DEMO.renewInsurance);
  assert.equal(t.name, 'Renew insurance');
  assert.equal(t.isStandalone, true);
  assert.equal(t.isHeading, false);
  assert.equal(t.status, 'Incomplete');
  assert.match(t.dueDateTime, /Z$/);
  assert.deepEqual(t.assignees, [{ id: DEMO.members.mia, type: 'TeamMember', name: 'Mia Member' }]);
  assert.deepEqual(t.fields, []);
  assert.deepEqual(t.comments, []);
  assert.deepEqual(t.tags, []);
  assert.equal(t.checklist, undefined);
  assert.deepEqual(t.raisedBy, { name: 'Ada Admin', email: 'ada@acme.test' });
  assert.match(t.url, /\/app\/tasks\/40000000-0000-4000-8000-000000000001$/);
  const attached = await s.api(KEYS.admin, 'GET', `/v3/tasks/${DEMO.businessCards}`);
  assert.equal(attached.body.checklist.key, DEMO.janeDoe);
  assert.equal(attached.body.checklist.template.key, DEMO.onboarding);
});

test('5.4 get: who may read a standalone task', async () => {
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/tasks/${DEMO.renewInsurance}`)).status, 200, 'assignee');
  assert.equal((await s.api(KEYS.workspace, 'GET', `/v3/tasks/${DEMO.renewInsurance}`)).status, 200, 'workspace key');
  refused(await s.api(KEYS.noperm, 'GET', `/v3/tasks/${DEMO.renewInsurance}`), 403, 'FORBIDDEN');
  // Attached: read as its checklist, which Nora may not open.
  refused(await s.api(KEYS.noperm, 'GET', `/v3/tasks/${DEMO.businessCards}`), 403, 'FORBIDDEN');
});

test('2.1/4.1 rule 4: keys at /v3/tasks/{taskKey}', async () => {
  refused(await s.api(KEYS.admin, 'GET', '/v3/tasks/not-a-key'), 400, 'VALIDATION_ERROR', 'taskKey');
  refused(await s.api(KEYS.admin, 'GET', '/v3/tasks/40000000-0000-4000-8000-0000000000ff'), 404, 'TASK_NOT_FOUND');
  // A checklist task's key names no standalone task.
  refused(await s.api(KEYS.admin, 'GET', `/v3/tasks/${DEMO.tasks.collectDetails}`), 404, 'TASK_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'PATCH', `/v3/tasks/${DEMO.tasks.collectDetails}`, { name: 'x' }), 404, 'TASK_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'DELETE', `/v3/tasks/${DEMO.tasks.collectDetails}`), 404, 'TASK_NOT_FOUND');
  refused(await s.api(KEYS.globexAdmin, 'GET', `/v3/tasks/${DEMO.renewInsurance}`, undefined, {}, s.eu), 404, 'TASK_NOT_FOUND');
});

test('5.5 create: Task.Creator raises a task with assignees, due date and tags; task_assigned fires', async () => {
  events.length = 0;
  const r = await raise(KEYS.member, {
    name: 'Book venue',
    description: 'For the offsite.',
    dueDateTime: '2030-06-01T09:00:00+02:00',
    assignees: [{ name: 'operations' }, { type: 'TeamMember', id: DEMO.members.mia }],
    isAssignedExclusively: true,
    tags: ['errand', 'Errand'],
  });
  assert.equal(r.status, 201, r.text);
  const t = r.body;
  assert.match(t.key, GUID_RE);
  assert.equal(t.name, 'Book venue');
  assert.equal(t.description, 'For the offsite.');
  assert.equal(t.dueDateTime, '2030-06-01T07:00:00.000Z');
  assert.equal(t.isAssignedExclusively, true);
  assert.deepEqual(t.assignees, [
    { id: DEMO.groups.operations, type: 'Group', name: 'Operations' },
    { id: DEMO.members.mia, type: 'TeamMember', name: 'Mia Member' },
  ]);
  assert.deepEqual(t.tags, ['errand']);
  assert.deepEqual(t.raisedBy, { name: 'Mia Member', email: 'mia@acme.test' });
  assert.equal(t.checklist, undefined);
  assert.deepEqual(events.map((e) => [e.type, e.subject.assigneeType, e.subject.assigneeId]), [
    ['task_assigned', 'Group', DEMO.groups.operations],
    ['task_assigned', 'TeamMember', DEMO.members.mia],
  ]);
  assert.deepEqual((await s.api(KEYS.member, 'GET', `/v3/tasks/${t.key}`)).body, t);
});

test('5.5/5.9 create: refusals write nothing', async () => {
  const n = taskCount();
  events.length = 0;
  const r = await raise(KEYS.noperm, { name: 'x' });
  refused(r, 403, 'FORBIDDEN');
  assert.match(r.body.error.message, /Task\.Creator/);
  refused(await raise(KEYS.workspace, { name: 'x', assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] }), 403, 'FORBIDDEN');
  refused(await raise(KEYS.workspace, { name: 'x', dueDateTime: '2030-01-01T00:00:00Z' }), 403, 'FORBIDDEN');
  refused(await raise(KEYS.member, {}), 400, 'VALIDATION_ERROR', 'name');
  refused(await raise(KEYS.member, { name: ' ' }), 400, 'VALIDATION_ERROR', 'name');
  refused(await raise(KEYS.member, { name: 'x', dueDateTime: '2030-13-01T00:00:00Z' }), 400, 'VALIDATION_ERROR', 'dueDateTime');
  refused(await raise(KEYS.member, { name: 'x', assignees: [{ name: 'Alex Kim' }] }), 400, 'VALIDATION_ERROR', 'assignees[0].name');
  refused(await raise(KEYS.member, { name: 'x', assignees: [{ name: 'Dee Departed' }] }), 400, 'VALIDATION_ERROR');
  refused(await raise(KEYS.member, { name: 'x', assignees: [{ type: 'CurrentUser', id: 1 }] }), 400, 'VALIDATION_ERROR', 'assignees[0].type');
  refused(await raise(KEYS.member, { name: 'x', tags: [''] }), 400, 'VALIDATION_ERROR', 'tags[0]');
  refused(await raise(KEYS.member, { name: 'x', checklistKey: 'nope' }), 400, 'VALIDATION_ERROR', 'checklistKey');
  refused(await raise(KEYS.member, { name: 'x', checklistKey: DEMO.globexChecklist }), 404, 'CHECKLIST_NOT_FOUND');
  refused(await raise(KEYS.member, { name: 'x', checklistKey: vendorChecklist }), 403, 'FORBIDDEN');
  refused(await raise(KEYS.admin, { name: 'x', checklistKey: vendorChecklist }), 409, 'CONFLICT');
  refused(await raise(KEYS.member, '{"name": '), 400, 'VALIDATION_ERROR');
  assert.equal(taskCount(), n);
  assert.deepEqual(events, []);
});

test('5.9 create: the workspace key needs no Task.Creator and raises as the anonymous member', async () => {
  const r = await raise(KEYS.workspace, { name: 'Nightly sync check' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.raisedBy.name, 'Acme Workspace');
});

test('4.1 rule 8 PATCH: name, description (null clears), dueDateTime (null clears)', async () => {
  const t = (await raise(KEYS.member, { name: 'Patch me', description: 'd' })).body;
  let r = await s.api(KEYS.member, 'PATCH', `/v3/tasks/${t.key}`, { name: 'Patched', dueDateTime: '2030-01-02T03:04:05Z' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.name, 'Patched');
  assert.equal(r.body.description, 'd');
  assert.equal(r.body.dueDateTime, '2030-01-02T03:04:05.000Z');
  r = await s.api(KEYS.member, 'PATCH', `/v3/tasks/${t.key}`, { description: null, dueDateTime: null });
  assert.equal(r.body.description, undefined);
  assert.equal(r.body.dueDateTime, undefined);
  assert.equal(r.body.name, 'Patched');
  refused(await s.api(KEYS.member, 'PATCH', `/v3/tasks/${t.key}`, { name: null }), 400, 'VALIDATION_ERROR', 'name');
  refused(await s.api(KEYS.member, 'PATCH', `/v3/tasks/${t.key}`, { dueDateTime: 5 }), 400, 'VALIDATION_ERROR', 'dueDateTime');
  refused(await s.api(KEYS.noperm, 'PATCH', `/v3/tasks/${t.key}`, { name: 'x' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'PATCH', `/v3/tasks/${t.key}`, { name: 'x' }), 403, 'FORBIDDEN');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/tasks/${t.key}`)).body.name, 'Patched');
});

test('5.9 PATCH/DELETE: the workspace key changes and deletes only the standalone tasks it raised', async () => {
  const own = (await raise(KEYS.workspace, { name: 'Bot task' })).body;
  let r = await s.api(KEYS.workspace, 'PATCH', `/v3/tasks/${own.key}`, { name: 'Bot task 2' });
  assert.equal(r.status, 200, r.text);
  refused(await s.api(KEYS.workspace, 'PATCH', `/v3/tasks/${own.key}`, { dueDateTime: '2030-01-01T00:00:00Z' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'DELETE', `/v3/tasks/${DEMO.renewInsurance}`), 403, 'FORBIDDEN');
  r = await s.api(KEYS.workspace, 'DELETE', `/v3/tasks/${own.key}`);
  assert.equal(r.status, 204);
  refused(await s.api(KEYS.admin, 'GET', `/v3/tasks/${own.key}`), 404, 'TASK_NOT_FOUND');
});

test('5.5 DELETE: permanent; its tags leave with it', async () => {
  const t = (await raise(KEYS.member, { name: 'Delete me', tags: ['ephemeral-tag'] })).body;
  refused(await s.api(KEYS.noperm, 'DELETE', `/v3/tasks/${t.key}`), 403, 'FORBIDDEN');
  const r = await s.api(KEYS.member, 'DELETE', `/v3/tasks/${t.key}`);
  assert.equal(r.status, 204);
  refused(await s.api(KEYS.member, 'GET', `/v3/tasks/${t.key}`), 404, 'TASK_NOT_FOUND');
  const tags = (await s.api(KEYS.admin, 'GET', '/v3/tags?search=ephemeral')).body.items;
  assert.deepEqual(tags, []);
  refused(await s.api(KEYS.member, 'DELETE', `/v3/tasks/${t.key}`), 404, 'TASK_NOT_FOUND');
});

test('5.5 attach and detach: listed by attached-tasks, unreachable under the checklist task routes', async () => {
  const t = (await raise(KEYS.member, { name: 'Attach me' })).body;
  let r = await s.api(KEYS.member, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: DEMO.janeDoe });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.checklist.key, DEMO.janeDoe);
  assert.equal((await s.api(KEYS.member, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: DEMO.janeDoe })).status, 200, 'repeating is harmless');
  assert.deepEqual(keysOf(await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}/attached-tasks`)), [DEMO.businessCards, t.key]);
  refused(await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}/tasks/${t.key}`), 404, 'TASK_NOT_FOUND');
  r = await s.api(KEYS.member, 'DELETE', `/v3/tasks/${t.key}/attachment`);
  assert.equal(r.status, 200);
  assert.equal(r.body.checklist, undefined);
  assert.deepEqual(keysOf(await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}/attached-tasks`)), [DEMO.businessCards]);
  assert.equal((await s.api(KEYS.member, 'DELETE', `/v3/tasks/${t.key}/attachment`)).status, 200, 'detaching twice is harmless');
});

test('5.5/5.10 attach: refusals, the template setting binding Administrators too; nothing changes', async () => {
  const t = (await raise(KEYS.member, { name: 'Stay put' })).body;
  const attachedTo = () => (s.emu.db.prepare('SELECT attached_checklist_id AS a FROM tasks WHERE key = ?').get(t.key) as { a: number | null }).a;
  refused(await s.api(KEYS.member, 'PUT', `/v3/tasks/${t.key}/attachment`, {}), 400, 'VALIDATION_ERROR', 'checklistKey');
  refused(await s.api(KEYS.member, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: 'x' }), 400, 'VALIDATION_ERROR', 'checklistKey');
  refused(await s.api(KEYS.member, 'PUT', '/v3/tasks/x/attachment', { checklistKey: DEMO.janeDoe }), 400, 'VALIDATION_ERROR', 'taskKey');
  refused(await s.api(KEYS.member, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: DEMO.globexChecklist }), 404, 'CHECKLIST_NOT_FOUND');
  refused(await s.api(KEYS.member, 'PUT', `/v3/tasks/${DEMO.tasks.collectDetails}/attachment`, { checklistKey: DEMO.janeDoe }), 404, 'TASK_NOT_FOUND');
  // Mia is ViewOnly on Vendor Review: no run permission.
  refused(await s.api(KEYS.member, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: vendorChecklist }), 403, 'FORBIDDEN');
  // Vendor Review does not allow attached tasks: refused even for an Administrator.
  const admin = await s.api(KEYS.admin, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: vendorChecklist });
  refused(admin, 409, 'CONFLICT');
  assert.match(admin.body.error.message, /attached tasks/);
  refused(await s.api(KEYS.noperm, 'PUT', `/v3/tasks/${t.key}/attachment`, { checklistKey: expenseChecklist }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.noperm, 'DELETE', `/v3/tasks/${DEMO.businessCards}/attachment`), 403, 'FORBIDDEN');
  assert.equal(attachedTo(), null);
});

test('5.9 attach: the workspace key attaches its own task only where the anonymous member may run the template', async () => {
  const own = (await raise(KEYS.workspace, { name: 'Bot attach' })).body;
  refused(await s.api(KEYS.workspace, 'PUT', `/v3/tasks/${own.key}/attachment`, { checklistKey: DEMO.janeDoe }), 403, 'FORBIDDEN');
  const r = await s.api(KEYS.workspace, 'PUT', `/v3/tasks/${own.key}/attachment`, { checklistKey: expenseChecklist });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.checklist.key, expenseChecklist);
  refused(await s.api(KEYS.workspace, 'DELETE', `/v3/tasks/${DEMO.businessCards}/attachment`), 403, 'FORBIDDEN');
});

test('4.7: deleting a checklist keeps its attached standalone tasks, detached', async () => {
  const c = (await s.api(KEYS.member, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Short-lived' })).body;
  const t = (await raise(KEYS.member, { name: 'Survivor', checklistKey: c.key })).body;
  assert.equal(t.checklist.key, c.key);
  assert.equal((await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}`)).status, 204);
  const r = await s.api(KEYS.member, 'GET', `/v3/tasks/${t.key}`);
  assert.equal(r.status, 200);
  assert.equal(r.body.checklist, undefined);
});

test("4.7 standalone tags: POST /v3/tasks/{taskKey}/tags tags the task's own list; the tag leaves with its last carrier", async () => {
  const t = (await raise(KEYS.member, { name: 'Tag me standalone' })).body;
  let r = await s.api(KEYS.member, 'POST', `/v3/tasks/${t.key}/tags`, { tags: ['Solo Tag'] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual((await s.api(KEYS.member, 'GET', `/v3/tasks/${t.key}`)).body.tags, ['Solo Tag']);
  r = await s.api(KEYS.member, 'DELETE', `/v3/tasks/${t.key}/tags?name=solo%20tag`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual((await s.api(KEYS.member, 'GET', `/v3/tasks/${t.key}`)).body.tags, []);
  assert.deepEqual((await s.api(KEYS.admin, 'GET', '/v3/tags?search=solo')).body.items, []);
});
