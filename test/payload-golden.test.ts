// Payload bytes (spec v3 6, 6.1, 6.2, 6.3): every event is delivered to a real
// local receiver and its raw body compared byte for byte with a golden file in
// test/golden/ (the base URL, which depends on the port, reads {base_url}).
// Regenerate with UPDATE_GOLDEN=1 and review the diff against the spec's tables.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, KEYS, DEMO, ROOT, type TestServer } from './helpers/server';
import { startReceiver, fire, taskId, checklistId, completeInDb, type Receiver, type Received } from './helpers/webhooks';
import { seedLab, LAB, LAB_TIME } from './helpers/payload-lab';
import { Clock } from '../src/clock';

const GOLDEN = join(ROOT, 'test', 'golden');
let s: TestServer;
let rx: Receiver;
let lab: ReturnType<typeof seedLab>;

before(async () => {
  const clock = new Clock();
  clock.set(LAB_TIME, true);
  s = await startTestServer({ clock, webhooks: { pollMs: 20 } });
  lab = seedLab(s.emu);
  rx = await startReceiver();
  const fw = await fetch(`${s.us}/_emulator/webhooks/forward`, { method: 'POST', body: JSON.stringify({ targetUrl: rx.url, workspace: DEMO.acme }) });
  assert.equal(fw.status, 201);
});
after(async () => {
  await s.close();
  await rx.close();
});

async function next(trigger: () => void): Promise<Received> {
  const n = rx.received.length;
  trigger();
  const all = await rx.waitFor(n + 1);
  return all[n];
}

function golden(name: string, got: Received, eventType: string) {
  assert.equal(got.method, 'POST');
  assert.equal(got.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(got.headers['svc-event'], eventType);
  assert.equal(got.headers['svc-signature'], undefined, 'the forward has no secret: no signature');
  // 6 rule 4: every non-ASCII character is escaped, so the body is pure ASCII.
  assert.ok(/^[\x0a\x20-\x7e]*$/.test(got.body), 'body is ASCII only');
  JSON.parse(got.body);
  const normalised = got.body.split(s.us).join('{base_url}');
  const file = join(GOLDEN, `${name}.json`);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, normalised);
    if (process.env.UPDATE_GOLDEN !== '1') assert.fail(`golden ${name} was missing and has been written; review it and run again`);
  }
  assert.equal(normalised, readFileSync(file, 'utf8'), `payload ${name} differs from test/golden/${name}.json`);
}

test('6.1 new_checklist: checklist payload of the lab checklist (every control of 6.2, escaping, dates without offset)', async () => {
  const got = await next(() => fire(s.emu, KEYS.admin, 'new_checklist', { checklistId: lab.checklistId }));
  golden('new_checklist.lab', got, 'new_checklist');
  const body = JSON.parse(got.body);
  assert.deepEqual(Object.keys(body), [
    'checklistId', 'checklistKey', 'checklistName', 'checklistUrl', 'checklistScheduledDateTime', 'checklistStartDateTime', 'checklistEndDateTime',
    'checklistCreatedByName', 'checklistCreatedByEmail', 'checklistIsShared', 'checklistSharedUrl', 'checklistIsArchived', 'template', 'tasks',
  ]);
  assert.deepEqual(Object.keys(body.tasks[1]), [
    'taskId', 'taskKey', 'taskName', 'taskIsHeading', 'taskIsCurrentlyHalted', 'taskIsCurrentlyHidden', 'taskDueDateTime',
    'taskCompletedDateTime', 'taskCompletedByName', 'taskCompletedByEmail', 'assignees', 'fields', 'comments',
  ]);
  assert.equal(body.checklistEndDateTime, null);
  assert.match(got.body, /\\u0026/);
  assert.match(got.body, /\\u003c/);
  assert.match(got.body, /\\u0022/);
  assert.match(got.body, /\\u00eb/); // ë
  assert.match(got.body, /\\ud83d\\ude00/); // 😀 as two escaped halves
  assert.match(got.body, /"date_start_date": "2025-04-01T00:00:00"/);
  assert.match(got.body, /"checklistStartDateTime": "2025-03-03T09:15:30\.25\+00:00"/);
});

test('6.1 new_checklist: the demo checklist "Onboarding: Jane Doe"', async () => {
  golden('new_checklist.jane-doe', await next(() => fire(s.emu, KEYS.admin, 'new_checklist', { checklistId: checklistId(s.emu, DEMO.janeDoe) })), 'new_checklist');
});

test('6.1 task_completed: task payload with taskUrl, tags, checklist summary, template; dates with offset', async () => {
  const id = lab.taskId(LAB.tasks.everything);
  const got = await next(() => fire(s.emu, KEYS.admin, 'task_completed', { taskId: id }, () => completeInDb(s.emu, id, 101)));
  golden('task_completed.lab', got, 'task_completed');
  const body = JSON.parse(got.body);
  assert.deepEqual(Object.keys(body).slice(-4), ['taskUrl', 'tags', 'checklist', 'template']);
  assert.equal(Object.keys(body.checklist).length, 11);
  assert.equal(body.checklist.checklistEndDateTime, null);
  assert.match(got.body, /"date_start_date": "2025-04-01T00:00:00\+00:00"/);
  assert.deepEqual(Object.keys(body.tags[0]), ['tagKey', 'tagName', 'assignmentKey', 'assignmentType', 'parentKey']);
  assert.equal(body.tags[0].parentKey, LAB.checklist);
});

test('6.1 task_completed: a task of "Onboarding: Jane Doe"', async () => {
  const id = taskId(s.emu, DEMO.janeDoe, DEMO.tasks.collectDetails);
  golden('task_completed.jane-doe', await next(() => fire(s.emu, KEYS.member, 'task_completed', { taskId: id }, () => completeInDb(s.emu, id, 103))), 'task_completed');
});

test('6.1 task_completed: standalone task not attached has checklist and template present and empty', async () => {
  const id = taskId(s.emu, null, DEMO.renewInsurance);
  const got = await next(() => fire(s.emu, KEYS.admin, 'task_completed', { taskId: id }, () => completeInDb(s.emu, id, 101)));
  golden('task_completed.standalone', got, 'task_completed');
  const body = JSON.parse(got.body);
  assert.deepEqual(body.checklist, {
    checklistId: 0, checklistKey: null, checklistName: null, checklistUrl: null, checklistScheduledDateTime: null, checklistStartDateTime: null,
    checklistEndDateTime: null, checklistCreatedByName: null, checklistCreatedByEmail: null, checklistIsShared: false, checklistSharedUrl: null,
  });
  assert.deepEqual(body.template, { templateId: 0, templateKey: null, templateName: null, templateUrl: null, templateDescription: null, templateVersion: 0, templateCreatedDateTime: null });
  assert.equal(body.taskUrl, `${s.us}/app/my-work`);
});

test('6.1 task_completed: an attached standalone task reports its checklist and template', async () => {
  const id = taskId(s.emu, null, DEMO.businessCards);
  const got = await next(() => fire(s.emu, KEYS.member, 'task_completed', { taskId: id }, () => completeInDb(s.emu, id, 103)));
  golden('task_completed.attached', got, 'task_completed');
  const body = JSON.parse(got.body);
  assert.equal(body.checklist.checklistKey, DEMO.janeDoe);
  assert.equal(body.template.templateKey, DEMO.onboarding);
});

test('6.3 checklist_completed: same shape as new_checklist, with the end time', async () => {
  const got = await next(() => fire(s.emu, KEYS.member, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) }));
  golden('checklist_completed.expense', got, 'checklist_completed');
  assert.notEqual(JSON.parse(got.body).checklistEndDateTime, null);
});

test('6.3 file_uploaded: file, field, task, then checklist and template as in the task payload', async () => {
  const fileId = (s.emu.db.prepare("SELECT id FROM files WHERE token = 'tok-contract'").get() as { id: number }).id;
  const got = await next(() => fire(s.emu, KEYS.member, 'file_uploaded', { taskId: lab.taskId(LAB.tasks.everything), fieldKey: LAB.fields.upload, fileId }));
  golden('file_uploaded.lab', got, 'file_uploaded');
});

test('6.3 comment_created: family B, one line starting with eventType', async () => {
  const commentId = (s.emu.db.prepare('SELECT id FROM comments WHERE author_id = 101 AND html IS NOT NULL ORDER BY id DESC').get() as { id: number }).id;
  const got = await next(() => fire(s.emu, KEYS.admin, 'comment_created', { commentId }));
  golden('comment_created.lab', got, 'comment_created');
  assert.ok(got.body.startsWith('{"eventType":"comment_created",'));
  assert.ok(!got.body.includes('\n'));
});

test('6.3 comment_created: an attachment-only comment sends commentHtml null and the attachment', async () => {
  const commentId = (s.emu.db.prepare('SELECT id FROM comments WHERE html IS NULL').get() as { id: number }).id;
  golden('comment_created.attachment', await next(() => fire(s.emu, KEYS.member, 'comment_created', { commentId })), 'comment_created');
});

test('6.3 task_assigned: family B', async () => {
  const got = await next(() => fire(s.emu, KEYS.admin, 'task_assigned', { taskId: lab.taskId(LAB.tasks.everything), assigneeType: 'TeamMember', assigneeId: 103 }));
  golden('task_assigned.lab', got, 'task_assigned');
  assert.ok(got.body.startsWith('{"eventType":"task_assigned",'));
  const g = await next(() => fire(s.emu, KEYS.admin, 'task_assigned', { taskId: lab.taskId(LAB.tasks.everything), assigneeType: 'Group', assigneeId: 301 }));
  golden('task_assigned.group', g, 'task_assigned');
});

test('6.3 Data Set record events: created (values), updated (changes, only changed fields), deleted', async () => {
  const db = s.emu.db;
  const ds = (db.prepare('SELECT id FROM data_sets WHERE key = ?').get(DEMO.offices) as { id: number }).id;
  const F = (n: number) => `51000000-0000-4000-8000-00000000000${n}`;
  const vals = { [F(1)]: 'Zürich & <Lake>', [F(2)]: 12, [F(4)]: true };
  let recordId = 0;
  const created = await next(() =>
    fire(s.emu, KEYS.admin, 'data_set.record.created', {}, (ctx) => {
      recordId = Number(db.prepare("INSERT INTO data_set_records (key, data_set_id, position, vals, created_at) VALUES ('52000000-0000-4000-8000-0000000000aa', ?, 99, ?, 0)").run(ds, JSON.stringify(vals)).lastInsertRowid);
      ctx.hooks.event!(ctx, 'data_set.record.created', { recordId });
    }),
  );
  // The first fire above had an empty subject (names nothing) and is dropped; the inner one is delivered.
  golden('data_set.record.created', created, 'data_set.record.created');
  const updated = await next(() =>
    fire(s.emu, KEYS.admin, 'data_set.record.updated', { recordId: -1 }, (ctx) => {
      db.prepare('UPDATE data_set_records SET vals = ? WHERE id = ?').run(JSON.stringify({ ...vals, [F(2)]: 13, [F(3)]: 'zh@acme.test' }), recordId);
      ctx.hooks.event!(ctx, 'data_set.record.updated', { recordId, before: vals });
    }),
  );
  golden('data_set.record.updated', updated, 'data_set.record.updated');
  const deleted = await next(() =>
    fire(s.emu, KEYS.admin, 'data_set.record.deleted', { recordId }, () => {
      db.prepare('DELETE FROM data_set_records WHERE id = ?').run(recordId);
    }),
  );
  golden('data_set.record.deleted', deleted, 'data_set.record.deleted');
  assert.equal(deleted.body, '{"eventType":"data_set.record.deleted","dataSetId":"50000000-0000-4000-8000-000000000001","dataSetName":"Offices","recordId":"52000000-0000-4000-8000-0000000000aa"}');
});
