// Corners of the legacy API where the emulator once answered differently from the legacy spec
// or from docs/legacy.md (legacy 3, 4.8, 7; v3 6.3). Each test is named after what it enforces.
 
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, T, newChecklist, recordEvents, taskPath } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const V2 = { 'X-API-VERSION': '2.0' };
const APPROVE = '21000000-0000-4000-8000-000000000202';
const REIMBURSE = '21000000-0000-4000-8000-000000000203';
const taskIdOf = (checklistKey: string, taskKey: string) =>
  (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;
const putStatus = (taskId: number, status: string) => s.api(KEYS.admin, 'PUT', '/api/task/status', { taskId, status, modifiedByUserID: 101 }, V2);

/** An Expense Report checklist with every task but Reimburse done; answers its key and Reimburse's task id. */
async function oneTaskLeft(): Promise<{ key: string; last: number }> {
  const key = await newChecklist(s, { template: DEMO.expense, name: 'One task left' });
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(key, T.submitReceipts, `/fields/${F.amount}`), { value: '12.50' })).status, 200);
  for (const t of [T.submitReceipts, APPROVE]) assert.equal((await putStatus(taskIdOf(key, t), 'Complete')).status, 200);
  return { key, last: taskIdOf(key, REIMBURSE) };
}

test('legacy 3 "the response is the full task after the change": the task-status answer carries the checklist status the change left', async () => {
  const { key, last } = await oneTaskLeft();
  const done = await putStatus(last, 'Complete');
  assert.equal(done.status, 200, done.text);
  const details = await s.api(KEYS.admin, 'GET', `/api/task/details?checklistId=${done.body.checklist.checklistId ?? done.body.checklist.id}&taskKey=${REIMBURSE}`);
  assert.equal(details.status, 200, details.text);
  assert.equal(details.body.checklist.checklistStatus, 'Complete');
  assert.equal(done.body.checklist.checklistStatus, 'Complete', 'completing the last open task completes the checklist, in this answer');
  const reopened = await putStatus(last, 'Incomplete');
  assert.equal(reopened.body.checklist.checklistStatus, 'InProgress', 'uncompleting it reopens the checklist, in this answer');
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`)).body.status, 'InProgress');
});

test('v3 6.3 checklist_completed fires when "a checklist becomes complete": Complete ⇄ NotApplicable on the last task of a complete checklist fires nothing more', async () => {
  const { key, last } = await oneTaskLeft();
  const events = recordEvents(s);
  try {
    assert.equal((await putStatus(last, 'Complete')).status, 200);
    assert.deepEqual(events.map((e) => e.type), ['task_completed', 'checklist_completed']);
    events.length = 0;
    const na = await putStatus(last, 'NotApplicable');
    assert.equal(na.status, 200, na.text);
    assert.equal(na.body.status, 'NotApplicable');
    assert.equal(na.body.checklist.checklistStatus, 'Complete');
    assert.deepEqual(events.map((e) => e.type), [], 'the checklist stays complete: no second checklist_completed');
    const back = await putStatus(last, 'Complete');
    assert.equal(back.body.status, 'Complete');
    assert.deepEqual(events.map((e) => e.type), ['task_completed'], 'the task is completed again; the checklist was complete all along');
    const activity = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}/activity?pageSize=100`)).body.items.map((a: any) => a.action ?? a.type ?? a.text);
    assert.equal(activity.filter((a: string) => /reopened/i.test(a)).length, 0, 'never reopened');
    assert.equal((await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}`)).body.status, 'Complete');
  } finally {
    s.emu.hooks.event = undefined;
  }
});

// ── Data Sets (legacy 3, 4.8, 7) ──────────────────────────────────────────────

const L = (method: string, path: string, body?: unknown, key: string = KEYS.admin) => s.api(key, method, `/api/data-sets${path}`, body, V2);
const COUNTRIES = '50000000-0000-4000-8000-000000000090';

async function newSet(name: string) {
  const r = await L('POST', '', { name, fields: [{ name: 'City', type: 'text' }, { name: 'Size', type: 'number' }] });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

test('legacy 4.8 "Update replaces filters, sorts and hidden fields entirely" holds for All Records, which "cannot be renamed or deleted"; the export follows it (legacy and v3)', async () => {
  const d = await newSet('All Records updates');
  const [city, size] = d.fields.map((f: any) => f.id);
  for (const [c, n] of [['Bonn', 1], ['Aachen', 3], ['Celle', 2]] as const) assert.equal((await L('POST', `/${d.id}/records`, { values: { [city]: c, [size]: n } })).status, 201);
  const all = d.views[0];
  assert.equal(all.name, 'All Records');
  const put = await L('PUT', `/${d.id}/views/${all.id}`, { name: 'All Records', sorts: [{ fieldId: size, direction: 'desc' }], hiddenFields: [size] });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(put.body, { id: all.id, name: 'All Records', isDefault: true, filters: [], sorts: [{ fieldId: size, direction: 'desc', position: 0 }], hiddenFields: [size] });
  const csv = await fetch(`${s.us}/api/data-sets/${d.id}/export`, { headers: { 'X-API-KEY': KEYS.admin, ...V2 } });
  assert.equal(csv.status, 200);
  assert.deepEqual((await csv.text()).replace(/^\uFEFF/, '').trim().split(/\r\n/), ['City', 'Aachen', 'Celle', 'Bonn'], 'the default view sorts and hides');
  // Renaming and deleting stay refused, and change nothing.
  const renamed = await L('PUT', `/${d.id}/views/${all.id}`, { name: 'Everything' });
  assert.equal(renamed.status, 400);
  assert.match(renamed.body.error, /All Records/);
  assert.equal((await L('DELETE', `/${d.id}/views/${all.id}`)).status, 400);
  assert.deepEqual((await L('GET', `/${d.id}/views/${all.id}`)).body, put.body);
  // v3 PATCH: the same rule.
  const v3 = await s.api(KEYS.admin, 'PATCH', `/v3/data-sets/${d.id}/views/${all.id}`, { sorts: [] });
  assert.equal(v3.status, 200, v3.text);
  assert.deepEqual(v3.body.sorts, []);
  const v3Rename = await s.api(KEYS.admin, 'PATCH', `/v3/data-sets/${d.id}/views/${all.id}`, { name: 'Everything', sorts: [{ fieldKey: city }] });
  assert.equal(v3Rename.status, 400);
  assert.equal(v3Rename.body.error.field, 'name');
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/data-sets/${d.id}/views/${all.id}`)).body.sorts, [], 'a refused rename changes nothing');
});

test('legacy 3 "system (read-only; any write gives 403)": a write to a system Data Set is 403 whatever its body, by slug or id (legacy and v3)', async () => {
  const before = JSON.stringify(s.emu.db.prepare("SELECT * FROM data_set_records r JOIN data_sets d ON d.id = r.data_set_id WHERE d.source = 'system'").all());
  const bad = [undefined, '{"broken": ', { name: 12 }, { values: 'nope' }, { mode: 'sideways', records: 'x' }, { recordIds: [1] }];
  const paths: [string, string][] = [
    ['PUT', ''],
    ['DELETE', ''],
    ['POST', '/fields'],
    ['PUT', `/fields/${MISSING_GUID}`],
    ['DELETE', `/fields/${MISSING_GUID}`],
    ['POST', '/records'],
    ['PUT', `/records/${MISSING_GUID}`],
    ['DELETE', `/records/${MISSING_GUID}`],
    ['POST', '/records/bulk'],
    ['DELETE', '/records/bulk'],
    ['POST', '/views'],
    ['PUT', `/views/${MISSING_GUID}`],
    ['DELETE', `/views/${MISSING_GUID}`],
  ];
  for (const ref of ['countries', 'COUNTRIES', COUNTRIES]) {
    for (const [method, suffix] of paths) {
      for (const body of bad) {
        const r = await L(method, `/${ref}${suffix}`, body);
        assert.equal(r.status, 403, `${method} /api/data-sets/${ref}${suffix} ${JSON.stringify(body)}: ${r.text}`);
        assert.match(r.body.error, /system Data Set/);
      }
    }
  }
  // The CSV replace naming a system set: 403 even without a file.
  const fd = new FormData();
  fd.set('mode', 'replace');
  fd.set('dataSetId', 'countries');
  const imp = await fetch(`${s.us}/api/data-sets/import`, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin, ...V2 }, body: fd });
  assert.equal(imp.status, 403, await imp.text());
  // v3: the same routes under /v3/data-sets/{dataSetKey}.
  for (const [method, path, body] of [
    ['PATCH', '/v3/data-sets/countries', { name: 12 }],
    ['POST', '/v3/data-sets/countries/fields', { type: 'nonsense' }],
    ['POST', '/v3/data-sets/countries/records', { values: 'nope' }],
    ['POST', '/v3/data-sets/countries/records/bulk', {}],
    ['POST', '/v3/data-sets/countries/views', { name: 12 }],
    ['DELETE', `/v3/data-sets/${COUNTRIES}`, undefined],
    ['POST', '/v3/data-sets/countries/import', { file: 5 }],
  ] as const) {
    const r = await s.api(KEYS.admin, method, path, body);
    assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
    assert.equal(r.body.error.code, 'FORBIDDEN');
  }
  assert.equal(JSON.stringify(s.emu.db.prepare("SELECT * FROM data_set_records r JOIN data_sets d ON d.id = r.data_set_id WHERE d.source = 'system'").all()), before, 'nothing written');
  // An organisation set still validates first (400), as before.
  const d = await newSet('Still validated');
  assert.equal((await L('POST', `/${d.id}/views`, { name: 12 })).status, 400);
});

const MISSING_GUID = '99999999-0000-4000-8000-000000000000';

test('docs/legacy.md "JSON body property names are matched case-insensitively": inside Data Set bodies too (records, fields, filters, sorts)', async () => {
  const made = await L('POST', '', { Name: 'Case blind', Fields: [{ NAME: 'City', Type: 'text' }, { name: 'Size', TYPE: 'number' }] });
  assert.equal(made.status, 201, made.text);
  assert.deepEqual(made.body.fields.map((f: any) => [f.name, f.type]), [['City', 'text'], ['Size', 'number']]);
  const [city, size] = made.body.fields.map((f: any) => f.id);
  const bulk = await L('POST', `/${made.body.id}/records/bulk`, { Mode: 'append', Records: [{ Values: { [city]: 'Bonn', [size]: 3 } }] });
  assert.equal(bulk.status, 201, bulk.text);
  const recs = await L('GET', `/${made.body.id}/records`);
  assert.equal(recs.body.data.length, 1);
  assert.deepEqual(recs.body.data[0].values, { [city]: 'Bonn', [size]: 3 }, 'the record is stored with its values, not empty');
  const view = await L('POST', `/${made.body.id}/views`, { NAME: 'Big', FILTERS: [{ FieldId: size, Operator: 'gt', Value: '1' }], Sorts: [{ FIELDID: city, Direction: 'desc' }] });
  assert.equal(view.status, 201, view.text);
  assert.deepEqual(view.body.filters, [{ fieldId: size, operator: 'gt', value: '1' }]);
  assert.deepEqual(view.body.sorts, [{ fieldId: city, direction: 'desc', position: 0 }]);
});

test('docs/legacy.md "Paths … are matched case-insensitively": the /API prefix too', async () => {
  for (const path of ['/API/data-sets', '/Api/Data-Sets']) {
    const r = await s.api(KEYS.admin, 'GET', path, undefined, V2);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    assert.ok(Array.isArray(r.body.data));
  }
  const team = await s.api(KEYS.admin, 'GET', '/API/TEAM/MEMBERS');
  assert.equal(team.status, 200, team.text);
});

test('docs/legacy.md "A route marked v2 refuses v1 with 400 {"error":"POST /api/... needs X-API-VERSION: 2.0."}": the message names the path asked for', async () => {
  const r = await s.api(KEYS.admin, 'GET', `/api/data-sets/countries/records`);
  assert.equal(r.status, 400);
  assert.equal(r.body.error, 'GET /api/data-sets/countries/records needs X-API-VERSION: 2.0.');
});

test('docs/legacy.md "delete-many … Parameters: integers are JSON integers or strings of digits": checklistIds take "12"', async () => {
  const key = await newChecklist(s, { name: 'Deleted by string id' });
  const id = (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;
  const r = await s.api(KEYS.admin, 'DELETE', '/api/checklist/delete-many', { checklistIds: [String(id), '999999'] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { deletedChecklistIds: [id], notFoundChecklistIds: [999999] });
  for (const v of ['1.5', 'abc', '1e3', true]) {
    const bad = await s.api(KEYS.admin, 'DELETE', '/api/checklist/delete-many', { checklistIds: [v] });
    assert.equal(bad.status, 400, `${JSON.stringify(v)}: ${bad.text}`);
    assert.equal(bad.body.error, 'checklistIds[0] must be an integer.');
  }
});

test('docs/data-sets.md "CSV file 5 MB (5,242,880 bytes)": a larger file is refused naming its own size', async () => {
  const six = 'Name\n' + 'x'.repeat(6 * 1024 * 1024 - 5);
  const fd = new FormData();
  fd.set('file', new Blob([six]), 'six.csv');
  const r = await fetch(`${s.us}/api/data-sets/import`, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin, ...V2 }, body: fd });
  const body = await r.json();
  assert.equal(r.status, 400, JSON.stringify(body));
  assert.match(body.error, /6,291,456 bytes/, 'its own size');
  assert.match(body.error, /at most 5 MB \(5,242,880 bytes\)/);
});

test('docs/legacy.md "uploaded-files: … newest checklist first": across template versions too', async () => {
  const tpl = await s.api(KEYS.admin, 'POST', '/v3/templates', { name: 'Uploads by version', tasks: [{ ref: 'up', name: 'Upload', fields: [{ ref: 'f', type: 'FileUpload', label: 'Scan' }] }] });
  assert.equal(tpl.status, 201, tpl.text);
  const doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${tpl.body.key}/document`)).body;
  const task = doc.tasks[0].id;
  const field = doc.tasks[0].fields[0].id;
  const start = async (name: string) => (await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: tpl.body.key, name })).body.key;
  const upload = async (c: string, name: string) => {
    const r = await s.api(KEYS.admin, 'POST', taskPath(c, task, `/fields/${field}/files`), { name, contentType: 'text/plain', data: Buffer.from(name).toString('base64') });
    assert.equal(r.status, 201, r.text);
  };
  const older = await start('On version 1');
  doc.tasks[0].name = 'Upload (v2)';
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${tpl.body.key}/versions`, doc)).status, 201);
  await fetch(`${s.us}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seconds: 60 }) });
  const newer = await start('On version 2');
  await upload(older, 'old.txt');
  await upload(newer, 'new.txt');
  const r = await s.api(KEYS.admin, 'GET', `/api/checklist/uploaded-files?taskContentKey=${field}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.files.map((f: any) => f.fileName), ['new.txt', 'old.txt']);
  assert.deepEqual(r.body.files.map((f: any) => f.checklist.checklistKey), [newer, older]);
});
