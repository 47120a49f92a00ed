// Corners of the webhook payloads where the emulator once answered differently from the spec
// (spec v3 6 rule 6, 6.3), delivered to a real receiver. Named after the sentence each enforces.
 
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, KEYS, DEMO, type TestServer } from './helpers/server';
import { startReceiver, harness, type Receiver } from './helpers/webhooks';
import { F, T, newChecklist, taskPath } from './helpers/tasks';

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

const APPROVE = '21000000-0000-4000-8000-000000000202';
const REIMBURSE = '21000000-0000-4000-8000-000000000203';
const to = (name: string) => `${rx.url}?to=${name}`;
const PAYLOAD_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?\+00:00$/;

test('6.3 new_checklist "Payload is the checklist as processed shortly after creation: checklistEndDateTime null": a paused sender still sends the checklist as it was created', async () => {
  const nc = await h.subscribe({ eventType: 'new_checklist', targetUrl: to('nc'), scope: { type: 'Template', key: DEMO.expense } });
  const cc = await h.subscribe({ eventType: 'checklist_completed', targetUrl: to('cc'), scope: { type: 'Template', key: DEMO.expense } });
  await h.pause();
  try {
    const key = await newChecklist(s, { template: DEMO.expense, name: 'Done before delivery' });
    assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, T.submitReceipts, `/fields/${F.amount}`), { value: '9.99' })).status, 200);
    for (const t of [T.submitReceipts, APPROVE, REIMBURSE]) assert.equal((await s.api(KEYS.admin, 'POST', taskPath(key, t, '/complete'))).status, 200);
    assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`)).body.status, 'Complete');
  } finally {
    await h.resume();
  }
  await h.settle();
  const [created] = await h.bodies(nc);
  assert.equal(created.checklistEndDateTime, null);
  assert.deepEqual(created.tasks.map((t: any) => t.taskCompletedDateTime), [null, null, null], 'no task was complete at creation');
  const [completed] = await h.bodies(cc);
  assert.match(completed.checklistEndDateTime, PAYLOAD_TIME, 'checklist_completed does carry the end date');
  await h.unsubscribe(nc);
  await h.unsubscribe(cc);
});

test('6 rule 6 "Payloads do not follow v3 conventions (… Z timestamps …)": comment_created and task_assigned write times as family A does, REST and MCP alike', async () => {
  const cm = await h.subscribe({ eventType: 'comment_created', targetUrl: to('cm'), scope: { type: 'Workspace' } });
  const ta = await h.subscribe({ eventType: 'task_assigned', targetUrl: to('ta'), scope: { type: 'Workspace' } });
  const tc = await h.subscribe({ eventType: 'task_completed', targetUrl: to('tc'), scope: { type: 'Template', key: DEMO.expense } });
  const key = await newChecklist(s, { template: DEMO.expense, name: 'Times' });
  // A clock with milliseconds, so the two forms differ (…28.160Z against …28.16+00:00).
  const clock = (body: unknown) => fetch(`${s.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000 + 160).toISOString();
  assert.equal((await clock({ now: at, frozen: true })).status, 200);
  const rest = await s.api(KEYS.admin, 'POST', taskPath(key, APPROVE, '/comments'), { text: 'over REST', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.mia }] });
  assert.equal(rest.status, 201, rest.text);
  const c = await s.mcp(KEYS.admin);
  const mcp = await callTool(c, 'add_task_comment', { checklistKey: key, taskKey: APPROVE, text: 'over MCP' });
  assert.equal(mcp.isError, false, mcp.text);
  const assigned = await callTool(c, 'set_task_assignees', { checklistKey: key, taskKey: APPROVE, assignees: [{ type: 'TeamMember', id: DEMO.members.mia }, { type: 'Group', id: DEMO.groups.operations }] });
  assert.equal(assigned.isError, false, assigned.text);
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(key, APPROVE, '/complete'))).status, 200);
  assert.equal((await clock({ frozen: false })).status, 200);
  await h.settle();
  const comments = await h.bodies(cm);
  const assignments = await h.bodies(ta);
  const [completed] = await h.bodies(tc);
  assert.equal(comments.length, 2);
  assert.equal(assignments.length, 2, 'Mia by mention (REST), Operations by set_task_assignees (MCP)');
  for (const b of comments) assert.match(b.commentDateTime, PAYLOAD_TIME, b.commentText);
  for (const b of assignments) assert.match(b.assignedDateTime, PAYLOAD_TIME, b.assigneeName);
  assert.deepEqual(
    comments.map((b) => b.commentDateTime),
    completed.comments.map((x: any) => x.commentDateTime),
    'the same comment reads the same inside comment_created and task_completed',
  );
  assert.ok(comments[0].commentDateTime.includes('.16+00:00'), comments[0].commentDateTime);
  for (const id of [cm, ta, tc]) await h.unsubscribe(id);
});
