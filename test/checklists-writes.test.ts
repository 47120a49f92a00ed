// Checklist writes: POST /v3/checklists, PATCH/DELETE /v3/checklists/{key}, archive, share, tags,
// attached tasks, and the walk from start to Complete (spec v3 4.7, 3, 5.5, 5.6, 5.9, 5.10, 6.3).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { GUID_RE, keysOf, refused } from './helpers/checklists';

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

const count = (sql: string, ...args: unknown[]) => (s.emu.db.prepare(sql).get(...args) as { n: number }).n;
const checklistCount = () => count('SELECT COUNT(*) AS n FROM checklists');

async function create(key: string, body: Record<string, unknown>) {
  return s.api(key, 'POST', '/v3/checklists', body);
}

test('4.7 create: 201 with the checklist; tasks copy their keys from the template version; new_checklist fires', async () => {
  events.length = 0;
  const r = await create(KEYS.member, { templateKey: DEMO.expense, name: '  April expenses ' });
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.key, GUID_RE);
  assert.equal(r.body.name, 'April expenses');
  assert.equal(r.body.status, 'InProgress');
  assert.equal(r.body.template.key, DEMO.expense);
  assert.equal(r.body.version, 1);
  assert.deepEqual(r.body.createdBy, { name: 'Mia Member', email: 'mia@acme.test' });
  assert.deepEqual(r.body.taskCounts, { total: 3, complete: 0, notApplicable: 0, incomplete: 3 });
  const keys = (s.emu.db.prepare('SELECT t.key FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? ORDER BY t.position').all(r.body.key) as { key: string }[]).map((x) => x.key);
  assert.deepEqual(keys, [DEMO.tasks.submitReceipts, '21000000-0000-4000-8000-000000000202', '21000000-0000-4000-8000-000000000203']);
  const id = (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(r.body.key) as { id: number }).id;
  assert.deepEqual(events, [{ type: 'new_checklist', subject: { checklistId: id } }]);
  const again = await s.api(KEYS.member, 'GET', `/v3/checklists/${r.body.key}`);
  assert.deepEqual(again.body, r.body);
});

test('4.7 create: parameters pre-fill fields by parameter name, field key or field name; due dates follow the rules', async () => {
  const before = Date.now();
  const r = await create(KEYS.admin, {
    templateKey: DEMO.onboarding,
    name: 'Onboarding: Pat Lee',
    dueDateTime: '2030-01-31T17:00:00+01:00',
    parameters: { employeeName: 'Pat Lee', '22000000-0000-4000-8000-000000000101': 'E1234', 'start date': '2030-01-15', 'Employment type': 'contractor' },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.version, 2);
  assert.equal(r.body.dueDateTime, '2030-01-31T16:00:00.000Z');
  const values = new Map(
    (s.emu.db.prepare('SELECT v.field_key, v.value FROM field_values v JOIN tasks t ON t.id = v.task_id JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ?').all(r.body.key) as { field_key: string; value: string }[]).map(
      (x) => [x.field_key, JSON.parse(x.value)],
    ),
  );
  assert.equal(values.get('22000000-0000-4000-8000-000000000112'), 'Pat Lee');
  assert.equal(values.get('22000000-0000-4000-8000-000000000101'), 'E1234');
  assert.equal(values.get('22000000-0000-4000-8000-000000000104'), '2030-01-15');
  assert.equal(values.get('22000000-0000-4000-8000-000000000103'), 'Contractor');
  const due = new Map(
    (s.emu.db.prepare('SELECT t.key, t.due_at FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ?').all(r.body.key) as { key: string; due_at: number | null }[]).map((x) => [x.key, x.due_at]),
  );
  const collect = due.get(DEMO.tasks.collectDetails)!;
  assert.ok(collect >= before + 2 * 86_400_000 - 1000 && collect <= Date.now() + 2 * 86_400_000 + 1000, 'collect details due two days after start');
  assert.equal(due.get(DEMO.tasks.firstDayWelcome), Date.parse('2030-01-15T00:00:00Z'));
  assert.equal(due.get(DEMO.tasks.heading), null);
});

test('4.7 create: version picks an older template version', async () => {
  const r = await create(KEYS.admin, { templateKey: DEMO.onboarding, name: 'v1 run', version: 1 });
  assert.equal(r.status, 201);
  assert.equal(r.body.version, 1);
  assert.equal(r.body.template.version, 1);
  assert.equal(r.body.taskCounts.total, 5);
});

test('5.9 create: the workspace key may start from any template and is recorded as the workspace creator', async () => {
  const r = await create(KEYS.workspace, { templateKey: DEMO.vendor, name: 'Vendor: Initech' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body.createdBy, { name: 'Ada Admin', email: 'ada@acme.test' });
});

test('5.5 create: Checklist.Creator and run permission are needed; a refused create writes nothing', async () => {
  events.length = 0;
  const n = checklistCount();
  // Nora has no Checklist.Creator.
  let r = await create(KEYS.noperm, { templateKey: DEMO.expense, name: 'x' });
  refused(r, 403, 'FORBIDDEN');
  assert.match(r.body.error.message, /Checklist\.Creator/);
  // Mia is ViewOnly on Vendor Review.
  r = await create(KEYS.member, { templateKey: DEMO.vendor, name: 'x' });
  refused(r, 403, 'FORBIDDEN');
  assert.match(r.body.error.message, /Administrator/);
  // Mia runs Employee Onboarding through the Operations group.
  assert.equal((await create(KEYS.member, { templateKey: DEMO.onboarding, name: 'Mia onboarding' })).status, 201);
  assert.equal(checklistCount(), n + 1);
  assert.deepEqual(events.map((e) => e.type), ['new_checklist']);
});

test('5.10 create: an archived template is refused for every key, Administrators included', async () => {
  const n = checklistCount();
  for (const key of [KEYS.admin, KEYS.workspace, KEYS.member]) {
    const r = await create(key, { templateKey: DEMO.oldProcess, name: 'x' });
    refused(r, 409, 'CONFLICT');
    assert.match(r.body.error.message, /archived/);
  }
  assert.equal(checklistCount(), n);
});

test('4.7 create: bad bodies are 400 with the right field, before any lookup', async () => {
  const n = checklistCount();
  refused(await create(KEYS.admin, { name: 'x' }), 400, 'VALIDATION_ERROR', 'templateKey');
  refused(await create(KEYS.admin, { templateKey: 'abc', name: 'x' }), 400, 'VALIDATION_ERROR', 'templateKey');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense }), 400, 'VALIDATION_ERROR', 'name');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: '   ' }), 400, 'VALIDATION_ERROR', 'name');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x'.repeat(256) }), 400, 'VALIDATION_ERROR', 'name');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', version: 0 }), 400, 'VALIDATION_ERROR', 'version');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', version: 'one' }), 400, 'VALIDATION_ERROR', 'version');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', version: 9 }), 400, 'VALIDATION_ERROR', 'version');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', dueDateTime: 'tomorrow' }), 400, 'VALIDATION_ERROR', 'dueDateTime');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', dueDateTime: '2030-01-01T10:00:00+25:00' }), 400, 'VALIDATION_ERROR', 'dueDateTime');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', parameters: [1] }), 400, 'VALIDATION_ERROR', 'parameters');
  refused(await create(KEYS.admin, { templateKey: DEMO.expense, name: 'x', parameters: { bogus: 1 } }), 400, 'VALIDATION_ERROR', 'parameters.bogus');
  refused(await create(KEYS.admin, { templateKey: DEMO.onboarding, name: 'x', parameters: { 'Employee ID': 'nope' } }), 400, 'VALIDATION_ERROR', 'parameters.Employee ID');
  refused(await create(KEYS.admin, { templateKey: DEMO.onboarding, name: 'x', parameters: { 'Employment type': 'Intern' } }), 400, 'VALIDATION_ERROR', 'parameters.Employment type');
  refused(await create(KEYS.admin, { templateKey: '20000000-0000-4000-8000-0000000000ff', name: 'x' }), 404, 'TEMPLATE_NOT_FOUND');
  refused(await create(KEYS.admin, { templateKey: DEMO.globexAudit, name: 'x' }), 404, 'TEMPLATE_NOT_FOUND');
  assert.equal(checklistCount(), n);
});

test('4.1 rule 6: a due date without offset is UTC', async () => {
  const r = await create(KEYS.admin, { templateKey: DEMO.expense, name: 'utc', dueDateTime: '2030-05-01T09:30:00' });
  assert.equal(r.body.dueDateTime, '2030-05-01T09:30:00.000Z');
});

test('4.1 rule 12: Idempotency-Key replays the first answer and starts one checklist', async (t) => {
  if (!s.emu.idempotency) return t.skip('idempotency store not installed in this build');
  const n = checklistCount();
  const body = { templateKey: DEMO.expense, name: 'Once only' };
  const a = await s.api(KEYS.member, 'POST', '/v3/checklists', body, { 'Idempotency-Key': 'create-once-1' });
  const b = await s.api(KEYS.member, 'POST', '/v3/checklists', body, { 'Idempotency-Key': 'create-once-1' });
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.deepEqual(b.body, a.body);
  assert.equal(checklistCount(), n + 1);
});

test('4.1 rule 8 PATCH: a value sets, null clears the due date, omitted is unchanged', async () => {
  const c = (await create(KEYS.member, { templateKey: DEMO.expense, name: 'Patch me', dueDateTime: '2030-02-01T00:00:00Z' })).body;
  let r = await s.api(KEYS.member, 'PATCH', `/v3/checklists/${c.key}`, { name: 'Patched' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.name, 'Patched');
  assert.equal(r.body.dueDateTime, '2030-02-01T00:00:00.000Z');
  r = await s.api(KEYS.member, 'PATCH', `/v3/checklists/${c.key}`, { dueDateTime: '2030-03-01T12:00:00-05:00' });
  assert.equal(r.body.dueDateTime, '2030-03-01T17:00:00.000Z');
  assert.equal(r.body.name, 'Patched');
  r = await s.api(KEYS.member, 'PATCH', `/v3/checklists/${c.key}`, { dueDateTime: null });
  assert.equal(r.status, 200);
  assert.equal(r.body.dueDateTime, undefined);
  r = await s.api(KEYS.member, 'PATCH', `/v3/checklists/${c.key}`, {});
  assert.equal(r.status, 200);
  assert.equal(r.body.name, 'Patched');
});

test('4.1 rule 8 PATCH: refusals (name not clearable, bad values, permissions, other workspace)', async () => {
  const before = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`)).body;
  refused(await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${DEMO.janeDoe}`, { name: null }), 400, 'VALIDATION_ERROR', 'name');
  refused(await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${DEMO.janeDoe}`, { name: '' }), 400, 'VALIDATION_ERROR', 'name');
  refused(await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${DEMO.janeDoe}`, { name: 7 }), 400, 'VALIDATION_ERROR', 'name');
  refused(await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${DEMO.janeDoe}`, { dueDateTime: '31/01/2030' }), 400, 'VALIDATION_ERROR', 'dueDateTime');
  refused(await s.api(KEYS.admin, 'PATCH', '/v3/checklists/nope', { name: 'x' }), 400, 'VALIDATION_ERROR', 'checklistKey');
  refused(await s.api(KEYS.admin, 'PATCH', `/v3/checklists/${DEMO.globexChecklist}`, { name: 'x' }), 404, 'CHECKLIST_NOT_FOUND');
  // Nora cannot see Jane Doe's onboarding; the workspace key's anonymous member has no run access on it.
  refused(await s.api(KEYS.noperm, 'PATCH', `/v3/checklists/${DEMO.janeDoe}`, { name: 'x' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'PATCH', `/v3/checklists/${DEMO.janeDoe}`, { name: 'x' }), 403, 'FORBIDDEN');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`)).body, before);
  // Expense Report is AllUsers RunAndView, which covers the anonymous member too.
  const c = (await create(KEYS.admin, { templateKey: DEMO.expense, name: 'Open to all' })).body;
  assert.equal((await s.api(KEYS.noperm, 'PATCH', `/v3/checklists/${c.key}`, { name: 'Nora renamed' })).status, 200);
  assert.equal((await s.api(KEYS.workspace, 'PATCH', `/v3/checklists/${c.key}`, { name: 'Bot renamed' })).status, 200);
});

test('3/5.6 archive and unarchive: Administrators only; the workspace key is refused', async () => {
  const c = (await create(KEYS.member, { templateKey: DEMO.expense, name: 'Archive me' })).body;
  refused(await s.api(KEYS.member, 'POST', `/v3/checklists/${c.key}/archive`), 403, 'FORBIDDEN');
  const ws = await s.api(KEYS.workspace, 'POST', `/v3/checklists/${c.key}/archive`);
  refused(ws, 403, 'FORBIDDEN');
  assert.match(ws.body.error.message, /workspace/);
  refused(await s.api(KEYS.noperm, 'POST', `/v3/checklists/${c.key}/archive`), 403, 'FORBIDDEN');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}`)).body.isArchived, false);
  let r = await s.api(KEYS.admin, 'POST', `/v3/checklists/${c.key}/archive`);
  assert.equal(r.status, 200);
  assert.equal(r.body.isArchived, true);
  r = await s.api(KEYS.owner, 'POST', `/v3/checklists/${c.key}/archive`);
  assert.equal(r.status, 200, 'archiving twice is harmless');
  assert.ok(!keysOf(await s.api(KEYS.admin, 'GET', '/v3/checklists')).includes(c.key));
  assert.ok(keysOf(await s.api(KEYS.admin, 'GET', '/v3/checklists?isArchived=true')).includes(c.key));
  refused(await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}/archive`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'DELETE', `/v3/checklists/${c.key}/archive`), 403, 'FORBIDDEN');
  r = await s.api(KEYS.admin, 'DELETE', `/v3/checklists/${c.key}/archive`);
  assert.equal(r.status, 200);
  assert.equal(r.body.isArchived, false);
  refused(await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.globexChecklist}/archive`), 404, 'CHECKLIST_NOT_FOUND');
  refused(await s.api(KEYS.member, 'POST', `/v3/checklists/${DEMO.globexChecklist}/archive`), 404, 'CHECKLIST_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'POST', '/v3/checklists/xyz/archive'), 400, 'VALIDATION_ERROR', 'checklistKey');
});

test('4.7 share: PUT turns sharing on (no body) and keeps the link; DELETE turns it off', async () => {
  const c = (await create(KEYS.member, { templateKey: DEMO.expense, name: 'Share me' })).body;
  let r = await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}/share`);
  assert.deepEqual(r.body, { isShared: false });
  r = await s.api(KEYS.member, 'PUT', `/v3/checklists/${c.key}/share`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.isShared, true);
  assert.match(r.body.shareUrl, /\/share\/[0-9a-f]+$/);
  const url = r.body.shareUrl;
  assert.equal((await s.api(KEYS.member, 'PUT', `/v3/checklists/${c.key}/share`)).body.shareUrl, url);
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}/share`)).body, { isShared: true, shareUrl: url });
  const detail = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}`)).body;
  assert.equal(detail.isShared, true);
  assert.equal(detail.shareUrl, url);
  r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}/share`);
  assert.deepEqual(r.body, { isShared: false });
  assert.deepEqual((await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}/share`)).body, { isShared: false });
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${c.key}`)).body.shareUrl, undefined);
});

test('4.7 share: refusals', async () => {
  refused(await s.api(KEYS.noperm, 'GET', `/v3/checklists/${DEMO.janeDoe}/share`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.noperm, 'PUT', `/v3/checklists/${DEMO.janeDoe}/share`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'PUT', `/v3/checklists/${DEMO.janeDoe}/share`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.admin, 'PUT', `/v3/checklists/${DEMO.globexChecklist}/share`), 404, 'CHECKLIST_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'DELETE', '/v3/checklists/bad/share'), 400, 'VALIDATION_ERROR', 'checklistKey');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}/share`)).body, { isShared: false });
});

const tagRow = async (name: string) => (await s.api(KEYS.admin, 'GET', `/v3/tags?search=${encodeURIComponent(name)}`)).body.items.find((t: { name: string }) => t.name.toLowerCase() === name.toLowerCase());

test('4.1 rule 5 checklist tags: created on first use, reused whatever the case, removed with the last carrier', async () => {
  const c = (await create(KEYS.member, { templateKey: DEMO.expense, name: 'Tag me' })).body;
  assert.equal(await tagRow('Quarter One'), undefined);
  let r = await s.api(KEYS.member, 'POST', `/v3/checklists/${c.key}/tags`, { tags: ['Quarter One', 'quarter one', ' URGENT '] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { tags: ['Quarter One', 'urgent'] });
  assert.deepEqual((await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}`)).body.tags, ['Quarter One', 'urgent']);
  assert.deepEqual((await s.api(KEYS.member, 'GET', `/v3/checklists/${c.key}/tags`)).body, { tags: ['Quarter One', 'urgent'] });
  const q = await tagRow('Quarter One');
  assert.equal(q.checklists, 1);
  assert.ok(keysOf(await s.api(KEYS.admin, 'GET', '/v3/checklists?tag=quarter%20one')).includes(c.key));
  r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}/tags?name=QUARTER%20ONE`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { tags: ['urgent'] });
  assert.equal(await tagRow('Quarter One'), undefined, 'a tag leaves with its last carrier');
  r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}/tags?name=urgent`);
  assert.deepEqual(r.body, { tags: [] });
  assert.ok(await tagRow('urgent'), 'urgent stays: a task of Jane Doe carries it');
  r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}/tags?name=never-there`);
  assert.equal(r.status, 200, 'untagging what is not there is harmless');
});

test('4.7 checklist tags: refusals', async () => {
  refused(await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tags`, {}), 400, 'VALIDATION_ERROR', 'tags');
  refused(await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tags`, { tags: [] }), 400, 'VALIDATION_ERROR', 'tags');
  refused(await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tags`, { tags: ['  '] }), 400, 'VALIDATION_ERROR', 'tags[0]');
  refused(await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tags`, { tags: 'x' }), 400, 'VALIDATION_ERROR', 'tags');
  refused(await s.api(KEYS.admin, 'DELETE', `/v3/checklists/${DEMO.janeDoe}/tags`), 400, 'VALIDATION_ERROR', 'name');
  refused(await s.api(KEYS.noperm, 'POST', `/v3/checklists/${DEMO.janeDoe}/tags`, { tags: ['x'] }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.globexChecklist}/tags`, { tags: ['x'] }), 404, 'CHECKLIST_NOT_FOUND');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`)).body.tags, []);
  assert.equal(await tagRow('x'), undefined);
});

test('4.7 delete: Administrators and the creator; the workspace key and others are refused; permanent', async () => {
  const mine = (await create(KEYS.member, { templateKey: DEMO.expense, name: 'Delete me' })).body;
  await s.api(KEYS.member, 'POST', `/v3/checklists/${mine.key}/tags`, { tags: ['only-here'] });
  const adas = (await create(KEYS.admin, { templateKey: DEMO.expense, name: "Ada's" })).body;
  refused(await s.api(KEYS.member, 'DELETE', `/v3/checklists/${adas.key}`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.noperm, 'DELETE', `/v3/checklists/${mine.key}`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'DELETE', `/v3/checklists/${mine.key}`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.admin, 'DELETE', `/v3/checklists/${DEMO.globexChecklist}`), 404, 'CHECKLIST_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'DELETE', '/v3/checklists/1234'), 400, 'VALIDATION_ERROR', 'checklistKey');
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/checklists/${mine.key}`)).status, 200);
  let r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${mine.key}`);
  assert.equal(r.status, 204);
  assert.equal(r.text, '');
  refused(await s.api(KEYS.member, 'GET', `/v3/checklists/${mine.key}`), 404, 'CHECKLIST_NOT_FOUND');
  assert.equal(await tagRow('only-here'), undefined);
  r = await s.api(KEYS.owner, 'DELETE', `/v3/checklists/${adas.key}`);
  assert.equal(r.status, 204);
  assert.equal(count("SELECT COUNT(*) AS n FROM tasks t WHERE t.checklist_id IS NOT NULL AND t.checklist_id NOT IN (SELECT id FROM checklists)"), 0);
});

test('4.3 attached-tasks: lists the standalone tasks attached to a checklist', async () => {
  const r = await s.api(KEYS.member, 'GET', `/v3/checklists/${DEMO.janeDoe}/attached-tasks`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(keysOf(r), [DEMO.businessCards]);
  const t = r.body.tasks[0];
  assert.equal(t.name, 'Order business cards');
  assert.equal(t.isStandalone, true);
  assert.equal(t.status, 'Incomplete');
  assert.deepEqual(t.raisedBy, { name: 'Mia Member', email: 'mia@acme.test' });
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.johnRoe}/attached-tasks`)).body, { tasks: [] });
  refused(await s.api(KEYS.noperm, 'GET', `/v3/checklists/${DEMO.janeDoe}/attached-tasks`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.globexChecklist}/attached-tasks`), 404, 'CHECKLIST_NOT_FOUND');
  refused(await s.api(KEYS.admin, 'GET', '/v3/checklists/zzz/attached-tasks'), 400, 'VALIDATION_ERROR', 'checklistKey');
});

test('4.7 delete: a checklist with comments, attachments, answers and snoozes goes whole', async () => {
  const c = (await create(KEYS.member, { templateKey: DEMO.expense, name: 'Busy checklist', parameters: { Amount: '5' } })).body;
  const base = `/v3/checklists/${c.key}/tasks/${DEMO.tasks.submitReceipts}`;
  const cm = await s.api(KEYS.member, 'POST', `${base}/comments`, {
    html: '<p>See attached</p>',
    attachment: { name: 'r.txt', contentType: 'text/plain', data: Buffer.from('receipt').toString('base64') },
  });
  assert.equal(cm.status, 201, cm.text);
  assert.equal((await s.api(KEYS.member, 'PUT', `${base}/snooze`, { snoozedUntil: '2031-01-01T00:00:00Z' })).status, 200);
  assert.equal((await s.api(KEYS.member, 'POST', `${base}/tags`, { tags: ['busy-only'] })).status, 200);
  const r = await s.api(KEYS.member, 'DELETE', `/v3/checklists/${c.key}`);
  assert.equal(r.status, 204, r.text);
  assert.equal(count('SELECT COUNT(*) AS n FROM comments WHERE task_id NOT IN (SELECT id FROM tasks)'), 0);
  assert.equal(count('SELECT COUNT(*) AS n FROM files WHERE task_id IS NOT NULL AND task_id NOT IN (SELECT id FROM tasks)'), 0);
  assert.equal(await tagRow('busy-only'), undefined);
});
