// Legacy checklist creation (legacy spec 4.1, 5, 7, 9; docs/legacy.md): POST /api/checklist,
// /api/checklist/create-many (v2) and /api/checklist/create-with-parameters (v2). They share
// the v3 start code, so refusals match POST /v3/checklists; a refused call creates nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, T, taskPath } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const V2 = { 'X-API-VERSION': '2.0' };
const count = () => (s.emu.db.prepare('SELECT COUNT(*) AS n FROM checklists').get() as { n: number }).n;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const create = (q: string, key: string = KEYS.admin, headers: Record<string, string> = {}) => s.api(key, 'POST', `/api/checklist?${q}`, undefined, headers);

/** Asserts a legacy refusal: status and `{error}` body, and that nothing was created. */
async function refused(call: () => Promise<{ status: number; body: any; text: string }>, status: number, match?: RegExp) {
  const before = count();
  const r = await call();
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body?.error, 'string', r.text);
  if (match) assert.match(r.body.error, match);
  assert.equal(count(), before, 'a refused call creates nothing');
}

test('legacy 4.1 POST /api/checklist: 200 with the new checklist (docs/legacy.md shape); v1 needs no X-API-VERSION', async () => {
  const r = await create(`templateKey=${DEMO.expense}&checklistName=${encodeURIComponent('  Legacy: April  ')}`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(Object.keys(r.body), ['id', 'key', 'name', 'status', 'url', 'templateKey', 'templateName', 'templateVersion', 'createdDateTime']);
  assert.equal(typeof r.body.id, 'number');
  assert.match(r.body.key, GUID);
  assert.equal(r.body.name, 'Legacy: April', 'trimmed');
  assert.equal(r.body.status, 'InProgress');
  assert.equal(r.body.url, `${s.us}/app/checklists/${r.body.key}`);
  assert.equal(r.body.templateKey, DEMO.expense);
  assert.equal(r.body.templateName, 'Expense Report');
  assert.equal(r.body.templateVersion, 1);
  assert.match(r.body.createdDateTime, /Z$/);
  // The same checklist through v3.
  const v3 = await s.api(KEYS.admin, 'GET', `/v3/checklists/${r.body.key}`);
  assert.equal(v3.status, 200);
  assert.equal(v3.body.name, 'Legacy: April');
  assert.equal(v3.body.createdBy.email, 'ada@acme.test');
  // Parameter names are case-insensitive; X-API-VERSION 2.0 is accepted too.
  const r2 = await create(`TEMPLATEKEY=${DEMO.expense}&checklistname=x`, KEYS.admin, V2);
  assert.equal(r2.status, 200, r2.text);
});

test('legacy 4.1 POST /api/checklist refusals: 400 missing or bad templateKey / checklistName, 401, 403, 404 unknown template, 409 archived template', async () => {
  await refused(() => create(`checklistName=x`), 400, /templateKey is required/);
  await refused(() => create(`templateKey=nope&checklistName=x`), 400, /templateKey must be a GUID/);
  await refused(() => create(`templateKey=${DEMO.expense}`), 400, /checklistName is required/);
  await refused(() => create(`templateKey=${DEMO.expense}&checklistName=%20%20`), 400, /checklistName is required/);
  await refused(() => create(`templateKey=${DEMO.expense}&checklistName=${'x'.repeat(256)}`), 400, /at most 255/);
  await refused(() => create(`templateKey=${DEMO.expense}&checklistName=x`, 'wrong-key'), 401);
  await refused(() => create(`templateKey=${DEMO.expense}&checklistName=x`, KEYS.revoked), 401);
  await refused(() => create(`templateKey=${DEMO.vendor}&checklistName=x`, KEYS.member), 403, /Run and View/);
  await refused(() => create(`templateKey=99999999-0000-4000-8000-000000000000&checklistName=x`), 404, /No template/);
  await refused(() => create(`templateKey=${DEMO.globexAudit}&checklistName=x`), 404, /No template/);
  await refused(() => create(`templateKey=${DEMO.oldProcess}&checklistName=x`), 409, /archived/);
  await refused(() => create(`templateKey=${DEMO.expense}&checklistName=x`, KEYS.admin, { 'X-API-VERSION': '3.0' }), 400, /not supported/);
});

test('legacy 4.1 POST /api/checklist/create-many (v2): 200 with the new checklists in order; the workspace key records the workspace creator', async () => {
  const r = await s.api(KEYS.workspace, 'POST', '/api/checklist/create-many', { templateKey: DEMO.expense, checklistNames: ['May', 'June', 'May'] }, V2);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.map((c: any) => c.name), ['May', 'June', 'May'], 'equal names make separate checklists');
  assert.equal(new Set(r.body.map((c: any) => c.key)).size, 3);
  const v3 = await s.api(KEYS.admin, 'GET', `/v3/checklists/${r.body[0].key}`);
  assert.equal(v3.body.createdBy.email, 'ada@acme.test', 'workspace key: the workspace creator (docs/checklists.md)');
  // Body property names are case-insensitive; the JSON content types of legacy spec 4.1 all work.
  const ci = await s.api(KEYS.admin, 'POST', '/api/checklist/create-many', { TemplateKey: DEMO.expense, CHECKLISTNAMES: ['ci'] }, { ...V2, 'Content-Type': 'application/*+json' });
  assert.equal(ci.status, 200, ci.text);
});

test('legacy 4.1 create-many refusals: v1 400, body missing or not an object, checklistNames missing / not an array / empty / too many / a bad name (nothing created)', async () => {
  const post = (body: unknown, headers: Record<string, string> = V2) => () => s.api(KEYS.admin, 'POST', '/api/checklist/create-many', body, headers);
  await refused(post({ templateKey: DEMO.expense, checklistNames: ['a'] }, {}), 400, /X-API-VERSION: 2\.0/);
  await refused(post(undefined), 400, /body is required/);
  await refused(post('not json{', { ...V2, 'Content-Type': 'application/json' }), 400, /not valid JSON/);
  await refused(post([1, 2]), 400, /JSON object/);
  await refused(post({ checklistNames: ['a'] }), 400, /templateKey is required/);
  await refused(post({ templateKey: 'x', checklistNames: ['a'] }), 400, /templateKey must be a GUID/);
  await refused(post({ templateKey: DEMO.expense }), 400, /checklistNames is required/);
  await refused(post({ templateKey: DEMO.expense, checklistNames: 'a' }), 400, /must be an array/);
  await refused(post({ templateKey: DEMO.expense, checklistNames: [] }), 400, /at least one/);
  await refused(post({ templateKey: DEMO.expense, checklistNames: Array.from({ length: 101 }, (_, i) => `n${i}`) }), 400, /at most 100/);
  await refused(post({ templateKey: DEMO.expense, checklistNames: ['fine', 7] }), 400, /checklistNames\[1\] must be a string/);
  await refused(post({ templateKey: DEMO.expense, checklistNames: ['fine', ' '] }), 400, /checklistNames\[1\] is required/);
  await refused(post({ templateKey: DEMO.oldProcess, checklistNames: ['a'] }), 409);
});

test('legacy 4.1 POST /api/checklist/create-with-parameters (v2): parameters pre-fill fields (by parameter name, field name or key); refusals', async () => {
  const post = (body: unknown, headers: Record<string, string> = V2) => s.api(KEYS.admin, 'POST', '/api/checklist/create-with-parameters', body, headers);
  const r = await post({ templateKey: DEMO.onboarding, checklistName: 'Onboarding: Zoë', parameters: [{ parameterName: 'Employee ID', parameterValue: 'E7777' }, { parameterName: 'employeeName', parameterValue: 'Zoë' }] });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.templateVersion, 2, 'the latest version');
  const fields = await s.api(KEYS.admin, 'GET', taskPath(r.body.key, T.collectDetails, '/fields'));
  const byKey = new Map(fields.body.fields.map((f: any) => [f.key, f.value]));
  assert.equal(byKey.get(F.employeeId), 'E7777');
  assert.equal(byKey.get(F.employeeName), 'Zoë');
  // Without parameters it is a plain start.
  assert.equal((await post({ templateKey: DEMO.expense, checklistName: 'plain' })).status, 200);

  const bad = (body: unknown, match: RegExp, status = 400, headers: Record<string, string> = V2) => refused(() => post(body, headers), status, match);
  await bad({ templateKey: DEMO.expense, checklistName: 'x' }, /X-API-VERSION: 2\.0/, 400, {});
  await bad({ templateKey: DEMO.expense }, /checklistName is required/);
  await bad({ checklistName: 'x' }, /templateKey is required/);
  await bad({ templateKey: DEMO.expense, checklistName: 'x', parameters: {} }, /parameters must be an array/);
  await bad({ templateKey: DEMO.expense, checklistName: 'x', parameters: ['a'] }, /parameters\[0\] must be an object/);
  await bad({ templateKey: DEMO.expense, checklistName: 'x', parameters: [{ parameterValue: '1' }] }, /parameters\[0\]\.parameterName is required/);
  await bad({ templateKey: DEMO.expense, checklistName: 'x', parameters: [{ parameterName: 'Amount', parameterValue: 12 }] }, /parameters\[0\]\.parameterValue is required: a string/);
  await bad({ templateKey: DEMO.expense, checklistName: 'x', parameters: [{ parameterName: 'Nope', parameterValue: '1' }] }, /Nope names no parameter/);
  await bad({ templateKey: DEMO.onboarding, checklistName: 'x', parameters: [{ parameterName: 'Employee ID', parameterValue: 'bad' }] }, /E1234/);
});

test('legacy: a path that exists with another method is 405; unknown legacy paths are 404', async () => {
  const r = await s.api(KEYS.admin, 'PUT', '/api/checklist/create-many', {}, V2);
  assert.equal(r.status, 405);
  assert.equal((await s.api(KEYS.admin, 'GET', '/api/nothing-here')).status, 404);
});
