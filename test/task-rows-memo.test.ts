// A task's comments, assignments and answers are kept in memory per task until their table is
// written (domain/tasks/views.ts through store/memo.ts; the counted tables in
// store/watched-tables.ts), so that a status write's answer and the task read after it do not
// read them again. These tests show that neither ever answers rows the database no longer holds:
// each kind is changed through v3, through the legacy API and by another process on the same
// file, between two answers that name it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { besideOneFile, callTool, startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { newChecklist, taskPath, T, F } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const taskId = (server: TestServer, c: string, t: string) =>
  (server.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(c, t) as { id: number }).id;

/** The status answer of Manager approval (a complete, then its repeat) and the task detail read. */
async function views(server: TestServer, c: string) {
  const done = await server.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/complete'));
  assert.equal(done.status, 200, done.text);
  const read = await server.api(KEYS.admin, 'GET', taskPath(c, T.managerApproval));
  assert.equal(read.status, 200, read.text);
  return { done: done.body, read: read.body };
}

test('2.4 a status answer and the task read show each comment as it is added (v3 4.3 and legacy 4.2) and deleted', async () => {
  const c = await newChecklist(s);
  assert.deepEqual((await views(s, c)).done.comments, []);
  const added = await s.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/comments'), { text: 'first' });
  assert.equal(added.status, 201, added.text);
  let v = await views(s, c);
  assert.deepEqual(v.done.comments.map((x: { text: string }) => x.text), ['first']);
  assert.deepEqual(v.read.comments, v.done.comments);
  const legacy = await s.api(KEYS.admin, 'POST', '/api/task/comment', { taskId: taskId(s, c, T.managerApproval), commentHtml: '<p>second</p>', createdByUserID: 103 });
  assert.equal(legacy.status, 200, legacy.text);
  v = await views(s, c);
  assert.deepEqual(v.done.comments.map((x: { text: string }) => x.text), ['first', 'second']);
  assert.deepEqual(v.read.comments, v.done.comments);
  const deleted = await s.api(KEYS.admin, 'DELETE', taskPath(c, T.managerApproval, `/comments/${added.body.id}`));
  assert.equal(deleted.status, 204, deleted.text);
  v = await views(s, c);
  assert.deepEqual(v.done.comments.map((x: { text: string }) => x.text), ['second']);
});

test('2.4 a status answer and the task read show the assignees as they are replaced and cleared (PUT and DELETE .../assignees)', async () => {
  const c = await newChecklist(s);
  assert.deepEqual((await views(s, c)).done.assignees, []);
  const put = await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }, { type: 'Group', id: DEMO.groups.operations }] });
  assert.equal(put.status, 200, put.text);
  let v = await views(s, c);
  assert.deepEqual(v.done.assignees.map((a: { type: string; id: number }) => `${a.type}:${a.id}`), [`Group:${DEMO.groups.operations}`, `TeamMember:${DEMO.members.mia}`]);
  assert.deepEqual(v.read.assignees, v.done.assignees);
  const replaced = await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] });
  assert.equal(replaced.status, 200, replaced.text);
  v = await views(s, c);
  assert.deepEqual(v.done.assignees.map((a: { type: string; id: number }) => `${a.type}:${a.id}`), [`TeamMember:${DEMO.members.mia}`]);
  assert.deepEqual(v.read.assignees, v.done.assignees);
  const cleared = await s.api(KEYS.admin, 'DELETE', taskPath(c, T.managerApproval, '/assignees'));
  assert.ok(cleared.status < 300, cleared.text);
  v = await views(s, c);
  assert.deepEqual(v.done.assignees, []);
  assert.deepEqual(v.read.assignees, []);
});

test('2.4 a status answer and the task read show a field answer as it is set and cleared', async () => {
  const c = await newChecklist(s);
  const approver = (body: { fields: { key: string; value: unknown }[] }) => body.fields.find((f) => f.key === F.approver)?.value;
  assert.deepEqual(approver((await views(s, c)).done), []);
  const set = await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, `/fields/${F.approver}`), { value: [DEMO.members.mia] });
  assert.equal(set.status, 200, set.text);
  let v = await views(s, c);
  assert.deepEqual(approver(v.done), [{ id: DEMO.members.mia, type: 'TeamMember', name: 'Mia Member' }]);
  assert.deepEqual(approver(v.read), approver(v.done));
  const cleared = await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, `/fields/${F.approver}`), { value: [] });
  assert.equal(cleared.status, 200, cleared.text);
  v = await views(s, c);
  assert.deepEqual(approver(v.done), []);
});

test('a second process writing to the same database file (wfe mcp --db F beside the server): its comment and assignment are in the next status answer', async () => {
  await besideOneFile(async (served, other) => {
    const c = DEMO.janeDoe;
    const first = await views(served, c);
    const comment = await callTool(other, 'add_task_comment', { checklistKey: c, taskKey: T.managerApproval, text: 'from the other process' });
    assert.equal(comment.isError, false, comment.text);
    const assigned = await callTool(other, 'set_task_assignees', { checklistKey: c, taskKey: T.managerApproval, assignees: [{ type: 'TeamMember', id: DEMO.members.omar }] });
    assert.equal(assigned.isError, false, assigned.text);
    const v = await views(served, c);
    assert.deepEqual(v.done.comments.map((x: { text: string }) => x.text), [...first.done.comments.map((x: { text: string }) => x.text), 'from the other process']);
    assert.deepEqual(v.done.assignees.map((a: { id: number }) => a.id), [DEMO.members.omar]);
    assert.deepEqual(v.read.comments, v.done.comments);
  });
});
