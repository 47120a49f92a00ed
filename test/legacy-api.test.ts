// Every legacy route of legacy spec 4.1-4.7 (docs/legacy.md): answers and shapes, with the
// v1 and v2 headers as each needs. Refusals: test/legacy-refusals.test.ts; the two APIs side
// by side: test/legacy-migration.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, T, newChecklist, recordEvents, taskPath } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const V2 = { 'X-API-VERSION': '2.0' };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const get = (path: string, key: string = KEYS.admin, headers: Record<string, string> = {}) => s.api(key, 'GET', path, undefined, headers);
const idOf = (key: string) => (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;
const taskIdOf = (checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;

const TASK_KEYS = ['id', 'key', 'name', 'description', 'status', 'isHeading', 'isStandalone', 'position', 'isAssignedExclusively', 'isHidden', 'dueDateTime', 'completedDateTime', 'completedByUserID', 'completedByName', 'checklist', 'template', 'contents', 'assignees', 'comments', 'tags'];
const CONTENT_KEYS = ['taskContentID', 'contentID', 'key', 'contentType', 'name', 'isRequired', 'isInput', 'isHidden', 'value'];

test('legacy 4.1 GET /api/authentication/validate: 200 for a valid key (v1 and v2), 401 for any bad key', async () => {
  for (const h of [{}, V2] as Record<string, string>[]) {
    const r = await get('/api/authentication/validate', KEYS.admin, h);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { isValid: true, teamId: DEMO.acme, teamName: 'Acme Corp', userId: 101, userName: 'Ada Admin', isAdministrator: true });
  }
  const ws = await get('/api/authentication/validate', KEYS.workspace);
  assert.equal(ws.body.userId, 0, 'the workspace key: anonymous');
  for (const k of [null, 'nope', KEYS.revoked, KEYS.expired, KEYS.unavailable]) {
    const r = await get('/api/authentication/validate', k as string);
    assert.equal(r.status, 401, `${k}: ${r.text}`);
    assert.deepEqual(r.body, { error: 'The API key is missing or invalid.' }, 'legacy 5: no distinction');
  }
  // Not regional: a US key works on the EU address.
  assert.equal((await s.api(KEYS.admin, 'GET', '/api/authentication/validate', undefined, {}, s.eu)).status, 200);
});

test('legacy 4.1 GET /api/checklist/find: partial name and tag, status filter, paging (default 3, max 10), 404 for none', async () => {
  const tpl = DEMO.expense;
  const made: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const r = await s.api(KEYS.admin, 'POST', `/api/checklist?templateKey=${tpl}&checklistName=Findme%20${i}`);
    made.push(r.body.key);
  }
  await s.api(KEYS.admin, 'POST', `/v3/checklists/${made[0]}/tags`, { tags: ['Quarterly-Close'] });
  const r = await get(`/api/checklist/find?templateKey=${tpl}&checklistName=findme`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.length, 3, 'default page size 3');
  assert.deepEqual(r.body.map((c: any) => c.name), ['Findme 5', 'Findme 4', 'Findme 3'], 'newest first');
  assert.deepEqual(Object.keys(r.body[0]), ['id', 'key', 'name', 'status', 'url', 'templateKey', 'templateName', 'templateVersion', 'createdDateTime']);
  const p2 = await get(`/api/checklist/find?templateKey=${tpl}&checklistName=findme&pageNumber=2`);
  assert.deepEqual(p2.body.map((c: any) => c.name), ['Findme 2', 'Findme 1']);
  assert.equal((await get(`/api/checklist/find?templateKey=${tpl}&checklistName=findme&pageNumber=3`)).status, 404, 'an empty page is 404');
  const ten = await get(`/api/checklist/find?templateKey=${tpl}&pageSize=10`);
  assert.equal(ten.body.length, Math.min(10, ten.body.length));
  const tagged = await get(`/api/checklist/find?templateKey=${tpl}&tag=quarterly`);
  assert.deepEqual(tagged.body.map((c: any) => c.key), [made[0]], 'tag: partial, any case');
  const complete = await get(`/api/checklist/find?templateKey=${tpl}&status=COMPLETE&pageSize=10`);
  assert.ok(complete.body.some((c: any) => c.key === DEMO.expenseMarch));
  assert.ok(complete.body.every((c: any) => c.status === 'Complete'));
  const recent = await get(`/api/checklist/find?templateKey=${tpl}&status=RECENTLYCOMPLETE`);
  assert.equal(recent.status, 404, 'March completed 20 days ago: not recent (7 days)');
  const inprog = await get(`/api/checklist/find?templateKey=${tpl}&status=inprogress&checklistName=Findme&pageSize=10`);
  assert.equal(inprog.body.length, 5);
  const none = await get(`/api/checklist/find?templateKey=${tpl}&checklistName=zzz-nothing`);
  assert.equal(none.status, 404);
  assert.equal(typeof none.body.error, 'string');
});

test('legacy 4.1 GET /api/checklist/find createIfNotExists: creates one named checklistName when nothing matches, fires new_checklist', async () => {
  const events = recordEvents(s);
  const q = `/api/checklist/find?templateKey=${DEMO.expense}&checklistName=Created%20by%20find&createIfNotExists=true`;
  const r = await get(q);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.length, 1);
  assert.equal(r.body[0].name, 'Created by find');
  assert.deepEqual(events.map((e) => e.type), ['new_checklist']);
  const again = await get(q);
  assert.deepEqual(again.body.map((c: any) => c.key), [r.body[0].key], 'found now, not created twice');
  assert.equal(events.length, 1);
  s.emu.hooks.event = undefined;
});

test('legacy 4.1 GET /api/checklist/details: by checklistKey or by templateKey with filters; full tasks with controls', async () => {
  const r = await get(`/api/checklist/details?checklistKey=${DEMO.janeDoe}`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.length, 1);
  const c = r.body[0];
  assert.equal(c.key, DEMO.janeDoe);
  assert.equal(c.id, idOf(DEMO.janeDoe));
  const collect = c.tasks.find((t: any) => t.key === T.collectDetails);
  assert.deepEqual(Object.keys(collect), TASK_KEYS);
  assert.deepEqual(Object.keys(collect.contents[0]), CONTENT_KEYS);
  assert.equal(collect.checklist.checklistKey, DEMO.janeDoe);
  assert.equal(collect.template.templateKey, DEMO.onboarding);
  assert.deepEqual(collect.assignees, [{ assigneeId: 103, assigneeName: 'Mia Member', assigneeType: 1 }]);
  assert.deepEqual(collect.tags.map((t: any) => t.name), ['urgent']);
  const employment = collect.contents.find((x: any) => x.key === F.employmentType);
  assert.equal(employment.value, 'Full-time');
  assert.equal(employment.contentType, 'DropDown');
  assert.equal(typeof employment.taskContentID, 'number');
  assert.equal(typeof employment.contentID, 'number');
  const heading = c.tasks.find((t: any) => t.key === T.heading);
  assert.equal(heading.isHeading, true);
  assert.equal(heading.status, null);
  const welcome = c.tasks.find((t: any) => t.key === T.firstDayWelcome);
  assert.equal(welcome.contents.find((x: any) => x.key === F.welcomeText).isInput, false, 'a Text control shows content');
  // Ids are stable: the same control reads the same integers again.
  const again = await get(`/api/checklist/details?checklistKey=${DEMO.janeDoe}`);
  assert.deepEqual(again.body[0].tasks.find((t: any) => t.key === T.collectDetails).contents, collect.contents);

  const byTemplate = await get(`/api/checklist/details?templateKey=${DEMO.onboarding}&checklistName=jane`, KEYS.admin, V2);
  assert.equal(byTemplate.status, 200);
  assert.deepEqual(byTemplate.body.map((x: any) => x.key), [DEMO.janeDoe]);
  assert.equal((await get(`/api/checklist/details?templateKey=${DEMO.onboarding}&checklistName=nobody`)).status, 404);
  assert.equal((await get(`/api/checklist/details?checklistKey=${DEMO.janeDoe}&pageNumber=2`)).status, 404);
});

test('legacy 4.1 GET /api/checklist/tasks: the template task on every readable checklist; status OPEN/COMPLETE; a standalone task key works', async () => {
  const r = await get(`/api/checklist/tasks?taskKey=${T.collectDetails}&pageSize=10`);
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.length >= 2);
  assert.ok(r.body.every((t: any) => t.key === T.collectDetails));
  const keys = r.body.map((t: any) => t.checklist.checklistKey);
  assert.ok(keys.includes(DEMO.janeDoe) && keys.includes(DEMO.johnRoe));
  assert.ok(!keys.includes(DEMO.archivedOnboarding), 'archived checklists are left out');
  assert.equal((await get(`/api/checklist/tasks?taskKey=${T.collectDetails}&status=COMPLETE`)).status, 404);
  const done = await get(`/api/checklist/tasks?taskKey=${T.submitReceipts}&status=COMPLETE`);
  assert.equal(done.status, 200);
  assert.ok(done.body.every((t: any) => t.status === 'Complete'));
  const open = await get(`/api/checklist/tasks?taskKey=${T.collectDetails}&status=open`);
  assert.ok(open.body.every((t: any) => t.status === 'Incomplete'));
  // Standalone task not on a checklist: checklist and template objects full but null (legacy spec 4.1).
  const st = await get(`/api/checklist/tasks?taskKey=${DEMO.renewInsurance}`);
  assert.equal(st.status, 200, st.text);
  assert.equal(st.body[0].isStandalone, true);
  assert.deepEqual(st.body[0].checklist, { checklistId: null, checklistKey: null, checklistName: null, checklistStatus: null, checklistUrl: null });
  assert.deepEqual(st.body[0].template, { templateKey: null, templateName: null, templateVersion: null });
  // A member sees only what they may read: Nora has no permission on Onboarding.
  assert.equal((await get(`/api/checklist/tasks?taskKey=${T.collectDetails}`, KEYS.noperm)).status, 404);
});

test('legacy 4.1 GET /api/checklist/uploaded-files: the File Upload control and its files across checklists, paged', async () => {
  const key = await newChecklist(s, { template: DEMO.expense, name: 'Receipts here' });
  for (const n of ['a.pdf', 'b.pdf']) {
    const up = await s.api(KEYS.admin, 'POST', taskPath(key, T.submitReceipts, `/fields/${F.receipts}/files`), { name: n, contentType: 'application/pdf', data: Buffer.from('%PDF ' + n).toString('base64') });
    assert.equal(up.status, 201, up.text);
  }
  const r = await get(`/api/checklist/uploaded-files?taskContentKey=${F.receipts}`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.control.key, F.receipts);
  assert.equal(r.body.control.contentType, 'FileUpload');
  assert.equal(r.body.control.name, 'Receipts');
  assert.equal(r.body.control.templateKey, DEMO.expense);
  assert.equal(r.body.totalFiles, 2);
  assert.deepEqual(r.body.files.map((f: any) => f.fileName), ['a.pdf', 'b.pdf']);
  assert.equal(r.body.files[0].checklist.checklistKey, key);
  assert.equal(r.body.files[0].template.templateKey, DEMO.expense);
  assert.match(r.body.files[0].url, /^http/);
  const p = await get(`/api/checklist/uploaded-files?taskContentKey=${F.receipts}&pageSize=1&pageNumber=2`);
  assert.deepEqual(p.body.files.map((f: any) => f.fileName), ['b.pdf']);
  assert.equal((await get(`/api/checklist/uploaded-files?taskContentKey=${F.amount}`)).status, 404, 'not a File Upload control');
  assert.equal((await get(`/api/checklist/uploaded-files?taskContentKey=99999999-0000-4000-8000-000000000000`)).status, 404);
});

test('legacy 4.1 POST /api/checklist/share: true creates the share URL, false removes it; v3 sees the same', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const id = idOf(key);
  const on = await s.api(KEYS.admin, 'POST', `/api/checklist/share?checklistId=${id}&isShared=true`);
  assert.equal(on.status, 200, on.text);
  assert.equal(on.body.isShared, true);
  assert.equal(typeof on.body.shareUrl, 'string');
  assert.equal((await get(`/v3/checklists/${key}/share`)).body.shareUrl, on.body.shareUrl);
  const off = await s.api(KEYS.admin, 'POST', `/api/checklist/share?checklistId=${id}&isShared=FALSE`);
  assert.deepEqual(off.body, { isShared: false, shareUrl: null });
  assert.equal((await get(`/v3/checklists/${key}/share`)).body.isShared, false);
});

test('legacy 4.1 DELETE /api/checklist: permanent; 404 after; members may delete only their own', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const id = idOf(key);
  const r = await s.api(KEYS.admin, 'DELETE', `/api/checklist?checklistId=${id}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { deletedChecklistIds: [id], notFoundChecklistIds: [] });
  assert.equal((await get(`/v3/checklists/${key}`)).status, 404);
  assert.equal((await s.api(KEYS.admin, 'DELETE', `/api/checklist?checklistId=${id}`)).status, 404);
  const jane = idOf(DEMO.janeDoe);
  assert.equal((await s.api(KEYS.member, 'DELETE', `/api/checklist?checklistId=${jane}`)).status, 403);
  assert.equal((await s.api(KEYS.workspace, 'DELETE', `/api/checklist?checklistId=${jane}`)).status, 403);
});

test('legacy 4.1 DELETE /api/checklist/delete-many: ids, template keys with status, status alone, combined; every JSON content type', async () => {
  const mk = async (tpl: string) => idOf(await newChecklist(s, { template: tpl, name: 'del-many' }));
  const a = await mk(DEMO.expense);
  const b = await mk(DEMO.expense);
  const byIds = await s.api(KEYS.admin, 'DELETE', '/api/checklist/delete-many', { checklistIds: [a, 999999] }, { 'Content-Type': 'text/json' });
  assert.equal(byIds.status, 200, byIds.text);
  assert.deepEqual(byIds.body, { deletedChecklistIds: [a], notFoundChecklistIds: [999999] });
  // Template keys with a status: only that template's checklists in that status.
  const onb = await mk(DEMO.onboarding);
  const byTpl = await s.api(KEYS.admin, 'DELETE', '/api/checklist/delete-many', { templateKeys: [DEMO.expense], checklistStatus: 'INPROGRESS' }, { 'Content-Type': 'application/json-patch+json' });
  assert.equal(byTpl.status, 200, byTpl.text);
  assert.ok(byTpl.body.deletedChecklistIds.includes(b));
  assert.ok(!byTpl.body.deletedChecklistIds.includes(onb));
  assert.ok(!byTpl.body.deletedChecklistIds.includes(idOf(DEMO.expenseMarch)), 'Complete is not INPROGRESS');
  // Combined: ids plus a status: the union.
  const c = await mk(DEMO.expense);
  const combined = await s.api(KEYS.admin, 'DELETE', '/api/checklist/delete-many', { checklistIds: [onb], templateKeys: [DEMO.expense], checklistStatus: 'inprogress' }, { 'Content-Type': 'application/*+json' });
  assert.deepEqual(combined.body.deletedChecklistIds, [onb, c].sort((x, y) => x - y));
  // Status alone, as a member: only the member's own checklists go.
  const mine = idOf(await newChecklist(s, { template: DEMO.expense, key: KEYS.member }));
  const before = (s.emu.db.prepare("SELECT COUNT(*) AS n FROM checklists WHERE status = 'InProgress'").get() as { n: number }).n;
  const own = await s.api(KEYS.member, 'DELETE', '/api/checklist/delete-many', { checklistStatus: 'INPROGRESS' }, { 'Content-Type': 'application/json' });
  assert.equal(own.status, 200, own.text);
  assert.deepEqual(own.body.deletedChecklistIds, [mine]);
  const after = (s.emu.db.prepare("SELECT COUNT(*) AS n FROM checklists WHERE status = 'InProgress'").get() as { n: number }).n;
  assert.equal(after, before - 1);
});

test('legacy 4.2 GET /api/task/details: the full task by checklistId and taskKey; checklistId 0 for a standalone task', async () => {
  const id = idOf(DEMO.janeDoe);
  const r = await get(`/api/task/details?checklistId=${id}&taskKey=${T.collectDetails}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), TASK_KEYS);
  assert.equal(r.body.id, taskIdOf(DEMO.janeDoe, T.collectDetails));
  assert.equal(r.body.checklist.checklistId, id);
  const st = await get(`/api/task/details?checklistId=0&taskKey=${DEMO.renewInsurance}`);
  assert.equal(st.status, 200, st.text);
  assert.equal(st.body.checklist.checklistKey, null);
  const attached = await get(`/api/task/details?checklistId=0&taskKey=${DEMO.businessCards}`);
  assert.equal(attached.body.checklist.checklistKey, DEMO.janeDoe, 'attached: its checklist');
  assert.equal((await get(`/api/task/details?checklistId=${id}&taskKey=${T.submitReceipts}`)).status, 404);
  assert.equal((await get(`/api/task/details?checklistId=${id}&taskKey=${T.collectDetails}`, KEYS.noperm)).status, 403);
});

test('legacy 4.2 GET /api/task/assignments: by member or group; includeTeamMemberGroups; includeCompletedTasks', async () => {
  const r = await get(`/api/task/assignments?assigneeId=103&assigneeType=1`);
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.some((t: any) => t.key === T.collectDetails && t.checklist.checklistKey === DEMO.janeDoe));
  assert.ok(r.body.every((t: any) => t.assignees.some((a: any) => a.assigneeId === 103 && a.assigneeType === 1)));
  // A task assigned to Operations (301) reaches its members only with includeTeamMemberGroups.
  const key = await newChecklist(s, { template: DEMO.expense });
  const tid = taskIdOf(key, T.submitReceipts);
  await s.api(KEYS.admin, 'PUT', '/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 301, assigneeType: 2 }], isAssignedExclusively: false }, V2);
  const members = s.emu.db.prepare('SELECT member_id FROM group_members WHERE group_id = 301').all() as { member_id: number }[];
  const m = members[0].member_id;
  const without = await get(`/api/task/assignments?assigneeId=${m}&assigneeType=1`);
  assert.ok(without.status === 404 || !without.body.some((t: any) => t.id === tid));
  const withGroups = await get(`/api/task/assignments?assigneeId=${m}&assigneeType=1&includeTeamMemberGroups=true`);
  assert.ok(withGroups.body.some((t: any) => t.id === tid));
  const group = await get(`/api/task/assignments?assigneeId=301&assigneeType=2`);
  assert.ok(group.body.some((t: any) => t.id === tid));
  // Completed tasks only when asked.
  await s.api(KEYS.admin, 'PUT', '/api/task/assignments', { taskId: taskIdOf(DEMO.expenseMarch, T.submitReceipts), assignees: [{ assigneeId: 302, assigneeType: 2 }], isAssignedExclusively: false }, V2);
  assert.equal((await get(`/api/task/assignments?assigneeId=302&assigneeType=2`)).status, 404);
  const done = await get(`/api/task/assignments?assigneeId=302&assigneeType=2&includeCompletedTasks=true`);
  assert.equal(done.status, 200);
  assert.equal(done.body[0].status, 'Complete');
  assert.equal((await get(`/api/task/assignments?assigneeId=303&assigneeType=2`)).status, 404, 'nothing assigned: 404');
});

test('legacy 4.2 PUT /api/task/status (v2): sets Complete / NotApplicable / Incomplete whatever the current status; returns the full task; fires task_completed', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const tid = taskIdOf(key, T.submitReceipts + '');
  const approve = taskIdOf(key, '21000000-0000-4000-8000-000000000202');
  const events = recordEvents(s);
  const put = (body: unknown) => s.api(KEYS.admin, 'PUT', '/api/task/status', body, V2);
  const r = await put({ taskId: approve, status: 'Complete', modifiedByUserID: 103 });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), TASK_KEYS);
  assert.equal(r.body.status, 'Complete');
  assert.equal(r.body.completedByUserID, 103, 'modifiedByUserID is recorded');
  assert.equal(r.body.completedByName, 'Mia Member');
  assert.deepEqual(events.map((e) => e.type), ['task_completed']);
  assert.deepEqual(events[0].subject, { taskId: approve });
  const na = await put({ taskId: approve, status: 'NotApplicable', modifiedByUserID: 0 });
  assert.equal(na.body.status, 'NotApplicable', 'Complete → NotApplicable directly');
  assert.equal(na.body.completedByUserID, 0, '0: anonymous');
  const back = await put({ taskId: approve, status: 'Complete', modifiedByUserID: 0 });
  assert.equal(back.body.status, 'Complete', 'NotApplicable → Complete directly');
  const inc = await put({ taskId: approve, status: 'incomplete', modifiedByUserID: 101 });
  assert.equal(inc.body.status, 'Incomplete');
  assert.equal(inc.body.completedDateTime, null);
  // The completion checks of v3 hold: a required control unanswered is 409.
  const blocked = await put({ taskId: tid, status: 'Complete', modifiedByUserID: 101 });
  assert.equal(blocked.status, 409, blocked.text);
  const v3 = await get(taskPath(key, '21000000-0000-4000-8000-000000000202'));
  assert.equal(v3.body.status, 'Incomplete');
  s.emu.hooks.event = undefined;
});

test('legacy 4.2 PUT/DELETE /api/task/assignments and POST /api/task/assign-by-name (v2): replace, clear, by name; fire task_assigned', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const tid = taskIdOf(key, T.submitReceipts);
  const events = recordEvents(s);
  const put = await s.api(KEYS.admin, 'PUT', '/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103, assigneeType: 1 }, { assigneeId: 301, assigneeType: 2 }], isAssignedExclusively: true }, V2);
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(put.body.assignees.map((a: any) => [a.assigneeType, a.assigneeId]), [[2, 301], [1, 103]], 'groups first');
  assert.equal(put.body.isAssignedExclusively, true);
  assert.equal(events.filter((e) => e.type === 'task_assigned').length, 2);
  const byName = await s.api(KEYS.admin, 'POST', '/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Ada Admin', 'sales'], isAssignedExclusively: false, deleteExistingAssignees: false }, V2);
  assert.equal(byName.status, 200, byName.text);
  assert.deepEqual(byName.body.assignees.map((a: any) => a.assigneeName).sort(), ['Ada Admin', 'Mia Member', 'Operations', 'Sales'].sort());
  const replace = await s.api(KEYS.admin, 'POST', '/api/task/assign-by-name', { taskId: tid, assigneeNames: ['mia@acme.test'], isAssignedExclusively: false, deleteExistingAssignees: true }, V2);
  assert.deepEqual(replace.body.assignees, [{ assigneeId: 103, assigneeName: 'Mia Member', assigneeType: 1 }]);
  const cleared = await s.api(KEYS.admin, 'DELETE', `/api/task/assignments?taskId=${tid}`, undefined, V2);
  assert.equal(cleared.status, 200, cleared.text);
  assert.deepEqual(cleared.body.assignees, []);
  assert.deepEqual((await get(taskPath(key, T.submitReceipts))).body.assignees, []);
  s.emu.hooks.event = undefined;
});

test('legacy 4.2 POST /api/task/comment: 200 with the comment; createdByUserID recorded (0 anonymous); fires comment_created', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const tid = taskIdOf(key, T.submitReceipts);
  const events = recordEvents(s);
  const r = await s.api(KEYS.admin, 'POST', '/api/task/comment', { taskId: tid, commentHtml: '<p>Receipts <b>attached</b></p>', createdByUserID: 103 });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), ['commentId', 'commentHtml', 'commentText', 'createdByUserID', 'createdByName', 'createdDateTime', 'taskId']);
  assert.equal(r.body.createdByUserID, 103);
  assert.equal(r.body.commentText, 'Receipts attached');
  assert.deepEqual(events.map((e) => e.type), ['comment_created']);
  const anon = await s.api(KEYS.admin, 'POST', '/api/task/comment', { taskId: tid, commentHtml: 'hi', createdByUserID: 0 });
  assert.equal(anon.body.createdByUserID, 0);
  const v3 = await get(taskPath(key, T.submitReceipts, '/comments'));
  assert.equal(v3.body.comments.length, 2);
  assert.equal(v3.body.comments[0].createdBy.name, 'Mia Member');
  s.emu.hooks.event = undefined;
});

test('legacy 4.2 PUT /api/task/update-task-content: sets a control value by its integer ids; the value reads back through v3', async () => {
  const key = await newChecklist(s, { template: DEMO.expense });
  const d = await get(`/api/task/details?checklistId=${idOf(key)}&taskKey=${T.submitReceipts}`);
  const amount = d.body.contents.find((c: any) => c.key === F.amount);
  const r = await s.api(KEYS.admin, 'PUT', '/api/task/update-task-content', { taskContentID: amount.taskContentID, contentID: amount.contentID, key: F.amount, contentType: 'ShortText', name: 'Amount', value: '99.90' });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), CONTENT_KEYS);
  assert.equal(r.body.value, '99.90');
  const v3 = await get(taskPath(key, T.submitReceipts, `/fields/${F.amount}`));
  assert.equal(v3.body.value, '99.90');
  // taskContentID is the control (the same on every checklist); contentID is the control on one task.
  const other = await get(`/api/task/details?checklistId=${idOf(DEMO.expenseMarch)}&taskKey=${T.submitReceipts}`);
  const amount2 = other.body.contents.find((c: any) => c.key === F.amount);
  assert.equal(amount2.taskContentID, amount.taskContentID);
  assert.notEqual(amount2.contentID, amount.contentID);
  // null clears.
  const cleared = await s.api(KEYS.admin, 'PUT', '/api/task/update-task-content', { taskContentID: amount.taskContentID, contentID: amount.contentID, key: F.amount, contentType: 'shorttext', name: 'Amount', value: null });
  assert.equal(cleared.body.value, null);
});

test('legacy 4.3 tags: list, create returns the existing tag of the same name, assignment to a checklist (1) and a task (3), removal, delete', async () => {
  const created = await s.api(KEYS.admin, 'POST', '/api/tag?name=Legacy-Tag');
  assert.equal(created.status, 200, created.text);
  assert.deepEqual(Object.keys(created.body), ['key', 'name']);
  assert.match(created.body.key, GUID);
  const same = await s.api(KEYS.admin, 'POST', '/api/tag?name=legacy-tag');
  assert.deepEqual(same.body, created.body, 'the existing tag, not a duplicate');
  const urgent = await s.api(KEYS.admin, 'POST', '/api/tag?name=urgent');
  const list = await get('/api/tag/tags');
  assert.ok(list.body.some((t: any) => t.key === created.body.key && t.name === 'Legacy-Tag'));
  assert.ok(list.body.some((t: any) => t.key === urgent.body.key), 'v3 tags are the same tags');

  const key = await newChecklist(s, { template: DEMO.expense });
  const onChecklist = await s.api(KEYS.admin, 'POST', '/api/tag/assignment', { tagKey: created.body.key, assignmentKey: key, assignmentType: 1, parentKey: null });
  assert.equal(onChecklist.status, 200, onChecklist.text);
  assert.deepEqual(Object.keys(onChecklist.body), ['key', 'tagKey', 'tagName', 'assignmentKey', 'assignmentType', 'parentKey']);
  assert.equal(onChecklist.body.assignmentKey, key);
  assert.deepEqual((await get(`/v3/checklists/${key}/tags`)).body.tags, ['Legacy-Tag']);
  const onTask = await s.api(KEYS.admin, 'POST', '/api/tag/assignment', { tagKey: created.body.key, assignmentKey: T.submitReceipts, assignmentType: 3, parentKey: key });
  assert.equal(onTask.status, 200, onTask.text);
  assert.equal(onTask.body.parentKey, key);
  assert.deepEqual((await get(taskPath(key, T.submitReceipts, '/tags'))).body.tags, ['Legacy-Tag']);
  const off = await s.api(KEYS.admin, 'DELETE', '/api/tag/assignment', { tagKey: created.body.key, assignmentKey: T.submitReceipts, assignmentType: 3, parentKey: key });
  assert.equal(off.status, 200, off.text);
  assert.deepEqual((await get(taskPath(key, T.submitReceipts, '/tags'))).body.tags, []);
  assert.equal((await s.api(KEYS.admin, 'DELETE', '/api/tag/assignment', { tagKey: created.body.key, assignmentKey: T.submitReceipts, assignmentType: 3, parentKey: key })).status, 404, 'not on: 404');
  const del = await s.api(KEYS.admin, 'DELETE', `/api/tag?tagKey=${created.body.key}`);
  assert.equal(del.status, 200, del.text);
  assert.deepEqual((await get(`/v3/checklists/${key}/tags`)).body.tags, [], 'deleting a tag takes it off everything');
  assert.ok(!(await get('/api/tag/tags')).body.some((t: any) => t.key === created.body.key));
  assert.equal((await s.api(KEYS.admin, 'DELETE', `/api/tag?tagKey=${created.body.key}`)).status, 200, 'already gone: still 200');
});

test('legacy 4.4 team: members-and-groups, members and groups with nameContains; 404 for none', async () => {
  const all = await get('/api/team/members-and-groups');
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(Object.keys(all.body), ['members', 'groups']);
  assert.deepEqual(Object.keys(all.body.members[0]), ['id', 'fullName']);
  assert.deepEqual(Object.keys(all.body.groups[0]), ['id', 'name', 'members']);
  assert.ok(!all.body.members.some((m: any) => m.id === 100), 'the anonymous member is not listed');
  const ops = all.body.groups.find((g: any) => g.id === 301);
  assert.ok(ops.members.length > 0);
  const mia = await get('/api/team/members-and-groups?nameContains=MIA');
  assert.deepEqual(mia.body.members, [{ id: 103, fullName: 'Mia Member' }]);
  assert.deepEqual(mia.body.groups, []);
  assert.equal((await get('/api/team/members-and-groups?nameContains=zzzz')).status, 404);
  const members = await get('/api/team/members?nameContains=ada');
  assert.deepEqual(members.body, [{ id: 101, assigneeId: 101, assigneeName: 'Ada Admin', assigneeType: 1 }]);
  assert.equal((await get('/api/team/members?nameContains=zzzz')).status, 404);
  const groups = await get('/api/team/groups?nameContains=sal');
  assert.deepEqual(groups.body, [{ id: 302, assigneeId: 302, assigneeName: 'Sales', assigneeType: 2 }]);
  assert.ok((await get('/api/team/groups')).body.length >= 3);
  assert.equal((await get('/api/team/groups?nameContains=zzzz')).status, 404);
});

test('legacy 4.5 templates: active templates, a template\'s tasks, task content with ALL, ALLINPUT and a control type', async () => {
  const t = await get('/api/template/templates');
  assert.equal(t.status, 200, t.text);
  assert.deepEqual(Object.keys(t.body[0]), ['id', 'name']);
  assert.ok(t.body.some((x: any) => x.id === DEMO.onboarding && x.name === 'Employee Onboarding'));
  assert.ok(!t.body.some((x: any) => x.id === DEMO.oldProcess), 'archived templates are not active');
  assert.ok(!t.body.some((x: any) => x.id === DEMO.globexAudit), 'another workspace');
  const tasks = await get(`/api/template/tasks?templateKey=${DEMO.onboarding}`);
  assert.equal(tasks.status, 200);
  assert.deepEqual(tasks.body[1], { id: T.collectDetails, name: 'Collect employee details' });
  assert.equal((await get(`/api/template/tasks?templateKey=99999999-0000-4000-8000-000000000000`)).status, 404);
  const all = await get(`/api/template/task-content?taskKey=${T.firstDayWelcome}`);
  assert.deepEqual(all.body.map((c: any) => c.type), ['Text', 'LongText']);
  assert.deepEqual(Object.keys(all.body[0]), ['id', 'name', 'type']);
  const input = await get(`/api/template/task-content?taskKey=${T.firstDayWelcome}&contentType=ALLINPUT`);
  assert.deepEqual(input.body, [{ id: F.notes, name: 'Notes', type: 'LongText' }]);
  const dd = await get(`/api/template/task-content?taskKey=${T.collectDetails}&contentType=dropdown`);
  assert.deepEqual(dd.body.map((c: any) => c.id), [F.office, F.employmentType]);
  assert.equal((await get(`/api/template/task-content?taskKey=${T.collectDetails}&contentType=Video`)).status, 404, 'no control of that type');
  assert.equal((await get(`/api/template/task-content?taskKey=99999999-0000-4000-8000-000000000000`)).status, 404);
});

test('legacy 4.6 GET /api/analytics/all (v2): the overview of the period; periodEndDate defaults to today', async () => {
  const today = new Date(s.emu.clock.now()).toISOString().slice(0, 10);
  const start = new Date(s.emu.clock.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const r = await get(`/api/analytics/all?periodStartDate=${start}`, KEYS.admin, V2);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), ['periodStartDate', 'periodEndDate', 'checklistsCreated', 'checklistsCompleted', 'tasksCompleted', 'tasksNotApplicable', 'tasksDue', 'tasksOverdue', 'commentsAdded', 'templates', 'members']);
  assert.equal(r.body.periodEndDate, today);
  assert.ok(r.body.checklistsCreated >= 3);
  assert.ok(r.body.checklistsCompleted >= 1, 'Expense Report: March');
  const exp = r.body.templates.find((t: any) => t.templateKey === DEMO.expense);
  assert.deepEqual(Object.keys(exp), ['templateKey', 'templateName', 'checklistsCreated', 'checklistsCompleted', 'tasksCompleted']);
  const mia = r.body.members.find((m: any) => m.memberId === 103);
  assert.ok(mia.tasksCompleted >= 3, 'Mia completed March');
  const empty = await get(`/api/analytics/all?periodStartDate=2001-01-01&periodEndDate=2001-01-31`, KEYS.admin, V2);
  assert.equal(empty.body.checklistsCreated, 0);
  assert.deepEqual(empty.body.templates, []);
});

test('legacy 9: X-API-VERSION default 1.0; v1 routes also take 2.0; v2 routes refuse 1.0 and no header with 400', async () => {
  assert.equal((await get('/api/template/templates', KEYS.admin, { 'X-API-VERSION': '1.0' })).status, 200);
  assert.equal((await get('/api/template/templates', KEYS.admin, V2)).status, 200);
  for (const h of [{}, { 'X-API-VERSION': '1.0' }, { 'X-API-VERSION': '1' }] as Record<string, string>[]) {
    const r = await get('/api/analytics/all?periodStartDate=2026-01-01', KEYS.admin, h);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.error, /needs X-API-VERSION: 2\.0/);
  }
});

test('legacy 9: every v1 route answers with no header, 1.0 and 2.0 alike (never the version refusal)', async () => {
  const { legacyRoutes } = await import('../src/legacy/routes');
  for (const r of legacyRoutes.filter((x) => !x.v2 && !x.path.startsWith('/api/data-sets'))) {
    const seen: number[] = [];
    for (const h of [{}, { 'X-API-VERSION': '1.0' }, V2] as Record<string, string>[]) {
      // A write gets an empty body: refused for the body, never for the version (writes are covered above).
      if (r.method !== 'GET') {
        const a = await s.api(KEYS.admin, r.method, r.path, {}, h);
        assert.ok(!/X-API-VERSION/.test(a.body?.error ?? ''), `${r.method} ${r.path} ${JSON.stringify(h)}: ${a.text}`);
        assert.ok(a.status < 500, a.text);
        continue;
      }
      const a = await s.api(KEYS.admin, r.method, r.path, undefined, h);
      assert.ok(!/X-API-VERSION/.test(a.body?.error ?? ''), `${r.method} ${r.path}: ${a.text}`);
      seen.push(a.status);
    }
    if (seen.length) assert.equal(new Set(seen).size, 1, `${r.method} ${r.path}: ${seen}`);
  }
});
