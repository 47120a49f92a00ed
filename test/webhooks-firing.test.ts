// Firing rules (spec v3 6, 6.3; legacy spec 4.1, 4.7; issue 6 "What to build" 2), each
// through the real routes (v3 REST and the legacy API) with a real local HTTP receiver:
// nothing here calls the event hook directly. Deliveries are read back from the delivery
// log (/_emulator/webhooks/deliveries), which holds the exact bytes the receiver got.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
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

/** A receiver URL tagged with the subscription's name, so receipts can be told apart. */
const to = (name: string) => `${rx.url}?to=${name}`;
const receivedBy = (name: string) => rx.received.filter((r) => r.url === `/hook?to=${name}`);

async function ok(p: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const r = await p;
  assert.equal(r.status, status, r.text);
  return r.body;
}
const complete = (c: string, t: string, key: string = KEYS.admin) => ok(s.api(key, 'POST', taskPath(c, t, '/complete')));
const uncomplete = (c: string, t: string, key: string = KEYS.admin) => ok(s.api(key, 'DELETE', taskPath(c, t, '/complete')));
const notApplicable = (c: string, t: string) => ok(s.api(KEYS.admin, 'POST', taskPath(c, t, '/not-applicable')));
const answer = (c: string, t: string, field: string, value: unknown) => ok(s.api(KEYS.admin, 'PUT', taskPath(c, t, `/fields/${field}`), { value }));
const completeStandalone = (task: string, key: string = KEYS.admin) => ok(s.api(key, 'POST', `/v3/tasks/${task}/complete`));
const uncompleteStandalone = (task: string) => ok(s.api(KEYS.admin, 'DELETE', `/v3/tasks/${task}/complete`));
const taskIdOf = (c: string | null, t: string) =>
  c === null
    ? (s.emu.db.prepare('SELECT id FROM tasks WHERE checklist_id IS NULL AND key = ?').get(t) as { id: number }).id
    : (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(c, t) as { id: number }).id;

/** An onboarding checklist whose "Collect employee details" can be completed (Employee ID answered). */
const onboarding = (name: string, version?: number) =>
  ok(s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name, ...(version ? { version } : {}), parameters: { 'Employee ID': 'E1234' } }), 201).then((b) => b.key as string);
const expense = (name: string) => newChecklist(s, { template: DEMO.expense, name });

async function cleanup(...subs: string[]) {
  await h.settle();
  for (const id of subs) await h.unsubscribe(id);
}

// ── new_checklist ───────────────────────────────────────────────────────────────

test('6.3 new_checklist: once per checklist started by POST /v3/checklists; Template scope only; other templates and refused starts fire nothing', async () => {
  const vendor = await h.subscribe({ eventType: 'new_checklist', targetUrl: to('nc-vendor'), scope: { type: 'Template', key: DEMO.vendor } });
  const other = await h.subscribe({ eventType: 'new_checklist', targetUrl: to('nc-other'), scope: { type: 'Template', key: DEMO.expense } });
  const ws = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'new_checklist', targetUrl: to('x') });
  assert.equal(ws.status, 400, 'no workspace form (6.3)');
  assert.equal(ws.body.error.field, 'scope');

  const created = await ok(s.api(KEYS.owner, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name: 'Vendor: Café & <Co>' }), 201);
  // A refused start (unknown parameter, 400) writes no checklist and no event.
  const refused = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.vendor, name: 'x', parameters: { nope: 1 } });
  assert.equal(refused.status, 400);
  await h.settle();

  const [d, ...more] = await h.deliveries(vendor);
  assert.equal(more.length, 0, 'exactly one delivery');
  assert.equal(d.status, 'delivered');
  const body = JSON.parse(d.request.body);
  assert.equal(body.checklistKey, created.key);
  assert.equal(body.checklistName, 'Vendor: Café & <Co>');
  assert.match(d.request.body, /"checklistName": "Vendor: Caf\\u00e9 \\u0026 \\u003cCo\\u003e"/);
  assert.equal(body.checklistEndDateTime, null);
  assert.equal(body.checklistCreatedByName, 'Omar Owner', 'the acting member started it');
  assert.equal(body.checklistCreatedByEmail, 'omar@acme.test');
  assert.equal(body.template.templateKey, DEMO.vendor);
  assert.deepEqual(body.tasks.map((t: any) => t.taskKey), ['21000000-0000-4000-8000-000000000301', '21000000-0000-4000-8000-000000000302', '21000000-0000-4000-8000-000000000303']);
  assert.equal(receivedBy('nc-vendor').length, 1);
  assert.equal((await h.deliveries(other)).length, 0);
  await cleanup(vendor, other);
});

test('6.3 new_checklist: legacy POST /api/checklist, create-many (one event per checklist) and create-with-parameters each fire; v2 and v3 subscriptions get identical bytes', async () => {
  const v3 = await h.subscribe({ eventType: 'new_checklist', targetUrl: to('nc-v3'), scope: { type: 'Template', key: DEMO.expense }, secret: 's3cret' });
  const v2 = await h.subscribeLegacy({ source: 'Zapier', eventType: 'new_checklist', templateKey: DEMO.expense, targetUrl: to('nc-v2') });
  const v2h = { 'X-API-VERSION': '2.0' };

  const one = await ok(s.api(KEYS.admin, 'POST', `/api/checklist?templateKey=${DEMO.expense}&checklistName=${encodeURIComponent('Legacy one')}`));
  const many = await ok(s.api(KEYS.member, 'POST', '/api/checklist/create-many', { templateKey: DEMO.expense, checklistNames: ['Many A', 'Many B', 'Many C'] }, v2h));
  assert.equal(many.length, 3);
  const withParams = await ok(
    s.api(KEYS.admin, 'POST', '/api/checklist/create-with-parameters', { templateKey: DEMO.expense, checklistName: 'With amount', parameters: [{ parameterName: 'Amount', parameterValue: '42.50' }] }, v2h),
  );
  // A refused create-many (one bad name) creates nothing and fires nothing.
  const bad = await s.api(KEYS.admin, 'POST', '/api/checklist/create-many', { templateKey: DEMO.expense, checklistNames: ['fine', ''] }, v2h);
  assert.equal(bad.status, 400);
  await h.settle();

  const keys = [one.key, ...many.map((c: any) => c.key), withParams.key];
  for (const sub of [v3, v2]) {
    const bodies = await h.bodies(sub);
    assert.deepEqual(bodies.map((b) => b.checklistKey), keys, 'one event per checklist, in order');
  }
  const a = await h.deliveries(v3);
  const b = await h.deliveries(v2);
  assert.deepEqual(
    a.map((d) => d.request.body),
    b.map((d) => d.request.body),
    '6 rule 1: the same bytes to the v2 and the v3 subscription',
  );
  assert.deepEqual(a.map((d) => d.event.id), b.map((d) => d.event.id), 'one event, built once, posted to both');
  // Only the subscription with a secret is signed (6 rule 2), over the exact bytes.
  const v3Got = receivedBy('nc-v3');
  const v2Got = receivedBy('nc-v2');
  assert.equal(v3Got.length, 5);
  assert.deepEqual(v3Got.map((r) => r.body), v2Got.map((r) => r.body));
  for (const r of v3Got) assert.equal(r.headers['svc-signature'], 'sha256=' + createHmac('sha256', 's3cret').update(r.body).digest('hex'));
  for (const r of v2Got) assert.equal(r.headers['svc-signature'], undefined);
  // Who started them, and the parameter's answer in the payload (6.2 field naming).
  const bodies = await h.bodies(v3);
  assert.equal(bodies[1].checklistCreatedByName, 'Mia Member');
  assert.equal(bodies[0].checklistCreatedByName, 'Ada Admin');
  const fields = bodies[4].tasks[0].fields;
  assert.deepEqual(fields.find((f: any) => 'short_text_amount' in f), { short_text_amount: '42.50' });
  await cleanup(v3);
  await ok(s.api(KEYS.admin, 'DELETE', `/api/web-hook/unsubscribe?subscriptionId=${v2}`));
});

// ── task_completed ──────────────────────────────────────────────────────────────

test('6.3 task_completed: fires each time a task is completed (complete, uncomplete, complete = two); not on uncomplete; not for not applicable', async () => {
  const c = await expense('Expense: twice');
  const sub = await h.subscribe({ eventType: 'task_completed', targetUrl: to('tc-twice'), scope: { type: 'Template', key: DEMO.expense } });
  await complete(c, '21000000-0000-4000-8000-000000000202', KEYS.member);
  await h.settle();
  assert.equal((await h.deliveries(sub)).length, 1);
  await uncomplete(c, '21000000-0000-4000-8000-000000000202');
  await h.settle();
  assert.equal((await h.deliveries(sub)).length, 1, 'no event on uncomplete');
  await complete(c, '21000000-0000-4000-8000-000000000202');
  // Completing a task that is already complete writes nothing and fires nothing.
  await complete(c, '21000000-0000-4000-8000-000000000202');
  await notApplicable(c, '21000000-0000-4000-8000-000000000203');
  await h.settle();
  const ds = await h.deliveries(sub);
  assert.deepEqual(ds.map((d) => d.status), ['delivered', 'delivered']);
  const [first, second] = ds.map((d) => JSON.parse(d.request.body));
  assert.equal(first.taskKey, '21000000-0000-4000-8000-000000000202');
  assert.equal(first.taskCompletedByName, 'Mia Member', 'the acting member');
  assert.equal(first.taskCompletedByEmail, 'mia@acme.test');
  assert.equal(second.taskCompletedByName, 'Ada Admin');
  assert.equal(second.checklist.checklistKey, c);
  assert.equal(second.template.templateKey, DEMO.expense);
  assert.equal(second.taskUrl, `${s.us}/app/checklists/${c}/tasks/21000000-0000-4000-8000-000000000202`);
  assert.notEqual(first.taskCompletedDateTime, null);
  await cleanup(sub);
});

test('6.3 task_completed and comment_created: the MCP tools complete_task and add_task_comment fire like REST', async () => {
  const c = await expense('Expense: MCP');
  const done = await h.subscribe({ eventType: 'task_completed', targetUrl: to('mcp-tc'), scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000202' } });
  const said = await h.subscribe({ eventType: 'comment_created', targetUrl: to('mcp-cm'), scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000202' } });
  const mcp = await s.mcp(KEYS.member);
  const r = await callTool(mcp, 'complete_task', { checklistKey: c, taskKey: '21000000-0000-4000-8000-000000000202' });
  assert.equal(r.isError, false, r.text);
  const m = await callTool(mcp, 'add_task_comment', { checklistKey: c, taskKey: '21000000-0000-4000-8000-000000000202', text: 'via MCP' });
  assert.equal(m.isError, false, m.text);
  await h.settle();
  const [body] = await h.bodies(done);
  assert.equal(body.taskCompletedByName, 'Mia Member');
  const [comment] = await h.bodies(said);
  assert.equal(comment.commentText, 'via MCP');
  await cleanup(done, said);
});

test('6.3 task_completed: dropped when the task is no longer complete when processed (sender paused: complete, uncomplete, resume)', async () => {
  const c = await expense('Expense: dropped');
  const sub = await h.subscribe({ eventType: 'task_completed', targetUrl: to('tc-drop'), scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000202' } });
  await h.pause();
  try {
    await complete(c, '21000000-0000-4000-8000-000000000202');
    await uncomplete(c, '21000000-0000-4000-8000-000000000202');
    const [pending] = await h.deliveries(sub);
    assert.equal(pending.status, 'pending', 'nothing is processed while paused');
    assert.equal(pending.event.state, 'pending');
    assert.equal(receivedBy('tc-drop').length, 0);
  } finally {
    await h.resume();
  }
  await h.settle();
  // Completed again after the drop: delivered as usual.
  await complete(c, '21000000-0000-4000-8000-000000000202');
  await h.settle();
  const ds = await h.deliveries(sub);
  assert.deepEqual(ds.map((d) => d.status), ['dropped', 'delivered']);
  assert.equal(ds[0].attempts, 0);
  assert.match(ds[0].event.dropReason, /no longer complete/);
  assert.equal(receivedBy('tc-drop').length, 1, 'the dropped event was never sent');
  await cleanup(sub);
});

test('6.3 task_completed scopes: Task by template task key (any checklist, any version), Task by standalone key, Template (attached standalone too, never unattached), Workspace', async () => {
  const v1 = await onboarding('Scopes v1', 1);
  const v2 = await onboarding('Scopes v2', 2);
  // A standalone task raised attached to v1, and one attached to nothing.
  const attached = await ok(s.api(KEYS.admin, 'POST', '/v3/tasks', { name: 'Attached to v1', checklistKey: v1 }), 201);
  const loose = await ok(s.api(KEYS.admin, 'POST', '/v3/tasks', { name: 'Loose' }), 201);
  const subs = {
    task: await h.subscribe({ eventType: 'task_completed', targetUrl: to('sc-task'), scope: { type: 'Task', key: T.collectDetails } }),
    standalone: await h.subscribe({ eventType: 'task_completed', targetUrl: to('sc-standalone'), scope: { type: 'Task', key: loose.key } }),
    template: await h.subscribe({ eventType: 'task_completed', targetUrl: to('sc-template'), scope: { type: 'Template', key: DEMO.onboarding } }),
    otherTemplate: await h.subscribe({ eventType: 'task_completed', targetUrl: to('sc-other'), scope: { type: 'Template', key: DEMO.vendor } }),
    workspace: await h.subscribe({ eventType: 'task_completed', targetUrl: to('sc-ws') }, KEYS.workspace),
  };
  const globex = await h.subscribe({ eventType: 'task_completed', targetUrl: to('sc-globex') }, KEYS.globexAdmin, s.eu);

  await complete(v1, T.collectDetails);
  await complete(v2, T.collectDetails);
  await complete(v1, T.managerApproval);
  await completeStandalone(attached.key);
  await completeStandalone(loose.key);
  await h.settle();

  const ids = {
    v1collect: taskIdOf(v1, T.collectDetails),
    v2collect: taskIdOf(v2, T.collectDetails),
    v1approval: taskIdOf(v1, T.managerApproval),
    attached: taskIdOf(null, attached.key),
    loose: taskIdOf(null, loose.key),
  };
  const got = async (sub: string) => (await h.bodies(sub)).map((b) => b.taskId);
  assert.deepEqual(await got(subs.task), [ids.v1collect, ids.v2collect], 'template task key: every checklist of the template, both versions');
  assert.deepEqual(await got(subs.standalone), [ids.loose]);
  assert.deepEqual(await got(subs.template), [ids.v1collect, ids.v2collect, ids.v1approval, ids.attached], 'attached standalone included, unattached never');
  assert.deepEqual(await got(subs.otherTemplate), []);
  assert.deepEqual(await got(subs.workspace), Object.values(ids));
  assert.deepEqual(await got(globex), [], 'another workspace hears nothing');

  // The standalone-not-attached payload (6.1): empty checklist and template, taskUrl the Tasks grid.
  const [looseBody] = await h.bodies(subs.standalone);
  assert.equal(looseBody.checklist.checklistId, 0);
  assert.equal(looseBody.checklist.checklistKey, null);
  assert.equal(looseBody.checklist.checklistIsShared, false);
  assert.equal(looseBody.template.templateId, 0);
  assert.equal(looseBody.template.templateVersion, 0);
  assert.equal(looseBody.taskUrl, `${s.us}/app/my-work`);
  const attachedBody = (await h.bodies(subs.template))[3];
  assert.equal(attachedBody.checklist.checklistKey, v1);
  assert.equal(attachedBody.template.templateKey, DEMO.onboarding);
  // The template version each checklist runs.
  const [b1, b2] = await h.bodies(subs.task);
  assert.equal(b1.template.templateVersion, 1);
  assert.equal(b2.template.templateVersion, 2);
  await cleanup(...Object.values(subs));
  await s.api(KEYS.globexAdmin, 'DELETE', `/v3/webhooks/${globex}`, undefined, {}, s.eu);
  await uncompleteStandalone(loose.key);
});

test('6.1 taskIsCurrentlyHalted / taskIsCurrentlyHidden: the payload says what GET .../tasks says (halted behind a stop task, hidden by a condition)', async () => {
  const sub = await h.subscribe({ eventType: 'new_checklist', targetUrl: to('flags'), scope: { type: 'Template', key: DEMO.onboarding } });
  // A checklist started now: its new_checklist payload is built with the tasks area's evaluator.
  const c2 = await onboarding('Flags 2');
  await h.settle();
  const [payload] = await h.bodies(sub);
  assert.equal(payload.checklistKey, c2);
  const rest = await ok(s.api(KEYS.admin, 'GET', taskPath(c2)));
  const list: any[] = rest.items ?? rest.tasks;
  const flags = (xs: any[], halted: string, hidden: string, key: string) => xs.map((t) => [t[key], t[halted], t[hidden]]);
  assert.deepEqual(flags(payload.tasks, 'taskIsCurrentlyHalted', 'taskIsCurrentlyHidden', 'taskKey'), flags(list, 'isCurrentlyHalted', 'isCurrentlyHidden', 'key'));
  const byKey = new Map(payload.tasks.map((t: any) => [t.taskKey, t]));
  assert.equal((byKey.get(T.setUpEquipment) as any).taskIsCurrentlyHalted, true, 'behind the stop task Manager approval');
  assert.equal((byKey.get(T.contractorAgreement) as any).taskIsCurrentlyHidden, true, 'shown only for contractors');
  assert.equal((byKey.get(T.heading) as any).taskIsCurrentlyHalted, false, 'headings are never halted');
  await cleanup(sub);
});

// ── checklist_completed ─────────────────────────────────────────────────────────

test('6.3 checklist_completed: when the last outstanding task completes (Template and Workspace); not again until it reopens and completes again; task_completed of the last task has checklistEndDateTime null', async () => {
  const c = await expense('Expense: to the end');
  const subs = {
    template: await h.subscribe({ eventType: 'checklist_completed', targetUrl: to('cc-template'), scope: { type: 'Template', key: DEMO.expense } }),
    workspace: await h.subscribe({ eventType: 'checklist_completed', targetUrl: to('cc-ws') }),
    other: await h.subscribe({ eventType: 'checklist_completed', targetUrl: to('cc-other'), scope: { type: 'Template', key: DEMO.vendor } }),
    last: await h.subscribe({ eventType: 'task_completed', targetUrl: to('cc-last'), scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000203' } }),
  };
  await answer(c, T.submitReceipts, F.amount, '12.00');
  await complete(c, T.submitReceipts);
  await complete(c, '21000000-0000-4000-8000-000000000202');
  await h.settle();
  assert.equal((await h.deliveries(subs.template)).length, 0, 'two of three done: not yet');
  await complete(c, '21000000-0000-4000-8000-000000000203', KEYS.member);
  await h.settle();
  const [done] = await h.bodies(subs.template);
  assert.equal(done.checklistKey, c);
  assert.notEqual(done.checklistEndDateTime, null, 'the checklist payload of a completed checklist has its end');
  assert.match(done.checklistEndDateTime, /\+00:00$/);
  assert.ok(done.tasks.every((t: any) => t.taskCompletedDateTime !== null));
  assert.equal((await h.bodies(subs.workspace)).length, 1);
  assert.equal((await h.deliveries(subs.other)).length, 0);
  const [lastTask] = await h.bodies(subs.last);
  assert.equal(lastTask.checklist.checklistEndDateTime, null, '6.3: null even for the last task');
  assert.equal(lastTask.taskCompletedByName, 'Mia Member');

  // Reopen (uncomplete): no event. Complete again: a second checklist_completed.
  await uncomplete(c, '21000000-0000-4000-8000-000000000203');
  await h.settle();
  assert.equal((await h.deliveries(subs.template)).length, 1);
  // Marking the last outstanding task not applicable also completes the checklist.
  await notApplicable(c, '21000000-0000-4000-8000-000000000203');
  await h.settle();
  assert.equal((await h.bodies(subs.template)).length, 2);
  assert.equal((await h.bodies(subs.last)).length, 1, 'not applicable fires no task_completed');
  await cleanup(...Object.values(subs));
});

// ── file_uploaded, comment_created, task_assigned ────────────────────────────────

test('6.3 file_uploaded: POST .../fields/{key}/files fires for the File Upload control named by the Field scope, and no other', async () => {
  const c = await expense('Expense: receipts');
  const sub = await h.subscribe({ eventType: 'file_uploaded', targetUrl: to('fu'), scope: { type: 'Field', key: F.receipts } });
  const other = await h.subscribe({ eventType: 'file_uploaded', targetUrl: to('fu-other'), scope: { type: 'Field', key: F.signedAgreement } });
  const legacy = await h.subscribeLegacy({ source: 'Zapier', eventType: 'file_uploaded', taskContentKey: F.receipts, targetUrl: to('fu-v2') });
  const file = await ok(
    s.api(KEYS.member, 'POST', taskPath(c, T.submitReceipts, `/fields/${F.receipts}/files`), { name: 'taxi & hotel.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4').toString('base64') }),
    201,
  );
  // Refused upload (not a File Upload field): nothing fires.
  const bad = await s.api(KEYS.member, 'POST', taskPath(c, T.submitReceipts, `/fields/${F.amount}/files`), { name: 'x.pdf', data: 'AA==' });
  assert.equal(bad.status, 400);
  await h.settle();
  const [body, ...more] = await h.bodies(sub);
  assert.equal(more.length, 0);
  assert.equal(body.fileId, file.id);
  assert.equal(body.fileName, 'taxi & hotel.pdf');
  assert.equal(body.fileContentType, 'application/pdf');
  assert.equal(body.fileUploadedByName, 'Mia Member');
  assert.equal(body.fieldKey.toLowerCase(), F.receipts);
  assert.equal(body.fieldName, 'file_receipts');
  assert.equal(body.checklist.checklistKey, c);
  assert.equal(body.checklist.checklistEndDateTime, null);
  assert.equal(body.template.templateKey, DEMO.expense);
  assert.equal((await h.deliveries(other)).length, 0);
  assert.deepEqual((await h.deliveries(legacy)).map((d) => d.request.body), (await h.deliveries(sub)).map((d) => d.request.body));
  await cleanup(sub, other);
  await ok(s.api(KEYS.admin, 'DELETE', `/api/web-hook/unsubscribe?subscriptionId=${legacy}`));
});

test('6.3 comment_created: POST .../comments fires for Task scope (by template task key) and Workspace, family B body', async () => {
  const c = await expense('Expense: comments');
  const task = await h.subscribe({ eventType: 'comment_created', targetUrl: to('cm-task'), scope: { type: 'Task', key: T.submitReceipts } });
  const otherTask = await h.subscribe({ eventType: 'comment_created', targetUrl: to('cm-other'), scope: { type: 'Task', key: T.collectDetails } });
  const ws = await h.subscribe({ eventType: 'comment_created', targetUrl: to('cm-ws') });
  const made = await ok(s.api(KEYS.member, 'POST', taskPath(c, T.submitReceipts, '/comments'), { text: 'Receipts: 2 & more' }), 201);
  await h.settle();
  const [d] = await h.deliveries(task);
  assert.equal(d.status, 'delivered');
  assert.ok(d.request.body.startsWith('{"eventType":"comment_created",'), 'family B: one line starting with eventType');
  assert.ok(!d.request.body.includes('\n'));
  const body = JSON.parse(d.request.body);
  assert.equal(body.commentId, made.id);
  assert.equal(body.commentText, 'Receipts: 2 & more');
  assert.equal(body.createdByName, 'Mia Member');
  assert.equal(body.checklistKey, c);
  assert.equal(body.templateKey, DEMO.expense);
  assert.equal((await h.deliveries(otherTask)).length, 0);
  assert.equal((await h.deliveries(ws)).length, 1);
  await cleanup(task, otherTask, ws);
});

test('6.3 task_assigned: only for somebody who did not have the task; PUT replacing with an overlapping set fires for the new ones only; DELETE fires nothing', async () => {
  const c = await expense('Expense: assignees');
  const sub = await h.subscribe({ eventType: 'task_assigned', targetUrl: to('as'), scope: { type: 'Template', key: DEMO.expense } });
  const taskScope = await h.subscribe({ eventType: 'task_assigned', targetUrl: to('as-task'), scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000202' } });
  const path = taskPath(c, '21000000-0000-4000-8000-000000000202', '/assignees');
  await ok(s.api(KEYS.admin, 'PUT', path, { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] }));
  await h.settle();
  await ok(s.api(KEYS.admin, 'PUT', path, { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }, { type: 'Group', id: DEMO.groups.sales }, { type: 'TeamMember', id: DEMO.members.omar }] }));
  await h.settle();
  // Overlapping replacement: Mia and Omar stay, Sales goes, Nora is new.
  await ok(s.api(KEYS.admin, 'PUT', path, { assignees: [{ type: 'TeamMember', id: DEMO.members.omar }, { type: 'TeamMember', id: DEMO.members.nora }, { type: 'TeamMember', id: DEMO.members.mia }] }));
  await ok(s.api(KEYS.admin, 'PUT', path, { assignees: [{ type: 'TeamMember', id: DEMO.members.omar }, { type: 'TeamMember', id: DEMO.members.nora }, { type: 'TeamMember', id: DEMO.members.mia }] }));
  await ok(s.api(KEYS.admin, 'DELETE', path));
  await h.settle();
  const got = (await h.bodies(sub)).map((b) => [b.assigneeType, b.assigneeId]);
  assert.deepEqual(got.slice(0, 1), [['TeamMember', DEMO.members.mia]]);
  assert.deepEqual(got.slice(1, 3).sort(), [['Group', DEMO.groups.sales], ['TeamMember', DEMO.members.omar]].sort());
  assert.deepEqual(got.slice(3), [['TeamMember', DEMO.members.nora]], 'only the one who did not have it');
  const [first] = await h.bodies(sub);
  assert.equal(first.eventType, 'task_assigned');
  assert.equal(first.assigneeName, 'Mia Member');
  assert.equal(first.assignedByName, 'Ada Admin');
  assert.equal(first.checklistKey, c);
  assert.equal((await h.deliveries(taskScope)).length, 4);
  await cleanup(sub, taskScope);
});

test('6.3 task_assigned: also fires for people a comment assigns by mention (not when they had it) and for assignees of a new standalone task', async () => {
  const c = await expense('Expense: mention');
  const sub = await h.subscribe({ eventType: 'task_assigned', targetUrl: to('as-mention') });
  const task = '21000000-0000-4000-8000-000000000203';
  await ok(s.api(KEYS.admin, 'PUT', taskPath(c, task, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] }));
  await ok(s.api(KEYS.admin, 'POST', taskPath(c, task, '/comments'), { text: 'over to you', assignedMentioned: [{ type: 'TeamMember', id: DEMO.members.mia }, { type: 'TeamMember', id: DEMO.members.omar }] }), 201);
  const raised = await ok(s.api(KEYS.admin, 'POST', '/v3/tasks', { name: 'Raised for Nora', assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] }), 201);
  await h.settle();
  const got = (await h.bodies(sub)).map((b) => [b.taskKey, b.assigneeId, b.isStandalone]);
  assert.deepEqual(got, [
    [task, DEMO.members.mia, false],
    [task, DEMO.members.omar, false],
    [raised.key, DEMO.members.nora, true],
  ]);
  await cleanup(sub);
});

// ── once-only ───────────────────────────────────────────────────────────────────

test('6 rule 7: a subscription matching an event in more than one way receives it once (legacy task_completed with taskKey and templateKey)', async () => {
  const c = await expense('Expense: once');
  const both = await h.subscribeLegacy({ source: 'x', eventType: 'task_completed', taskKey: '21000000-0000-4000-8000-000000000202', templateKey: DEMO.expense, targetUrl: to('once') });
  const v3 = await h.subscribe({ eventType: 'task_completed', targetUrl: to('once-v3'), scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000202' } });
  await complete(c, '21000000-0000-4000-8000-000000000202');
  // The template key alone still fires for another task of the template.
  await complete(c, '21000000-0000-4000-8000-000000000203');
  await h.settle();
  const ds = await h.deliveries(both);
  assert.deepEqual(ds.map((d) => JSON.parse(d.request.body).taskKey), ['21000000-0000-4000-8000-000000000202', '21000000-0000-4000-8000-000000000203']);
  assert.equal(receivedBy('once').length, 2);
  // The v2 and the v3 subscription got the same bytes for the shared event.
  const [v3d] = await h.deliveries(v3);
  assert.equal(v3d.request.body, ds[0].request.body);
  await cleanup(v3);
  await ok(s.api(KEYS.admin, 'DELETE', `/api/web-hook/unsubscribe?subscriptionId=${both}`));
});
