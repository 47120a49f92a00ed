// Every member permission of spec v3 5.4 and 5.5 granted through a fixture (issue 22): for each
// of the seven, a member whose fixture grants exactly that permission does what 5.5 allows, and
// a member of the same fixture without it is refused 403 FORBIDDEN naming the permission. The
// two members differ only by `rights`, so the right is what decides.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, DEMO, PLANNER_KEY, ROOT, type TestServer } from './helpers/server';
import { smallDoc } from './helpers/templates';
import { MEMBER_RIGHTS } from '../src/domain/checklists/rights';
import { fixtureJsonSchema } from '../src/fixtures/format';

const RIGHTS = MEMBER_RIGHTS;
type RightName = (typeof RIGHTS)[number];
const keyOf = (r: RightName | 'none') => `perm-${r.toLowerCase().replace('.', '-')}-key`;

let s: TestServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wfe-rights-'));
  cpSync(join(ROOT, 'fixtures', 'demo'), dir, { recursive: true });
  const doc = JSON.parse(readFileSync(join(dir, 'fixture.json'), 'utf8'));
  const acme = doc.workspaces[0];
  const people: [number, RightName | 'none'][] = [[120, 'none'], ...RIGHTS.map((r, i) => [121 + i, r] as [number, RightName])];
  for (const [id, right] of people) {
    acme.members.push({ id, firstName: 'Perm', lastName: right, email: `perm${id}@acme.test`, role: 'Member', ...(right === 'none' ? {} : { rights: [right] }) });
    acme.keys.push({ key: keyOf(right), name: `Key of ${right}`, member: id });
  }
  writeFileSync(join(dir, 'fixture.json'), JSON.stringify(doc));
  s = await startTestServer({ fixture: dir });
});

after(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The holder's call succeeds with `ok`; the same call by the member without the right is 403 naming it. */
async function allowedAndRefused(right: RightName, call: (key: string) => Promise<{ status: number; text: string; body: { error?: { code: string; message: string } } }>, ok: number) {
  const held = await call(keyOf(right));
  assert.equal(held.status, ok, `${right} holder: ${held.text}`);
  const bare = await call(keyOf('none'));
  assert.equal(bare.status, 403, `without ${right}: ${bare.text}`);
  assert.equal(bare.body.error?.code, 'FORBIDDEN');
  assert.match(bare.body.error!.message, new RegExp(right.replace('.', '\\.')));
}

test('issue 22: the fixture JSON Schema names all seven member permissions of spec v3 5.4 and 5.5', () => {
  const text = JSON.stringify(fixtureJsonSchema());
  for (const r of ['Checklist.Creator', 'Template.Creator', 'Library.Creator', 'Schedule.Viewer', 'Schedule.Creator', 'Task.Creator', 'Task.Attacher']) {
    assert.ok(text.includes(`"${r}"`), `${r} in the fixture JSON Schema`);
  }
});

test('5.5 Checklist.Creator from a fixture: its holder creates a checklist from a template it may run; without it 403', async () => {
  let n = 0;
  await allowedAndRefused('Checklist.Creator', (k) => s.api(k, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: `Rights ${n++}` }), 201);
});

test('5.5 Template.Creator from a fixture: its holder creates a template; without it 403', async () => {
  let n = 0;
  await allowedAndRefused('Template.Creator', (k) => s.api(k, 'POST', '/v3/templates', smallDoc(`Rights template ${n++}`)), 201);
});

test('5.5 Library.Creator from a fixture: its holder creates a Data Set and changes it; without it 403', async () => {
  let n = 0;
  await allowedAndRefused('Library.Creator', (k) => s.api(k, 'POST', '/v3/data-sets', { name: `Rights set ${n++}` }), 201);
  const made = await s.api(keyOf('Library.Creator'), 'POST', '/v3/data-sets', { name: 'Rights set to rename' });
  assert.equal(made.status, 201, made.text);
  await allowedAndRefused('Library.Creator', (k) => s.api(k, 'PATCH', `/v3/data-sets/${made.body.key ?? made.body.id}`, { name: `Renamed ${n++}` }), 200);
});

test('5.4 Schedule.Viewer from a fixture: its holder lists schedules; without it 403; it does not create one', async () => {
  await allowedAndRefused('Schedule.Viewer', (k) => s.api(k, 'GET', '/v3/schedules'), 200);
  const create = await s.api(keyOf('Schedule.Viewer'), 'POST', '/v3/schedules', schedule('Viewer may not'));
  assert.equal(create.status, 403, create.text);
  assert.match(create.body.error.message, /Schedule\.Creator/);
});

const schedule = (name: string) => ({ name, templateKey: DEMO.expense, timeZone: 'Europe/Berlin', startDateTime: '2035-01-10T09:00:00', recurrence: { frequency: 'Daily', count: 2 } });

test('5.5 Schedule.Creator from a fixture: its holder creates a schedule (template it may run) and reads it; without it 403', async () => {
  let n = 0;
  await allowedAndRefused('Schedule.Creator', (k) => s.api(k, 'POST', '/v3/schedules', schedule(`Rights schedule ${n++}`)), 201);
  await allowedAndRefused('Schedule.Creator', (k) => s.api(k, 'GET', '/v3/schedules'), 200);
});

test('5.5 Task.Creator from a fixture: its holder raises a standalone task; without it 403', async () => {
  let n = 0;
  await allowedAndRefused('Task.Creator', (k) => s.api(k, 'POST', '/v3/tasks', { name: `Rights task ${n++}` }), 201);
});

test('5.5 Task.Attacher from a fixture: its holder attaches a standalone task to a checklist of a template it may run; without it 403', async () => {
  const checklist = await s.api('acme-admin-key', 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Attach here' });
  assert.equal(checklist.status, 201, checklist.text);
  // Both may see the task (assigned to them); only the right differs.
  const holder = 121 + RIGHTS.indexOf('Task.Attacher');
  const task = await s.api('acme-admin-key', 'POST', '/v3/tasks', { name: 'To attach', assignees: [{ type: 'TeamMember', id: holder }, { type: 'TeamMember', id: 120 }] });
  assert.equal(task.status, 201, task.text);
  await allowedAndRefused('Task.Attacher', (k) => s.api(k, 'PUT', `/v3/tasks/${task.body.key}/attachment`, { checklistKey: checklist.body.key }), 200);
});

test('issue 22: the demo fixture has a member holding Schedule.Creator and Library.Creator (acme-planner-key)', async () => {
  const key = PLANNER_KEY;
  const me = await s.api(key, 'GET', '/v3/auth/test');
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.apiKey.actsAs.name, 'Paula Planner');
  assert.equal((await s.api(key, 'POST', '/v3/schedules', schedule('Paula plans'))).status, 201);
  assert.equal((await s.api(key, 'POST', '/v3/data-sets', { name: 'Paula lists' })).status, 201);
  const noTask = await s.api(key, 'POST', '/v3/tasks', { name: 'Not Paula' });
  assert.equal(noTask.status, 403, noTask.text);
});
