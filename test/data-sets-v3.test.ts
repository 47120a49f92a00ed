// v3 Data Set routes (spec v3 4.7 paths, 4.1 conventions, 5.4-5.6, 5.9 permissions, 6.3
// events, 9 PATCH; docs/data-sets.md) over the store the legacy API uses. The test
// server checks every answer against the declared contract.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { startReceiver, type Receiver } from './helpers/webhooks';
import { F, T, newChecklist, taskPath } from './helpers/tasks';
import { BERLIN, COUNTRIES, MISSING, OF, OFFICES, OV, V2, getBytes, lastEventId, recordCount, recordEvents, setRights } from './helpers/data-sets';

let s: TestServer;
let rx: Receiver;
before(async () => {
  s = await startTestServer();
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await s.close();
});

const DS = '/v3/data-sets';
const A = (method: string, path: string, body?: unknown, key: string = KEYS.admin) => s.api(key, method, `${DS}${path}`, body);

async function refused(p: Promise<{ status: number; body: any; text: string }>, status: number, code: string, field?: string, match?: RegExp) {
  const r = await p;
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error.code, code, r.text);
  if (field !== undefined) assert.equal(r.body.error.field, field, r.text);
  if (match) assert.match(r.body.error.message, match);
  return r;
}

async function newSet(fields?: unknown[], name = `V3 ${Math.random().toString(36).slice(2, 8)}`) {
  const r = await A('POST', '', { name, ...(fields ? { fields } : {}) });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

test('v3 4.7 GET /v3/data-sets: page envelope of organisation then system sets; cursors', async () => {
  const r = await A('GET', '');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body), ['items', 'hasMore', 'total']);
  assert.deepEqual(r.body.items.map((d: any) => d.name), ['Offices', 'Countries']);
  assert.deepEqual(r.body.items[0], {
    key: OFFICES, name: 'Offices', source: 'organisation', description: "Acme's offices.", fieldCount: 4, recordCount: 12,
    createdDateTime: r.body.items[0].createdDateTime, updatedDateTime: r.body.items[0].updatedDateTime, url: `${s.us}/app/data-sets/${OFFICES}`,
  });
  assert.equal(r.body.items[1].slug, 'countries');
  assert.equal(r.body.items[1].updatedDateTime, undefined, 'omitted, never null');
  const p1 = await A('GET', '?pageSize=1');
  assert.equal(p1.body.hasMore, true);
  const p2 = await A('GET', `?pageSize=1&after=${p1.body.nextCursor}`);
  assert.deepEqual(p2.body.items.map((d: any) => d.key), [COUNTRIES]);
  await refused(A('GET', `?pageSize=2&after=${p1.body.nextCursor}`), 400, 'VALIDATION_ERROR', 'after');
  await refused(A('GET', '?pageSize=101'), 400, 'VALIDATION_ERROR', 'pageSize');
});

test('v3 4.7 POST /v3/data-sets 201 (default Name field, All Records); GET by key and by slug; PATCH; 404 and 400 keys', async () => {
  const made = await A('POST', '', { name: 'Projects', description: 'Live projects', fields: [{ name: 'Code', type: 'text' }, { name: 'Budget', type: 'number', description: 'EUR' }] });
  assert.equal(made.status, 201, made.text);
  assert.deepEqual(made.body.fields.map((f: any) => [f.name, f.type, f.position, f.description]), [['Code', 'text', 0, undefined], ['Budget', 'number', 1, 'EUR']]);
  assert.deepEqual(made.body.views.map((v: any) => [v.name, v.isDefault]), [['All Records', true]]);
  const dflt = await A('POST', '', { name: 'Plain' });
  assert.deepEqual(dflt.body.fields.map((f: any) => [f.name, f.type]), [['Name', 'text']]);
  const got = await A('GET', `/${made.body.key}`);
  assert.deepEqual(got.body, made.body);
  assert.equal((await A('GET', '/countries')).body.key, COUNTRIES);
  const p = await A('PATCH', `/${made.body.key}`, { description: null });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.body.name, 'Projects', 'PATCH leaves what is not sent');
  assert.equal(p.body.description, undefined, 'null clears');
  assert.equal((await A('PATCH', `/${made.body.key}`, { name: 'Programmes' })).body.name, 'Programmes');
  await refused(A('GET', `/${MISSING}`), 404, 'DATA_SET_NOT_FOUND');
  await refused(A('GET', '/not a key!'), 400, 'VALIDATION_ERROR', 'dataSetKey');
  await refused(s.api(KEYS.globexAdmin, 'GET', `${DS}/${OFFICES}`, undefined, {}, s.eu), 404, 'DATA_SET_NOT_FOUND');
  await refused(A('POST', '', { name: 'n'.repeat(201) }), 400, 'VALIDATION_ERROR', 'name');
  await refused(A('POST', '', { name: 'x', fields: [{ name: 'A', type: 'string' }] }), 400, 'VALIDATION_ERROR', 'fields[0].type');
  await refused(A('POST', '', { name: 'x', fields: Array.from({ length: 51 }, (_, i) => ({ name: `F${i}`, type: 'text' })) }), 400, 'VALIDATION_ERROR', 'fields');
  await refused(A('PATCH', '/countries', { name: 'x' }), 403, 'FORBIDDEN', undefined, /read-only/);
});

test('v3 5.6 DELETE /v3/data-sets/{key}: Administrators only; linked 409 CONFLICT with templates; force=true deletes; system 403', async () => {
  const r = await refused(A('DELETE', `/${OFFICES}`), 409, 'CONFLICT');
  assert.deepEqual(r.body.error.templates, [{ key: DEMO.onboarding, name: 'Employee Onboarding' }]);
  await refused(A('DELETE', '/countries'), 403, 'FORBIDDEN');
  const d = await newSet();
  setRights(s, DEMO.members.mia, ['Library.Creator']);
  await refused(A('DELETE', `/${d.key}`, undefined, KEYS.member), 403, 'FORBIDDEN', undefined, /Administrators/);
  setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
  assert.equal((await A('DELETE', `/${d.key}`, undefined, KEYS.workspace)).status, 204);
  await refused(A('DELETE', `/${d.key}`), 404, 'DATA_SET_NOT_FOUND');
});

test('v3 fields: list, add, get, PATCH (rename, retype with conversion, reposition), delete; refusals', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'text' }]);
  const [FA, FB] = d.fields.map((f: any) => f.key);
  await A('POST', `/${d.key}/records`, { values: { [FA]: '1', [FB]: 'x' } });
  const list = await A('GET', `/${d.key}/fields`);
  assert.deepEqual(list.body.items.map((f: any) => f.name), ['A', 'B']);
  const c = await A('POST', `/${d.key}/fields`, { name: 'C', type: 'url' });
  assert.equal(c.status, 201, c.text);
  assert.deepEqual((await A('GET', `/${d.key}/fields/${c.body.key}`)).body, c.body);
  const re = await A('PATCH', `/${d.key}/fields/${FA}`, { type: 'number' });
  assert.equal(re.status, 200, re.text);
  assert.deepEqual([re.body.name, re.body.type], ['A', 'number']);
  assert.equal((await A('GET', `/${d.key}/records`)).body.items[0].values[FA], 1);
  await refused(A('PATCH', `/${d.key}/fields/${FB}`, { type: 'boolean' }), 400, 'VALIDATION_ERROR', 'type', /"x"/);
  const moved = await A('PATCH', `/${d.key}/fields/${c.body.key}`, { position: 0, description: 'links' });
  assert.deepEqual([moved.body.position, moved.body.description], [0, 'links']);
  assert.equal((await A('PATCH', `/${d.key}/fields/${c.body.key}`, { description: null })).body.description, undefined);
  await refused(A('PATCH', `/${d.key}/fields/${c.body.key}`, { name: 'a' }), 400, 'VALIDATION_ERROR', 'name', /unique/);
  await refused(A('PATCH', `/${d.key}/fields/${c.body.key}`, { position: -1 }), 400, 'VALIDATION_ERROR', 'position');
  await refused(A('GET', `/${d.key}/fields/${MISSING}`), 404, 'DATA_SET_FIELD_NOT_FOUND');
  await refused(A('GET', `/${d.key}/fields/nope`), 400, 'VALIDATION_ERROR', 'fieldKey');
  assert.equal((await A('DELETE', `/${d.key}/fields/${c.body.key}`)).status, 204);
  await refused(A('DELETE', `/${OFFICES}/fields/${OF.name}`), 409, 'CONFLICT', undefined, /Display Field/);
  const one = await newSet();
  await refused(A('DELETE', `/${one.key}/fields/${one.fields[0].key}`), 400, 'VALIDATION_ERROR', undefined, /only field/);
  await refused(A('POST', '/countries/fields', { name: 'X', type: 'text' }), 403, 'FORBIDDEN');
});

test('v3 records: add (201), get, PATCH changes only what is sent (null clears), delete 204; cursor pages; viewKey', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }, { name: 'C', type: 'boolean' }]);
  const [FA, FB, FC] = d.fields.map((f: any) => f.key);
  const r = await A('POST', `/${d.key}/records`, { values: { [FA]: 'a', [FB]: 1, [FC]: false } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body, { key: r.body.key, position: 0, values: { [FA]: 'a', [FB]: 1, [FC]: false } });
  assert.deepEqual((await A('GET', `/${d.key}/records/${r.body.key}`)).body, r.body);
  const p = await A('PATCH', `/${d.key}/records/${r.body.key}`, { values: { [FB]: 2, [FC]: null } });
  assert.deepEqual(p.body.values, { [FA]: 'a', [FB]: 2 });
  await refused(A('PATCH', `/${d.key}/records/${r.body.key}`, { values: { [FB]: 'two' } }), 400, 'VALIDATION_ERROR', `values.${FB}`);
  await refused(A('POST', `/${d.key}/records`, { values: { [OF.name]: 'x' } }), 400, 'VALIDATION_ERROR', `values.${OF.name}`);
  await refused(A('POST', `/${d.key}/records`, { values: { [FA]: 'x'.repeat(5121) } }), 400, 'VALIDATION_ERROR', 'values', /5 KB/);
  await refused(A('GET', `/${d.key}/records/${MISSING}`), 404, 'DATA_SET_RECORD_NOT_FOUND');
  assert.equal((await A('DELETE', `/${d.key}/records/${r.body.key}`)).status, 204);
  await refused(A('DELETE', `/${d.key}/records/${r.body.key}`), 404, 'DATA_SET_RECORD_NOT_FOUND');
  const bulk = await A('POST', `/${d.key}/records/bulk`, { mode: 'append', records: Array.from({ length: 120 }, (_, i) => ({ values: { [FB]: i, [FC]: i % 2 === 0 } })) });
  assert.equal(bulk.status, 201, bulk.text);
  assert.deepEqual(bulk.body, { mode: 'append', created: 120, recordCount: 120 });
  const p1 = await A('GET', `/${d.key}/records`);
  assert.deepEqual([p1.body.items.length, p1.body.hasMore, p1.body.total], [50, true, 120]);
  const p3 = await A('GET', `/${d.key}/records?after=${(await A('GET', `/${d.key}/records?after=${p1.body.nextCursor}`)).body.nextCursor}`);
  assert.deepEqual([p3.body.items.length, p3.body.hasMore, p3.body.nextCursor], [20, false, undefined]);
  const v = await A('POST', `/${d.key}/views`, { name: 'Even desc', filters: [{ fieldKey: FC, operator: 'eq', value: true }], sorts: [{ fieldKey: FB, direction: 'desc' }], hiddenFields: [FC] });
  assert.equal(v.status, 201, v.text);
  const vp = await A('GET', `/${d.key}/records?viewKey=${v.body.key}&pageSize=3`);
  assert.deepEqual(vp.body.items.map((x: any) => x.values), [{ [FB]: 118 }, { [FB]: 116 }, { [FB]: 114 }]);
  assert.equal(vp.body.total, 60);
  await refused(A('GET', `/${d.key}/records?after=${p1.body.nextCursor}&viewKey=${v.body.key}`), 400, 'VALIDATION_ERROR', 'after');
  await refused(A('GET', `/${d.key}/records?viewKey=${OV.open}`), 404, 'DATA_SET_VIEW_NOT_FOUND');
  await refused(A('GET', `/${d.key}/records?pageSize=0`), 400, 'VALIDATION_ERROR', 'pageSize');
  // Bulk: replace, atomic; bulk delete with keys.
  await refused(A('POST', `/${d.key}/records/bulk`, { mode: 'replace', records: [{ values: { [FB]: 1 } }, { values: { [FB]: 'x' } }] }), 400, 'VALIDATION_ERROR', `records[1].values.${FB}`);
  assert.equal(recordCount(s, d.key), 120);
  await refused(A('POST', `/${d.key}/records/bulk`, { mode: 'merge', records: [] }), 400, 'VALIDATION_ERROR', 'mode');
  const keys = (await A('GET', `/${d.key}/records?pageSize=2`)).body.items.map((x: any) => x.key);
  await refused(A('DELETE', `/${d.key}/records/bulk`, { recordKeys: [keys[0], MISSING] }), 404, 'DATA_SET_RECORD_NOT_FOUND');
  assert.equal((await A('DELETE', `/${d.key}/records/bulk`, { recordKeys: keys })).status, 204);
  assert.equal(recordCount(s, d.key), 118);
  await refused(A('POST', '/countries/records/bulk', { mode: 'append', records: [{ values: {} }] }), 403, 'FORBIDDEN');
});

test('v3 views: list, add, get, PATCH replaces each part sent, delete; All Records 400; unknown operator 400; 20 views', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }]);
  const FA = d.fields[0].key;
  const v = await A('POST', `/${d.key}/views`, { name: 'Has A', filters: [{ fieldKey: FA, operator: 'is_not_empty' }], sorts: [{ fieldKey: FA }] });
  assert.equal(v.status, 201, v.text);
  assert.deepEqual(v.body, { key: v.body.key, name: 'Has A', isDefault: false, filters: [{ fieldKey: FA, operator: 'is_not_empty' }], sorts: [{ fieldKey: FA, direction: 'asc', position: 0 }], hiddenFields: [] });
  const pv = await A('PATCH', `/${d.key}/views/${v.body.key}`, { hiddenFields: [FA] });
  assert.deepEqual([pv.body.filters.length, pv.body.sorts.length, pv.body.hiddenFields], [1, 1, [FA]], 'PATCH keeps the parts not sent');
  const pf = await A('PATCH', `/${d.key}/views/${v.body.key}`, { filters: [] });
  assert.deepEqual([pf.body.filters, pf.body.sorts.length], [[], 1]);
  assert.deepEqual((await A('GET', `/${d.key}/views/${v.body.key}`)).body, pf.body);
  assert.deepEqual((await A('GET', `/${d.key}/views`)).body.items.map((x: any) => x.name), ['All Records', 'Has A']);
  await refused(A('POST', `/${d.key}/views`, { name: 'Bad', filters: [{ fieldKey: FA, operator: 'matches', value: 'x' }] }), 400, 'VALIDATION_ERROR', 'filters[0].operator');
  await refused(A('POST', `/${d.key}/views`, { name: 'Bad', filters: [{ fieldKey: FA, operator: 'eq' }] }), 400, 'VALIDATION_ERROR', 'filters[0].value');
  await refused(A('POST', `/${d.key}/views`, { name: 'Bad', sorts: [{ fieldKey: OF.name }] }), 400, 'VALIDATION_ERROR', 'sorts[0].fieldKey');
  await refused(A('PATCH', `/${d.key}/views/${d.views[0].key}`, { name: 'Everything' }), 400, 'VALIDATION_ERROR', 'name', /All Records/);
  await refused(A('DELETE', `/${d.key}/views/${d.views[0].key}`), 400, 'VALIDATION_ERROR', 'viewKey');
  await refused(A('GET', `/${d.key}/views/${MISSING}`), 404, 'DATA_SET_VIEW_NOT_FOUND');
  assert.equal((await A('DELETE', `/${d.key}/views/${v.body.key}`)).status, 204);
  for (let i = 2; i <= 20; i++) assert.equal((await A('POST', `/${d.key}/views`, { name: `V${i}` })).status, 201);
  await refused(A('POST', `/${d.key}/views`, { name: 'V21' }), 400, 'VALIDATION_ERROR', 'name', /20 views/);
  await refused(A('POST', '/countries/views', { name: 'x' }), 403, 'FORBIDDEN');
});

test('v3 export: text/csv with BOM and file name; import: POST /v3/data-sets/import (base64) creates, /{key}/import replaces; byte-for-byte round trip', async () => {
  const ex = await getBytes(s, KEYS.admin, `${DS}/${OFFICES}/export?viewKey=${OV.open}`);
  assert.equal(ex.status, 200);
  assert.equal(ex.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.ok(ex.headers.get('x-request-id'));
  assert.match(ex.headers.get('content-disposition')!, /filename="Offices-Open offices-\d{4}-\d{2}-\d{2}\.csv"/);
  assert.deepEqual([...ex.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const text = ex.bytes.subarray(3).toString('utf8');
  assert.equal(text.split('\r\n')[1], 'Berlin,120,berlin@acme.test,true', 'Open offices sorted by name');
  assert.equal(text.split('\r\n').filter((l) => l).length, 10);
  await refused(A('GET', '/countries/export'), 403, 'FORBIDDEN');
  const made = await A('POST', '/import', { file: { name: 'open-offices.csv', data: b64(ex.bytes) } });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.status, 'complete');
  assert.equal(made.body.dataSet.name, 'open-offices');
  assert.equal(made.body.dataSet.recordCount, 9);
  const again = await getBytes(s, KEYS.admin, `${DS}/${made.body.dataSet.key}/export`);
  assert.deepEqual(again.bytes.subarray(3).toString('utf8'), text, 'export -> import -> export is byte for byte');
  const rep = await A('POST', `/${made.body.dataSet.key}/import`, { file: { data: b64('Name,Headcount\n"Quoted, ""name""",7\n') } });
  assert.equal(rep.status, 200, rep.text);
  assert.equal(rep.body.dataSet.recordCount, 1);
  assert.equal((await A('GET', `/${made.body.dataSet.key}/records`)).body.items[0].values[made.body.dataSet.fields[0].key], 'Quoted, "name"');
  await refused(A('POST', '/import', { file: { data: '***' } }), 400, 'VALIDATION_ERROR', 'file.data', /base64/);
  await refused(A('POST', '/import', { name: 'Dup', file: { data: b64('A,A\n1,2\n') } }), 400, 'VALIDATION_ERROR', 'file.data', /twice/);
  await refused(A('POST', '/import', {}), 400, 'VALIDATION_ERROR', 'file');
  await refused(A('POST', `/${made.body.dataSet.key}/import`, { file: { data: b64('Colour\nred\n') } }), 400, 'VALIDATION_ERROR', 'file.data', /not a field/);
  await refused(A('POST', '/countries/import', { file: { data: b64('Name\nX\n') } }), 403, 'FORBIDDEN');
  const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
  await refused(A('POST', '/import', { name: 'Big', file: { data: b64(big) } }), 400, 'VALIDATION_ERROR', 'file.data', /5 MB/);
});

test('v3 4.7 /connections: the template fields linked to a set; after deleting a linked view, isViewMissing and a data_set_link_removed warning', async () => {
  const c = await A('GET', `/${OFFICES}/connections`);
  assert.equal(c.status, 200, c.text);
  assert.deepEqual(c.body.items, [{ templateKey: DEMO.onboarding, templateName: 'Employee Onboarding', taskKey: T.collectDetails, fieldKey: F.office, fieldLabel: 'Office', fieldType: 'DropDown', viewName: 'All Records', viewKey: OV.all, isViewMissing: false }]);
  assert.deepEqual((await A('GET', '/countries/connections')).body, { items: [], hasMore: false, total: 0 });
  // A template whose Drop-Down shows a filtered view.
  const tpl = await s.api(KEYS.admin, 'POST', '/v3/templates', { name: 'Office pick', tasks: [{ ref: 'pick', name: 'Pick', fields: [{ ref: 'office', type: 'DropDown', label: 'Office', dataSet: { name: 'Offices', view: 'Open offices', displayField: 'Name' } }] }] });
  assert.equal(tpl.status, 201, tpl.text);
  const doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${tpl.body.key}/document`)).body;
  const fieldKey = doc.tasks[0].fields[0].id;
  const taskKey = doc.tasks[0].id;
  const cl = await newChecklist(s, { template: tpl.body.key, name: 'Office pick run' });
  const answer = (v: unknown) => s.api(KEYS.admin, 'PUT', taskPath(cl, taskKey, `/fields/${fieldKey}`), { value: v });
  await refused(answer('Madrid'), 400, 'VALIDATION_ERROR', 'value', /not a record of the linked Data Set view/);
  const ok = await answer('Zurich');
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.value, { recordKey: '52000000-0000-4000-8000-000000000010', text: 'Zurich' });
  // Answers are snapshots: deleting the record leaves the answer.
  assert.equal((await A('DELETE', `/${OFFICES}/records/52000000-0000-4000-8000-000000000010`)).status, 204);
  const after = await s.api(KEYS.admin, 'GET', taskPath(cl, taskKey, `/fields/${fieldKey}`));
  assert.deepEqual(after.body.value, { recordKey: '52000000-0000-4000-8000-000000000010', text: 'Zurich' });
  await refused(answer('Zurich'), 400, 'VALIDATION_ERROR', 'value');
  // Deleting the linked view is allowed; the template then gets a warning, not an error.
  assert.equal((await A('DELETE', `/${OFFICES}/views/${OV.open}`)).status, 204);
  const conns = (await A('GET', `/${OFFICES}/connections`)).body.items.find((x: any) => x.templateKey === tpl.body.key);
  assert.deepEqual([conns.viewName, conns.isViewMissing, conns.viewKey], ['Open offices', true, undefined]);
  const v = await s.api(KEYS.admin, 'POST', `/v3/templates/validate?forTemplate=${tpl.body.key}`, doc);
  assert.equal(v.status, 200, v.text);
  const found = v.body.violations.filter((x: any) => x.code === 'data_set_link_removed' || x.code === 'data_set_view_not_found');
  assert.deepEqual(found.map((x: any) => [x.code, x.severity, x.path]), [['data_set_link_removed', 'warning', '$.tasks[0].fields[0].dataSet.view']]);
  // A view that never existed is still an error.
  doc.tasks[0].fields[0].dataSet.view = 'Never was';
  const e = await s.api(KEYS.admin, 'POST', `/v3/templates/validate?forTemplate=${tpl.body.key}`, doc);
  assert.ok(e.body.violations.some((x: any) => x.code === 'data_set_view_not_found' && x.severity === 'error'));
  // Field deletion is guarded for the linked display field; a forced set delete clears the links.
  const gone = await A('DELETE', `/${OFFICES}?force=true`);
  assert.equal(gone.status, 204);
  const tdetail = await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.onboarding}`);
  const office = tdetail.body.tasks.flatMap((t: any) => t.fields ?? []).find((f: any) => f.key === F.office);
  assert.equal(office?.dataSet, undefined, 'the link no longer resolves');
});

test('v3 5.4, 5.5, 5.9 permissions: reads need a Library or Template right and no Deny folder; changes Library.Creator and Edit when filed', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }]);
  await refused(A('GET', '', undefined, KEYS.noperm), 403, 'FORBIDDEN', undefined, /Library or Template right/);
  await refused(A('GET', `/${d.key}`, undefined, KEYS.member), 403, 'FORBIDDEN');
  setRights(s, DEMO.members.mia, ['Template.Creator']);
  assert.equal((await A('GET', `/${d.key}`, undefined, KEYS.member)).status, 200, 'a Template right reads');
  await refused(A('POST', '', { name: 'Mine' }, KEYS.member), 403, 'FORBIDDEN', undefined, /Library\.Creator/);
  await refused(A('POST', `/${d.key}/records`, { values: {} }, KEYS.member), 403, 'FORBIDDEN', undefined, /Library\.Creator/);
  setRights(s, DEMO.members.mia, ['Library.Creator']);
  assert.equal((await A('POST', '', { name: 'Mia set' }, KEYS.member)).status, 201);
  assert.equal((await A('POST', `/${d.key}/records`, { values: {} }, KEYS.member)).status, 201);
  // Filed in Procurement, where Mia has View and Nora Deny (fixture folder rules).
  const procurement = (s.emu.db.prepare("SELECT id FROM folders WHERE name = 'Procurement'").get() as any).id;
  s.emu.db.prepare('UPDATE data_sets SET folder_id = ? WHERE key = ?').run(procurement, d.key);
  assert.equal((await A('GET', `/${d.key}`, undefined, KEYS.member)).status, 200, 'View on the folder reads');
  await refused(A('POST', `/${d.key}/records`, { values: {} }, KEYS.member), 403, 'FORBIDDEN', undefined, /Edit/);
  setRights(s, DEMO.members.nora, ['Library.Creator']);
  await refused(A('GET', `/${d.key}`, undefined, KEYS.noperm), 403, 'FORBIDDEN', undefined, /Deny/);
  assert.ok(!(await A('GET', '', undefined, KEYS.noperm)).body.items.some((x: any) => x.key === d.key), 'a Deny folder hides the set from the list');
  assert.equal((await A('POST', `/${d.key}/records`, { values: {} }, KEYS.workspace)).status, 201, 'the workspace key passes');
  setRights(s, DEMO.members.nora, []);
  setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
});

test('spec v3 6.3 via v3 and v2 alike: the same events, and one payload delivered to a v2 and a v3 subscription', async () => {
  const d = await newSet([{ name: 'A', type: 'text' }, { name: 'B', type: 'number' }]);
  const [FA, FB] = d.fields.map((f: any) => f.key);
  const sub = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'data_set.record.updated', targetUrl: `${rx.url}/v3`, scope: { type: 'Workspace' } });
  assert.equal(sub.status, 201, sub.text);
  const legacySub = await s.api(KEYS.admin, 'POST', `/api/web-hook/subscribe?source=Zapier&eventType=data_set.record.updated&targetUrl=${encodeURIComponent(`${rx.url}/v2`)}`, undefined, V2);
  assert.ok(legacySub.status < 300, legacySub.text);
  let since = lastEventId(s);
  const r = await A('POST', `/${d.key}/records`, { values: { [FA]: 'a <b> & "c"' } });
  await A('PATCH', `/${d.key}/records/${r.body.key}`, { values: { [FB]: 3 } });
  await A('PATCH', `/${d.key}/records/${r.body.key}`, { values: { [FB]: 3 } });
  const viaV3 = recordEvents(s, since);
  since = lastEventId(s);
  const l = await s.api(KEYS.admin, 'POST', `/api/data-sets/${d.key}/records`, { values: { [FA]: 'a <b> & "c"' } }, V2);
  await s.api(KEYS.admin, 'PUT', `/api/data-sets/${d.key}/records/${l.body.id}`, { values: { [FA]: 'a <b> & "c"', [FB]: 3 } }, V2);
  const viaV2 = recordEvents(s, since);
  const strip = (e: any[]) => e.map((x) => ({ ...x, snapshot: { ...x.snapshot, recordId: 'r' } }));
  assert.deepEqual(strip(viaV3), strip(viaV2), 'the same events through both APIs');
  assert.deepEqual(viaV3.map((e) => e.type), ['data_set.record.created', 'data_set.record.updated']);
  assert.deepEqual(viaV3[1].snapshot.changes, { [FB]: { before: null, after: 3 } });
  const got = await rx.waitFor(4);
  const v3Bodies = got.filter((x) => x.url.endsWith('/v3')).map((x) => x.body);
  assert.equal(got.length, 4, JSON.stringify(got.map((x) => x.url)));
  const v2Bodies = got.filter((x) => x.url.endsWith('/v2')).map((x) => x.body);
  assert.equal(v3Bodies.length, 2);
  assert.deepEqual(v2Bodies.sort(), v3Bodies.sort(), 'a v2 and a v3 subscription get the same body');
  assert.ok(v3Bodies[0].startsWith('{"eventType":"data_set.record.updated","dataSetId":'), v3Bodies[0]);
  since = lastEventId(s);
  await A('POST', `/${d.key}/records/bulk`, { mode: 'replace', records: [{ values: { [FA]: 'x' } }] });
  await A('POST', `/${d.key}/import`, { file: { data: b64('A\ny\nz\n') } });
  await A('POST', '/import', { file: { name: 'q.csv', data: b64('A\ny\n') } });
  assert.deepEqual(recordEvents(s, since), []);
  const keys = (await A('GET', `/${d.key}/records`)).body.items.map((x: any) => x.key);
  await A('DELETE', `/${d.key}/records/bulk`, { recordKeys: keys });
  assert.deepEqual(recordEvents(s, since).map((e) => [e.type, e.snapshot.recordId]), keys.map((k: string) => ['data_set.record.deleted', k]));
});

test('v3: the countries system set by slug reads everywhere and refuses every write with 403 FORBIDDEN', async () => {
  assert.equal((await A('GET', '/countries/records')).body.total, 8);
  assert.equal((await A('GET', '/countries/fields')).body.total, 2);
  assert.equal((await A('GET', '/countries/views')).body.total, 1);
  assert.equal((await A('GET', '/countries/records/52000000-0000-4000-8000-000000000900')).status, 200);
  const writes: [string, string, unknown][] = [
    ['PATCH', '/countries', { name: 'x' }], ['DELETE', '/countries', undefined], ['POST', '/countries/fields', { name: 'x', type: 'text' }],
    ['PATCH', '/countries/fields/51000000-0000-4000-8000-000000000090', { name: 'x' }], ['DELETE', '/countries/fields/51000000-0000-4000-8000-000000000090', undefined],
    ['POST', '/countries/records', { values: {} }], ['PATCH', '/countries/records/52000000-0000-4000-8000-000000000900', { values: {} }],
    ['DELETE', '/countries/records/52000000-0000-4000-8000-000000000900', undefined], ['POST', '/countries/records/bulk', { mode: 'append', records: [{ values: {} }] }],
    ['DELETE', '/countries/records/bulk', { recordKeys: [] }], ['POST', '/countries/views', { name: 'x' }],
    ['PATCH', '/countries/views/53000000-0000-4000-8000-000000000090', { name: 'x' }], ['DELETE', '/countries/views/53000000-0000-4000-8000-000000000090', undefined],
    ['POST', '/countries/import', { file: { data: b64('Name\nx\n') } }], ['GET', '/countries/export', undefined],
  ];
  for (const [m, p, b] of writes) await refused(A(m, p, b), 403, 'FORBIDDEN', undefined, /read-only/);
  assert.equal(recordCount(s, COUNTRIES), 8);
  void BERLIN;
});
