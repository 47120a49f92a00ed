// Field, file and table-row routes under .../tasks/{taskKey}/fields (spec v3 4.3, 2.4, 2.5, 5.8).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { F, MISSING, T, newChecklist, recordEvents, refused, taskPath, type RecordedEvent } from './helpers/tasks';

let s: TestServer;
let key: string;
let events: RecordedEvent[];
before(async () => {
  s = await startTestServer();
  events = recordEvents(s);
  key = await newChecklist(s, { name: 'Fields' });
  // Open the tasks behind the stop task so their fields can be answered.
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(key, T.managerApproval, '/complete'))).status, 200);
});
after(async () => {
  await s.close();
});

const fp = (task: string, field = '', suffix = '') => taskPath(key, task, `/fields${field ? `/${field}` : ''}${suffix}`);
const put = (task: string, field: string, value: unknown, k: string = KEYS.admin) => s.api(k, 'PUT', fp(task, field), { value });
const bad = (task: string, field: string, value: unknown, fieldName = 'value') => refused(s, () => put(task, field, value), 400, 'VALIDATION_ERROR', fieldName);

test('4.3 fields: read all (hidden omitted) and one; field object key, name, type, isRequired, value', async () => {
  const all = await s.api(KEYS.admin, 'GET', fp(T.collectDetails));
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.fields.map((f: { name: string }) => f.name), ['Employee name', 'Employee ID', 'Office', 'Employment type', 'Start date']);
  assert.deepEqual(all.body.fields[1], { key: F.employeeId, name: 'Employee ID', type: 'ShortText', isRequired: true });
  const one = await s.api(KEYS.admin, 'GET', fp(T.setUpEquipment, F.accessLog));
  assert.deepEqual(one.body, {
    key: F.accessLog,
    name: 'Access log',
    type: 'Table',
    isRequired: false,
    value: [],
    columns: [
      { key: '26000000-0000-4000-8000-000000000101', name: 'System' },
      { key: '26000000-0000-4000-8000-000000000102', name: 'Granted by' },
    ],
  });
  await refused(s, () => s.api(KEYS.admin, 'GET', fp(T.collectDetails, MISSING)), 404, 'FIELD_NOT_FOUND');
  await refused(s, () => s.api(KEYS.admin, 'GET', fp(T.collectDetails, 'bad')), 400, 'VALIDATION_ERROR', 'fieldKey');
  // A field of another task of the checklist is not this task's.
  await refused(s, () => put(T.managerApproval, F.employeeId, 'E1234'), 404, 'FIELD_NOT_FOUND');
});

test('2.5 ShortText regex: slashes trimmed, regexMessage in the refusal; LongText; null clears', async () => {
  const r = await bad(T.collectDetails, F.employeeId, 'E12');
  assert.match(r.error.message, /Employee IDs look like E1234\./);
  assert.equal((await put(T.collectDetails, F.employeeId, 'E1234')).body.value, 'E1234');
  await bad(T.collectDetails, F.employeeId, 1234);
  await bad(T.collectDetails, F.employeeId, ['E1234']);
  const cleared = await put(T.collectDetails, F.employeeId, null);
  assert.equal(cleared.body.value, undefined);
  await refused(s, () => s.api(KEYS.admin, 'PUT', fp(T.collectDetails, F.employeeId), {}), 400, 'VALIDATION_ERROR', 'value');
  assert.equal((await put(T.firstDayWelcome, F.notes, 'line 1\nline 2')).body.value, 'line 1\nline 2');
  await bad(T.firstDayWelcome, F.notes, { text: 'x' });
});

test('2.5 EmailInput and Website', async () => {
  assert.equal((await put(T.sendWelcomePack, F.personalEmail, 'jane@example.com')).body.value, 'jane@example.com');
  for (const v of ['jane', 'jane@', 'a b@c.d', 42]) await bad(T.sendWelcomePack, F.personalEmail, v);
  assert.equal((await put(T.sendWelcomePack, F.welcomePage, 'https://example.com/welcome')).body.value, 'https://example.com/welcome');
  for (const v of ['example.com', 'ftp://example.com', 'javascript:alert(1)', true]) await bad(T.sendWelcomePack, F.welcomePage, v);
});

test('2.5 Date mode date: YYYY-MM-DD only', async () => {
  assert.equal((await put(T.collectDetails, F.startDate, '2030-02-28')).body.value, '2030-02-28');
  for (const v of ['2030-02-30', '28/02/2030', '2030-02-28T00:00:00Z', 20300228]) await bad(T.collectDetails, F.startDate, v);
});

test('2.5 DropDown options and Data Set records of the linked view; MultiChoice; SubTasks', async () => {
  assert.equal((await put(T.collectDetails, F.employmentType, 'part-time')).body.value, 'Part-time');
  await bad(T.collectDetails, F.employmentType, 'Intern');
  await bad(T.collectDetails, F.employmentType, ['Part-time']);
  const byKey = await put(T.collectDetails, F.office, '52000000-0000-4000-8000-000000000002');
  assert.deepEqual(byKey.body.value, { recordKey: '52000000-0000-4000-8000-000000000002', text: 'London' });
  const byText = await put(T.collectDetails, F.office, { recordKey: 'berlin' });
  assert.deepEqual(byText.body.value, { recordKey: '52000000-0000-4000-8000-000000000001', text: 'Berlin' });
  await bad(T.collectDetails, F.office, 'Atlantis');
  await bad(T.collectDetails, F.office, 7);
  const mc = await put(T.setUpEquipment, F.equipment, ['Laptop', 'phone', 'Laptop']);
  assert.deepEqual(mc.body.value, ['Laptop', 'Phone']);
  await bad(T.setUpEquipment, F.equipment, 'Laptop');
  await bad(T.setUpEquipment, F.equipment, ['Laptop', 'Typewriter'], 'value[1]');
  assert.deepEqual((await put(T.setUpEquipment, F.accounts, ['VPN', 'Email'])).body.value, ['VPN', 'Email']);
  await bad(T.setUpEquipment, F.accounts, ['Fax'], 'value[0]');
  assert.deepEqual((await put(T.setUpEquipment, F.equipment, [])).body.value, [], 'arrays are always present');
});

test('2.5 Members single vs multiple: one person only; deactivated and ambiguous names refused', async () => {
  const ok = await put(T.managerApproval, F.approver, [{ name: 'Ada Admin' }]);
  assert.deepEqual(ok.body.value, [{ id: 101, type: 'TeamMember', name: 'Ada Admin' }]);
  assert.deepEqual((await put(T.managerApproval, F.approver, [103])).body.value, [{ id: 103, type: 'TeamMember', name: 'Mia Member' }]);
  const two = await bad(T.managerApproval, F.approver, [101, 103]);
  assert.match(two.error.message, /one person/);
  await bad(T.managerApproval, F.approver, [106], 'value[0].id');
  const amb = await bad(T.managerApproval, F.approver, [{ name: 'Alex Kim' }], 'value[0].name');
  assert.match(amb.error.message, /TeamMember 107, TeamMember 108/);
  await bad(T.managerApproval, F.approver, [{ type: 'Group', id: 301 }], 'value[0].type');
  await bad(T.managerApproval, F.approver, 101);
});

test('2.5 Table cells: rows of strings or null, no wider than the columns', async () => {
  const ok = await put(T.setUpEquipment, F.accessLog, [['VPN', 'Ada'], ['Email']]);
  assert.deepEqual(ok.body.value, [['VPN', 'Ada'], ['Email', null]]);
  await bad(T.setUpEquipment, F.accessLog, [['a', 'b', 'c']], 'value[0]');
  await bad(T.setUpEquipment, F.accessLog, [[1, 'b']], 'value[0][0]');
  await bad(T.setUpEquipment, F.accessLog, ['VPN'], 'value[0]');
  await bad(T.setUpEquipment, F.accessLog, 'VPN');
});

test('4.3 rows: add rows, set cells, remove rows', async () => {
  await put(T.setUpEquipment, F.accessLog, null);
  const add = await s.api(KEYS.admin, 'POST', fp(T.setUpEquipment, F.accessLog, '/rows'), { rows: [['A', '1'], ['B', '2'], ['C', null]] });
  assert.equal(add.status, 200, add.text);
  assert.deepEqual(add.body.value, [['A', '1'], ['B', '2'], ['C', null]]);
  const set = await s.api(KEYS.admin, 'PATCH', fp(T.setUpEquipment, F.accessLog, '/rows'), {
    cells: [{ rowIndex: 3, columnIndex: 2, value: '3' }, { rowIndex: 1, columnKey: '26000000-0000-4000-8000-000000000101', value: 'AA' }],
  });
  assert.deepEqual(set.body.value, [['AA', '1'], ['B', '2'], ['C', '3']]);
  const del = await s.api(KEYS.admin, 'DELETE', `${fp(T.setUpEquipment, F.accessLog, '/rows')}?rowIndexes=1,3`);
  assert.deepEqual(del.body.value, [['B', '2']]);
  await refused(s, () => s.api(KEYS.admin, 'DELETE', `${fp(T.setUpEquipment, F.accessLog, '/rows')}?rowIndexes=5`), 400, 'VALIDATION_ERROR', 'rowIndexes');
  await refused(s, () => s.api(KEYS.admin, 'DELETE', `${fp(T.setUpEquipment, F.accessLog, '/rows')}?rowIndexes=0`), 400, 'VALIDATION_ERROR', 'rowIndexes');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.setUpEquipment, F.accessLog, '/rows'), { cells: [{ rowIndex: 9, columnIndex: 1, value: 'x' }] }), 400, 'VALIDATION_ERROR', 'cells[0].rowIndex');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.setUpEquipment, F.accessLog, '/rows'), { cells: [{ rowIndex: 1, columnIndex: 3, value: 'x' }] }), 400, 'VALIDATION_ERROR', 'cells[0].columnIndex');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.setUpEquipment, F.accessLog, '/rows'), { cells: [{ rowIndex: 1, value: 'x' }] }), 400, 'VALIDATION_ERROR', 'cells[0]');
  await refused(s, () => s.api(KEYS.admin, 'POST', fp(T.setUpEquipment, F.accessLog, '/rows'), { rows: [['a', 'b', 'c']] }), 400, 'VALIDATION_ERROR', 'rows[0]');
  await refused(s, () => s.api(KEYS.admin, 'POST', fp(T.setUpEquipment, F.equipment, '/rows'), { rows: [['a']] }), 400, 'VALIDATION_ERROR', 'fieldKey');
});

test('4.3 answer up to 50 fields in one call, all or nothing', async () => {
  const r = await s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), {
    fields: [
      { key: F.employeeId, value: 'E4321' },
      { key: F.startDate, value: '2031-01-01' },
    ],
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.fields.find((f: { key: string }) => f.key === F.employeeId).value, 'E4321');
  // One bad answer refuses all.
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), { fields: [{ key: F.employeeId, value: 'E9999' }, { key: F.startDate, value: 'soon' }] }), 400, 'VALIDATION_ERROR', 'fields[1].value');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), { fields: [{ key: MISSING, value: 'x' }] }), 400, 'VALIDATION_ERROR', 'fields[0].key');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), { fields: [{ key: F.employeeId, value: 'E1' }, { key: F.employeeId, value: 'E2' }] }), 400, 'VALIDATION_ERROR');
  const many = Array.from({ length: 51 }, () => ({ key: F.employeeId, value: 'E1111' }));
  const over = await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), { fields: many }), 400, 'VALIDATION_ERROR', 'fields');
  assert.match(over.error.message, /at most 50/);
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), { fields: [] }), 400, 'VALIDATION_ERROR', 'fields');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), { fields: [{ key: 'nope', value: 1 }] }), 400, 'VALIDATION_ERROR', 'fields[0].key');
  await refused(s, () => s.api(KEYS.admin, 'PATCH', fp(T.collectDetails), '{"fields": [', {}), 400, 'VALIDATION_ERROR');
});

test('5.8 field writes: halted task 409; exclusive assignment 403 unless Administrator; workspace key 403', async () => {
  // Halted: a fresh checklist where Manager approval is still incomplete.
  const k2 = await newChecklist(s);
  const halted = await refused(s, () => s.api(KEYS.admin, 'PUT', taskPath(k2, T.setUpEquipment, `/fields/${F.equipment}`), { value: ['Laptop'] }), 409, 'CONFLICT');
  assert.match(halted.error.message, /halted/);
  // Exclusive: John Roe's collect-details task is assigned exclusively to Ada.
  const jr = (k: string) => s.api(k, 'PUT', taskPath(DEMO.johnRoe, T.collectDetails, `/fields/${F.employeeId}`), { value: 'E2222' });
  const ex = await refused(s, () => jr(KEYS.member), 403, 'FORBIDDEN');
  assert.match(ex.error.message, /exclusively/);
  assert.equal((await jr(KEYS.owner)).status, 200, 'another Administrator may');
  assert.equal((await jr(KEYS.admin)).status, 200);
  await refused(s, () => jr(KEYS.workspace), 403, 'FORBIDDEN');
  await refused(s, () => jr(KEYS.noperm), 403, 'FORBIDDEN');
});

test('4.3 files: base64 in JSON, listed in the field value, downloadable without the key, removed; file_uploaded fires', async () => {
  const k3 = await newChecklist(s, { template: DEMO.expense });
  const files = taskPath(k3, T.submitReceipts, `/fields/${F.receipts}/files`);
  events.length = 0;
  const up = await s.api(KEYS.member, 'POST', files, { name: 'receipt "1".pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 hello').toString('base64') });
  assert.equal(up.status, 201, up.text);
  assert.deepEqual(Object.keys(up.body), ['id', 'name', 'contentType', 'size', 'url', 'createdDateTime', 'createdBy']);
  assert.equal(up.body.size, 14);
  const tid = (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(k3, T.submitReceipts) as { id: number }).id;
  assert.deepEqual(events, [{ type: 'file_uploaded', subject: { taskId: tid, fieldKey: F.receipts, fileId: up.body.id } }]);
  const dl = await fetch(up.body.url);
  assert.equal(dl.status, 200);
  assert.equal(dl.headers.get('content-type'), 'application/pdf');
  assert.match(dl.headers.get('content-disposition') ?? '', /^attachment; filename="receipt _1_.pdf"/);
  assert.equal(dl.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(await dl.text(), '%PDF-1.4 hello');
  const html = await s.api(KEYS.member, 'POST', files, { name: 'x.html', contentType: 'text/html', data: Buffer.from('<script>1</script>').toString('base64') });
  assert.equal((await fetch(html.body.url)).headers.get('content-type'), 'application/octet-stream', 'active types are served as bytes');
  const field = await s.api(KEYS.member, 'GET', taskPath(k3, T.submitReceipts, `/fields/${F.receipts}`));
  assert.equal(field.body.value.length, 2);
  assert.deepEqual((await s.api(KEYS.member, 'GET', files)).body.files.map((f: { id: number }) => f.id), [up.body.id, html.body.id]);
  await refused(s, () => s.api(KEYS.member, 'POST', files, { name: 'a.txt', contentType: 'text/plain', data: '@@not base64@@' }), 400, 'VALIDATION_ERROR', 'data');
  await refused(s, () => s.api(KEYS.member, 'POST', files, { name: 'a.txt', contentType: 'text/plain', data: '' }), 400, 'VALIDATION_ERROR', 'data');
  await refused(s, () => s.api(KEYS.member, 'POST', files, { name: 'a.txt', contentType: 'not a type', data: 'aGVsbG8=' }), 400, 'VALIDATION_ERROR', 'contentType');
  await refused(s, () => s.api(KEYS.member, 'POST', files, { contentType: 'text/plain', data: 'aGVsbG8=' }), 400, 'VALIDATION_ERROR', 'name');
  const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1).toString('base64');
  const tooBig = await refused(s, () => s.api(KEYS.member, 'POST', files, { name: 'big.bin', data: big }), 400, 'VALIDATION_ERROR', 'data');
  assert.match(tooBig.error.message, /5242880 bytes/);
  await refused(s, () => s.api(KEYS.member, 'POST', taskPath(k3, T.submitReceipts, `/fields/${F.amount}/files`), { name: 'a', data: 'aGVsbG8=' }), 400, 'VALIDATION_ERROR', 'fieldKey');
  await refused(s, () => s.api(KEYS.member, 'PUT', taskPath(k3, T.submitReceipts, `/fields/${F.receipts}`), { value: 'x' }), 400, 'VALIDATION_ERROR', 'value');
  assert.equal((await s.api(KEYS.member, 'DELETE', `${files}/${up.body.id}`)).status, 204);
  assert.equal((await fetch(up.body.url)).status, 404);
  await refused(s, () => s.api(KEYS.member, 'DELETE', `${files}/${up.body.id}`), 404, 'FILE_NOT_FOUND');
  assert.equal((await fetch(`${s.us}/files/${'0'.repeat(48)}`)).status, 404);
});

test('4.3: answering is what satisfies a required field (File Upload and Short Text)', async () => {
  const k4 = await newChecklist(s, { template: DEMO.expense });
  const c = () => s.api(KEYS.member, 'POST', taskPath(k4, T.submitReceipts, '/complete'));
  await refused(s, c, 409, 'CONFLICT');
  await s.api(KEYS.member, 'PUT', taskPath(k4, T.submitReceipts, `/fields/${F.amount}`), { value: '   ' });
  await refused(s, c, 409, 'CONFLICT');
  await s.api(KEYS.member, 'PUT', taskPath(k4, T.submitReceipts, `/fields/${F.amount}`), { value: '12.00' });
  assert.equal((await c()).status, 200);
});
