// Spec v3 3 and 6.3: a checklist started through the API walks to Complete when its last
// outstanding task is completed (REST and MCP), and reopens when one is uncompleted.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
const events: { type: string; subject: Record<string, unknown> }[] = [];
before(async () => {
  s = await startTestServer();
  const previous = s.emu.hooks.event;
  s.emu.hooks.event = (ctx, type, subject) => {
    events.push({ type, subject });
    previous?.(ctx, type, subject);
  };
});
after(async () => {
  await s.close();
});

const EXPENSE_TASKS = [DEMO.tasks.submitReceipts, '21000000-0000-4000-8000-000000000202', '21000000-0000-4000-8000-000000000203'];
const idOf = (key: string) => (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;

test('3: create → complete every task (REST) → Complete; uncomplete → InProgress', async () => {
  events.length = 0;
  const c = (await s.api(KEYS.member, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Walk REST', parameters: { Amount: '10.00' } })).body;
  assert.equal(c.status, 'InProgress');
  for (const [i, t] of EXPENSE_TASKS.entries()) {
    const r = await s.api(KEYS.member, 'POST', `/v3/checklists/${c.key}/tasks/${t}/complete`);
    assert.equal(r.status, 200, r.text);
    const now = (await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}`)).body;
    assert.equal(now.status, i === EXPENSE_TASKS.length - 1 ? 'Complete' : 'InProgress');
  }
  const done = (await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}`)).body;
  assert.match(done.completedDateTime, /Z$/);
  assert.deepEqual(done.taskCounts, { total: 3, complete: 3, notApplicable: 0, incomplete: 0 });
  const list = await s.api(KEYS.member, 'GET', '/v3/checklists?status=complete');
  assert.ok(list.body.items.some((x: { key: string }) => x.key === c.key));
  const id = idOf(c.key);
  assert.deepEqual(
    events.filter((e) => e.type === 'new_checklist' || e.type === 'checklist_completed'),
    [
      { type: 'new_checklist', subject: { checklistId: id } },
      { type: 'checklist_completed', subject: { checklistId: id } },
    ],
  );
  const r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}/tasks/${EXPENSE_TASKS[1]}/complete`);
  assert.equal(r.status, 200, r.text);
  const reopened = (await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}`)).body;
  assert.equal(reopened.status, 'InProgress');
  assert.equal(reopened.completedDateTime, undefined);
});

test('3: the same walk through MCP complete_task', async () => {
  const c = (await s.api(KEYS.member, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Walk MCP', parameters: { amount: '99' } })).body;
  const client = await s.mcp(KEYS.member);
  for (const t of EXPENSE_TASKS) {
    const r = await callTool(client, 'complete_task', { checklistKey: c.key, taskKey: t });
    assert.equal(r.isError, false, r.text);
  }
  const done = (await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}`)).body;
  assert.equal(done.status, 'Complete');
});
