// Events from legacy writes fire exactly as from v3 (spec v3 6.3; legacy spec 6), through the
// real routes with a real receiver: the legacy task status fires task_completed (not for
// Incomplete or NotApplicable), with the same bytes as the v3 completion would send; find with
// createIfNotExists fires new_checklist; legacy assignments fire task_assigned; a legacy comment
// comment_created; a refused legacy write fires nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { startReceiver, harness, type Receiver } from './helpers/webhooks';
import { newChecklist, taskPath } from './helpers/tasks';

let s: TestServer;
let rx: Receiver;
let h: ReturnType<typeof harness>;
before(async () => {
  s = await startTestServer({ webhooks: { pollMs: 10, retryBaseMs: 20, timeoutMs: 1000 } });
  rx = await startReceiver();
  h = harness(s);
});
after(async () => {
  await s.close();
  await rx.close();
});

const V2 = { 'X-API-VERSION': '2.0' };
const APPROVE = '21000000-0000-4000-8000-000000000202';
const REIMBURSE = '21000000-0000-4000-8000-000000000203';
const to = (name: string) => `${rx.url}?to=${name}`;
const taskIdOf = (c: string, t: string) => (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(c, t) as { id: number }).id;

test('legacy 4.2 PUT /api/task/status fires task_completed for Complete only, the same payload as a v3 completion; a refusal fires nothing', async () => {
  const sub = await h.subscribe({ eventType: 'task_completed', targetUrl: to('status'), scope: { type: 'Template', key: DEMO.expense } });
  const legacySub = await h.subscribeLegacy({ source: 'Zapier', eventType: 'task_completed', templateKey: DEMO.expense, targetUrl: to('status-v2') });
  const key = await newChecklist(s, { template: DEMO.expense, name: 'Events' });
  const put = (taskId: number, status: string) => s.api(KEYS.admin, 'PUT', '/api/task/status', { taskId, status, modifiedByUserID: 0 }, V2);
  assert.equal((await put(taskIdOf(key, APPROVE), 'Complete')).status, 200);
  assert.equal((await put(taskIdOf(key, APPROVE), 'NotApplicable')).status, 200);
  assert.equal((await put(taskIdOf(key, APPROVE), 'Incomplete')).status, 200);
  assert.equal((await put(taskIdOf(key, '21000000-0000-4000-8000-000000000201'), 'Complete')).status, 409, 'required Amount unanswered');
  // The same through v3, for comparison.
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(key, REIMBURSE, '/complete'))).status, 200);
  await h.settle();
  const bodies = await h.bodies(sub);
  assert.equal(bodies.length, 2, 'one for the legacy Complete, one for the v3 complete; none for NotApplicable, Incomplete or the refusal');
  assert.deepEqual(Object.keys(bodies[0]).sort(), Object.keys(bodies[1]).sort(), 'the same payload shape');
  assert.deepEqual(await h.bodies(legacySub), bodies, 'a legacy subscription gets the same bodies');
  assert.equal(bodies[0].taskCompletedByName, 'Acme Workspace', 'modifiedByUserID 0: the anonymous member completed it');
  await h.unsubscribe(sub);
  await h.unsubscribe(legacySub);
});

test('legacy 4.1 find with createIfNotExists fires new_checklist; legacy assignments fire task_assigned; a legacy comment fires comment_created', async () => {
  const nc = await h.subscribe({ eventType: 'new_checklist', targetUrl: to('nc'), scope: { type: 'Template', key: DEMO.expense } });
  const ta = await h.subscribe({ eventType: 'task_assigned', targetUrl: to('ta'), scope: { type: 'Workspace' } });
  const cc = await h.subscribe({ eventType: 'comment_created', targetUrl: to('cc'), scope: { type: 'Workspace' } });
  const found = await s.api(KEYS.admin, 'GET', `/api/checklist/find?templateKey=${DEMO.expense}&checklistName=Made%20by%20find&createIfNotExists=true`);
  assert.equal(found.status, 200, found.text);
  const tid = taskIdOf(found.body[0].key, APPROVE);
  assert.equal((await s.api(KEYS.admin, 'PUT', '/api/task/assignments', { taskId: tid, assignees: [{ assigneeId: 103, assigneeType: 1 }], isAssignedExclusively: false }, V2)).status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', '/api/task/assign-by-name', { taskId: tid, assigneeNames: ['Operations'], isAssignedExclusively: false, deleteExistingAssignees: false }, V2)).status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', '/api/task/comment', { taskId: tid, commentHtml: 'hello', createdByUserID: 0 })).status, 200);
  await h.settle();
  assert.deepEqual((await h.bodies(nc)).map((b) => b.checklistKey), [found.body[0].key]);
  assert.equal((await h.bodies(ta)).length, 2, 'one task_assigned per new assignee');
  assert.equal((await h.bodies(cc)).length, 1);
});
