// Corners of the legacy API where the emulator once answered differently from the legacy spec
// or from docs/legacy.md (legacy 3, 4.8, 7; v3 6.3). Each test is named after what it enforces.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, T, newChecklist, recordEvents, taskPath } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const V2 = { 'X-API-VERSION': '2.0' };
const APPROVE = '21000000-0000-4000-8000-000000000202';
const REIMBURSE = '21000000-0000-4000-8000-000000000203';
const taskIdOf = (checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;
const putStatus = (taskId: number, status: string) => s.api(KEYS.admin, 'PUT', '/api/task/status', { taskId, status, modifiedByUserID: 101 }, V2);

/** An Expense Report checklist with every task but Reimburse done; answers its key and Reimburse's task id. */
async function oneTaskLeft(): Promise<{ key: string; last: number }> {
  const key = await newChecklist(s, { template: DEMO.expense, name: 'One task left' });
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, T.submitReceipts, `/fields/${F.amount}`), { value: '12.50' })).status, 200);
  for (const t of [T.submitReceipts, APPROVE]) assert.equal((await putStatus(taskIdOf(key, t), 'Complete')).status, 200);
  return { key, last: taskIdOf(key, REIMBURSE) };
}

test('legacy 3 "the response is the full task after the change": the task-status answer carries the checklist status the change left', async () => {
  const { key, last } = await oneTaskLeft();
  const done = await putStatus(last, 'Complete');
  assert.equal(done.status, 200, done.text);
  const details = await s.api(KEYS.admin, 'GET', `/api/task/details?checklistId=${done.body.checklist.checklistId ?? done.body.checklist.id}&taskKey=${REIMBURSE}`);
  assert.equal(details.status, 200, details.text);
  assert.equal(details.body.checklist.checklistStatus, 'Complete');
  assert.equal(done.body.checklist.checklistStatus, 'Complete', 'completing the last open task completes the checklist, in this answer');
  const reopened = await putStatus(last, 'Incomplete');
  assert.equal(reopened.body.checklist.checklistStatus, 'InProgress', 'uncompleting it reopens the checklist, in this answer');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`)).body.status, 'InProgress');
});

test('v3 6.3 checklist_completed fires when "a checklist becomes complete": Complete ⇄ NotApplicable on the last task of a complete checklist fires nothing more', async () => {
  const { key, last } = await oneTaskLeft();
  const events = recordEvents(s);
  try {
    assert.equal((await putStatus(last, 'Complete')).status, 200);
    assert.deepEqual(events.map((e) => e.type), ['task_completed', 'checklist_completed']);
    events.length = 0;
    const na = await putStatus(last, 'NotApplicable');
    assert.equal(na.status, 200, na.text);
    assert.equal(na.body.status, 'NotApplicable');
    assert.equal(na.body.checklist.checklistStatus, 'Complete');
    assert.deepEqual(events.map((e) => e.type), [], 'the checklist stays complete: no second checklist_completed');
    const back = await putStatus(last, 'Complete');
    assert.equal(back.body.status, 'Complete');
    assert.deepEqual(events.map((e) => e.type), ['task_completed'], 'the task is completed again; the checklist was complete all along');
    const activity = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}/activity?pageSize=100`)).body.items.map((a: any) => a.action ?? a.type ?? a.text);
    assert.equal(activity.filter((a: string) => /reopened/i.test(a)).length, 0, 'never reopened');
    assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`)).body.status, 'Complete');
  } finally {
    s.emu.hooks.event = undefined;
  }
});
