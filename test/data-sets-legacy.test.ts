// Legacy v2 Data Set API (legacy spec 4.8, 7, 8, 9; docs/data-sets.md): every route, the
// limits of legacy spec 8 at and one past each edge, errors as {error}, system sets 403.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { BERLIN, COUNTRIES, MISSING, OF, OFFICES, OV, V2, getBytes, lastEventId, postForm, recordCount, recordEvents, setRights } from './helpers/data-sets';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const L = (method: string, path: string, body?: unknown, key: string = KEYS.admin, headers: Record<string, string> = V2) => s.api(key, method, `/api/data-sets${path}`, body, headers);
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function refused(p: Promise<{ status: number; body: any; text: string }>, status: number, match?: RegExp) {
  const r = await p;
  assert.equal(r.status, status, r.text);
  assert.deepEqual(Object.keys(r.body).filter((k) => k !== 'templates'), ['error'], r.text);
  assert.equal(typeof r.body.error, 'string');
  if (match) assert.match(r.body.error, match);
  return r;
}

async function newSet(fields?: unknown[], name = `Set ${Math.random().toString(36).slice(2, 8)}`) {
  const r = await L('POST', '', { name, ...(fields ? { fields } : {}) });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

const ROUTES: [string, string][] = [
  ['GET', ''],
  ['POST', ''],
  ['GET', `/${OFFICES}`],
  ['PUT', `/${OFFICES}`],
  ['DELETE', `/${OFFICES}`],
  ['GET', `/${OFFICES}/fields`],
  ['POST', `/${OFFICES}/fields`],
  ['PUT', `/${OFFICES}/fields/${OF.name}`],
  ['DELETE', `/${OFFICES}/fields/${OF.name}`],
  ['GET', `/${OFFICES}/records`],
  ['POST', `/${OFFICES}/records`],
  ['PUT', `/${OFFICES}/records/${BERLIN}`],
  ['DELETE', `/${OFFICES}/records/${BERLIN}`],
  ['POST', `/${OFFICES}/records/bulk`],
  ['DELETE', `/${OFFICES}/records/bulk`],
  ['GET', `/${OFFICES}/views`],
  ['POST', `/${OFFICES}/views`],
  ['GET', `/${OFFICES}/views/${OV.open}`],
  ['PUT', `/${OFFICES}/views/${OV.open}`],
  ['DELETE', `/${OFFICES}/views/${OV.open}`],
  ['POST', '/import'],
  ['GET', `/${OFFICES}/export`],
];

test('legacy 9: all 22 Data Set routes need X-API-VERSION: 2.0 (400 {error} with 1.0 or none; nothing changes)', async () => {
  assert.equal(ROUTES.length, 22);
  for (const [m, p] of ROUTES) {
    await refused(L(m, p, m === 'GET' ? undefined : {}, KEYS.admin, {}), 400, /X-API-VERSION: 2\.0/);
    await refused(L(m, p, m === 'GET' ? undefined : {}, KEYS.admin, { 'X-API-VERSION': '1.0' }), 400, /X-API-VERSION: 2\.0/);
  }
  assert.equal(recordCount(s, OFFICES), 12);
});

test('legacy 5: a missing or invalid key is 401 {error} on Data Set routes', async () => {
  await refused(s.api(null, 'GET', '/api/data-sets', undefined, V2), 401);
  await refused(s.api('nope', 'GET', `/api/data-sets/${OFFICES}`, undefined, V2), 401);
});

test('legacy 4.8 GET /api/data-sets: organisation and system sets in `data` with fieldCount and recordCount', async () => {
  const r = await L('GET', '');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  const offices = r.body.data.find((d: any) => d.id === OFFICES);
  assert.deepEqual(Object.keys(offices), ['id', 'slug', 'name', 'source', 'description', 'fieldCount', 'recordCount', 'createdAt', 'updatedAt']);
  assert.equal(offices.slug, null);
  assert.equal(offices.source, 'organisation');
  assert.equal(offices.fieldCount, 4);
  assert.equal(offices.recordCount, 12);
  const countries = r.body.data.find((d: any) => d.slug === 'countries');
  assert.equal(countries.source, 'system');
  assert.equal(countries.updatedAt, null, 'updatedAt is null for system sets');
  // Another workspace's key sees the system set, never Acme's.
  const g = await s.api(KEYS.globexAdmin, 'GET', '/api/data-sets', undefined, V2);
  assert.deepEqual(g.body.data.map((d: any) => d.slug), ['countries']);
});

test('legacy 4.8 GET /api/data-sets/{id}: fields and views, no records; a system set by slug; 404 {error} otherwise', async () => {
  const r = await L('GET', `/${OFFICES}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), ['id', 'slug', 'name', 'source', 'description', 'createdAt', 'updatedAt', 'fields', 'views']);
  assert.deepEqual(r.body.fields[1], { id: OF.headcount, name: 'Headcount', type: 'number', description: null, position: 1 });
  assert.deepEqual(r.body.views[1], { id: OV.open, name: 'Open offices', isDefault: false, filters: [{ fieldId: OF.open, operator: 'eq', value: 'true' }], sorts: [{ fieldId: OF.name, direction: 'asc', position: 0 }], hiddenFields: [] });
  const c = await L('GET', '/countries');
  assert.equal(c.status, 200);
  assert.equal(c.body.id, COUNTRIES);
  assert.equal((await L('GET', '/COUNTRIES')).body.id, COUNTRIES, 'slugs are case-insensitive');
  await refused(L('GET', `/${MISSING}`), 404);
  await refused(L('GET', '/no-such-slug'), 404);
  await refused(s.api(KEYS.globexAdmin, 'GET', `/api/data-sets/${OFFICES}`, undefined, V2), 404, /No Data Set/);
});

test('legacy 4.8 POST /api/data-sets: 201, a default Name text field, All Records view, Unfiled', async () => {
  const r = await L('POST', '', { name: '  Regions  ', description: 'Sales regions' });
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.id, GUID);
  assert.equal(r.body.name, 'Regions');
  assert.equal(r.body.description, 'Sales regions');
  assert.equal(r.body.slug, null);
  assert.equal(r.body.source, 'organisation');
  assert.equal(r.body.fields.length, 1);
  assert.deepEqual({ ...r.body.fields[0], id: 'x' }, { id: 'x', name: 'Name', type: 'text', description: null, position: 0 });
  assert.deepEqual({ ...r.body.views[0], id: 'x' }, { id: 'x', name: 'All Records', isDefault: true, filters: [], sorts: [], hiddenFields: [] });
  assert.equal((s.emu.db.prepare('SELECT folder_id FROM data_sets WHERE key = ?').get(r.body.id) as any).folder_id, null, 'Unfiled');
  const typed = await L('POST', '', { name: 'Typed', fields: ['text', 'number', 'date', 'email', 'url', 'boolean'].map((t) => ({ name: `F ${t}`, type: t, description: `a ${t}` })) });
  assert.equal(typed.status, 201, typed.text);
  assert.deepEqual(typed.body.fields.map((f: any) => [f.type, f.position]), [['text', 0], ['number', 1], ['date', 2], ['email', 3], ['url', 4], ['boolean', 5]]);
});

test('legacy 8: Data Set name 200 characters, description 1,000, fields 50 (at the edge and one past)', async () => {
  assert.equal((await L('POST', '', { name: 'n'.repeat(200) })).status, 201);
  await refused(L('POST', '', { name: 'n'.repeat(201) }), 400, /200 characters/);
  assert.equal((await L('POST', '', { name: 'Desc edge', description: 'd'.repeat(1000) })).status, 201);
  await refused(L('POST', '', { name: 'Desc past', description: 'd'.repeat(1001) }), 400, /1,000 characters/);
  const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `F${i}`, type: 'text' }));
  const fifty = await L('POST', '', { name: 'Fifty', fields: fields(50) });
  assert.equal(fifty.status, 201);
  await refused(L('POST', '', { name: 'Fifty-one', fields: fields(51) }), 400, /at most 50/);
  await refused(L('POST', `/${fifty.body.id}/fields`, { name: 'F50', type: 'text' }), 400, /50 fields/);
  await refused(L('POST', '', { name: 'Field name', fields: [{ name: 'x'.repeat(201), type: 'text' }] }), 400, /200 characters/);
  assert.equal((await L('POST', '', { name: 'Field name ok', fields: [{ name: 'x'.repeat(200), type: 'text' }] })).status, 201);
});

test('legacy 4.8 POST /api/data-sets: bad bodies are 400 {error}; nothing is created', async () => {
  const before = (s.emu.db.prepare('SELECT COUNT(*) AS n FROM data_sets').get() as any).n;
  await refused(L('POST', '', {}), 400, /name is required/);
  await refused(L('POST', '', { name: 42 }), 400);
  await refused(L('POST', '', { name: 'x', fields: [] }), 400, /at least one/);
  await refused(L('POST', '', { name: 'x', fields: 'Name' }), 400);
  await refused(L('POST', '', { name: 'x', fields: [{ name: 'A', type: 'text' }, { name: 'a', type: 'number' }] }), 400, /unique/);
  await refused(L('POST', '', { name: 'x', fields: [{ name: 'A', type: 'string' }] }), 400, /text, number, date, email, url, boolean/);
  await refused(L('POST', '', { name: 'x', fields: [{ type: 'text' }] }), 400, /required/);
  await refused(L('POST', '', '[1,2]'), 400);
  await refused(s.api(KEYS.admin, 'POST', '/api/data-sets', '{not json', V2), 400, /not valid JSON/);
  assert.equal((s.emu.db.prepare('SELECT COUNT(*) AS n FROM data_sets').get() as any).n, before);
});

test('legacy 4.8 PUT /api/data-sets/{id}: name and description; system set 403; 404', async () => {
  const d = await newSet();
  const r = await L('PUT', `/${d.id}`, { name: 'Renamed', description: 'Now described' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.name, 'Renamed');
  assert.equal(r.body.description, 'Now described');
  assert.ok(Array.isArray(r.body.fields) && Array.isArray(r.body.views));
  const cleared = await L('PUT', `/${d.id}`, { name: 'Renamed' });
  assert.equal(cleared.body.description, null, 'PUT replaces: an omitted description is cleared');
  await refused(L('PUT', `/${d.id}`, { description: 'no name' }), 400, /name is required/);
  await refused(L('PUT', '/countries', { name: 'Nations' }), 403, /read-only/);
  await refused(L('PUT', `/${MISSING}`, { name: 'x' }), 404);
});

test('legacy 4.8 DELETE /api/data-sets/{id}: linked is 409 with templates; force=true deletes; system 403; member key 403', async () => {
  const r = await refused(L('DELETE', `/${OFFICES}`), 409, /linked/);
  assert.deepEqual(r.body.templates, [{ id: DEMO.onboarding, name: 'Employee Onboarding' }]);
  await refused(L('DELETE', `/${OFFICES}?force=false`), 409);
  await refused(L('DELETE', '/countries?force=true'), 403, /read-only/);
  await refused(L('DELETE', `/${COUNTRIES}`), 403);
  const d = await newSet();
  setRights(s, DEMO.members.mia, ['Library.Creator']);
  await refused(L('DELETE', `/${d.id}`, undefined, KEYS.member), 403, /Administrators/);
  setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
  const ok = await L('DELETE', `/${d.id}`);
  assert.equal(ok.status, 204);
  assert.equal(ok.text, '');
  await refused(L('GET', `/${d.id}`), 404);
  await refused(L('DELETE', `/${MISSING}`), 404);
});

test('legacy 4.8 fields: list, create (existing records gain it empty), 201', async () => {
  const list = await L('GET', `/${OFFICES}/fields`);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((f: any) => f.name), ['Name', 'Headcount', 'Contact', 'Open']);
  const d = await newSet([{ name: 'Name', type: 'text' }]);
  const rec = await L('POST', `/${d.id}/records`, { values: { [d.fields[0].id]: 'A' } });
  const f = await L('POST', `/${d.id}/fields`, { name: 'Size', type: 'number', description: 'people' });
  assert.equal(f.status, 201, f.text);
  assert.deepEqual({ ...f.body, id: 'x' }, { id: 'x', name: 'Size', type: 'number', description: 'people', position: 1 });
  const recs = await L('GET', `/${d.id}/records`);
  assert.deepEqual(recs.body.data[0].values, { [d.fields[0].id]: 'A' }, 'the new field is empty (omitted)');
  assert.equal(rec.status, 201);
  await refused(L('POST', `/${d.id}/fields`, { name: 'size', type: 'text' }), 400, /unique/);
  await refused(L('POST', `/${d.id}/fields`, { name: 'X', type: 'integer' }), 400);
  await refused(L('POST', `/${d.id}/fields`, { name: 'X' }), 400, /type is required/);
  await refused(L('POST', '/countries/fields', { name: 'X', type: 'text' }), 403);
});

test('legacy 4.8 PUT field: rename, retype (400 when a value would become invalid; to text always), reposition', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'text' }, { name: 'C', type: 'number' }]);
  const [A, B, C] = d.fields.map((f: any) => f.id);
  await L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: [{ values: { [A]: '12', [B]: 'x', [C]: 7 } }, { values: { [A]: '3.5', [C]: 1.25 } }] });
  const toNum = await L('PUT', `/${d.id}/fields/${A}`, { name: 'A num', type: 'number' });
  assert.equal(toNum.status, 200, toNum.text);
  assert.equal(toNum.body.type, 'number');
  const recs = await L('GET', `/${d.id}/records`);
  assert.deepEqual(recs.body.data.map((r: any) => r.values[A]), [12, 3.5], 'values converted to numbers');
  await refused(L('PUT', `/${d.id}/fields/${B}`, { name: 'B', type: 'number' }), 400, /"x"/);
  assert.equal((await L('GET', `/${d.id}/fields`)).body.data[1].type, 'text', 'a refused type change changes nothing');
  const toText = await L('PUT', `/${d.id}/fields/${C}`, { name: 'C', type: 'text' });
  assert.equal(toText.status, 200);
  assert.deepEqual((await L('GET', `/${d.id}/records`)).body.data.map((r: any) => r.values[C]), ['7', '1.25']);
  const moved = await L('PUT', `/${d.id}/fields/${C}`, { name: 'C', type: 'text', position: 0 });
  assert.equal(moved.body.position, 0);
  assert.deepEqual((await L('GET', `/${d.id}/fields`)).body.data.map((f: any) => [f.name, f.position]), [['C', 0], ['A num', 1], ['B', 2]]);
  await refused(L('PUT', `/${d.id}/fields/${C}`, { name: 'B', type: 'text' }), 400, /unique/);
  await refused(L('PUT', `/${d.id}/fields/${C}`, { type: 'text' }), 400, /name is required/);
  await refused(L('PUT', `/${d.id}/fields/${C}`, { name: 'C' }), 400, /type is required/);
  await refused(L('PUT', `/${d.id}/fields/${C}`, { name: 'C', type: 'text', position: -1 }), 400);
  await refused(L('PUT', `/${d.id}/fields/${MISSING}`, { name: 'C', type: 'text' }), 404);
  await refused(L('PUT', `/${d.id}/fields/${OF.name}`, { name: 'C', type: 'text' }), 404, /no field/);
  await refused(L('PUT', `/countries/fields/51000000-0000-4000-8000-000000000090`, { name: 'N', type: 'text' }), 403);
  // Every type's retype rule through the one validator.
  const e = await newSet([{ name: 'E', type: 'text' }]);
  const E = e.fields[0].id;
  await L('POST', `/${e.id}/records`, { values: { [E]: 'not-an-email' } });
  for (const t of ['number', 'date', 'email', 'url', 'boolean']) await refused(L('PUT', `/${e.id}/fields/${E}`, { name: 'E', type: t }), 400);
});

test('legacy 4.8 DELETE field: the only field 400; a linked Display Field 409; otherwise values and view references go', async () => {
  const one = await newSet();
  await refused(L('DELETE', `/${one.id}/fields/${one.fields[0].id}`), 400, /only field/);
  await refused(L('DELETE', `/${OFFICES}/fields/${OF.name}`), 409, /Display Field/);
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }]);
  const [A, B] = d.fields.map((f: any) => f.id);
  await L('POST', `/${d.id}/records`, { values: { [A]: 'a', [B]: 1 } });
  const v = await L('POST', `/${d.id}/views`, { name: 'By B', filters: [{ fieldId: B, operator: 'gt', value: '0' }], sorts: [{ fieldId: B, direction: 'desc' }], hiddenFields: [B] });
  assert.equal(v.status, 201, v.text);
  const del = await L('DELETE', `/${d.id}/fields/${B}`);
  assert.equal(del.status, 204);
  assert.deepEqual((await L('GET', `/${d.id}/records`)).body.data[0].values, { [A]: 'a' });
  const view = await L('GET', `/${d.id}/views/${v.body.id}`);
  assert.deepEqual([view.body.filters, view.body.sorts, view.body.hiddenFields], [[], [], []]);
  await refused(L('DELETE', `/${d.id}/fields/${B}`), 404);
  await refused(L('DELETE', `/countries/fields/51000000-0000-4000-8000-000000000091`), 403);
});

test('legacy 4.8 records: list pages (page, pageSize default 50, max 200) in creation order', async () => {
  const d = await newSet([{ name: 'N', type: 'number' }]);
  const N = d.fields[0].id;
  const bulk = await L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: Array.from({ length: 250 }, (_, i) => ({ values: { [N]: i } })) });
  assert.equal(bulk.status, 201, bulk.text);
  assert.deepEqual(bulk.body, { mode: 'append', created: 250, recordCount: 250 });
  const p1 = await L('GET', `/${d.id}/records`);
  assert.equal(p1.body.data.length, 50);
  assert.deepEqual(p1.body.pagination, { page: 1, pageSize: 50, total: 250, totalPages: 5 });
  assert.deepEqual(Object.keys(p1.body.data[0]), ['id', 'position', 'values']);
  const max = await L('GET', `/${d.id}/records?pageSize=200&page=2`);
  assert.equal(max.status, 200);
  assert.equal(max.body.data.length, 50);
  assert.equal(max.body.data[0].values[N], 200);
  assert.deepEqual(max.body.pagination, { page: 2, pageSize: 200, total: 250, totalPages: 2 });
  await refused(L('GET', `/${d.id}/records?pageSize=201`), 400, /at most 200/);
  await refused(L('GET', `/${d.id}/records?pageSize=0`), 400);
  await refused(L('GET', `/${d.id}/records?page=0`), 400);
  await refused(L('GET', `/${d.id}/records?page=two`), 400);
  await refused(L('GET', `/${d.id}/records?viewId=abc`), 400, /GUID/);
  await refused(L('GET', `/${d.id}/records?viewId=${OV.open}`), 404, /no view/);
  assert.equal((await L('GET', `/${d.id}/records?page=9`)).body.data.length, 0);
});

test('legacy 4.8 records: create validates every value against its type; empty always allowed; another set\'s field ids 400', async () => {
  const d = await newSet(['text', 'number', 'date', 'email', 'url', 'boolean'].map((t) => ({ name: t, type: t })));
  const K = Object.fromEntries(d.fields.map((f: any) => [f.type, f.id]));
  const ok = await L('POST', `/${d.id}/records`, { values: { [K.text]: ' spaced ', [K.number]: '42.5', [K.date]: '2026-02-28', [K.email]: 'a@b.co', [K.url]: 'https://x.test/p?q=1', [K.boolean]: 'TRUE' } });
  assert.equal(ok.status, 201, ok.text);
  assert.deepEqual(ok.body.values, { [K.text]: ' spaced ', [K.number]: 42.5, [K.date]: '2026-02-28', [K.email]: 'a@b.co', [K.url]: 'https://x.test/p?q=1', [K.boolean]: true });
  const empty = await L('POST', `/${d.id}/records`, { values: { [K.number]: '', [K.date]: null } });
  assert.equal(empty.status, 201);
  assert.deepEqual(empty.body.values, {});
  const bad: [string, unknown][] = [
    ['number', 'twelve'], ['number', '1,5'], ['date', '2026-02-30'], ['date', '28/02/2026'], ['email', 'nobody'], ['email', 'a@b'],
    ['url', 'example.com'], ['url', 'ftp://x.test'], ['boolean', 'yes'], ['boolean', 1], ['text', { a: 1 }], ['text', ['x']],
  ];
  const before = recordCount(s, d.id);
  for (const [t, v] of bad) await refused(L('POST', `/${d.id}/records`, { values: { [K[t]]: v } }), 400, new RegExp(t));
  await refused(L('POST', `/${d.id}/records`, { values: { [OF.name]: 'x' } }), 400, /not a field of this Data Set/);
  await refused(L('POST', `/${d.id}/records`, { values: { Name: 'x' } }), 400, /keyed by field key/);
  await refused(L('POST', `/${d.id}/records`, { values: 'x' }), 400);
  assert.equal(recordCount(s, d.id), before, 'refused records are not created');
});

test('legacy 8: total cell text per record 5 KB (5,120 bytes ok, 5,121 refused; UTF-8 bytes)', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'text' }]);
  const [A, B] = d.fields.map((f: any) => f.id);
  assert.equal((await L('POST', `/${d.id}/records`, { values: { [A]: 'a'.repeat(5000), [B]: 'b'.repeat(120) } })).status, 201);
  await refused(L('POST', `/${d.id}/records`, { values: { [A]: 'a'.repeat(5000), [B]: 'b'.repeat(121) } }), 400, /5 KB/);
  await refused(L('POST', `/${d.id}/records`, { values: { [A]: 'é'.repeat(2561) } }), 400, /5 KB/);
  assert.equal((await L('POST', `/${d.id}/records`, { values: { [A]: 'é'.repeat(2560) } })).status, 201);
});

test('legacy 4.8 PUT record replaces values (omitted fields cleared); DELETE 204; 404s', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }]);
  const [A, B] = d.fields.map((f: any) => f.id);
  const r = await L('POST', `/${d.id}/records`, { values: { [A]: 'a', [B]: 1 } });
  const u = await L('PUT', `/${d.id}/records/${r.body.id}`, { values: { [B]: 2 } });
  assert.equal(u.status, 200, u.text);
  assert.deepEqual(u.body, { id: r.body.id, position: 0, values: { [B]: 2 } });
  await refused(L('PUT', `/${d.id}/records/${r.body.id}`, { values: { [B]: 'x' } }), 400);
  await refused(L('PUT', `/${d.id}/records/${MISSING}`, { values: {} }), 404);
  await refused(L('PUT', `/${d.id}/records/${BERLIN}`, { values: {} }), 404, /no record/);
  await refused(L('PUT', `/countries/records/52000000-0000-4000-8000-000000000900`, { values: {} }), 403);
  assert.equal((await L('DELETE', `/${d.id}/records/${r.body.id}`)).status, 204);
  await refused(L('DELETE', `/${d.id}/records/${r.body.id}`), 404);
  await refused(L('DELETE', `/countries/records/52000000-0000-4000-8000-000000000900`), 403);
  await refused(L('POST', `/countries/records`, { values: {} }), 403);
});

test('legacy 4.8 bulk create: append or replace, atomic; bad bodies 400; bulk delete 204, unknown ids 404 with nothing deleted', async () => {
  const d = await newSet([{ name: 'N', type: 'number' }]);
  const N = d.fields[0].id;
  await L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: [{ values: { [N]: 1 } }, { values: { [N]: 2 } }] });
  const rep = await L('POST', `/${d.id}/records/bulk`, { mode: 'replace', records: [{ values: { [N]: 3 } }] });
  assert.deepEqual(rep.body, { mode: 'replace', created: 1, recordCount: 1 });
  await refused(L('POST', `/${d.id}/records/bulk`, { mode: 'replace', records: [{ values: { [N]: 4 } }, { values: { [N]: 'x' } }] }), 400, /records\[1\]/);
  assert.deepEqual((await L('GET', `/${d.id}/records`)).body.data.map((r: any) => r.values[N]), [3], 'a refused replace changes nothing');
  await refused(L('POST', `/${d.id}/records/bulk`, { records: [{ values: {} }] }), 400, /mode is required/);
  await refused(L('POST', `/${d.id}/records/bulk`, { mode: 'upsert', records: [{ values: {} }] }), 400, /append or replace/);
  await refused(L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: [] }), 400, /at least one/);
  await refused(L('POST', `/${d.id}/records/bulk`, { mode: 'append' }), 400, /records is required/);
  await refused(L('POST', `/countries/records/bulk`, { mode: 'append', records: [{ values: {} }] }), 403);
  const more = await L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: [{ values: { [N]: 5 } }, { values: { [N]: 6 } }] });
  assert.equal(more.status, 201);
  const ids = (await L('GET', `/${d.id}/records`)).body.data.map((r: any) => r.id);
  await refused(L('DELETE', `/${d.id}/records/bulk`, { recordIds: [ids[0], MISSING] }), 404);
  assert.equal(recordCount(s, d.id), 3, 'nothing deleted');
  await refused(L('DELETE', `/${d.id}/records/bulk`, { recordIds: ['x'] }), 400);
  await refused(L('DELETE', `/${d.id}/records/bulk`, {}), 400, /recordIds is required/);
  await refused(L('DELETE', `/countries/records/bulk`, { recordIds: [] }), 403);
  assert.equal((await L('DELETE', `/${d.id}/records/bulk`, { recordIds: [ids[0], ids[1]] })).status, 204);
  assert.equal(recordCount(s, d.id), 1);
});

test('legacy 8: at most 10,000 records per set (bulk replace of 10,000 ok, 10,001 refused; create and append past the edge refused)', async () => {
  const d = await newSet([{ name: 'N', type: 'number' }]);
  const N = d.fields[0].id;
  const rows = (n: number, key = N) => Array.from({ length: n }, (_, i) => ({ values: { [key]: i } }));
  await refused(L('POST', `/${d.id}/records/bulk`, { mode: 'replace', records: rows(10_001) }), 400, /10,000/);
  assert.equal(recordCount(s, d.id), 0);
  const full = await L('POST', `/${d.id}/records/bulk`, { mode: 'replace', records: rows(10_000) });
  assert.equal(full.status, 201, full.text);
  assert.equal(full.body.recordCount, 10_000);
  await refused(L('POST', `/${d.id}/records`, { values: { [N]: 1 } }), 400, /10,000/);
  await refused(L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: rows(1) }), 400, /10,000/);
  const d2 = await newSet([{ name: 'N', type: 'number' }]);
  assert.equal((await L('POST', `/${d2.id}/records/bulk`, { mode: 'append', records: rows(9_999, d2.fields[0].id) })).status, 201);
  assert.equal((await L('POST', `/${d2.id}/records`, { values: { [d2.fields[0].id]: 1 } })).status, 201, 'the 10,000th record is allowed');
  await refused(L('POST', `/${d2.id}/records`, { values: {} }), 400, /10,000/);
  assert.equal(recordCount(s, d2.id), 10_000);
});

/** Values (by field name) of the records a view lists, in its order. */
async function viewed(setId: string, viewId: string, field: string) {
  const r = await L('GET', `/${setId}/records?viewId=${viewId}&pageSize=200`);
  assert.equal(r.status, 200, r.text);
  return r.body.data.map((x: any) => x.values[field]);
}

test('legacy 4.8 views: every one of the thirteen operators, on text and number fields', async () => {
  const d = await newSet([{ name: 'T', type: 'text' }, { name: 'N', type: 'number' }, { name: 'B', type: 'boolean' }, { name: 'D', type: 'date' }]);
  const [T, N, B, D] = d.fields.map((f: any) => f.id);
  await L('POST', `/${d.id}/records/bulk`, {
    mode: 'append',
    records: [
      { values: { [T]: 'Apple', [N]: 10, [B]: true, [D]: '2026-01-15' } },
      { values: { [T]: 'banana split', [N]: 2, [B]: false, [D]: '2025-12-31' } },
      { values: { [T]: 'Cherry', [N]: 30 } },
      { values: { [N]: 2.5, [B]: true } },
    ],
  });
  const cases: [string, string, string | undefined, unknown[], string][] = [
    [T, 'eq', 'apple', ['Apple'], T],
    [T, 'neq', 'apple', ['banana split', 'Cherry', undefined], T],
    [T, 'contains', 'AN', ['banana split'], T],
    [T, 'not_contains', 'an', ['Apple', 'Cherry', undefined], T],
    [T, 'starts_with', 'ch', ['Cherry'], T],
    [T, 'ends_with', 'SPLIT', ['banana split'], T],
    [N, 'gt', '2.5', [10, 30], N],
    [N, 'gte', '2.5', [10, 30, 2.5], N],
    [N, 'lt', '10', [2, 2.5], N],
    [N, 'lte', '10', [10, 2, 2.5], N],
    [T, 'is_empty', undefined, [2.5], N],
    [T, 'is_not_empty', undefined, [10, 2, 30], N],
    [N, 'in', '2, 30,99', [2, 30], N],
    [T, 'in', 'apple,Cherry', ['Apple', 'Cherry'], T],
    [N, 'eq', '2', [2], N],
    [B, 'eq', 'true', [10, 2.5], N],
    [B, 'neq', 'true', [2, 30], N],
    [D, 'gte', '2026-01-01', ['2026-01-15'], D],
    [D, 'lt', '2026-01-01', ['2025-12-31'], D],
    [D, 'is_empty', undefined, [30, 2.5], N],
  ];
  for (const [fieldId, operator, value, expected, show] of cases) {
    const v = await L('POST', `/${d.id}/views`, { name: `${operator} ${fieldId.slice(0, 4)} ${value ?? ''}`.slice(0, 200), filters: [{ fieldId, operator, ...(value !== undefined ? { value } : {}) }] });
    assert.equal(v.status, 201, v.text);
    assert.deepEqual(await viewed(d.id, v.body.id, show), expected, `${operator} ${value}`);
    assert.equal((await L('DELETE', `/${d.id}/views/${v.body.id}`)).status, 204);
  }
  // Filters are ANDed; sorts apply by position, lowest first; empty cells sort last.
  const v = await L('POST', `/${d.id}/views`, { name: 'Sorted', filters: [{ fieldId: N, operator: 'gt', value: '1' }, { fieldId: N, operator: 'lt', value: '20' }], sorts: [{ fieldId: T, direction: 'desc', position: 1 }, { fieldId: B, direction: 'asc', position: 0 }] });
  assert.deepEqual(await viewed(d.id, v.body.id, N), [2, 10, 2.5], 'B asc (false first), then T desc, empty T last');
  const all = await L('POST', `/${d.id}/views`, { name: 'By N desc', sorts: [{ fieldId: N, direction: 'desc' }], hiddenFields: [T, D] });
  assert.deepEqual(await viewed(d.id, all.body.id, N), [30, 10, 2.5, 2]);
  const hidden = await L('GET', `/${d.id}/records?viewId=${all.body.id}`);
  assert.deepEqual(Object.keys(hidden.body.data[0].values), [N], 'hidden fields are left out of the records');
});

test('legacy 4.8 views: an unrecognised operator is 400; bad filters, sorts and hiddenFields 400; nothing created', async () => {
  const views = (await L('GET', `/${OFFICES}/views`)).body.data.length;
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', filters: [{ fieldId: OF.name, operator: 'like', value: 'x' }] }), 400, /not an operator/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', filters: [{ fieldId: OF.name, value: 'x' }] }), 400, /operator is required/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', filters: [{ fieldId: OF.name, operator: 'eq' }] }), 400, /value is required/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', filters: [{ fieldId: MISSING, operator: 'eq', value: 'x' }] }), 400, /not a field/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', filters: [{ fieldId: OF.headcount, operator: 'gt', value: 'many' }] }), 400, /number/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', sorts: [{ fieldId: OF.name, direction: 'up' }] }), 400, /asc or desc/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', hiddenFields: ['Name'] }), 400, /not a field/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'Bad', filters: {} }), 400, /array/);
  await refused(L('POST', `/${OFFICES}/views`, { filters: [] }), 400, /name is required/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'v'.repeat(201) }), 400, /200 characters/);
  await refused(L('POST', `/${OFFICES}/views`, { name: 'open offices' }), 400, /unique/);
  await refused(L('POST', '/countries/views', { name: 'Mine' }), 403);
  assert.equal((await L('GET', `/${OFFICES}/views`)).body.data.length, views);
});

test('legacy 4.8 views: get, PUT replaces filters, sorts and hidden fields entirely; All Records cannot be renamed or deleted; 404s', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }]);
  const [A, B] = d.fields.map((f: any) => f.id);
  const v = await L('POST', `/${d.id}/views`, { name: 'V', filters: [{ fieldId: B, operator: 'gt', value: 1 }], sorts: [{ fieldId: A }], hiddenFields: [B] });
  assert.deepEqual(v.body.filters, [{ fieldId: B, operator: 'gt', value: '1' }]);
  assert.deepEqual(v.body.sorts, [{ fieldId: A, direction: 'asc', position: 0 }]);
  const got = await L('GET', `/${d.id}/views/${v.body.id}`);
  assert.deepEqual(got.body, v.body);
  const put = await L('PUT', `/${d.id}/views/${v.body.id}`, { name: 'V2', filters: [{ fieldId: A, operator: 'is_empty' }] });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(put.body, { id: v.body.id, name: 'V2', isDefault: false, filters: [{ fieldId: A, operator: 'is_empty', value: null }], sorts: [], hiddenFields: [] });
  const allId = d.views[0].id;
  await refused(L('PUT', `/${d.id}/views/${allId}`, { name: 'Everything' }), 400, /All Records/);
  const all = await L('PUT', `/${d.id}/views/${allId}`, { name: 'All Records', sorts: [{ fieldId: B, direction: 'desc' }] });
  assert.equal(all.status, 200, 'All Records keeps its name but its sorts, filters and hidden fields are replaced (test/fidelity-legacy.test.ts)');
  await refused(L('DELETE', `/${d.id}/views/${allId}`), 400, /All Records/);
  await refused(L('GET', `/${d.id}/views/${MISSING}`), 404);
  await refused(L('PUT', `/${d.id}/views/${MISSING}`, { name: 'x' }), 404);
  await refused(L('DELETE', `/${d.id}/views/${OV.open}`), 404);
  await refused(L('PUT', `/countries/views/53000000-0000-4000-8000-000000000090`, { name: 'x' }), 403);
  await refused(L('DELETE', `/countries/views/53000000-0000-4000-8000-000000000090`), 403);
  assert.equal((await L('GET', '/countries/views/53000000-0000-4000-8000-000000000090')).status, 200, 'reading a system set is fine');
  assert.equal((await L('DELETE', `/${d.id}/views/${v.body.id}`)).status, 204);
});

test('legacy 8: at most 20 views per set, All Records included (the 20th is allowed, the 21st refused)', async () => {
  const d = await newSet();
  for (let i = 2; i <= 20; i++) assert.equal((await L('POST', `/${d.id}/views`, { name: `V${i}` })).status, 201);
  await refused(L('POST', `/${d.id}/views`, { name: 'V21' }), 400, /20 views/);
  assert.equal((await L('GET', `/${d.id}/views`)).body.data.length, 20);
});

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const today = () => new Date().toISOString().slice(0, 10);

test('legacy 4.8 CSV export: text/csv, UTF-8 with BOM, <data-set>-<view>-<date>.csv, visible columns, filters and sort; system 403', async () => {
  const all = await getBytes(s, KEYS.admin, `/api/data-sets/${OFFICES}/export`, V2);
  assert.equal(all.status, 200);
  assert.equal(all.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.match(all.headers.get('content-disposition')!, new RegExp(`filename="Offices-All Records-${today()}\\.csv"`));
  assert.deepEqual(all.bytes.subarray(0, 3), BOM);
  const lines = all.bytes.subarray(3).toString('utf8').split('\r\n');
  assert.equal(lines[0], 'Name,Headcount,Contact,Open');
  assert.equal(lines[1], 'Berlin,120,berlin@acme.test,true');
  assert.equal(lines.filter((l) => l !== '').length, 13);
  const v = await L('POST', `/${OFFICES}/views`, { name: 'Big closed', filters: [{ fieldId: OF.open, operator: 'eq', value: 'false' }], sorts: [{ fieldId: OF.headcount, direction: 'desc' }], hiddenFields: [OF.contact, OF.open] });
  const some = await getBytes(s, KEYS.admin, `/api/data-sets/${OFFICES}/export?viewId=${v.body.id}`, V2);
  assert.match(some.headers.get('content-disposition')!, new RegExp(`Offices-Big closed-${today()}\\.csv`));
  assert.equal(some.bytes.subarray(3).toString('utf8'), 'Name,Headcount\r\nToronto,40\r\nMadrid,30\r\nOslo,15\r\n');
  await refused(L('GET', '/countries/export'), 403, /read-only/);
  await refused(L('GET', `/${OFFICES}/export?viewId=${MISSING}`), 404);
  await refused(L('GET', `/${MISSING}/export`), 404);
});

test('legacy 4.8 CSV import create: multipart, {status: complete, dataSet}; name defaults to the file name; types inferred; values round trip byte for byte', async () => {
  const csv = 'Name,Count,Active,Since,Mail,Site,Note\r\n"Smith, J.",3,true,2026-01-02,j@x.test,https://x.test,"He said ""hi""\nthen left"\r\n  padded  ,0042,false,,,,\u00e9t\u00e9 \u2603\r\n';
  const r = await postForm(s, KEYS.admin, '/api/data-sets/import', { file: { bytes: Buffer.concat([BOM, Buffer.from(csv)]), fileName: 'team list.csv' }, description: 'From CSV' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.status, 'complete');
  const ds = r.body.dataSet;
  assert.equal(ds.name, 'team list');
  assert.equal(ds.description, 'From CSV');
  assert.deepEqual(ds.fields.map((f: any) => [f.name, f.type]), [['Name', 'text'], ['Count', 'text'], ['Active', 'boolean'], ['Since', 'date'], ['Mail', 'email'], ['Site', 'url'], ['Note', 'text']], '0042 keeps Count text: a number would not re-export byte for byte');
  const back = await getBytes(s, KEYS.admin, `/api/data-sets/${ds.id}/export`, V2);
  assert.equal(back.bytes.subarray(3).toString('utf8'), csv.replace(/,,,,/, ',,,,'), 'export reproduces the imported cells');
  // Export, then import as a new set and replace: the values are the same, byte for byte.
  const offices = await getBytes(s, KEYS.admin, `/api/data-sets/${OFFICES}/export`, V2);
  const copy = await postForm(s, KEYS.admin, '/api/data-sets/import', { file: { bytes: offices.bytes, fileName: 'offices.csv' }, name: 'Offices copy' });
  assert.equal(copy.status, 200, copy.text);
  assert.deepEqual(copy.body.dataSet.fields.map((f: any) => f.type), ['text', 'number', 'email', 'boolean']);
  const again = await getBytes(s, KEYS.admin, `/api/data-sets/${copy.body.dataSet.id}/export`, V2);
  assert.deepEqual(again.bytes.subarray(3), offices.bytes.subarray(3));
  const orig = (await L('GET', `/${OFFICES}/records?pageSize=200`)).body.data.map((x: any) => Object.values(x.values));
  const copied = (await L('GET', `/${copy.body.dataSet.id}/records?pageSize=200`)).body.data.map((x: any) => Object.values(x.values));
  assert.deepEqual(copied, orig, 'typed values equal');
});

test('legacy 4.8 CSV import replace: dataSetId required; columns must be fields; whole file valid or nothing imported', async () => {
  const d = await newSet([{ name: 'Name', type: 'text' }, { name: 'Size', type: 'number' }]);
  const [NAME, SIZE] = d.fields.map((f: any) => f.id);
  await L('POST', `/${d.id}/records`, { values: { [NAME]: 'keep me' } });
  const file = (text: string | Buffer, fileName = 'x.csv') => ({ bytes: text, fileName });
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', file: file('Name\nA\n') }), 400, /dataSetId is required/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'merge', dataSetId: d.id, file: file('Name\nA\n') }), 400, /create or replace/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('Name,Colour\nA,red\n') }), 400, /"Colour" is not a field/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('Name,Size\nA,1\nB,lots\n') }), 400, /row 3, column "Size"/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('Name,Size\nA,1,extra\n') }), 400, /not a valid CSV/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('Name\n"unclosed\n') }), 400, /not a valid CSV/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file(Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x41, 0x0a])) }), 400, /not UTF-8/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('') }), 400, /empty/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('Name,name\na,b\n') }), 400, /twice/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id }), 400, /file is required/);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: 'countries', file: file('Name\nX\n') }), 403);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: MISSING, file: file('Name\nX\n') }), 404);
  await refused(L('POST', '/import', { file: 'Name\nA' }), 400, /multipart/);
  assert.deepEqual((await L('GET', `/${d.id}/records`)).body.data.map((x: any) => x.values[NAME]), ['keep me'], 'nothing partly imported');
  const ok = await postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: file('size,NAME\n3,"a\r\nb"\n,c\n') });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.dataSet.id, d.id);
  assert.deepEqual((await L('GET', `/${d.id}/records`)).body.data.map((x: any) => x.values), [{ [NAME]: 'a\r\nb', [SIZE]: 3 }, { [NAME]: 'c' }]);
});

test('legacy 8: a CSV import file is at most 5 MB (5,242,880 bytes imported, one byte more refused)', async () => {
  const header = 'Name\n';
  const row = 'x'.repeat(1023) + '\n'; // 1 KB per record
  const rows = Math.floor((5 * 1024 * 1024 - header.length) / row.length);
  let body = header + row.repeat(rows);
  const pad = 5 * 1024 * 1024 - body.length;
  body += 'y'.repeat(pad - 1) + '\n';
  assert.equal(Buffer.byteLength(body), 5 * 1024 * 1024);
  const ok = await postForm(s, KEYS.admin, '/api/data-sets/import', { file: { bytes: body, fileName: 'five.csv' } });
  assert.equal(ok.status, 200, ok.text.slice(0, 300));
  assert.equal(ok.body.dataSet.fields.length, 1);
  assert.equal(recordCount(s, ok.body.dataSet.id), rows + 1);
  await refused(postForm(s, KEYS.admin, '/api/data-sets/import', { file: { bytes: body + 'z', fileName: 'over.csv' } }), 400, /5 MB/);
});

test('spec v3 6.3 via legacy: created (values by field id), updated (changed fields only), deleted; bulk create and CSV import raise none; bulk delete one each', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }]);
  const [A, B] = d.fields.map((f: any) => f.id);
  let since = lastEventId(s);
  const r = await L('POST', `/${d.id}/records`, { values: { [A]: 'a', [B]: 1 } });
  await L('PUT', `/${d.id}/records/${r.body.id}`, { values: { [A]: 'a', [B]: 2 } });
  await L('PUT', `/${d.id}/records/${r.body.id}`, { values: { [A]: 'a', [B]: 2 } });
  await L('DELETE', `/${d.id}/records/${r.body.id}`);
  assert.deepEqual(recordEvents(s, since), [
    { type: 'data_set.record.created', snapshot: { dataSetId: d.id, dataSetName: d.name, recordId: r.body.id, values: { [A]: 'a', [B]: 1 } } },
    { type: 'data_set.record.updated', snapshot: { dataSetId: d.id, dataSetName: d.name, recordId: r.body.id, changes: { [B]: { before: 1, after: 2 } } } },
    { type: 'data_set.record.deleted', snapshot: { dataSetId: d.id, dataSetName: d.name, recordId: r.body.id } },
  ], 'an update that changes nothing raises nothing');
  since = lastEventId(s);
  await L('POST', `/${d.id}/records/bulk`, { mode: 'append', records: [{ values: { [A]: 'x' } }, { values: { [A]: 'y' } }, { values: { [A]: 'z' } }] });
  await L('POST', `/${d.id}/records/bulk`, { mode: 'replace', records: [{ values: { [A]: 'x' } }, { values: { [A]: 'y' } }, { values: { [A]: 'z' } }] });
  await postForm(s, KEYS.admin, '/api/data-sets/import', { mode: 'replace', dataSetId: d.id, file: { bytes: 'A\np\nq\nr\n', fileName: 'r.csv' } });
  await postForm(s, KEYS.admin, '/api/data-sets/import', { file: { bytes: 'A\np\n', fileName: 'new.csv' } });
  assert.deepEqual(recordEvents(s, since), [], 'bulk create and CSV imports (replace included) raise no record events');
  const ids = (await L('GET', `/${d.id}/records`)).body.data.map((x: any) => x.id);
  await L('DELETE', `/${d.id}/records/bulk`, { recordIds: ids.slice(0, 2) });
  assert.deepEqual(recordEvents(s, since).map((e) => [e.type, e.snapshot.recordId]), [['data_set.record.deleted', ids[0]], ['data_set.record.deleted', ids[1]]]);
  // A refused write raises nothing.
  since = lastEventId(s);
  await refused(L('POST', `/${d.id}/records`, { values: { [B]: 'nan' } }), 400);
  assert.deepEqual(recordEvents(s, since), []);
});

test('legacy 2, 7: the system set countries is read-only: every write 403 {error}, nothing changes', async () => {
  const writes: [string, string, unknown][] = [
    ['PUT', '/countries', { name: 'x' }],
    ['DELETE', '/countries', undefined],
    ['POST', '/countries/fields', { name: 'x', type: 'text' }],
    ['PUT', '/countries/fields/51000000-0000-4000-8000-000000000090', { name: 'x', type: 'text' }],
    ['DELETE', '/countries/fields/51000000-0000-4000-8000-000000000090', undefined],
    ['POST', '/countries/records', { values: {} }],
    ['PUT', '/countries/records/52000000-0000-4000-8000-000000000900', { values: {} }],
    ['DELETE', '/countries/records/52000000-0000-4000-8000-000000000900', undefined],
    ['POST', '/countries/records/bulk', { mode: 'append', records: [{ values: {} }] }],
    ['DELETE', '/countries/records/bulk', { recordIds: ['52000000-0000-4000-8000-000000000900'] }],
    ['POST', '/countries/views', { name: 'x' }],
    ['PUT', '/countries/views/53000000-0000-4000-8000-000000000090', { name: 'x' }],
    ['DELETE', '/countries/views/53000000-0000-4000-8000-000000000090', undefined],
    ['GET', '/countries/export', undefined],
  ];
  for (const [m, p, b] of writes) await refused(L(m, p, b), 403, /read-only/);
  for (const [m, p, b] of writes) await refused(L(m, p.replace('/countries', `/${COUNTRIES}`), b), 403, /read-only/);
  assert.equal(recordCount(s, COUNTRIES), 8);
  const r = await L('GET', '/countries/records');
  assert.equal(r.body.pagination.total, 8);
});

test('spec v3 5.4, 5.5 via legacy: a member key without Library rights is 403; the member key of another workspace sees 404', async () => {
  await refused(L('GET', '', undefined, KEYS.noperm), 403, /Library or Template right/);
  await refused(L('POST', '', { name: 'Mine' }, KEYS.member), 403, /Library\.Creator/);
  await refused(L('GET', `/${OFFICES}`, undefined, KEYS.globexWorkspace), 404);
  assert.equal((await L('GET', `/${OFFICES}`, undefined, KEYS.workspace)).status, 200, 'the workspace key passes every Data Set check');
});
