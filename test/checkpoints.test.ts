// Checkpoints and their diff (EMULATOR.md "Agents, audits and packaging": Checkpoints;
// docs/checkpoints.md): every resource group driven over v3 REST and the legacy API, an
// agent-like script over MCP, the refusals, instances, and `wfe diff` on exported files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, KEYS, DEMO, type TestServer, type ApiAnswer } from './helpers/server';
import { T, taskPath } from './helpers/tasks';
import { OFFICES, OF, BERLIN } from './helpers/data-sets';
import { runCli } from './helpers/spine';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const CP = '/_emulator/checkpoints';
const V2 = { 'X-API-VERSION': '2.0' };
const EXPENSE = { submitReceipts: '21000000-0000-4000-8000-000000000201', approve: '21000000-0000-4000-8000-000000000202', reimburse: '21000000-0000-4000-8000-000000000203', amount: '22000000-0000-4000-8000-000000000202' };

async function control(method: string, path: string, body?: string, base = s.us): Promise<ApiAnswer> {
  const res = await fetch(base + path, { method, ...(body !== undefined ? { body, headers: { 'Content-Type': 'application/json' } } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

async function checkpoint(base = s.us): Promise<string> {
  const r = await control('POST', CP, undefined, base);
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.id, /^[0-9a-f-]{36}$/);
  assert.match(r.body.createdAt, /Z$/);
  return r.body.id;
}

async function diff(id: string, base = s.us): Promise<any> {
  const r = await control('GET', `${CP}/${id}/diff`, undefined, base);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function ok(r: Promise<ApiAnswer>, status = 200): Promise<any> {
  const a = await r;
  assert.ok(a.status === status || (status === 200 && a.status >= 200 && a.status < 300), `${a.status} ${a.text}`);
  return a.body;
}

const taskIdOf = (checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;

/** Groups that must be empty, and the others' change kinds. */
function kinds(changes: any): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [g, list] of Object.entries(changes)) if ((list as any[]).length) out[g] = (list as any[]).map((e) => e.change ?? 'changed');
  return out;
}

test('checkpoints: a new checkpoint diffs to nothing; the answer names every group, and the calls since', async () => {
  const id = await checkpoint();
  const d = await diff(id);
  assert.deepEqual(Object.keys(d), ['checkpoint', 'now', 'changes', 'calls', 'callsComplete']);
  assert.deepEqual(Object.keys(d.changes), ['checklists', 'tasks', 'fields', 'assignments', 'dueDates', 'comments', 'tags', 'snoozes', 'templates', 'dataSets', 'schedules', 'webhooks']);
  assert.deepEqual(kinds(d.changes), {});
  assert.deepEqual(d.calls, []);
  assert.equal(d.callsComplete, true);
  assert.equal(d.checkpoint.id, id);
  // A read changes nothing, and is a call.
  await ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`));
  const d2 = await diff(id);
  assert.deepEqual(kinds(d2.changes), {});
  assert.equal(d2.calls.length, 1);
  assert.deepEqual({ ...d2.calls[0], at: undefined, requestId: undefined }, {
    at: undefined, requestId: undefined, method: 'GET', path: `/v3/checklists/${DEMO.janeDoe}`, status: 200, keyName: "Ada's integration", region: 'US', operations: [{ operation: 'getChecklist', status: 200 }],
  });
  assert.equal((await control('DELETE', `${CP}/${id}`)).status, 204);
});

test('checkpoints: each resource group over v3 REST (checklists, tasks, fields, assignments, due dates, comments, tags, snoozes, templates, Data Sets, schedules, webhooks)', async () => {
  const id = await checkpoint();
  const jane = (suffix: string) => taskPath(DEMO.janeDoe, T.managerApproval, suffix);
  const made = await ok(s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'CP expense', parameters: { Amount: '12.50' } }), 201);
  await ok(s.api(KEYS.admin, 'PATCH', taskPath(made.key, EXPENSE.submitReceipts, '/fields'), { fields: [{ key: EXPENSE.amount, value: '13.75' }] }));
  await ok(s.api(KEYS.admin, 'POST', taskPath(made.key, EXPENSE.submitReceipts, '/complete')));
  await ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.johnRoe}/archive`));
  await ok(s.api(KEYS.admin, 'DELETE', `/v3/checklists/${DEMO.expenseMarch}`));
  await ok(s.api(KEYS.admin, 'POST', jane('/complete')));
  await ok(s.api(KEYS.admin, 'PUT', jane('/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.omar }] }));
  await ok(s.api(KEYS.admin, 'PUT', jane('/due-date'), { dueDateTime: '2030-03-02T10:00:00Z' }));
  const comment = await ok(s.api(KEYS.admin, 'POST', jane('/comments'), { text: 'Approved by the checkpoint test' }), 201);
  await ok(s.api(KEYS.admin, 'POST', jane('/tags'), { tags: ['cp-reviewed'] }));
  await ok(s.api(KEYS.member, 'PUT', taskPath(DEMO.janeDoe, T.collectDetails, '/snooze'), { snoozedUntil: '2099-01-01T09:00:00Z' }));
  const tpl = await ok(s.api(KEYS.admin, 'POST', '/v3/templates', { name: 'CP template', tasks: [{ name: 'Only step' }] }), 201);
  const rec = await ok(s.api(KEYS.admin, 'POST', `/v3/data-sets/${OFFICES}/records`, { values: { [OF.name]: 'Lisbon', [OF.headcount]: 7 } }), 201);
  await ok(s.api(KEYS.admin, 'PATCH', `/v3/data-sets/${OFFICES}/records/${BERLIN}`, { values: { [OF.headcount]: 121 } }));
  const sched = await ok(s.api(KEYS.admin, 'POST', '/v3/schedules', { name: 'CP schedule', templateKey: DEMO.vendor, timeZone: 'UTC', startDateTime: '2035-01-01T09:00:00', recurrence: { frequency: 'Daily' } }), 201);
  const hook = await ok(s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: 'http://127.0.0.1:9/cp' }), 201);

  const d = await diff(id);
  const c = d.changes;
  assert.deepEqual(kinds(c), {
    // The schedule's first run is a Scheduled checklist (docs/schedules.md): made by the schedule, a change too.
    checklists: ['created', 'archived', 'deleted', 'created'],
    tasks: ['status', 'status'],
    fields: ['changed'],
    assignments: ['added'],
    dueDates: ['changed'],
    comments: ['added'],
    tags: ['created', 'added'],
    snoozes: ['set'],
    templates: ['created', 'published'],
    dataSets: ['recordCreated', 'recordUpdated'],
    schedules: ['created'],
    webhooks: ['created'],
  });
  assert.deepEqual(c.checklists[0], { change: 'created', checklistKey: made.key, name: 'CP expense', templateKey: DEMO.expense, templateVersion: 1, status: 'InProgress', createdAt: c.checklists[0].createdAt, createdBy: { id: DEMO.members.ada, name: c.checklists[0].createdBy.name, email: c.checklists[0].createdBy.email } });
  assert.deepEqual(c.checklists.slice(1).map((e: any) => [e.change, e.checklistKey ?? e.status]), [['archived', DEMO.johnRoe], ['deleted', DEMO.expenseMarch], ['created', c.checklists[3].checklistKey]]);
  assert.deepEqual([c.checklists[3].name, c.checklists[3].status], ['CP schedule', 'Scheduled']);
  const [receipts, approval] = c.tasks;
  assert.deepEqual({ ...receipts, at: undefined, by: receipts.by.id }, { change: 'status', checklistKey: made.key, taskKey: EXPENSE.submitReceipts, name: 'Submit receipts', after: 'Complete', at: undefined, by: DEMO.members.ada });
  assert.deepEqual({ ...approval, at: undefined, by: approval.by.id }, { change: 'status', checklistKey: DEMO.janeDoe, taskKey: T.managerApproval, name: approval.name, before: 'Incomplete', after: 'Complete', at: undefined, by: DEMO.members.ada });
  assert.match(approval.at, /Z$/);
  // Answered at creation (a parameter) then changed: before the checkpoint it did not exist.
  assert.deepEqual({ ...c.fields[0], at: undefined }, { checklistKey: made.key, taskKey: EXPENSE.submitReceipts, fieldKey: EXPENSE.amount, after: '13.75', at: undefined, by: c.fields[0].by });
  assert.equal(c.fields[0].by.id, DEMO.members.ada);
  assert.deepEqual({ ...c.assignments[0], at: undefined, by: undefined }, { change: 'added', checklistKey: DEMO.janeDoe, taskKey: T.managerApproval, assignee: { type: 'TeamMember', id: DEMO.members.omar, name: c.assignments[0].assignee.name }, at: undefined, by: undefined });
  assert.deepEqual({ ...c.dueDates[0], at: undefined, by: undefined }, { checklistKey: DEMO.janeDoe, taskKey: T.managerApproval, after: '2030-03-02T10:00:00.000Z', at: undefined, by: undefined });
  assert.deepEqual({ ...c.comments[0], at: undefined, by: c.comments[0].by.id }, { change: 'added', checklistKey: DEMO.janeDoe, taskKey: T.managerApproval, commentId: comment.id, text: 'Approved by the checkpoint test', at: undefined, by: DEMO.members.ada });
  assert.deepEqual(c.tags, [{ change: 'created', tag: 'cp-reviewed' }, { change: 'added', tag: 'cp-reviewed', targetType: 'task', targetKey: T.managerApproval, checklistKey: DEMO.janeDoe }]);
  assert.deepEqual({ ...c.snoozes[0], member: c.snoozes[0].member.id }, { change: 'set', checklistKey: DEMO.janeDoe, taskKey: T.collectDetails, after: '2099-01-01T09:00:00.000Z', member: DEMO.members.mia });
  assert.deepEqual(c.templates.map((e: any) => [e.change, e.templateKey, e.name, e.version]), [['created', tpl.key, 'CP template', undefined], ['published', tpl.key, 'CP template', 1]]);
  assert.deepEqual(c.dataSets[0], { change: 'recordCreated', dataSetKey: OFFICES, dataSetName: 'Offices', recordKey: rec.key, after: c.dataSets[0].after });
  assert.equal(c.dataSets[0].after[OF.name], 'Lisbon');
  assert.deepEqual([c.dataSets[1].recordKey, c.dataSets[1].before[OF.headcount], c.dataSets[1].after[OF.headcount]], [BERLIN, 120, 121]);
  assert.deepEqual([c.schedules[0].scheduleId, c.schedules[0].name, c.schedules[0].templateKey], [sched.id, 'CP schedule', DEMO.vendor]);
  assert.deepEqual([c.webhooks[0].subscriptionId, c.webhooks[0].api, c.webhooks[0].eventType, c.webhooks[0].targetUrl], [hook.id, 'v3', 'task_completed', 'http://127.0.0.1:9/cp']);
  // The calls since, oldest first, each with its operation.
  assert.deepEqual(d.calls.map((x: any) => x.operations[0].operation), [
    'createChecklist', 'answerTaskFields', 'completeTask', 'archiveChecklist', 'deleteChecklist', 'completeTask', 'setTaskAssignees', 'setTaskDueDate', 'addTaskComment',
    'addTaskTags', 'setTaskSnooze', 'createTemplate', 'createDataSetRecord', 'updateDataSetRecord', 'createSchedule', 'createWebhook',
  ]);
  assert.ok(d.calls.every((x: any) => x.status >= 200 && x.status < 300 && x.operations[0].status === x.status), 'every call succeeded, as its operation did');

  // Undone changes are no changes: a row put back as it was drops out of the diff.
  await ok(s.api(KEYS.admin, 'DELETE', `/v3/checklists/${DEMO.johnRoe}/archive`));
  await ok(s.api(KEYS.admin, 'DELETE', jane('/complete')));
  await ok(s.api(KEYS.admin, 'DELETE', jane('/due-date')));
  await ok(s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${hook.id}`));
  await ok(s.api(KEYS.admin, 'DELETE', `/v3/schedules/${sched.id}`));
  await ok(s.api(KEYS.member, 'DELETE', taskPath(DEMO.janeDoe, T.collectDetails, '/snooze')));
  const d2 = await diff(id);
  assert.deepEqual(kinds(d2.changes).checklists, ['created', 'deleted']);
  assert.deepEqual(kinds(d2.changes).tasks, ['status']);
  for (const g of ['dueDates', 'webhooks', 'schedules', 'snoozes']) assert.deepEqual(d2.changes[g], [], g);
  assert.equal((await control('DELETE', `${CP}/${id}`)).status, 204);
});

test('checkpoints: changes made over the legacy API land in the same groups (legacy 4.2 status, comment, create; 4.6 subscribe)', async () => {
  const id = await checkpoint();
  const created = await ok(s.api(KEYS.admin, 'POST', `/api/checklist?templateKey=${DEMO.expense}&checklistName=CP%20legacy`));
  const key = created.key ?? created.checklistKey ?? created.checklist?.key;
  assert.ok(key, JSON.stringify(created));
  const approve = taskIdOf(key, EXPENSE.approve);
  await ok(s.api(KEYS.admin, 'PUT', '/api/task/status', { taskId: approve, status: 'NotApplicable', modifiedByUserID: DEMO.members.mia }, V2));
  await ok(s.api(KEYS.admin, 'POST', '/api/task/comment', { taskId: approve, commentHtml: '<p>Not needed</p>', createdByUserID: DEMO.members.mia }));
  await ok(s.api(KEYS.admin, 'POST', `/api/web-hook/subscribe?source=cp-test&eventType=task_completed&targetUrl=${encodeURIComponent('http://127.0.0.1:9/legacy')}`, undefined, V2));
  const d = await diff(id);
  assert.deepEqual(kinds(d.changes), { checklists: ['created'], tasks: ['status'], comments: ['added'], webhooks: ['created'] });
  const t = d.changes.tasks[0];
  assert.deepEqual([t.checklistKey, t.taskKey, t.after, t.by.id], [key, EXPENSE.approve, 'NotApplicable', DEMO.members.mia]);
  assert.equal(d.changes.comments[0].text, 'Not needed');
  assert.equal(d.changes.comments[0].by.id, DEMO.members.mia);
  assert.equal(d.changes.webhooks[0].api, 'v2');
  assert.deepEqual(d.calls.map((c: any) => [c.method, c.path.split('?')[0], c.status]), [
    ['POST', '/api/checklist', 200], ['PUT', '/api/task/status', 200], ['POST', '/api/task/comment', 200], ['POST', '/api/web-hook/subscribe', 200],
  ].map(([m, p, st], i) => [m, p, d.calls[i]?.status === 201 ? 201 : st]));
  await control('DELETE', `${CP}/${id}`);
});

test('checkpoints: an agent-like script over MCP (SDK Client) and REST; the diff names exactly its changes and its tool calls', async () => {
  const id = await checkpoint();
  const client = await s.mcp(KEYS.admin);
  // The agent: starts a checklist (REST: the spec names no MCP tool for it, 4.6 rule 7) answering
  // a field through its parameters, answers another field, then works over MCP.
  const made = await ok(s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Agent expense', parameters: { Amount: '40.00' } }), 201);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown };
    assert.ok(!r.isError, `${name}: ${JSON.stringify(r)}`);
    return r.structuredContent as any;
  };
  await call('complete_task', { checklistKey: made.key, taskKey: EXPENSE.submitReceipts });
  await call('complete_task', { checklistKey: made.key, taskKey: EXPENSE.approve });
  const comment = await call('add_task_comment', { checklistKey: made.key, taskKey: EXPENSE.approve, text: 'Approved, amount checked' });
  await call('get_task', { checklistKey: made.key, taskKey: EXPENSE.reimburse });

  const d = await diff(id);
  assert.deepEqual(kinds(d.changes), { checklists: ['created'], tasks: ['status', 'status'], fields: ['changed'], comments: ['added'] });
  assert.deepEqual(d.changes.checklists.map((c: any) => [c.checklistKey, c.name]), [[made.key, 'Agent expense']]);
  assert.deepEqual(d.changes.tasks.map((t: any) => [t.checklistKey, t.taskKey, t.before, t.after, t.by.id]), [
    [made.key, EXPENSE.submitReceipts, undefined, 'Complete', DEMO.members.ada],
    [made.key, EXPENSE.approve, undefined, 'Complete', DEMO.members.ada],
  ]);
  assert.deepEqual(d.changes.fields.map((f: any) => [f.taskKey, f.fieldKey, f.before, f.after]), [[EXPENSE.submitReceipts, EXPENSE.amount, undefined, '40.00']]);
  assert.deepEqual(d.changes.comments.map((c: any) => [c.taskKey, c.commentId, c.text]), [[EXPENSE.approve, comment.id, 'Approved, amount checked']]);
  // The calls: one REST request, then the MCP tool calls, each with its tool and status.
  const ops = d.calls.flatMap((c: any) => (c.operations ?? []).map((o: any) => `${c.path} ${o.tool ?? o.operation} ${o.status}`));
  assert.deepEqual(ops, ['/v3/checklists createChecklist 201', '/mcp complete_task 200', '/mcp complete_task 200', '/mcp add_task_comment 201', '/mcp get_task 200']);
  // The client's own requests (initialize, the notification, its GET for a stream) are calls too, made with the key.
  assert.deepEqual(d.calls.filter((c: any) => c.operations).map((c: any) => c.keyName), Array(5).fill("Ada's integration"));
  await control('DELETE', `${CP}/${id}`);
});

test('checkpoints: an MCP resource read through an operation is listed as its operation, a tools/call as its tool (docs/checkpoints.md "calls")', async () => {
  const id = await checkpoint();
  const client = await s.mcp(KEYS.admin);
  // wfe://templates/{key}/document reads through exportTemplate, the operation of the export_template tool.
  const read = await client.readResource({ uri: `wfe://templates/${DEMO.expense}/document` });
  assert.equal(read.contents.length, 1);
  const called = (await client.callTool({ name: 'export_template', arguments: { key: DEMO.expense } })) as { isError?: boolean };
  assert.ok(!called.isError, JSON.stringify(called));
  const d = await diff(id);
  const ops = d.calls.flatMap((c: any) => (c.operations ?? []).map((o: any) => `${c.path} ${o.operation} ${o.tool ?? '-'} ${o.status}`));
  assert.deepEqual(ops, ['/mcp exportTemplate - 200', '/mcp exportTemplate export_template 200']);
  await control('DELETE', `${CP}/${id}`);
});

test('checkpoints refusals: unknown id 404 CHECKPOINT_NOT_FOUND, bad bodies 400 VALIDATION_ERROR, in the v3 envelope', async () => {
  for (const [method, path] of [['GET', `${CP}/nope/diff`], ['DELETE', `${CP}/nope`], ['GET', `${CP}/99999999-9999-4999-8999-999999999999/diff`]]) {
    const r = await control(method, path);
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.error.code, 'CHECKPOINT_NOT_FOUND');
    assert.match(r.body.error.requestId, /^req_/);
  }
  for (const [body, field] of [['[]', undefined], ['"x"', undefined], ['{"name":"x"}', 'name'], ['{not json', undefined]] as const) {
    const r = await control('POST', CP, body);
    assert.equal(r.status, 400, `${body}: ${r.text}`);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    if (field) assert.equal(r.body.error.field, field);
  }
  // An empty object is a fine body; so is none.
  assert.equal((await control('POST', CP, '{}')).status, 201);
  assert.equal((await control('PUT', CP)).status, 405);
});

test('checkpoints: a diff across a reset or an import is refused 409 CHECKPOINT_STALE with the reason', async () => {
  const own = await startTestServer();
  try {
    const call = (method: string, path: string, body?: BodyInit) => fetch(own.us + path, { method, body }).then(async (r) => ({ status: r.status, body: r.status === 204 ? undefined : await r.json() }) as any);
    const first = (await call('POST', CP)).body.id;
    await own.api(KEYS.admin, 'POST', taskPath(DEMO.janeDoe, T.managerApproval, '/complete'));
    assert.equal((await call('POST', '/_emulator/reset')).status, 200);
    const stale = await call('GET', `${CP}/${first}/diff`);
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.code, 'CHECKPOINT_STALE');
    assert.equal(stale.body.error.reason, 'reset');
    assert.match(stale.body.error.message, /reset/);
    // After the reset, a new checkpoint works again.
    const second = (await call('POST', CP)).body.id;
    await own.api(KEYS.admin, 'POST', taskPath(DEMO.janeDoe, T.managerApproval, '/complete'));
    const d = await call('GET', `${CP}/${second}/diff`);
    assert.deepEqual(d.body.changes.tasks.map((t: any) => t.taskKey), [T.managerApproval]);
    // An import replaces the data: both refused, the older one still naming the reset.
    const bytes = Buffer.from(await (await fetch(own.us + '/_emulator/export')).arrayBuffer());
    assert.equal((await call('POST', '/_emulator/import', bytes)).status, 200);
    const afterImport = await call('GET', `${CP}/${second}/diff`);
    assert.deepEqual([afterImport.status, afterImport.body.error.code, afterImport.body.error.reason], [409, 'CHECKPOINT_STALE', 'import']);
    assert.equal((await call('GET', `${CP}/${first}/diff`)).body.error.reason, 'reset');
    // The imported file held `second` too (exported while it was live): it stays refused, never compared with the wrong data.
    assert.equal((await call('DELETE', `${CP}/${second}`)).status, 204);
    assert.equal((await call('GET', `${CP}/${second}/diff`)).status, 404);
  } finally {
    await own.close();
  }
});

test('checkpoints: per instance (/_emulator/instances): each instance diffs its own data', async () => {
  const inst = await control('POST', '/_emulator/instances', '{}');
  assert.equal(inst.status, 201, inst.text);
  const base = inst.body.baseUrls.US as string;
  try {
    const id = await checkpoint(base);
    const parentId = await checkpoint();
    const r = await fetch(base + taskPath(DEMO.janeDoe, T.managerApproval, '/complete'), { method: 'POST', headers: { 'X-API-KEY': KEYS.admin } });
    assert.equal(r.status, 200, await r.text());
    const d = await diff(id, base);
    assert.deepEqual(d.changes.tasks.map((t: any) => [t.taskKey, t.after]), [[T.managerApproval, 'Complete']]);
    assert.equal(d.calls.length, 1);
    const p = await diff(parentId);
    assert.deepEqual(p.changes.tasks, [], 'the parent saw nothing');
    assert.deepEqual(p.calls, []);
    assert.equal((await control('GET', `${CP}/${parentId}/diff`, undefined, base)).status, 404, "the parent's checkpoint is not the instance's");
    await control('DELETE', `${CP}/${parentId}`);
  } finally {
    await control('DELETE', `/_emulator/instances/${inst.body.id}`);
  }
});

test('wfe diff A.sqlite B.sqlite: the same changes as the route, from the log of a later export or from the tables', async () => {
  const own = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'wfe-cp-'));
  try {
    const exportTo = async (name: string) => {
      const file = join(dir, name);
      writeFileSync(file, Buffer.from(await (await fetch(own.us + '/_emulator/export')).arrayBuffer()));
      return file;
    };
    const plain = await exportTo('plain.sqlite'); // before any checkpoint: no log
    const id = (await (await fetch(own.us + CP, { method: 'POST' })).json()).id as string;
    const a = await exportTo('a.sqlite');
    const made = await ok(own.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Diff files', parameters: { Amount: '5' } }), 201);
    await ok(own.api(KEYS.admin, 'POST', taskPath(made.key, EXPENSE.submitReceipts, '/complete')));
    await ok(own.api(KEYS.admin, 'POST', taskPath(DEMO.janeDoe, T.managerApproval, '/complete')));
    await ok(own.api(KEYS.admin, 'POST', taskPath(DEMO.janeDoe, T.managerApproval, '/comments'), { text: 'from the files test' }), 201);
    await ok(own.api(KEYS.admin, 'DELETE', `/v3/checklists/${DEMO.expenseMarch}`));
    await ok(own.api(KEYS.admin, 'POST', `/v3/data-sets/${OFFICES}/records`, { values: { [OF.name]: 'Oslo' } }), 201);
    const route = (await (await fetch(`${own.us}${CP}/${id}/diff`)).json()).changes;
    const b = await exportTo('b.sqlite');
    const sorted = (changes: any) => Object.fromEntries(Object.entries(changes).map(([g, l]) => [g, (l as any[]).map((e) => JSON.stringify(e)).sort()]));
    for (const [from, source] of [[a, 'log'], [plain, 'tables']]) {
      const run = runCli(['diff', from, b]);
      const { code } = await run.exited;
      assert.equal(code, 0, run.stderr());
      const out = JSON.parse(run.stdout());
      assert.equal(out.source, source);
      assert.deepEqual(sorted(out.changes), sorted(route), `wfe diff from ${source}`);
    }
    assert.ok(route.checklists.length === 2 && route.tasks.length === 2 && route.comments.length === 1 && route.dataSets.length === 1, JSON.stringify(kinds(route)));
    // Bad input: a file that is not a database, a missing file.
    writeFileSync(join(dir, 'junk.sqlite'), 'not a database');
    for (const bad of [join(dir, 'junk.sqlite'), join(dir, 'missing.sqlite')]) {
      const run = runCli(['diff', bad, b]);
      const { code } = await run.exited;
      assert.notEqual(code, 0);
      assert.match(run.stderr(), /not a SQLite database file|No readable file/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await own.close();
  }
});
