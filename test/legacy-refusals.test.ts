// Every legacy refusal (legacy spec 4, 5, 7, 9; docs/legacy.md): missing required query
// parameters and body properties, non-integer ids, GUIDs that are not, unknown statuses and
// content types, v2 routes without the header, bad keys. Each is 400/401/404 (403/409 where
// the v3 rules refuse), never a 500, always `{error}`, and a refused write changes nothing.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, T, MISSING } from './helpers/tasks';
import { digest } from './fuzz/digest';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const V2 = { 'X-API-VERSION': '2.0' };
const idOf = (key: string) => (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;
const taskIdOf = (checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;

interface Case {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  key?: string;
  status: number;
  match?: RegExp;
}

/** Sends each case; asserts status, the `{error}` body, and that the data did not change. */
async function expectAll(cases: Case[]) {
  for (const c of cases) {
    const before = digest(s.emu.db);
    const r = await s.api(c.key ?? KEYS.admin, c.method, c.path, c.body, c.headers ?? {});
    const label = `${c.method} ${c.path} ${JSON.stringify(c.body ?? '')}`;
    assert.equal(r.status, c.status, `${label}: ${r.text}`);
    assert.equal(typeof r.body?.error, 'string', `${label}: ${r.text}`);
    if (c.match) assert.match(r.body.error, c.match, label);
    assert.equal(digest(s.emu.db), before, `${label}: a refusal changes nothing`);
  }
}

const X = 'not-a-guid';

test('legacy 4.1 refusals: find, details, tasks, uploaded-files (missing params, bad GUIDs, statuses, paging, unknown template)', async () => {
  const g = (path: string, status: number, match?: RegExp): Case => ({ method: 'GET', path, status, match });
  await expectAll([
    g('/api/checklist/find', 400, /templateKey is required/),
    g(`/api/checklist/find?templateKey=${X}`, 400, /templateKey must be a GUID/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&status=DONE`, 400, /status must be one of ALL, SCHEDULED, INPROGRESS, RECENTLYCOMPLETE, COMPLETE/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&pageSize=11`, 400, /pageSize must be between 1 and 10/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&pageSize=0`, 400, /pageSize/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&pageSize=three`, 400, /pageSize must be an integer/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&pageNumber=0`, 400, /pageNumber must be 1 or more/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&pageNumber=1.5`, 400, /pageNumber must be an integer/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&createIfNotExists=yes`, 400, /createIfNotExists must be true or false/),
    g(`/api/checklist/find?templateKey=${DEMO.expense}&createIfNotExists=true`, 400, /checklistName is required/),
    g(`/api/checklist/find?templateKey=${MISSING}`, 404, /No template/),
    g(`/api/checklist/find?templateKey=${MISSING}&checklistName=x&createIfNotExists=true`, 404, /No template/),
    g(`/api/checklist/find?templateKey=${DEMO.oldProcess}&checklistName=x&createIfNotExists=true`, 409, /archived/),
    g('/api/checklist/details', 400, /templateKey or checklistKey is required/),
    g(`/api/checklist/details?checklistKey=${X}`, 400, /checklistKey must be a GUID/),
    g(`/api/checklist/details?templateKey=${DEMO.onboarding}&status=nope`, 400, /status must be one of/),
    g(`/api/checklist/details?checklistKey=${MISSING}`, 404),
    g(`/api/checklist/details?checklistKey=${DEMO.globexChecklist}`, 404),
    g('/api/checklist/tasks', 400, /taskKey is required/),
    g(`/api/checklist/tasks?taskKey=${X}`, 400, /taskKey must be a GUID/),
    g(`/api/checklist/tasks?taskKey=${T.collectDetails}&status=Incomplete`, 400, /status must be one of ALL, OPEN, COMPLETE/),
    g(`/api/checklist/tasks?taskKey=${MISSING}`, 404),
    g('/api/checklist/uploaded-files', 400, /taskContentKey is required/),
    g(`/api/checklist/uploaded-files?taskContentKey=${X}`, 400, /taskContentKey must be a GUID/),
    g(`/api/checklist/uploaded-files?taskContentKey=${F.receipts}&pageSize=20`, 400, /pageSize/),
    g(`/api/checklist/uploaded-files?taskContentKey=${MISSING}`, 404),
  ]);
});

test('legacy 4.1 refusals: share, delete, delete-many (non-integer ids, missing, statuses, combinations, content types); nothing half-deleted', async () => {
  const jane = idOf(DEMO.janeDoe);
  const del = (body: unknown, status: number, match?: RegExp, headers: Record<string, string> = {}, key?: string): Case => ({ method: 'DELETE', path: '/api/checklist/delete-many', body, status, match, headers, key });
  await expectAll([
    { method: 'POST', path: '/api/checklist/share', status: 400, match: /checklistId is required/ },
    { method: 'POST', path: `/api/checklist/share?checklistId=abc&isShared=true`, status: 400, match: /checklistId must be an integer/ },
    { method: 'POST', path: `/api/checklist/share?checklistId=${jane}`, status: 400, match: /isShared is required/ },
    { method: 'POST', path: `/api/checklist/share?checklistId=${jane}&isShared=1`, status: 400, match: /isShared must be true or false/ },
    { method: 'POST', path: `/api/checklist/share?checklistId=99999999&isShared=true`, status: 404 },
    { method: 'POST', path: `/api/checklist/share?checklistId=99999999999&isShared=true`, status: 400, match: /integer/ },
    { method: 'POST', path: `/api/checklist/share?checklistId=${idOf(DEMO.globexChecklist)}&isShared=true`, status: 404 },
    { method: 'DELETE', path: '/api/checklist', status: 400, match: /checklistId is required/ },
    { method: 'DELETE', path: '/api/checklist?checklistId=1e3', status: 400, match: /integer/ },
    { method: 'DELETE', path: '/api/checklist?checklistId=99999999', status: 404 },
    { method: 'DELETE', path: `/api/checklist?checklistId=${jane}`, key: KEYS.member, status: 403 },
    del(undefined, 400, /body is required/),
    del('{"checklistIds": [', 400, /not valid JSON/, { 'Content-Type': 'text/json' }),
    del([jane], 400, /JSON object/),
    del({}, 400, /Name what to delete/),
    del({ checklistIds: [] }, 400, /Name what to delete/),
    del({ checklistIds: 'x' }, 400, /checklistIds must be an array/),
    del({ checklistIds: [jane, '7x'] }, 400, /checklistIds\[1\] must be an integer/), // "7" is an integer (docs/legacy.md Parameters)
    del({ checklistIds: [1.5] }, 400, /checklistIds\[0\] must be an integer/),
    del({ templateKeys: [DEMO.expense] }, 400, /checklistStatus is required with templateKeys/),
    del({ templateKeys: [X], checklistStatus: 'ALL' }, 400, /templateKeys\[0\] must be a GUID/),
    del({ checklistStatus: 'RECENTLYCOMPLETE' }, 400, /checklistStatus must be one of ALL, INPROGRESS, COMPLETE, SCHEDULED/),
    del({ checklistStatus: 5 }, 400, /checklistStatus must be a string/),
    del({ templateKeys: [MISSING], checklistStatus: 'ALL' }, 404, /No template/),
    // A refusal part-way through deletes nothing: Mia may not delete Jane Doe (created by Ada).
    del({ checklistIds: [jane] }, 403, undefined, { 'Content-Type': 'application/json-patch+json' }, KEYS.member),
    del({ checklistStatus: 'ALL' }, 403, /acts as the workspace/, {}, KEYS.workspace),
  ]);
});

test('legacy 4.2 refusals: task details, assignments, status, assign-by-name, comment, update-task-content', async () => {
  const jane = idOf(DEMO.janeDoe);
  const tid = taskIdOf(DEMO.janeDoe, T.collectDetails);
  const heading = taskIdOf(DEMO.janeDoe, T.heading);
  const d = await s.api(KEYS.admin, 'GET', `/api/task/details?checklistId=${jane}&taskKey=${T.collectDetails}`);
  const empId = d.body.contents.find((c: any) => c.key === F.employeeId);
  const content = (over: Record<string, unknown>) => ({ taskContentID: empId.taskContentID, contentID: empId.contentID, key: F.employeeId, contentType: 'ShortText', name: 'Employee ID', value: 'E1234', ...over });
  const put = (path: string, body: unknown, status: number, match?: RegExp, headers: Record<string, string> = V2): Case => ({ method: 'PUT', path, body, status, match, headers });
  const post = (path: string, body: unknown, status: number, match?: RegExp, headers: Record<string, string> = V2): Case => ({ method: 'POST', path, body, status, match, headers });
  await expectAll([
    { method: 'GET', path: `/api/task/details?taskKey=${T.collectDetails}`, status: 400, match: /checklistId is required/ },
    { method: 'GET', path: `/api/task/details?checklistId=x&taskKey=${T.collectDetails}`, status: 400, match: /checklistId must be an integer/ },
    { method: 'GET', path: `/api/task/details?checklistId=${jane}`, status: 400, match: /taskKey is required/ },
    { method: 'GET', path: `/api/task/details?checklistId=${jane}&taskKey=${X}`, status: 400, match: /taskKey must be a GUID/ },
    { method: 'GET', path: `/api/task/details?checklistId=${jane}&taskKey=${MISSING}`, status: 404 },
    { method: 'GET', path: `/api/task/details?checklistId=0&taskKey=${T.collectDetails}`, status: 404 },
    { method: 'GET', path: '/api/task/assignments?assigneeType=1', status: 400, match: /assigneeId is required/ },
    { method: 'GET', path: '/api/task/assignments?assigneeId=103', status: 400, match: /assigneeType is required/ },
    { method: 'GET', path: '/api/task/assignments?assigneeId=103&assigneeType=3', status: 400, match: /assigneeType must be 1/ },
    { method: 'GET', path: '/api/task/assignments?assigneeId=mia&assigneeType=1', status: 400, match: /integer/ },
    { method: 'GET', path: '/api/task/assignments?assigneeId=103&assigneeType=1&includeCompletedTasks=maybe', status: 400, match: /true or false/ },
    // status (v2)
    put('/api/task/status', { taskId: tid, status: 'Complete', modifiedByUserID: 0 }, 400, /needs X-API-VERSION: 2\.0/, {}),
    put('/api/task/status', { taskId: tid, status: 'Complete', modifiedByUserID: 0 }, 400, /needs X-API-VERSION: 2\.0/, { 'X-API-VERSION': '1.0' }),
    put('/api/task/status', { taskId: tid, status: 'Complete', modifiedByUserID: 0 }, 400, /not supported/, { 'X-API-VERSION': '2.5' }),
    put('/api/task/status', undefined, 400, /body is required/),
    put('/api/task/status', { status: 'Complete', modifiedByUserID: 0 }, 400, /taskId is required/),
    put('/api/task/status', { taskId: 'abc', status: 'Complete', modifiedByUserID: 0 }, 400, /taskId must be an integer/),
    put('/api/task/status', { taskId: 1.5, status: 'Complete', modifiedByUserID: 0 }, 400, /taskId must be an integer/),
    put('/api/task/status', { taskId: tid, modifiedByUserID: 0 }, 400, /status is required/),
    put('/api/task/status', { taskId: tid, status: 'Done', modifiedByUserID: 0 }, 400, /status Done is not valid/),
    put('/api/task/status', { taskId: tid, status: 'Complete' }, 400, /modifiedByUserID is required/),
    put('/api/task/status', { taskId: 99999999, status: 'Complete', modifiedByUserID: 0 }, 404),
    put('/api/task/status', { taskId: tid, status: 'Complete', modifiedByUserID: 99999 }, 404, /modifiedByUserID 99999/),
    put('/api/task/status', { taskId: heading, status: 'Complete', modifiedByUserID: 0 }, 400, /heading/),
    put('/api/task/status', { taskId: tid, status: 'Complete', modifiedByUserID: 0 }, 409, /required fields are unanswered/),
    // assignments (v2)
    put('/api/task/assignments', { taskId: tid, assignees: [], isAssignedExclusively: false }, 400, /needs X-API-VERSION/, {}),
    put('/api/task/assignments', { taskId: tid, isAssignedExclusively: false }, 400, /assignees is required/),
    put('/api/task/assignments', { taskId: tid, assignees: {}, isAssignedExclusively: false }, 400, /assignees must be an array/),
    put('/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103 }], isAssignedExclusively: false }, 400, /assigneeType is required/),
    put('/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103, assigneeType: 4 }], isAssignedExclusively: false }, 400, /assignees\[0\]\.assigneeType must be 1/),
    put('/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 99999, assigneeType: 1 }], isAssignedExclusively: false }, 400, /not an active member/),
    put('/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103, assigneeType: 1 }] }, 400, /isAssignedExclusively is required/),
    put('/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103, assigneeType: 1 }], isAssignedExclusively: 'no' }, 400, /isAssignedExclusively must be true or false/),
    put('/api/task/assignments', { taskId: 99999999, assignees: [], isAssignedExclusively: false }, 404),
    { method: 'DELETE', path: `/api/task/assignments?taskId=${tid}`, status: 400, match: /needs X-API-VERSION/ },
    { method: 'DELETE', path: '/api/task/assignments', headers: V2, status: 400, match: /taskId is required/ },
    { method: 'DELETE', path: '/api/task/assignments?taskId=99999999', headers: V2, status: 404 },
    // assign-by-name (v2)
    post('/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Ada Admin'], isAssignedExclusively: false, deleteExistingAssignees: false }, 400, /needs X-API-VERSION/, {}),
    post('/api/task/assign-by-name', { taskId: tid, isAssignedExclusively: false, deleteExistingAssignees: false }, 400, /assigneeNames is required/),
    post('/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Ada Admin', 3], isAssignedExclusively: false, deleteExistingAssignees: false }, 400, /assigneeNames\[1\]/),
    post('/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Nobody Here'], isAssignedExclusively: false, deleteExistingAssignees: false }, 400, /matches no active member/),
    post('/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Alex Kim'], isAssignedExclusively: false, deleteExistingAssignees: false }, 400, /ambiguous/),
    post('/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Ada Admin'], isAssignedExclusively: false }, 400, /deleteExistingAssignees is required/),
    post('/api/task/assign-by-name', { taskId: 99999999, assigneeNames: ['Ada Admin'], isAssignedExclusively: false, deleteExistingAssignees: false }, 404),
    // comment (v1)
    post('/api/task/comment', { commentHtml: 'x', createdByUserID: 0 }, 400, /taskId is required/, {}),
    post('/api/task/comment', { taskId: tid, createdByUserID: 0 }, 400, /commentHtml is required/, {}),
    post('/api/task/comment', { taskId: tid, commentHtml: '<p> </p>', createdByUserID: 0 }, 400, /needs html/, {}),
    post('/api/task/comment', { taskId: tid, commentHtml: 'x' }, 400, /createdByUserID is required/, {}),
    post('/api/task/comment', { taskId: tid, commentHtml: 'x', createdByUserID: 'me' }, 400, /createdByUserID must be an integer/, {}),
    post('/api/task/comment', { taskId: 99999999, commentHtml: 'x', createdByUserID: 0 }, 404, undefined, {}),
    post('/api/task/comment', { taskId: tid, commentHtml: 'x', createdByUserID: 99999 }, 404, /createdByUserID/, {}),
    post('/api/task/comment', { taskId: heading, commentHtml: 'x', createdByUserID: 0 }, 400, /heading/, {}),
    // update-task-content (v1)
    put('/api/task/update-task-content', content({ taskContentID: undefined }), 400, /taskContentID is required/, {}),
    put('/api/task/update-task-content', content({ contentID: 'x' }), 400, /contentID must be an integer/, {}),
    put('/api/task/update-task-content', content({ key: X }), 400, /key must be a GUID/, {}),
    put('/api/task/update-task-content', content({ contentType: 'Signature' }), 400, /contentType Signature is not a control type/, {}),
    put('/api/task/update-task-content', content({ contentType: 'ALL' }), 400, /not a control type/, {}),
    put('/api/task/update-task-content', content({ name: undefined }), 400, /name is required/, {}),
    put('/api/task/update-task-content', { ...content({}), value: undefined }, 400, /value is required/, {}),
    put('/api/task/update-task-content', content({ contentID: 99999999 }), 404, /No control/, {}),
    put('/api/task/update-task-content', content({ taskContentID: 99999999 }), 404, /No control/, {}),
    put('/api/task/update-task-content', content({ key: F.office }), 404, /No control/, {}),
    put('/api/task/update-task-content', content({ contentType: 'LongText' }), 400, /does not match the control, which is ShortText/, {}),
    put('/api/task/update-task-content', content({ value: 'bad' }), 400, /E1234/, {}),
    put('/api/task/update-task-content', content({ value: 12 }), 400, undefined, {}),
  ]);
});

test('legacy 4.3 refusals: tags and tag assignments', async () => {
  const tag = (await s.api(KEYS.admin, 'POST', '/api/tag?name=refusal-tag')).body;
  const body = (over: Record<string, unknown>) => ({ tagKey: tag.key, assignmentKey: DEMO.janeDoe, assignmentType: 1, parentKey: null, ...over });
  const cases: Case[] = [
    { method: 'POST', path: '/api/tag', status: 400, match: /name is required/ },
    { method: 'POST', path: '/api/tag?name=%20', status: 400, match: /name is required/ },
    { method: 'POST', path: `/api/tag?name=${'x'.repeat(101)}`, status: 400, match: /at most 100/ },
    { method: 'DELETE', path: '/api/tag', status: 400, match: /tagKey is required/ },
    { method: 'DELETE', path: `/api/tag?tagKey=${X}`, status: 400, match: /tagKey must be a GUID/ },
  ];
  for (const method of ['POST', 'DELETE']) {
    cases.push(
      { method, path: '/api/tag/assignment', status: 400, match: /body is required/ },
      { method, path: '/api/tag/assignment', body: body({ tagKey: undefined }), status: 400, match: /tagKey is required/ },
      { method, path: '/api/tag/assignment', body: body({ tagKey: X }), status: 400, match: /tagKey must be a GUID/ },
      { method, path: '/api/tag/assignment', body: body({ assignmentKey: 7 }), status: 400, match: /assignmentKey must be a GUID/ },
      { method, path: '/api/tag/assignment', body: body({ assignmentType: 2 }), status: 400, match: /assignmentType must be 1 \(checklist\) or 3 \(task\)/ },
      { method, path: '/api/tag/assignment', body: body({ assignmentType: 'task' }), status: 400, match: /assignmentType must be an integer/ },
      { method, path: '/api/tag/assignment', body: body({ assignmentType: 3, assignmentKey: T.collectDetails }), status: 400, match: /parentKey is required/ },
      { method, path: '/api/tag/assignment', body: body({ parentKey: DEMO.janeDoe }), status: 400, match: /parentKey must be null/ },
      { method, path: '/api/tag/assignment', body: body({ tagKey: MISSING }), status: 404, match: /No tag/ },
      { method, path: '/api/tag/assignment', body: body({ assignmentKey: MISSING }), status: 404 },
      { method, path: '/api/tag/assignment', body: body({ assignmentType: 3, assignmentKey: MISSING, parentKey: DEMO.janeDoe }), status: 404 },
      { method, path: '/api/tag/assignment', body: body({ assignmentType: 3, assignmentKey: T.collectDetails, parentKey: MISSING }), status: 404 },
      { method, path: '/api/tag/assignment', body: body({ assignmentKey: DEMO.globexChecklist }), status: 404 },
    );
  }
  await expectAll(cases);
});

test('legacy 4.4-4.6 refusals: team (none), templates (missing and bad keys, unknown content types), analytics (dates, v2)', async () => {
  const g = (path: string, status: number, match?: RegExp, headers: Record<string, string> = {}): Case => ({ method: 'GET', path, status, match, headers });
  await expectAll([
    g('/api/team/members?nameContains=%E2%98%83', 404),
    g('/api/template/tasks', 400, /templateKey is required/),
    g(`/api/template/tasks?templateKey=${X}`, 400, /templateKey must be a GUID/),
    g(`/api/template/tasks?templateKey=${DEMO.globexAudit}`, 404),
    g('/api/template/task-content', 400, /taskKey is required/),
    g(`/api/template/task-content?taskKey=${X}`, 400, /taskKey must be a GUID/),
    g(`/api/template/task-content?taskKey=${T.collectDetails}&contentType=Signature`, 400, /contentType Signature is not a control type: use one of ALL, ALLINPUT, ShortText/),
    g(`/api/template/task-content?taskKey=${MISSING}&contentType=ALL`, 404),
    g('/api/analytics/all?periodStartDate=2026-01-01', 400, /needs X-API-VERSION: 2\.0/),
    g('/api/analytics/all', 400, /periodStartDate is required/, V2),
    g('/api/analytics/all?periodStartDate=2026-02-30', 400, /periodStartDate must be a date/, V2),
    g('/api/analytics/all?periodStartDate=01/02/2026', 400, /periodStartDate must be a date/, V2),
    g('/api/analytics/all?periodStartDate=2026-01-01&periodEndDate=tomorrow', 400, /periodEndDate must be a date/, V2),
    g('/api/analytics/all?periodStartDate=2026-02-01&periodEndDate=2026-01-01', 400, /later than periodEndDate/, V2),
  ]);
});

test('legacy 5: any bad key is 401 on every route (before any validation), with one body', async () => {
  const { legacyRoutes } = await import('../src/legacy/routes');
  for (const r of legacyRoutes) {
    if (r.path.startsWith('/api/data-sets')) continue;
    for (const k of [null, 'nope', KEYS.revoked, KEYS.expired, KEYS.unavailable]) {
      const a = await s.api(k as string, r.method, r.path, r.method === 'GET' ? undefined : {}, r.v2 ? V2 : {});
      assert.equal(a.status, 401, `${r.method} ${r.path} key ${k}: ${a.text}`);
      assert.deepEqual(a.body, { error: 'The API key is missing or invalid.' });
    }
  }
});

test('legacy 9: every v2 route refuses v1 (no header, 1.0) with the one designed 400, before reading anything', async () => {
  const { legacyRoutes } = await import('../src/legacy/routes');
  const v2 = legacyRoutes.filter((r) => r.v2 && !r.path.startsWith('/api/data-sets'));
  assert.deepEqual(v2.map((r) => `${r.method} ${r.path}`).sort(), [
    'DELETE /api/task/assignments',
    'GET /api/analytics/all',
    'POST /api/checklist/create-many',
    'POST /api/checklist/create-with-parameters',
    'POST /api/task/assign-by-name',
    'PUT /api/task/assignments',
    'PUT /api/task/status',
  ], 'legacy spec 9 lists these (Data Sets apart)');
  for (const r of v2) {
    for (const h of [{}, { "X-API-VERSION": "1.0" }] as Record<string, string>[]) {
      const a = await s.api(KEYS.admin, r.method, r.path, r.method === 'GET' ? undefined : {}, h);
      assert.equal(a.status, 400, `${r.method} ${r.path}: ${a.text}`);
      assert.equal(a.body.error, `${r.method} ${r.path} needs X-API-VERSION: 2.0.`);
    }
  }
});
