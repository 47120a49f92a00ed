// Linked Checklist controls (spec v3 6.3 new_checklist "automatic creation by a Linked
// Checklist control"; docs/upgrades.md "Linked checklists"): the child checklist starts with
// its parent, the link reads from both sides, new_checklist fires for the child (and for the
// parent), never for an upgrade.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, type TestServer } from './helpers/server';
import { refused } from './helpers/checklists';
import { upgradeKit, taskKey, fieldKey, clone, UPGRADE_DELAY_MS } from './helpers/upgrades';
import { harness, startReceiver, type Receiver } from './helpers/webhooks';

let s: TestServer;
let k: ReturnType<typeof upgradeKit>;
let h: ReturnType<typeof harness>;
let rx: Receiver;
before(async () => {
  s = await startTestServer({ upgrades: { delayMs: UPGRADE_DELAY_MS }, webhooks: { pollMs: 10 } });
  k = upgradeKit(s);
  h = harness(s);
  rx = await startReceiver();
});
after(async () => {
  await s.close();
  await rx.close();
});

test('6.3 new_checklist: a Linked Checklist control starts its child with the parent; one event each, Template-scoped to each template; the link reads from both sides', async () => {
  const child = await k.createTemplate({ name: 'IT Setup', tasks: [{ name: 'Order laptop' }, { name: 'Create accounts' }] });
  const parent = await k.createTemplate({
    name: 'Hiring',
    tasks: [
      { ref: 'h', name: 'Prepare', isHeading: true },
      { ref: 'it', name: 'IT', fields: [{ ref: 'link', type: 'LinkedChecklist', label: 'IT setup', template: 'IT Setup' }] },
    ],
  });
  const onChild = await h.subscribe({ eventType: 'new_checklist', targetUrl: `${rx.url}?to=child`, scope: { type: 'Template', key: child.key } });
  const onParent = await h.subscribe({ eventType: 'new_checklist', targetUrl: `${rx.url}?to=parent`, scope: { type: 'Template', key: parent.key } });

  const p = await k.start(parent.key, 'Hiring: Sam');
  const t = taskKey(parent.doc, 'it');
  const f = fieldKey(parent.doc, 'link');
  const link = (await k.field(p, t, f)).value;
  assert.ok(link?.checklistKey, 'the field holds the child');
  const c = await k.checklist(link.checklistKey);
  assert.equal(c.name, 'Hiring: Sam: IT Setup');
  assert.equal(c.template.key, child.key);
  assert.equal(c.status, 'InProgress');
  assert.equal(c.createdBy.name, 'Ada Admin', 'started in the name of whoever started the parent');

  await h.settle();
  const childBodies = await h.bodies(onChild);
  assert.equal(childBodies.length, 1, 'new_checklist fired once for the child');
  assert.equal(childBodies[0].checklistKey, link.checklistKey);
  assert.equal(childBodies[0].template.templateKey, child.key);
  assert.equal(childBodies[0].checklistCreatedByName, 'Ada Admin');
  const parentBodies = await h.bodies(onParent);
  assert.deepEqual(parentBodies.map((b) => b.checklistKey), [p], 'and once for the parent');

  // Both sides.
  const down = await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${p}/links`));
  assert.deepEqual(down.linkedFrom, []);
  assert.deepEqual(down.linkedTo.map((l: any) => [l.checklist.key, l.checklist.template.key, l.taskKey, l.fieldKey]), [[link.checklistKey, child.key, t, f]]);
  const up = await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${link.checklistKey}/links`));
  assert.deepEqual(up.linkedFrom.map((l: any) => [l.checklist.key, l.taskKey, l.fieldKey]), [[p, t, f]]);
  assert.deepEqual(up.linkedTo, []);
  const acts = await k.activity(link.checklistKey);
  assert.ok(acts.some((e) => e.action === 'checklist.created' && /started by the field "IT setup" of checklist "Hiring: Sam"/.test(e.text)));

  // An upgrade that keeps the field (same template) keeps the link and starts nothing.
  const d2 = clone(parent.doc);
  d2.tasks.push({ ref: 'more', name: 'More', fields: [{ ref: 'link2', type: 'LinkedChecklist', label: 'Second link', template: 'IT Setup' }] });
  const v2 = await k.publish(parent.key, d2);
  const before = (s.emu.db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_type = 'new_checklist'").get() as { n: number }).n;
  const checklistsBefore = (s.emu.db.prepare('SELECT COUNT(*) AS n FROM checklists').get() as { n: number }).n;
  await k.upgradeNow(parent.key, p);
  assert.deepEqual((await k.field(p, t, f)).value, link);
  assert.equal((await k.field(p, taskKey(v2, 'more'), fieldKey(v2, 'link2'))).value, undefined, 'an upgrade starts no child');
  assert.equal((s.emu.db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_type = 'new_checklist'").get() as { n: number }).n, before, 'no new_checklist from the upgrade');
  assert.equal((s.emu.db.prepare('SELECT COUNT(*) AS n FROM checklists').get() as { n: number }).n, checklistsBefore);
  await h.settle();
  assert.equal((await h.deliveries(onChild)).length, 1);
  assert.equal((await h.deliveries(onParent)).length, 1);
  // A checklist started on v2 gets both children.
  const p2 = await k.start(parent.key, 'Hiring: Kim');
  assert.ok((await k.field(p2, taskKey(v2, 'more'), fieldKey(v2, 'link2'))).value.checklistKey);
  assert.equal((await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${p2}/links`))).linkedTo.length, 2);
  await h.unsubscribe(onChild);
  await h.unsubscribe(onParent);
});

test('docs/upgrades.md linked checklists: children start children (up to 5 levels); an archived linked template starts nothing and says why', async () => {
  const leaf = await k.createTemplate({ name: 'Leaf Process', tasks: [{ name: 'leaf' }] });
  await k.createTemplate({ name: 'Middle Process', tasks: [{ ref: 'm', name: 'm', fields: [{ type: 'LinkedChecklist', label: 'Leaf', template: 'Leaf Process' }] }] });
  const top = await k.createTemplate({ name: 'Top Process', tasks: [{ ref: 't', name: 't', fields: [{ ref: 'l', type: 'LinkedChecklist', label: 'Middle', template: 'Middle Process' }] }] });
  const c = await k.start(top.key, 'Top');
  const middle = (await k.field(c, taskKey(top.doc, 't'), fieldKey(top.doc, 'l'))).value.checklistKey;
  const below = await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${middle}/links`));
  assert.equal(below.linkedFrom[0].checklist.key, c);
  assert.equal(below.linkedTo.length, 1);
  assert.equal(below.linkedTo[0].checklist.template.key, leaf.key);

  await k.ok(s.api(KEYS.admin, 'POST', `/v3/templates/${leaf.key}/archive`));
  const m = await k.start((await k.checklist(middle)).template.key, 'Middle alone');
  const acts = await k.activity(m);
  assert.ok(acts.some((e) => e.action === 'checklist.link_not_started' && /template "Leaf Process" is archived/.test(e.text)));
  assert.deepEqual((await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${m}/links`))).linkedTo, []);
});

test('links route: 400 key, 404 unknown, 403 for a member who may not see the checklist', async () => {
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists/nope/links'), 400, 'VALIDATION_ERROR', 'checklistKey');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists/30000000-0000-4000-8000-0000000000ee/links'), 404, 'CHECKLIST_NOT_FOUND');
  const t = await k.createTemplate({ name: 'Private Links', tasks: [{ name: 'x' }] });
  const c = await k.start(t.key, 'private');
  refused(await s.api(KEYS.noperm, 'GET', `/v3/checklists/${c}/links`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.noperm, 'GET', `/v3/checklists/${c}/activity`), 403, 'FORBIDDEN');
});

test('6.3 new_checklist: a checklist started by a schedule run starts its Linked Checklist children too (docs/upgrades.md, docs/schedules.md)', async () => {
  const child = await k.createTemplate({ name: 'Badge Setup', tasks: [{ name: 'Print badge' }] });
  const parent = await k.createTemplate({
    name: 'Visitor',
    tasks: [{ ref: 'b', name: 'Badge', fields: [{ ref: 'link', type: 'LinkedChecklist', label: 'Badge', template: 'Badge Setup' }] }],
  });
  const now = (await s.api(null, 'GET', '/_emulator/clock')).body.now as string;
  const tomorrow = new Date(Date.parse(now) + 86_400_000).toISOString().slice(0, 19);
  const sc = await s.api(KEYS.admin, 'POST', '/v3/schedules', { name: 'Visitor day', templateKey: parent.key, timeZone: 'UTC', startDateTime: tomorrow });
  assert.equal(sc.status, 201, sc.text);
  const runs = (await s.api(KEYS.admin, 'GET', `/v3/schedules/${sc.body.id}/runs`)).body.items;
  const started = await s.api(KEYS.admin, 'POST', `/v3/schedules/${sc.body.id}/runs/${runs[0].id}/start`);
  assert.equal(started.status, 200, started.text);
  const checklistKey = started.body.checklist?.key ?? started.body.checklistKey;
  assert.ok(checklistKey, started.text);
  const link = (await k.field(checklistKey, taskKey(parent.doc, 'b'), fieldKey(parent.doc, 'link'))).value;
  assert.ok(link?.checklistKey, 'the scheduled checklist started its child');
  const c = await k.checklist(link.checklistKey);
  assert.equal(c.template.key, child.key);
  assert.equal(c.status, 'InProgress');
});
