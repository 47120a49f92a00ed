// Migrating teams run both APIs side by side against the same data (issue: legacy v1/v2 over
// the same domain): whatever is written through one API reads back through the other, for
// checklists, tasks, comments, assignees and tags; and the legacy integer ids (checklistId,
// taskId, taskContentID, contentID) survive a restart of a file database.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, T, taskPath } from './helpers/tasks';

const V2 = { 'X-API-VERSION': '2.0' };
const dir = mkdtempSync(join(tmpdir(), 'wfe-legacy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const taskId = (s: TestServer, checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;

test('migration: written through legacy, read through v3 (checklist, status, assignees, comment, control value, tags)', async () => {
  const s = await startTestServer();
  try {
    const c = await s.api(KEYS.admin, 'POST', `/api/checklist?templateKey=${DEMO.onboarding}&checklistName=Legacy%20made`);
    assert.equal(c.status, 200, c.text);
    const list = await s.api(KEYS.admin, 'GET', `/v3/checklists?templateKey=${DEMO.onboarding}&search=Legacy%20made`);
    assert.deepEqual(list.body.items.map((x: any) => x.key), [c.body.key], 'GET /v3/checklists sees it');
    const details = await s.api(KEYS.admin, 'GET', `/api/task/details?checklistId=${c.body.id}&taskKey=${T.collectDetails}`);
    const tid = details.body.id;
    // Assignees
    const a = await s.api(KEYS.admin, 'PUT', '/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103, assigneeType: 1 }, { assigneeId: 302, assigneeType: 2 }], isAssignedExclusively: false }, V2);
    assert.equal(a.status, 200, a.text);
    const v3Task = await s.api(KEYS.admin, 'GET', taskPath(c.body.key, T.collectDetails));
    assert.deepEqual(v3Task.body.assignees.map((x: any) => [x.type, x.id]), [['Group', 302], ['TeamMember', 103]]);
    // Comment
    await s.api(KEYS.admin, 'POST', '/api/task/comment', { taskId: tid, commentHtml: '<p>From legacy</p>', createdByUserID: 101 });
    const comments = await s.api(KEYS.admin, 'GET', taskPath(c.body.key, T.collectDetails, '/comments'));
    assert.deepEqual(comments.body.comments.map((x: any) => [x.text, x.createdBy.name]), [['From legacy', 'Ada Admin']]);
    // Control value
    const emp = details.body.contents.find((x: any) => x.key === F.employeeId);
    const u = await s.api(KEYS.admin, 'PUT', '/api/task/update-task-content', { taskContentID: emp.taskContentID, contentID: emp.contentID, key: F.employeeId, contentType: 'ShortText', name: 'Employee ID', value: 'E4321' });
    assert.equal(u.status, 200, u.text);
    assert.equal((await s.api(KEYS.admin, 'GET', taskPath(c.body.key, T.collectDetails, `/fields/${F.employeeId}`))).body.value, 'E4321');
    // Tags
    const tag = (await s.api(KEYS.admin, 'POST', '/api/tag?name=migrated')).body;
    await s.api(KEYS.admin, 'POST', '/api/tag/assignment', { tagKey: tag.key, assignmentKey: c.body.key, assignmentType: 1, parentKey: null });
    await s.api(KEYS.admin, 'POST', '/api/tag/assignment', { tagKey: tag.key, assignmentKey: T.collectDetails, assignmentType: 3, parentKey: c.body.key });
    assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.body.key}`)).body.tags, ['migrated']);
    assert.deepEqual((await s.api(KEYS.admin, 'GET', taskPath(c.body.key, T.collectDetails))).body.tags, ['migrated']);
    const v3tags = await s.api(KEYS.admin, 'GET', '/v3/tags?search=migrated');
    assert.equal(v3tags.body.items[0].name, 'migrated');
    // Status
    const st = await s.api(KEYS.admin, 'PUT', '/api/task/status', { taskId: tid, status: 'Complete', modifiedByUserID: 103 }, V2);
    assert.equal(st.status, 200, st.text);
    const after = await s.api(KEYS.admin, 'GET', taskPath(c.body.key, T.collectDetails));
    assert.equal(after.body.status, 'Complete');
    assert.equal(after.body.completedBy.name, 'Mia Member');
    // Delete
    await s.api(KEYS.admin, 'DELETE', `/api/checklist?checklistId=${c.body.id}`);
    assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.body.key}`)).status, 404);
  } finally {
    await s.close();
  }
});

test('migration: written through v3, read through legacy (checklist, status, assignees, comment, control value, tags)', async () => {
  const s = await startTestServer();
  try {
    const c = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name: 'V3 made' });
    assert.equal(c.status, 201, c.text);
    const key = c.body.key;
    const found = await s.api(KEYS.admin, 'GET', `/api/checklist/find?templateKey=${DEMO.onboarding}&checklistName=V3%20made`);
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body[0].key, key);
    const checklistId = found.body[0].id;
    await s.api(KEYS.admin, 'PUT', taskPath(key, T.collectDetails, '/assignees'), { assignees: [{ type: 'TeamMember', id: 103 }, { name: 'Operations' }] });
    await s.api(KEYS.admin, 'POST', taskPath(key, T.collectDetails, '/comments'), { text: 'From v3' });
    await s.api(KEYS.admin, 'PUT', taskPath(key, T.collectDetails, `/fields/${F.employeeId}`), { value: 'E2468' });
    await s.api(KEYS.admin, 'POST', taskPath(key, T.collectDetails, '/tags'), { tags: ['from-v3'] });
    await s.api(KEYS.admin, 'POST', `/v3/checklists/${key}/tags`, { tags: ['from-v3'] });
    await s.api(KEYS.admin, 'POST', taskPath(key, T.collectDetails, '/complete'));
    const d = await s.api(KEYS.admin, 'GET', `/api/task/details?checklistId=${checklistId}&taskKey=${T.collectDetails}`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.body.status, 'Complete');
    assert.equal(d.body.completedByUserID, 101);
    assert.deepEqual(d.body.assignees.map((x: any) => [x.assigneeType, x.assigneeId, x.assigneeName]), [[2, 301, 'Operations'], [1, 103, 'Mia Member']]);
    assert.deepEqual(d.body.comments.map((x: any) => [x.commentText, x.createdByUserID]), [['From v3', 101]]);
    assert.equal(d.body.contents.find((x: any) => x.key === F.employeeId).value, 'E2468');
    assert.deepEqual(d.body.tags.map((t: any) => t.name), ['from-v3']);
    const tags = await s.api(KEYS.admin, 'GET', '/api/tag/tags');
    assert.ok(tags.body.some((t: any) => t.name === 'from-v3'));
    const tagged = await s.api(KEYS.admin, 'GET', `/api/checklist/find?templateKey=${DEMO.onboarding}&tag=from-v3`);
    assert.deepEqual(tagged.body.map((x: any) => x.key), [key]);
    const assigned = await s.api(KEYS.admin, 'GET', '/api/task/assignments?assigneeId=103&assigneeType=1&includeCompletedTasks=true');
    assert.ok(assigned.body.some((t: any) => t.id === d.body.id));
    const files = await s.api(KEYS.admin, 'GET', `/api/checklist/details?checklistKey=${key}`);
    assert.equal(files.body[0].tasks.length, 7);
    await s.api(KEYS.admin, 'DELETE', `/v3/checklists/${key}`);
    assert.equal((await s.api(KEYS.admin, 'GET', `/api/checklist/details?checklistKey=${key}`)).status, 404);
  } finally {
    await s.close();
  }
});

test('legacy 2: checklistId, taskId, taskContentID and contentID are stable across a restart of a file database', async () => {
  const db = join(dir, 'stable.db');
  const read = async (s: TestServer) => {
    const r = await s.api(KEYS.admin, 'GET', `/api/checklist/details?checklistKey=${DEMO.janeDoe}`);
    assert.equal(r.status, 200, r.text);
    return r.body[0].tasks.map((t: any) => [t.id, t.checklist.checklistId, t.contents.map((c: any) => [c.key, c.taskContentID, c.contentID])]);
  };
  const a = await startTestServer({ db });
  let first;
  try {
    first = await read(a);
    assert.equal(first[1][0], taskId(a, DEMO.janeDoe, T.collectDetails));
  } finally {
    await a.close();
  }
  const b = await startTestServer({ db });
  try {
    assert.deepEqual(await read(b), first);
  } finally {
    await b.close();
  }
});
