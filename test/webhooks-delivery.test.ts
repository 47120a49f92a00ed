// Delivery (spec v3 6 rules 1, 2, 7; 6.3; ../shared/EMULATOR.md "Webhook deliveries";
// docs/webhooks.md): a real local receiver, the outbox, signature, retries on
// 500 / refused / hanging / closed connections, the failure limit, once-only
// matching, scope rules, drop rule, replay, the delivery log, and a fast API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { startReceiver, fire, taskId, checklistId, completeInDb, sleep, type Receiver } from './helpers/webhooks';

let s: TestServer;
let rx: Receiver;
const RETRY = { retryBaseMs: 40, timeoutMs: 300, maxAttempts: 4, pollMs: 10 };

before(async () => {
  s = await startTestServer({ webhooks: RETRY });
  rx = await startReceiver();
});
after(async () => {
  await s.close();
  await rx.close();
});

async function subscribe(body: Record<string, unknown>, key: string = KEYS.admin): Promise<string> {
  const r = await s.api(key, 'POST', '/v3/webhooks', body);
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}
const unsubscribe = (id: string) => s.api(KEYS.admin, 'DELETE', `/v3/webhooks/${id}`);
const control = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${s.us}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
};
const deliveriesOf = async (subscription: string): Promise<any[]> => (await control('GET', `/_emulator/webhooks/deliveries?subscription=${subscription}`)).body.items;
async function waitSettled(subscription: string, n = 1, timeoutMs = 5000): Promise<any[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const items = await deliveriesOf(subscription);
    if (items.length >= n && items.every((d) => d.status !== 'pending')) return items;
    if (Date.now() > until) throw new Error(`deliveries of ${subscription} not settled: ${JSON.stringify(items.map((d) => [d.status, d.attempts]))}`);
    await sleep(15);
  }
}

async function waitFirstAttempt(subscription: string): Promise<void> {
  const until = Date.now() + 3000;
  while (!((await deliveriesOf(subscription))[0]?.attempts >= 1)) {
    if (Date.now() > until) throw new Error('no attempt within 3 s');
    await sleep(10);
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });

function completeAndFire(key: string, id: number, by = 101) {
  fire(s.emu, key, 'task_completed', { taskId: id }, () => completeInDb(s.emu, id, by));
}
const uncomplete = (id: number) => s.emu.db.prepare("UPDATE tasks SET status = 'Incomplete', completed_at = NULL, completed_by = NULL WHERE id = ?").run(id);

test('EMULATOR.md: a signed delivery carries SVC-Signature = sha256=<hex HMAC-SHA256 of the raw body>; headers and log', async () => {
  const secret = 'wh-secret-ü';
  const sub = await subscribe({ eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Task', key: DEMO.tasks.collectDetails }, secret });
  const n = rx.received.length;
  const id = taskId(s.emu, DEMO.janeDoe, DEMO.tasks.collectDetails);
  completeAndFire(KEYS.member, id, 103);
  const [got] = (await rx.waitFor(n + 1)).slice(n);
  assert.equal(got.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(got.headers['svc-event'], 'task_completed');
  const expected = 'sha256=' + createHmac('sha256', secret).update(Buffer.from(got.body, 'utf8')).digest('hex');
  assert.equal(got.headers['svc-signature'], expected);
  assert.match(got.headers['svc-signature'] as string, /^sha256=[0-9a-f]{64}$/);
  const [d] = await waitSettled(sub);
  assert.equal(d.status, 'delivered');
  assert.equal(d.attempts, 1);
  assert.equal(d.lastResponseStatus, 200);
  assert.equal(d.event.type, 'task_completed');
  assert.equal(d.subscription.id, sub);
  assert.equal(d.targetUrl, rx.url);
  assert.equal(d.request.body, got.body, 'the log holds the exact body sent');
  assert.equal(d.request.headers['SVC-Signature'], expected);
  assert.equal(d.request.headers['Content-Type'], 'application/json; charset=utf-8');
  const one = await control('GET', `/_emulator/webhooks/deliveries/${d.id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, d);
  assert.equal((await control('GET', '/_emulator/webhooks/deliveries/nope')).status, 404);
  uncomplete(id);
  await unsubscribe(sub);
});

test('6 rule 1: a v2 and a v3 subscription to the same event get the same bytes, built once; rule 2: only the signed one is signed', async () => {
  const v3 = await subscribe({ eventType: 'new_checklist', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.expense }, secret: 'k' });
  const v2 = await s.api(KEYS.admin, 'POST', `/api/web-hook/subscribe?source=Zapier&eventType=new_checklist&templateKey=${DEMO.expense}&targetUrl=${encodeURIComponent(rx.url + '?v2')}`);
  assert.equal(v2.status, 200);
  const n = rx.received.length;
  fire(s.emu, KEYS.admin, 'new_checklist', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  const got = (await rx.waitFor(n + 2)).slice(n);
  assert.equal(got[0].body, got[1].body);
  const signed = got.filter((g) => g.headers['svc-signature']);
  assert.equal(signed.length, 1);
  assert.equal(signed[0].url, '/hook');
  const events = s.emu.db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_type = 'new_checklist'").get() as { n: number };
  assert.equal(events.n, 1, 'one event row, one body');
  await unsubscribe(v3);
  await s.api(KEYS.admin, 'DELETE', `/api/web-hook/unsubscribe?subscriptionId=${v2.body.id}`);
});

test('6 rule 7: a subscription matching in more than one way receives the event once', async () => {
  // Legacy task_completed with both taskKey and templateKey: both match this task.
  const r = await s.api(KEYS.admin, 'POST', `/api/web-hook/subscribe?source=x&eventType=task_completed&templateKey=${DEMO.onboarding}&taskKey=${DEMO.tasks.setUpEquipment}&targetUrl=${encodeURIComponent(rx.url)}`);
  assert.equal(r.status, 200);
  const id = taskId(s.emu, DEMO.janeDoe, DEMO.tasks.setUpEquipment);
  completeAndFire(KEYS.admin, id);
  const ds = await waitSettled(r.body.id);
  await sleep(100);
  assert.equal((await deliveriesOf(r.body.id)).length, 1);
  assert.equal(ds[0].status, 'delivered');
  uncomplete(id);
  await s.api(KEYS.admin, 'DELETE', `/api/web-hook/unsubscribe?subscriptionId=${r.body.id}`);
});

test('6.3 task_completed scopes: Task by template task key (any checklist), standalone key, Template (incl. attached standalone, never unattached), Workspace', async () => {
  const subs = {
    taskKey: await subscribe({ eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Task', key: DEMO.tasks.collectDetails } }),
    standalone: await subscribe({ eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Task', key: DEMO.renewInsurance } }),
    template: await subscribe({ eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.onboarding } }),
    expense: await subscribe({ eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.expense } }),
    workspace: await subscribe({ eventType: 'task_completed', targetUrl: rx.url }, KEYS.workspace),
    otherEvent: await subscribe({ eventType: 'task_assigned', targetUrl: rx.url }),
  };
  const globex = await s.api(KEYS.globexAdmin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: rx.url }, {}, s.eu);
  const tasks = {
    jane: taskId(s.emu, DEMO.janeDoe, DEMO.tasks.collectDetails),
    john: taskId(s.emu, DEMO.johnRoe, DEMO.tasks.collectDetails),
    otherTask: taskId(s.emu, DEMO.janeDoe, DEMO.tasks.firstDayWelcome),
    attached: taskId(s.emu, null, DEMO.businessCards),
    unattached: taskId(s.emu, null, DEMO.renewInsurance),
  };
  for (const id of Object.values(tasks)) completeAndFire(KEYS.admin, id);
  const expect: Record<keyof typeof subs, number[]> = {
    taskKey: [tasks.jane, tasks.john],
    standalone: [tasks.unattached],
    template: [tasks.jane, tasks.john, tasks.otherTask, tasks.attached],
    expense: [],
    workspace: Object.values(tasks),
    otherEvent: [],
  };
  await sleep(50);
  for (const [name, ids] of Object.entries(expect)) {
    const sub = subs[name as keyof typeof subs];
    const ds = ids.length ? await waitSettled(sub, ids.length) : await deliveriesOf(sub);
    const got = ds.map((d) => JSON.parse(d.request.body).taskId).sort();
    assert.deepEqual(got, [...ids].sort(), name);
  }
  assert.equal((await control('GET', `/_emulator/webhooks/deliveries?subscription=${globex.body.id}`)).body.items.length, 0, 'another workspace hears nothing');
  for (const id of Object.values(tasks)) uncomplete(id);
  for (const id of Object.values(subs)) await unsubscribe(id);
});

test('6.3 task_completed: complete, uncomplete, complete again fires twice; dropped when no longer complete when processed', async () => {
  const sub = await subscribe({ eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Task', key: DEMO.tasks.managerApproval } });
  const id = taskId(s.emu, DEMO.janeDoe, DEMO.tasks.managerApproval);
  completeAndFire(KEYS.admin, id);
  await waitSettled(sub, 1);
  uncomplete(id);
  completeAndFire(KEYS.admin, id);
  const ds = await waitSettled(sub, 2);
  assert.deepEqual(ds.map((d) => d.status), ['delivered', 'delivered']);
  // Completed then un-completed before the sender processed it: dropped, nothing sent.
  const n = rx.received.length;
  fire(s.emu, KEYS.admin, 'task_completed', { taskId: id }, () => uncomplete(id));
  const after = await waitSettled(sub, 3);
  assert.equal(after[0].status, 'dropped');
  assert.equal(after[0].event.state, 'dropped');
  assert.match(after[0].event.dropReason, /no longer complete/);
  assert.equal(after[0].attempts, 0);
  await sleep(50);
  assert.equal(rx.received.length, n);
  await unsubscribe(sub);
});

test('6 scopes: file_uploaded by Field; comment_created by Task; task_assigned by Template; checklist_completed by Template and Workspace', async () => {
  const FILE_FIELD = '22000000-0000-4000-8000-000000000105';
  const subs = {
    file: await subscribe({ eventType: 'file_uploaded', targetUrl: rx.url, scope: { type: 'Field', key: FILE_FIELD } }),
    otherFile: await subscribe({ eventType: 'file_uploaded', targetUrl: rx.url, scope: { type: 'Field', key: '22000000-0000-4000-8000-000000000201' } }),
    comment: await subscribe({ eventType: 'comment_created', targetUrl: rx.url, scope: { type: 'Task', key: DEMO.tasks.collectDetails } }),
    assigned: await subscribe({ eventType: 'task_assigned', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.onboarding } }),
    done: await subscribe({ eventType: 'checklist_completed', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.expense } }),
    doneAll: await subscribe({ eventType: 'checklist_completed', targetUrl: rx.url }),
  };
  const db = s.emu.db;
  const task = taskId(s.emu, DEMO.janeDoe, DEMO.tasks.contractorAgreement);
  const collect = taskId(s.emu, DEMO.janeDoe, DEMO.tasks.collectDetails);
  fire(s.emu, KEYS.admin, 'file_uploaded', {}, (ctx) => {
    const fileId = Number(
      db.prepare("INSERT INTO files (workspace_id, task_id, field_key, name, content_type, data, token, created_at, created_by) VALUES (1, ?, ?, 'a.pdf', 'application/pdf', x'00', 'tok-a', 0, 101)").run(task, FILE_FIELD).lastInsertRowid,
    );
    ctx.hooks.event!(ctx, 'file_uploaded', { taskId: task, fieldKey: FILE_FIELD, fileId });
    const commentId = Number(db.prepare("INSERT INTO comments (task_id, author_id, html, text, created_at) VALUES (?, 101, '<p>hi</p>', 'hi', 0)").run(collect).lastInsertRowid);
    ctx.hooks.event!(ctx, 'comment_created', { commentId });
    ctx.hooks.event!(ctx, 'task_assigned', { taskId: collect, assigneeType: 'Group', assigneeId: 302 });
    ctx.hooks.event!(ctx, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  });
  for (const name of ['file', 'comment', 'assigned', 'done', 'doneAll'] as const) {
    const ds = await waitSettled(subs[name]);
    assert.equal(ds.length, 1, name);
    assert.equal(ds[0].status, 'delivered', name);
  }
  assert.equal((await deliveriesOf(subs.otherFile)).length, 0);
  for (const id of Object.values(subs)) await unsubscribe(id);
});

test('6 new_checklist: Template scope only fires for checklists of that template', async () => {
  const sub = await subscribe({ eventType: 'new_checklist', targetUrl: rx.url, scope: { type: 'Template', key: DEMO.vendor } });
  fire(s.emu, KEYS.admin, 'new_checklist', { checklistId: checklistId(s.emu, DEMO.janeDoe) });
  await sleep(80);
  assert.equal((await deliveriesOf(sub)).length, 0);
  await unsubscribe(sub);
});

test('docs/webhooks.md retries: a 500 is retried with backoff until 2xx; the same body every time', async () => {
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: rx.url });
  const n = rx.received.length;
  rx.script.push({ status: 500 }, { status: 503 });
  fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  const [d] = await waitSettled(sub);
  assert.equal(d.status, 'delivered');
  assert.equal(d.attempts, 3);
  assert.deepEqual(d.attemptLog.map((a: any) => a.responseStatus), [500, 503, 200]);
  const got = rx.received.slice(n);
  assert.equal(got.length, 3);
  assert.ok(got.every((g) => g.body === got[0].body));
  // Backoff: the second wait is about twice the first (emulator clock = real clock here).
  const gap1 = got[1].at - got[0].at;
  const gap2 = got[2].at - got[1].at;
  assert.ok(gap1 >= RETRY.retryBaseMs - 5, `first retry after ${gap1} ms`);
  assert.ok(gap2 >= 2 * RETRY.retryBaseMs - 5, `second retry after ${gap2} ms`);
  await unsubscribe(sub);
});

test('docs/webhooks.md retries: a receiver that hangs times out, one that closes the connection errors; both are retried', async () => {
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: rx.url });
  rx.script.push('hang', 'close');
  fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  const [d] = await waitSettled(sub);
  assert.equal(d.status, 'delivered');
  assert.equal(d.attempts, 3);
  assert.match(d.attemptLog[0].error, /timed out/);
  assert.ok(d.attemptLog[1].error, 'closed connection recorded as an error');
  assert.equal(d.attemptLog[2].responseStatus, 200);
  await unsubscribe(sub);
});

test('docs/webhooks.md retries: a refused connection is retried and delivered once the receiver is up', async () => {
  const port = await freePort();
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: `http://127.0.0.1:${port}/late` });
  fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  await waitFirstAttempt(sub);
  const [first] = await deliveriesOf(sub);
  assert.equal(first.status, 'pending');
  assert.match(first.lastError, /ECONNREFUSED/);
  const late = await startReceiver(port);
  try {
    const [d] = await waitSettled(sub);
    assert.equal(d.status, 'delivered');
    assert.equal(late.received.length, 1);
  } finally {
    await late.close();
    await unsubscribe(sub);
  }
});

test('docs/webhooks.md retries: after maxAttempts non-2xx answers the delivery is failed and not retried', async () => {
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: rx.url });
  rx.script.push({ status: 500 }, { status: 500 }, { status: 404 }, { status: 410 });
  fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  const [d] = await waitSettled(sub);
  assert.equal(d.status, 'failed');
  assert.equal(d.attempts, RETRY.maxAttempts);
  assert.equal(d.lastResponseStatus, 410);
  assert.equal(d.nextAttemptDateTime, undefined);
  const n = rx.received.length;
  await sleep(300);
  assert.equal(rx.received.length, n);

  // Replay: a new delivery of the same event and body, linked to the original.
  const rep = await control('POST', `/_emulator/webhooks/deliveries/${d.id}/replay`);
  assert.equal(rep.status, 202);
  assert.equal(rep.body.replayOf, d.id);
  const [r] = (await waitSettled(sub, 2)).filter((x) => x.id === rep.body.id);
  assert.equal(r.status, 'delivered');
  assert.equal(r.request.body, d.request.body);
  assert.equal((await control('POST', '/_emulator/webhooks/deliveries/nope/replay')).status, 404);
  await unsubscribe(sub);
});

test('docs/webhooks.md: unsubscribing cancels pending deliveries', async () => {
  const port = await freePort();
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: `http://127.0.0.1:${port}/x` });
  fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
  await waitFirstAttempt(sub);
  const key = (await deliveriesOf(sub))[0].id;
  await unsubscribe(sub);
  const d = (await control('GET', `/_emulator/webhooks/deliveries/${key}`)).body;
  assert.equal(d.status, 'cancelled');
});

test('outbox: the event and its deliveries roll back with a refused write', async () => {
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: rx.url });
  const before = (s.emu.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  assert.throws(() => fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) }, () => {
    throw new Error('refused');
  }));
  assert.equal((s.emu.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n, before);
  await sleep(50);
  assert.equal((await deliveriesOf(sub)).length, 0);
  await unsubscribe(sub);
});

test('delivery never blocks the API: with receivers hanging, the hook returns at once and requests stay fast', async () => {
  const hang = await startReceiver();
  hang.fallback = 'hang';
  const sub = await subscribe({ eventType: 'checklist_completed', targetUrl: hang.url });
  try {
    // Shown by order, not by a clock (a loaded machine makes any bound in ms fail): the hook
    // returns with every delivery still to send, and the API answers while deliveries hang; a
    // hook or a request that waited for a delivery would find them sent or timed out (10 s).
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
    const hookMs = performance.now() - t0;
    assert.equal(hang.received.length, 0, `20 events recorded in ${hookMs.toFixed(1)} ms, none sent by the hook itself`);
    assert.ok((await control('GET', '/_emulator/webhooks/sender')).body.pendingDeliveries >= 20, 'the 20 deliveries wait for the sender');
    await hang.waitFor(1);
    const t1 = performance.now();
    const r = await s.api(KEYS.admin, 'GET', '/v3/webhooks');
    const apiMs = performance.now() - t1;
    assert.equal(r.status, 200);
    const sender = (await control('GET', '/_emulator/webhooks/sender')).body;
    assert.ok(sender.inFlight >= 1 && hang.received.length >= 1, `API answered in ${apiMs.toFixed(1)} ms while ${sender.inFlight} deliveries hang`);
  } finally {
    await unsubscribe(sub);
    await hang.close();
  }
});

test('emulator forward: every event of a workspace goes to a URL without subscribing; GET and DELETE', async () => {
  const fw = await startReceiver();
  try {
    const made = await control('POST', '/_emulator/webhooks/forward', { targetUrl: fw.url, workspace: DEMO.acme });
    assert.equal(made.status, 201);
    assert.equal(made.body.items.length, 1);
    assert.equal((await control('POST', '/_emulator/webhooks/forward', { targetUrl: 'ftp://x' })).status, 400);
    assert.equal((await control('POST', '/_emulator/webhooks/forward', { targetUrl: fw.url, workspace: '99999999-0000-4000-8000-000000000000' })).status, 404);
    fire(s.emu, KEYS.admin, 'comment_created', {}, (ctx) => {
      const commentId = Number(s.emu.db.prepare("INSERT INTO comments (task_id, author_id, html, text, created_at) VALUES (?, 101, '<p>x</p>', 'x', 0)").run(taskId(s.emu, DEMO.janeDoe, DEMO.tasks.collectDetails)).lastInsertRowid);
      ctx.hooks.event!(ctx, 'comment_created', { commentId });
    });
    const [got] = await fw.waitFor(1);
    assert.equal(got.headers['svc-event'], 'comment_created');
    // Not a subscription: v3 and legacy lists do not show it.
    const list = await s.api(KEYS.admin, 'GET', '/v3/webhooks?pageSize=100');
    assert.ok(!list.body.items.some((w: { targetUrl: string }) => w.targetUrl === fw.url));
    const listed = await control('GET', '/_emulator/webhooks/forward');
    assert.ok(listed.body.items.some((f: { id: string }) => f.id === made.body.items[0].id));
    assert.equal((await control('DELETE', `/_emulator/webhooks/forward/${made.body.items[0].id}`)).status, 204);
    assert.equal((await control('DELETE', `/_emulator/webhooks/forward/${made.body.items[0].id}`)).status, 404);
  } finally {
    await fw.close();
  }
});

test('control routes: events list shows unmatched and dropped events', async () => {
  const r = await control('GET', `/_emulator/webhooks/events?workspace=${DEMO.acme}`);
  assert.equal(r.status, 200);
  assert.ok(r.body.items.some((e: any) => e.state === 'dropped'));
  assert.ok(r.body.items.every((e: any) => e.workspace === DEMO.acme));
});

test('EMULATOR.md: with --admin-token the webhook control routes need the bearer token; with --no-admin they are off', async () => {
  const t = await startTestServer({ adminToken: 'tok' });
  const off = await startTestServer({ noAdmin: true });
  try {
    assert.equal((await fetch(`${t.us}/_emulator/webhooks/deliveries`)).status, 401);
    assert.equal((await fetch(`${t.us}/_emulator/webhooks/deliveries`, { headers: { Authorization: 'Bearer tok' } })).status, 200);
    assert.equal((await fetch(`${off.us}/_emulator/webhooks/deliveries`)).status, 404);
  } finally {
    await t.close();
    await off.close();
  }
});
