// Template upgrades (spec v3 4.4 "List checklist upgrades", "Upgrade checklists", 2.5, 3
// "Checklist upgrade"; docs/upgrades.md): the candidates list, every row of the problem
// table, 202/200 answers, the worker on the emulator clock, rollback, injected failure,
// and the events an upgrade does not fire (6.3).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, KEYS, DEMO, type TestServer } from './helpers/server';
import { refused } from './helpers/checklists';
import { upgradeKit, taskKey, fieldKey, clone, UPGRADE_DELAY_MS } from './helpers/upgrades';
import { harness } from './helpers/webhooks';
import { startReceiver, type Receiver } from './helpers/webhooks';

let s: TestServer;
let k: ReturnType<typeof upgradeKit>;
let rx: Receiver;
before(async () => {
  s = await startTestServer({ upgrades: { delayMs: UPGRADE_DELAY_MS }, webhooks: { pollMs: 10 } });
  k = upgradeKit(s);
  rx = await startReceiver();
});
after(async () => {
  await s.close();
  await rx.close();
});

const ONB = DEMO.onboarding;
const path = (t: string, q = '') => `/v3/templates/${t}/upgrades${q}`;

/** A template with two versions: v2 renames a task and adds one; three checklists on v1. */
async function twoVersions(name: string) {
  const v1 = await k.createTemplate({
    name,
    tasks: [
      { ref: 'a', name: 'A', fields: [{ ref: 'note', type: 'ShortText', label: 'Note' }] },
      { ref: 'b', name: 'B' },
    ],
  });
  const doc2 = clone(v1.doc);
  doc2.tasks[1].name = 'B renamed';
  doc2.tasks.push({ ref: 'c', name: 'C' });
  const v2 = await k.publish(v1.key, doc2);
  return { key: v1.key, v1: v1.doc, v2 };
}

test('4.4 list_checklist_upgrades: candidates differ from the target (newer ones too), archived and mid-rebuild left out, completed included, newest start first', async () => {
  const t = await twoVersions('List Candidates');
  const c1 = await k.start(t.key, 'first', undefined, 1);
  await k.control('POST', '/_emulator/clock/advance', { seconds: 10 });
  const c2 = await k.start(t.key, 'second', undefined, 1);
  await k.control('POST', '/_emulator/clock/advance', { seconds: 10 });
  const onV2 = await k.start(t.key, 'on v2');
  const archived = await k.start(t.key, 'archived', undefined, 1);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${archived}/archive`));
  // Completed: every task of c2 done.
  for (const task of await k.tasks(c2)) if (!task.isHeading) await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${c2}/tasks/${task.key}/complete`));
  assert.equal((await k.checklist(c2)).status, 'Complete');

  const latest = await k.candidates(t.key);
  assert.deepEqual(latest.items.map((c: any) => c.key), [c2, c1], 'newest start date first; archived and on-target left out; completed included');
  assert.equal(latest.total, 2);
  assert.equal(latest.hasMore, false);
  assert.deepEqual(Object.keys(latest.items[0]).sort(), ['key', 'name', 'startDateTime', 'status', 'targetVersion', 'url', 'version']);
  assert.deepEqual([latest.items[0].status, latest.items[0].version, latest.items[0].targetVersion], ['Complete', 1, 2]);

  // A rollback's view: version 1 lists the checklist on the newer version 2.
  const back = await k.candidates(t.key, '?version=1');
  assert.deepEqual(back.items.map((c: any) => [c.key, c.version, c.targetVersion]), [[onV2, 2, 1]]);

  // Mid-rebuild (queued) checklists are left out until the worker is done.
  const q = await k.upgrade(t.key, { checklistKeys: [c1] });
  assert.equal(q.status, 202, q.text);
  assert.deepEqual((await k.candidates(t.key)).items.map((c: any) => c.key), [c2]);
  await k.runWorker();
  assert.deepEqual((await k.candidates(t.key)).items.map((c: any) => c.key), [c2]);
  assert.equal((await k.checklist(c1)).version, 2);

  // Same over MCP.
  const mcp = await s.mcp(KEYS.admin);
  const viaTool = await callTool(mcp, 'list_checklist_upgrades', { key: t.key });
  assert.equal(viaTool.isError, false);
  assert.deepEqual(viaTool.body, (await s.api(KEYS.admin, 'GET', path(t.key))).body);
});

test('4.4 list_checklist_upgrades: pageSize out of range or non-numeric reads as 50; the cursor is bound to version and pageSize and dies with a new version', async () => {
  const t = await twoVersions('Paging Candidates');
  for (let i = 0; i < 3; i++) await k.start(t.key, `c${i}`, undefined, 1);
  for (const ps of ['0', '101', 'abc', '-3', '2.5']) {
    const r = await k.candidates(t.key, `?pageSize=${ps}`);
    assert.equal(r.items.length, 3, `pageSize=${ps} reads as 50`);
  }
  const p1 = await k.candidates(t.key, '?pageSize=2');
  assert.equal(p1.items.length, 2);
  assert.equal(p1.hasMore, true);
  assert.equal(p1.total, 3);
  const p2 = await k.candidates(t.key, `?pageSize=2&after=${p1.nextCursor}`);
  assert.equal(p2.items.length, 1);
  assert.equal(p2.hasMore, false);
  refused(await s.api(KEYS.admin, 'GET', path(t.key, `?pageSize=3&after=${p1.nextCursor}`)), 400, 'VALIDATION_ERROR', 'after');
  refused(await s.api(KEYS.admin, 'GET', path(t.key, `?pageSize=2&version=1&after=${p1.nextCursor}`)), 400, 'VALIDATION_ERROR', 'after');
  refused(await s.api(KEYS.admin, 'GET', path(t.key, '?after=garbage')), 400, 'VALIDATION_ERROR', 'after');
  // Publishing another version while paging invalidates the cursor.
  await k.publish(t.key, t.v2);
  refused(await s.api(KEYS.admin, 'GET', path(t.key, `?pageSize=2&after=${p1.nextCursor}`)), 400, 'VALIDATION_ERROR', 'after');
});

test('4.4 list_checklist_upgrades: key not a GUID 400 key, bad version 400 version, unknown template or version 404, View or Deny folder permission 403', async () => {
  refused(await s.api(KEYS.admin, 'GET', path('nope')), 400, 'VALIDATION_ERROR', 'key');
  for (const v of ['0', '-1', 'x', '1.5']) refused(await s.api(KEYS.admin, 'GET', path(ONB, `?version=${v}`)), 400, 'VALIDATION_ERROR', 'version');
  refused(await s.api(KEYS.admin, 'GET', path('20000000-0000-4000-8000-0000000000ff')), 404, 'TEMPLATE_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'GET', path(ONB, '?version=9')), 404, 'TEMPLATE_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'GET', path(DEMO.globexAudit)), 404, 'TEMPLATE_NOT_FOUND');
  refused(await s.api(KEYS.member, 'GET', path(DEMO.vendor)), 403, 'FORBIDDEN'); // Mia: View on Procurement
  refused(await s.api(KEYS.noperm, 'GET', path(DEMO.vendor)), 403, 'FORBIDDEN'); // Nora: Deny
  assert.equal((await s.api(KEYS.member, 'GET', path(ONB))).status, 200, 'Mia: Edit on HR through Operations');
  assert.equal((await s.api(KEYS.workspace, 'GET', path(DEMO.vendor))).status, 200);
  const mcp = await s.mcp(KEYS.member);
  const tool = await callTool(mcp, 'list_checklist_upgrades', { key: DEMO.vendor });
  assert.equal(tool.isError, true);
  assert.deepEqual(withoutRequestId(tool.body), withoutRequestId((await s.api(KEYS.member, 'GET', path(DEMO.vendor))).body));
});

test('4.4 upgrade_checklists: every row of the problem table refuses the whole request and queues nothing', async () => {
  const t = await twoVersions('Problem Table');
  const c = await k.start(t.key, 'one', undefined, 1);
  const queuedBefore = (await k.control('GET', '/_emulator/upgrades')).body.queued;
  const guids = (n: number) => Array.from({ length: n }, (_, i) => `30000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  // no body: no field; `{}` is the "neither" row (issue 39 a)
  refused(await s.api(KEYS.admin, 'POST', path(t.key)), 400, 'VALIDATION_ERROR');
  assert.equal((await s.api(KEYS.admin, 'POST', path(t.key))).body.error.field, undefined);
  refused(await k.upgrade(t.key, {}), 400, 'VALIDATION_ERROR', 'checklistKeys');
  refused(await k.upgrade(t.key, { checklistKeys: [c], all: true }), 400, 'VALIDATION_ERROR', 'all');
  refused(await k.upgrade(t.key, { version: 2 }), 400, 'VALIDATION_ERROR', 'checklistKeys');
  refused(await k.upgrade(t.key, { all: false }), 400, 'VALIDATION_ERROR', 'checklistKeys');
  refused(await k.upgrade(t.key, { checklistKeys: guids(501) }), 400, 'VALIDATION_ERROR', 'checklistKeys');
  refused(await k.upgrade(t.key, { checklistKeys: [c, 'not-a-guid'] }), 400, 'VALIDATION_ERROR', 'checklistKeys[1]');
  refused(await k.upgrade(t.key, { checklistKeys: [c], version: 0 }), 400, 'VALIDATION_ERROR', 'version');
  refused(await k.upgrade(t.key, { checklistKeys: 'x' }), 400, 'VALIDATION_ERROR', 'checklistKeys');
  refused(await k.upgrade(t.key, { all: 'yes' }), 400, 'VALIDATION_ERROR', 'all');
  refused(await k.upgrade('20000000-0000-4000-8000-0000000000ff', { checklistKeys: [c] }), 404, 'TEMPLATE_NOT_FOUND');
  refused(await k.upgrade(t.key, { checklistKeys: [c], version: 7 }), 404, 'TEMPLATE_NOT_FOUND');
  refused(await k.upgrade(DEMO.vendor, { all: true }, KEYS.member), 403, 'FORBIDDEN'); // Mia: View on Procurement
  refused(await k.upgrade(DEMO.vendor, { all: true }, KEYS.noperm), 403, 'FORBIDDEN'); // Nora: Deny
  const mia = await k.upgrade(ONB, { checklistKeys: [DEMO.johnRoe] }, KEYS.member); // Edit on HR; no Template.Creator needed (5.5)
  assert.equal(mia.status, 200, mia.text);
  assert.deepEqual(mia.body.skipped, [{ checklistKey: DEMO.johnRoe, reason: 'already on version 2' }]);
  refused(await k.upgrade(t.key, { checklistKeys: [c, DEMO.globexChecklist] }), 404, 'CHECKLIST_NOT_FOUND');
  refused(await k.upgrade(t.key, { checklistKeys: [c, '30000000-0000-4000-8000-0000000000ee'] }), 404, 'CHECKLIST_NOT_FOUND');
  refused(await k.upgrade(t.key, { checklistKeys: [c, DEMO.janeDoe] }), 400, 'VALIDATION_ERROR', 'checklistKeys');
  assert.equal((await k.control('GET', '/_emulator/upgrades')).body.queued, queuedBefore, 'nothing queued by any refusal');
  assert.equal((await k.checklist(c)).version, 1);
  // The same refusal over MCP.
  const mcp = await s.mcp(KEYS.admin);
  const tool = await callTool(mcp, 'upgrade_checklists', { key: t.key, checklistKeys: [c], all: true });
  assert.equal(tool.isError, true);
  assert.equal(tool.body.error.field, 'all');
});

test('4.4 upgrade_checklists: 202 with Location and Retry-After 60 when queued; archived and on-target skipped; duplicates ignored; 200 with queued 0 otherwise', async () => {
  const t = await twoVersions('Answers');
  const a = await k.start(t.key, 'a', undefined, 1);
  const onTarget = await k.start(t.key, 'on target');
  const archived = await k.start(t.key, 'archived', undefined, 1);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${archived}/archive`));
  const r = await k.upgrade(t.key, { checklistKeys: [a, a.toUpperCase(), onTarget, archived] });
  assert.equal(r.status, 202, r.text);
  assert.equal(r.headers.get('retry-after'), '60');
  assert.equal(r.headers.get('location'), `${s.us}/v3/templates/${t.key}/upgrades?version=2`);
  assert.deepEqual(r.body, {
    templateKey: t.key,
    templateName: 'Answers',
    version: 2,
    queued: 1,
    checklistKeys: [a],
    skipped: [
      { checklistKey: onTarget, reason: 'already on version 2' },
      { checklistKey: archived, reason: 'archived: an archived checklist is not upgraded' },
    ],
  });
  // Nothing is rebuilt before the emulator clock reaches the queue delay.
  assert.equal((await k.control('POST', '/_emulator/upgrades/run')).body.ran, 0);
  assert.equal((await k.checklist(a)).version, 1);
  await k.runWorker();
  assert.equal((await k.checklist(a)).version, 2, 'the checklist reports the target version when done');

  const none = await k.upgrade(t.key, { checklistKeys: [onTarget] });
  assert.equal(none.status, 200, none.text);
  assert.equal(none.headers.get('location'), null);
  assert.equal(none.body.queued, 0);
  assert.deepEqual(none.body.checklistKeys, []);
  const nothingAll = await k.upgrade(t.key, { all: true, version: 2 });
  assert.equal(nothingAll.status, 200);
  assert.deepEqual(nothingAll.body.skipped, []);
  const empty = await k.upgrade(t.key, { checklistKeys: [] });
  assert.equal(empty.status, 200);
  assert.equal(empty.body.queued, 0);
});

test('4.4 upgrade_checklists all: every candidate queued, skipped always empty; MCP answers what REST answers', async () => {
  const t = await twoVersions('All Of Them');
  const keys = [await k.start(t.key, 'x', undefined, 1), await k.start(t.key, 'y', undefined, 1)];
  const mcp = await s.mcp(KEYS.admin);
  const tool = await callTool(mcp, 'upgrade_checklists', { key: t.key, all: true });
  assert.equal(tool.isError, false, tool.text);
  assert.equal(tool.body.queued, 2);
  assert.deepEqual([...tool.body.checklistKeys].sort(), [...keys].sort());
  assert.deepEqual(tool.body.skipped, []);
  assert.deepEqual(tool.meta, { status: 202, location: `${s.us}/v3/templates/${t.key}/upgrades?version=2`, retryAfterSeconds: 60 }, '202 and its headers reach MCP in _meta');
  await k.runWorker();
  for (const c of keys) assert.equal((await k.checklist(c)).version, 2);
  assert.equal((await k.candidates(t.key)).total, 0);
});

test('4.4 rollback: upgrading to an older version rebuilds on it (tasks it lacks go, answers carried back)', async () => {
  const t = await twoVersions('Rollback');
  const c = await k.start(t.key, 'r');
  const a = taskKey(t.v2, 'a');
  await k.answer(c, a, fieldKey(t.v2, 'note'), 'kept both ways');
  assert.deepEqual((await k.tasks(c)).map((x: any) => x.name), ['A', 'B renamed', 'C']);
  const r = await k.upgrade(t.key, { checklistKeys: [c], version: 1 });
  assert.equal(r.status, 202, r.text);
  assert.equal(r.body.version, 1);
  await k.runWorker();
  const cl = await k.checklist(c);
  assert.equal(cl.version, 1);
  assert.equal(cl.name, 'r', 'name kept');
  assert.equal(cl.key, c, 'key kept');
  assert.deepEqual((await k.tasks(c)).map((x: any) => x.name), ['A', 'B']);
  assert.equal((await k.field(c, a, fieldKey(t.v2, 'note'))).value, 'kept both ways');
  assert.ok((await k.activity(c)).some((e) => e.action === 'checklist.upgraded' && /from version 2 to version 1/.test(e.text)));
});

test('3 / 4.4 a failed rebuild (injected) leaves the checklist unchanged, is recorded in its activity, and it stays a candidate', async () => {
  const t = await twoVersions('Failing Rebuild');
  const c = await k.start(t.key, 'fails', undefined, 1);
  await k.answer(c, taskKey(t.v1, 'a'), fieldKey(t.v1, 'note'), 'before');
  const before = { checklist: await k.checklist(c), tasks: await k.tasks(c), field: await k.field(c, taskKey(t.v1, 'a'), fieldKey(t.v1, 'note')) };
  const inject = await k.control('POST', '/_emulator/upgrades/failures', { checklistKey: c, message: 'disk on fire' });
  assert.equal(inject.status, 201);
  refused(
    { ...(await k.control('POST', '/_emulator/upgrades/failures', { checklistKey: 'x' })), headers: new Headers(), text: '' } as any,
    400,
    'VALIDATION_ERROR',
    'checklistKey',
  );
  assert.equal((await k.upgrade(t.key, { checklistKeys: [c] })).status, 202);
  assert.deepEqual((await k.candidates(t.key)).items.map((x: any) => x.key), [], 'queued: mid-rebuild');
  await k.runWorker();
  assert.deepEqual(await k.checklist(c), before.checklist, 'unchanged');
  assert.deepEqual(await k.tasks(c), before.tasks);
  assert.deepEqual(await k.field(c, taskKey(t.v1, 'a'), fieldKey(t.v1, 'note')), before.field);
  const acts = await k.activity(c);
  assert.equal(acts[0].action, 'checklist.upgrade_failed');
  assert.match(acts[0].text, /version 2.*failed.*unchanged on version 1: disk on fire/);
  assert.ok(!acts.some((e) => e.action === 'checklist.upgraded'), 'the rolled-back rebuild left no trace but the failure');
  assert.deepEqual((await k.candidates(t.key)).items.map((x: any) => x.key), [c], 'still a candidate');
  const jobs = (await k.control('GET', '/_emulator/upgrades')).body.jobs;
  assert.equal(jobs.find((j: any) => j.checklistKey === c).state, 'failed');
  // The failure was for one rebuild: the next one goes through.
  assert.equal((await k.upgrade(t.key, { checklistKeys: [c] })).status, 202);
  await k.runWorker();
  assert.equal((await k.checklist(c)).version, 2);
});

test('6.3 an upgrade fires no new_checklist and no task_completed, though it carries completed tasks', async () => {
  const h = harness(s);
  const t = await twoVersions('Quiet Upgrade');
  const nc = await h.subscribe({ eventType: 'new_checklist', targetUrl: `${rx.url}?to=nc`, scope: { type: 'Template', key: t.key } });
  const tc = await h.subscribe({ eventType: 'task_completed', targetUrl: `${rx.url}?to=tc`, scope: { type: 'Template', key: t.key } });
  const c = await k.start(t.key, 'quiet', undefined, 1);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${c}/tasks/${taskKey(t.v1, 'b')}/complete`));
  await h.settle();
  assert.equal((await h.deliveries(nc)).length, 1, 'the start fired once');
  assert.equal((await h.deliveries(tc)).length, 1, 'the completion fired once');
  const lastEvent = (s.emu.db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM events').get() as { n: number }).n;
  await k.upgradeNow(t.key, c);
  assert.equal((await k.task(c, taskKey(t.v1, 'b'))).status, 'Complete', 'carried');
  assert.deepEqual(s.emu.db.prepare('SELECT event_type FROM events WHERE id > ?').all(lastEvent), [], 'the outbox holds nothing written by the rebuild');
  await h.settle();
  assert.equal((await h.deliveries(nc)).length, 1, 'no new_checklist from the upgrade');
  assert.equal((await h.deliveries(tc)).length, 1, 'no task_completed from the upgrade');
  await h.unsubscribe(nc);
  await h.unsubscribe(tc);
});

test('4.4 the worker handles one template at a time: due rebuilds of the oldest template first, then the next', async () => {
  const t1 = await twoVersions('Order One');
  const t2 = await twoVersions('Order Two');
  const a = await k.start(t1.key, 'a', undefined, 1);
  const b = await k.start(t2.key, 'b', undefined, 1);
  const c = await k.start(t1.key, 'c', undefined, 1);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/templates/${t1.key}/upgrades`, { checklistKeys: [a] }), 202);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/templates/${t2.key}/upgrades`, { checklistKeys: [b] }), 202);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/templates/${t1.key}/upgrades`, { checklistKeys: [c] }), 202);
  await k.runWorker();
  const order = s.emu.db
    .prepare("SELECT c.key FROM activity a JOIN checklists c ON c.id = a.checklist_id WHERE a.action = 'checklist.upgraded' AND c.key IN (?, ?, ?) ORDER BY a.id")
    .all(a, b, c)
    .map((r: any) => r.key);
  assert.deepEqual(order, [a, c, b]);
});

test('4.1 rule 12 upgrade_checklists with an Idempotency-Key: the replay answers the first 202 (headers too) and queues nothing more', async () => {
  const t = await twoVersions('Idempotent Upgrade');
  const c = await k.start(t.key, 'idem', undefined, 1);
  const first = await s.api(KEYS.admin, 'POST', path(t.key), { checklistKeys: [c] }, { 'Idempotency-Key': 'upgrade-once' });
  assert.equal(first.status, 202, first.text);
  const again = await s.api(KEYS.admin, 'POST', path(t.key), { checklistKeys: [c] }, { 'Idempotency-Key': 'upgrade-once' });
  assert.equal(again.status, 202);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers.get('location'), first.headers.get('location'));
  assert.equal(again.headers.get('retry-after'), '60');
  const jobs = (await k.control('GET', '/_emulator/upgrades')).body.jobs.filter((j: any) => j.checklistKey === c);
  assert.equal(jobs.length, 1);
  refused(await s.api(KEYS.admin, 'POST', path(t.key), { all: true }, { 'Idempotency-Key': 'upgrade-once' }), 409, 'CONFLICT');
  await k.runWorker();
});
