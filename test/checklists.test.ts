// Checklist reads: GET /v3/checklists (filters, sort, paging, visibility), GET /v3/checklists/{key},
// POST /v3/checklists/search (spec v3 4.7, 5.3, 5.4, 5.10, 4.1 rules 4 and 11).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { keysOf, refused } from './helpers/checklists';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const ALL_ACTIVE = [DEMO.janeDoe, DEMO.johnRoe, DEMO.expenseMarch];

test('4.7 list: an Administrator sees every active checklist, newest first by default', async () => {
  const r = await s.api(KEYS.admin, 'GET', '/v3/checklists');
  assert.equal(r.status, 200);
  assert.deepEqual(keysOf(r), [DEMO.johnRoe, DEMO.janeDoe, DEMO.expenseMarch]);
  assert.equal(r.body.total, 3);
  assert.equal(r.body.hasMore, false);
  assert.equal(r.body.nextCursor, undefined);
});

test('4.7 checklist resource: fields designed in docs/checklists.md', async () => {
  const r = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
  assert.equal(r.status, 200);
  const c = r.body;
  assert.equal(c.key, DEMO.janeDoe);
  assert.equal(c.name, 'Onboarding: Jane Doe');
  assert.equal(c.status, 'InProgress');
  assert.match(c.url, /\/app\/checklists\/30000000-0000-4000-8000-000000000001$/);
  assert.equal(c.template.key, DEMO.onboarding);
  assert.equal(c.template.name, 'Employee Onboarding');
  assert.equal(c.template.version, 1);
  assert.equal(c.version, 1);
  assert.ok(c.template.description);
  assert.match(c.template.createdDateTime, /Z$/);
  assert.deepEqual(c.createdBy, { name: 'Ada Admin', email: 'ada@acme.test' });
  assert.match(c.createdDateTime, /Z$/);
  assert.match(c.startDateTime, /Z$/);
  assert.equal(c.completedDateTime, undefined);
  assert.equal(c.dueDateTime, undefined);
  assert.equal(c.isArchived, false);
  assert.equal(c.isShared, false);
  assert.equal(c.shareUrl, undefined);
  assert.deepEqual(c.tags, []);
  assert.deepEqual(c.taskCounts, { total: 5, complete: 0, notApplicable: 0, incomplete: 5 });
  assert.equal(c.attachedTaskCount, 1);
  assert.ok(!r.text.includes('null'));
});

test('4.7 checklist resource: a complete checklist reports completedDateTime', async () => {
  const r = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.expenseMarch}`);
  assert.equal(r.body.status, 'Complete');
  assert.match(r.body.completedDateTime, /Z$/);
  assert.deepEqual(r.body.taskCounts, { total: 3, complete: 3, notApplicable: 0, incomplete: 0 });
});

test('4.1 rule 4: malformed checklist key is 400 with field checklistKey; unknown is 404', async () => {
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists/not-a-guid'), 400, 'VALIDATION_ERROR', 'checklistKey');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists/30000000-0000-4000-8000-0000000000ff'), 404, 'CHECKLIST_NOT_FOUND');
});

test("5.10: another workspace's checklist is 404, never 403, for every Acme key", async () => {
  for (const key of [KEYS.admin, KEYS.member, KEYS.noperm, KEYS.workspace]) {
    refused(await s.api(key, 'GET', `/v3/checklists/${DEMO.globexChecklist}`), 404, 'CHECKLIST_NOT_FOUND');
  }
  const list = await s.api(KEYS.admin, 'GET', '/v3/checklists?includeArchived=true');
  assert.ok(!keysOf(list).includes(DEMO.globexChecklist));
});

test('5.3/5.4 list: a member sees what the app shows them; a workspace key sees all', async () => {
  // Mia: Operations group RunAndView on Employee Onboarding, AllUsers on Expense Report.
  const mia = await s.api(KEYS.member, 'GET', '/v3/checklists');
  assert.deepEqual(keysOf(mia).sort(), [...ALL_ACTIVE].sort());
  // Nora: no template permission, nothing assigned: only Expense Report (AllUsers).
  const nora = await s.api(KEYS.noperm, 'GET', '/v3/checklists');
  assert.deepEqual(keysOf(nora), [DEMO.expenseMarch]);
  const ws = await s.api(KEYS.workspace, 'GET', '/v3/checklists?includeArchived=true');
  assert.equal(ws.body.total, 4);
});

test('5.4 get: 403 FORBIDDEN for a member who may not see the checklist; the message says what an Administrator can do', async () => {
  const r = await s.api(KEYS.noperm, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
  refused(r, 403, 'FORBIDDEN');
  assert.match(r.body.error.message, /Administrator/);
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}`)).status, 200);
  assert.equal((await s.api(KEYS.workspace, 'GET', `/v3/checklists/${DEMO.janeDoe}`)).status, 200);
});

test('4.7 list filters: templateKey, status (case, spaces, hyphens ignored), search, createdBy, archived', async () => {
  let r = await s.api(KEYS.admin, 'GET', `/v3/checklists?templateKey=${DEMO.onboarding}`);
  assert.deepEqual(keysOf(r).sort(), [DEMO.janeDoe, DEMO.johnRoe].sort());
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?status=complete');
  assert.deepEqual(keysOf(r), [DEMO.expenseMarch]);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?status=' + encodeURIComponent(' in-progress , COMPLETE'));
  assert.equal(r.body.total, 3);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?status=Scheduled');
  assert.equal(r.body.total, 0);
  assert.deepEqual(r.body.items, []);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?search=JANE');
  assert.deepEqual(keysOf(r), [DEMO.janeDoe]);
  r = await s.api(KEYS.admin, 'GET', `/v3/checklists?createdBy=${DEMO.members.mia}`);
  assert.deepEqual(keysOf(r), [DEMO.expenseMarch]);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?isArchived=true');
  assert.deepEqual(keysOf(r), [DEMO.archivedOnboarding]);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?includeArchived=true');
  assert.equal(r.body.total, 4);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?includeArchived=true&isArchived=false');
  assert.equal(r.body.total, 3);
});

test('4.7 list filters: bad values are 400 with the right field; unknown template is 404', async () => {
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?status='), 400, 'VALIDATION_ERROR', 'status');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?status=Done'), 400, 'VALIDATION_ERROR', 'status');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?templateKey=abc'), 400, 'VALIDATION_ERROR', 'templateKey');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?createdBy=abc'), 400, 'VALIDATION_ERROR', 'createdBy');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?sort=colour'), 400, 'VALIDATION_ERROR', 'sort');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?pageSize=0'), 400, 'VALIDATION_ERROR', 'pageSize');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?pageSize=101'), 400, 'VALIDATION_ERROR', 'pageSize');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?after=garbage'), 400, 'VALIDATION_ERROR', 'after');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists?templateKey=20000000-0000-4000-8000-0000000000ff'), 404, 'TEMPLATE_NOT_FOUND');
  // Globex's template is another workspace's: 404 too.
  refused(await s.api(KEYS.admin, 'GET', `/v3/checklists?templateKey=${DEMO.globexAudit}`), 404, 'TEMPLATE_NOT_FOUND');
});

test('4.1 rule 11: paging walks every item once; a cursor is bound to its query', async () => {
  const seen: string[] = [];
  let after: string | undefined;
  for (let i = 0; i < 5; i++) {
    const r = await s.api(KEYS.admin, 'GET', `/v3/checklists?includeArchived=true&sort=name&pageSize=1${after ? `&after=${after}` : ''}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.total, 4);
    seen.push(...keysOf(r));
    if (!r.body.hasMore) break;
    after = r.body.nextCursor;
  }
  assert.deepEqual(seen, [DEMO.expenseMarch, DEMO.archivedOnboarding, DEMO.janeDoe, DEMO.johnRoe]);
  const first = await s.api(KEYS.admin, 'GET', '/v3/checklists?sort=name&pageSize=1');
  refused(await s.api(KEYS.admin, 'GET', `/v3/checklists?sort=name:desc&pageSize=1&after=${first.body.nextCursor}`), 400, 'VALIDATION_ERROR', 'after');
  refused(await s.api(KEYS.member, 'GET', `/v3/checklists?sort=name&pageSize=1&after=${first.body.nextCursor}`), 400, 'VALIDATION_ERROR', 'after');
});

test('4.7 list sort: name:desc, startDateTime:asc', async () => {
  let r = await s.api(KEYS.admin, 'GET', '/v3/checklists?sort=name:desc');
  assert.deepEqual(keysOf(r), [DEMO.johnRoe, DEMO.janeDoe, DEMO.expenseMarch]);
  r = await s.api(KEYS.admin, 'GET', '/v3/checklists?sort=startDateTime:asc');
  assert.deepEqual(keysOf(r), [DEMO.expenseMarch, DEMO.janeDoe, DEMO.johnRoe]);
});

test('4.7 search: by field key and by field name, operators, match any', async () => {
  const empType = '22000000-0000-4000-8000-000000000103';
  let r = await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldKey: empType, value: 'full-time' }] });
  assert.equal(r.status, 200);
  assert.deepEqual(keysOf(r), [DEMO.janeDoe]);
  r = await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldName: 'Employee name', operator: 'contains', value: 'roe' }] });
  assert.deepEqual(keysOf(r), [DEMO.johnRoe]);
  r = await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { templateKey: DEMO.expense, fields: [{ fieldName: 'amount', value: '412.50' }] });
  assert.deepEqual(keysOf(r), [DEMO.expenseMarch]);
  r = await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldName: 'Employee ID', operator: 'isEmpty' }] });
  assert.deepEqual(keysOf(r).sort(), [DEMO.janeDoe, DEMO.johnRoe].sort());
  r = await s.api(KEYS.admin, 'POST', '/v3/checklists/search', {
    match: 'any',
    fields: [
      { fieldName: 'Employee name', value: 'Jane Doe' },
      { fieldName: 'Amount', operator: 'isNotEmpty' },
    ],
  });
  assert.deepEqual(keysOf(r).sort(), [DEMO.janeDoe, DEMO.expenseMarch].sort());
  r = await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { includeArchived: true, fields: [{ fieldName: 'Employee name', operator: 'startsWith', value: 'old' }] });
  assert.deepEqual(keysOf(r), [DEMO.archivedOnboarding]);
});

test('4.7 search: a member finds only what they may see', async () => {
  const r = await s.api(KEYS.noperm, 'POST', '/v3/checklists/search', { fields: [{ fieldName: 'Employee name', operator: 'isNotEmpty' }] });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.items, []);
});

test('4.7 search: bad bodies are 400 naming the field', async () => {
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', {}), 400, 'VALIDATION_ERROR', 'fields');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [] }), 400, 'VALIDATION_ERROR', 'fields');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ value: 'x' }] }), 400, 'VALIDATION_ERROR', 'fields[0]');
  refused(
    await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldKey: '22000000-0000-4000-8000-000000000103', fieldName: 'x', value: 'x' }] }),
    400,
    'VALIDATION_ERROR',
    'fields[0]',
  );
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldKey: 'nope', value: 'x' }] }), 400, 'VALIDATION_ERROR', 'fields[0].fieldKey');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldName: 'a', operator: 'like', value: 'x' }] }), 400, 'VALIDATION_ERROR', 'fields[0].operator');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldName: 'a' }] }), 400, 'VALIDATION_ERROR', 'fields[0].value');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { fields: [{ fieldName: 'a', operator: 'isEmpty', value: 'x' }] }), 400, 'VALIDATION_ERROR', 'fields[0].value');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { status: 'Bogus', fields: [{ fieldName: 'a', value: 'x' }] }), 400, 'VALIDATION_ERROR', 'status');
  refused(
    await s.api(KEYS.admin, 'POST', '/v3/checklists/search', { templateKey: DEMO.expense, fields: [{ fieldName: 'Employee name', value: 'x' }] }),
    400,
    'VALIDATION_ERROR',
    'fields[0].fieldName',
  );
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/search', '{not json'), 400, 'VALIDATION_ERROR');
});
