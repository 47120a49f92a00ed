// Template routes of spec v3 4.4 (minus upgrades), on REST and MCP, with the
// permission rules of 5.4-5.7, 5.9, 5.10.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, KEYS, DEMO, type TestServer } from './helpers/server';
import { setRights, smallDoc } from './helpers/templates';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

let s: TestServer;
let admin: Client;
const T = DEMO.onboarding;
const MISSING = '20000000-0000-4000-8000-0000000000ff';

before(async () => {
  s = await startTestServer();
  admin = await s.mcp(KEYS.admin);
});
after(async () => {
  await s.close();
});

/** REST answer and the same call as a tool give the same body (4.6 rules 1-2). */
async function same(key: string, method: string, path: string, tool: string, args: Record<string, unknown>, body?: unknown) {
  const rest = await s.api(key, method, path, body);
  const c = key === KEYS.admin ? admin : await s.mcp(key);
  const r = await callTool(c, tool, args);
  assert.equal(r.isError, rest.status >= 400, `${tool}: isError ${r.isError} vs status ${rest.status}`);
  assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body));
  return rest;
}

test('4.4 list: latest versions, archived left out, hasMore false and total = rows, same over MCP', async () => {
  const r = await same(KEYS.admin, 'GET', '/v3/templates', 'list_templates', {});
  assert.equal(r.status, 200);
  assert.equal(r.body.hasMore, false);
  assert.equal(r.body.total, r.body.items.length);
  assert.equal(r.body.nextCursor, undefined);
  const onboarding = r.body.items.find((i: { key: string }) => i.key === T);
  assert.equal(onboarding.version, 2);
  assert.equal(onboarding.isArchived, false);
  assert.ok(!r.body.items.some((i: { key: string }) => i.key === DEMO.oldProcess));
  assert.ok(!r.body.items.some((i: { key: string }) => i.key === DEMO.globexAudit));
});

test('4.4 list: only `true` (any case) switches includeAllVersions and includeArchived on', async () => {
  const all = await same(KEYS.admin, 'GET', '/v3/templates?includeAllVersions=TRUE&includeArchived=True', 'list_templates', { includeAllVersions: true, includeArchived: true });
  const rows = all.body.items.filter((i: { key: string }) => i.key === T);
  assert.deepEqual(rows.map((r: { version: number }) => r.version), [1, 2]);
  assert.equal(rows[0].description, "Everything that has to happen before and on a new employee's first day.");
  const old = all.body.items.find((i: { key: string }) => i.key === DEMO.oldProcess);
  assert.equal(old.isArchived, true);
  assert.equal(all.body.total, all.body.items.length);
  for (const v of ['1', 'yes', 'false', '']) {
    const r = await s.api(KEYS.admin, 'GET', `/v3/templates?includeAllVersions=${v}&includeArchived=${v}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.items.filter((i: { key: string }) => i.key === T).length, 1, v);
    assert.ok(!r.body.items.some((i: { key: string }) => i.key === DEMO.oldProcess), v);
  }
});

test('4.4 list: not filtered by permission (Nora lists Vendor Review despite Deny)', async () => {
  const r = await s.api(KEYS.noperm, 'GET', '/v3/templates');
  assert.ok(r.body.items.some((i: { key: string }) => i.key === DEMO.vendor));
});

test('2.5 get: template detail with latestVersion, isLatest, tasks and fields', async () => {
  const r = await same(KEYS.admin, 'GET', `/v3/templates/${T}`, 'get_template', { key: T });
  assert.equal(r.status, 200);
  assert.equal(r.body.version, 2);
  assert.equal(r.body.latestVersion, 2);
  assert.equal(r.body.isLatest, true);
  assert.deepEqual(r.body.tasks.map((t: { order: number }) => t.order), [1, 2, 3, 4, 5, 6, 7]);
  const heading = r.body.tasks[0];
  assert.deepEqual(heading, { key: DEMO.tasks.heading, name: 'Before the first day', isHeading: true, order: 1, fields: [] });
  const fields = r.body.tasks[1].fields;
  const id = fields.find((f: { name: string }) => f.name === 'Employee ID');
  assert.deepEqual(id, { key: '22000000-0000-4000-8000-000000000101', name: 'Employee ID', type: 'ShortText', isRequired: true, regex: '/^E\\d{4}$/', regexMessage: 'Employee IDs look like E1234.' });
  const office = fields.find((f: { name: string }) => f.name === 'Office');
  assert.deepEqual(office.dataSet, {
    key: DEMO.offices,
    name: 'Offices',
    viewKey: office.dataSet.viewKey,
    viewName: 'All Records',
    displayFieldKey: office.dataSet.displayFieldKey,
    displayFieldName: 'Name',
    prePopulateRows: false,
  });
  assert.equal(fields.find((f: { name: string }) => f.name === 'Start date').mode, 'date');
  const approver = r.body.tasks[3].fields[0];
  assert.equal(approver.selectionMode, 'single');
  // Unlabelled field: named from type and position (2.5, 6.2).
  assert.equal(r.body.tasks[5].fields[0].name, 'Unlabelled Text Content at Position 1');
});

test('4.4 get: version query reads that version; 0, -1, abc are 400 field version; unknown version 404', async () => {
  const v1 = await same(KEYS.admin, 'GET', `/v3/templates/${T}?version=1`, 'get_template', { key: T, version: 1 });
  assert.equal(v1.body.version, 1);
  assert.equal(v1.body.isLatest, false);
  assert.equal(v1.body.latestVersion, 2);
  assert.equal(v1.body.tasks.length, 6);
  for (const bad of ['0', '-1', 'abc', '1.5']) {
    const r = await s.api(KEYS.admin, 'GET', `/v3/templates/${T}?version=${bad}`);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, 'version');
  }
  const mcpBad = await callTool(admin, 'get_template', { key: T, version: 0 });
  assert.equal(mcpBad.body.error.field, 'version');
  await same(KEYS.admin, 'GET', `/v3/templates/${T}?version=9`, 'get_template', { key: T, version: 9 });
  const r = await s.api(KEYS.admin, 'GET', `/v3/templates/${T}?version=9`);
  assert.equal(r.status, 404);
  assert.equal(r.body.error.code, 'TEMPLATE_NOT_FOUND');
});

test('4.1 rule 4 / 5.10: malformed key 400 field key; unknown and other-workspace keys 404', async () => {
  const bad = await same(KEYS.admin, 'GET', '/v3/templates/not-a-guid', 'get_template', { key: 'not-a-guid' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.field, 'key');
  const missing = await s.api(KEYS.admin, 'GET', `/v3/templates/${MISSING}`);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'TEMPLATE_NOT_FOUND');
  const other = await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.globexAudit}`);
  assert.equal(other.status, 404);
  const other2 = await s.api(KEYS.noperm, 'GET', `/v3/templates/${DEMO.globexAudit}/document`);
  assert.equal(other2.status, 404);
});

test('5.7 reads: Deny is 403 for get, export, versions, permissions; View and no rule read', async () => {
  for (const [path, tool] of [
    [`/v3/templates/${DEMO.vendor}`, 'get_template'],
    [`/v3/templates/${DEMO.vendor}/document`, 'export_template'],
    [`/v3/templates/${DEMO.vendor}/versions`, 'list_template_versions'],
    [`/v3/templates/${DEMO.vendor}/permissions`, 'list_template_permissions'],
  ]) {
    const r = await same(KEYS.noperm, 'GET', path, tool, { key: DEMO.vendor });
    assert.equal(r.status, 403, path);
    assert.equal(r.body.error.code, 'FORBIDDEN');
    assert.match(r.body.error.message, /Deny/);
    assert.match(r.body.error.message, /Administrator can/);
  }
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/templates/${DEMO.vendor}`)).status, 200); // View
  assert.equal((await s.api(KEYS.noperm, 'GET', `/v3/templates/${T}`)).status, 200); // HR has no rule for Nora
  assert.equal((await s.api(KEYS.noperm, 'GET', `/v3/templates/${DEMO.expense}`)).status, 200); // no folder
  assert.equal((await s.api(KEYS.workspace, 'GET', `/v3/templates/${DEMO.vendor}`)).status, 200);
});

test('4.4 export: the document of the requested version, with ids; versions list newest first', async () => {
  const v1 = await same(KEYS.admin, 'GET', `/v3/templates/${T}/document?version=1`, 'export_template', { key: T, version: 1 });
  assert.equal(v1.body.tasks.length, 6);
  assert.equal(v1.body.tasks[1].id, DEMO.tasks.collectDetails);
  assert.equal(v1.body.tasks[1].fields[1].regex, '/^E\\d{4}$/');
  const latest = await s.api(KEYS.admin, 'GET', `/v3/templates/${T}/document`);
  assert.equal(latest.body.tasks.length, 7);
  const bad = await s.api(KEYS.admin, 'GET', `/v3/templates/${T}/document?version=-1`);
  assert.equal(bad.body.error.field, 'version');
  const versions = await same(KEYS.admin, 'GET', `/v3/templates/${T}/versions`, 'list_template_versions', { key: T });
  assert.equal(versions.body.total, 2);
  assert.equal(versions.body.hasMore, false);
  assert.deepEqual(Object.keys(versions.body.items[0]).sort(), ['createdBy', 'createdDateTime', 'description', 'isLatest', 'key', 'name', 'url', 'version']);
  assert.deepEqual(versions.body.items.map((v: { version: number; isLatest: boolean }) => [v.version, v.isLatest]), [[2, true], [1, false]]);
});

test('4.4 create: 201 with the detail; tags applied; 422 TEMPLATE_INVALID with every error; nothing saved', async () => {
  const before = (await s.api(KEYS.admin, 'GET', '/v3/templates')).body.total;
  const doc = { ...smallDoc('Created Over REST'), tags: ['created-tag'] };
  const r = await s.api(KEYS.admin, 'POST', '/v3/templates', doc);
  assert.equal(r.status, 201);
  assert.equal(r.body.name, 'Created Over REST');
  assert.equal(r.body.version, 1);
  assert.equal(r.body.isLatest, true);
  assert.equal(r.body.tasks.length, 2);
  assert.equal(r.body.createdBy.name, 'Ada Admin');
  const tags = await s.api(KEYS.admin, 'GET', '/v3/tags?search=created-tag');
  assert.equal(tags.body.items[0].templates, 1);

  const bad = { name: '', tasks: [{ name: 'x', fields: [{ type: 'Nope' }, { type: 'ShortText', regex: '[' }] }] };
  const refused = await same(KEYS.admin, 'POST', '/v3/templates', 'create_template', { document: bad }, bad);
  assert.equal(refused.status, 422);
  assert.equal(refused.body.error.code, 'TEMPLATE_INVALID');
  assert.deepEqual(refused.body.error.violations.map((v: { code: string; path: string }) => `${v.code} ${v.path}`), [
    'required $.name',
    'unknown_content_type $.tasks[0].fields[0].type',
    'invalid_regex $.tasks[0].fields[1].regex',
  ]);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/templates')).body.total, before + 1);
});

test('4.4 create: an exported document (with ids) is refused; use copy', async () => {
  const exported = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.expense}/document`)).body;
  const r = await s.api(KEYS.admin, 'POST', '/v3/templates', exported);
  assert.equal(r.status, 422);
  assert.equal(r.body.error.violations[0].code, 'ids_not_allowed');
  assert.equal(r.body.error.violations[0].path, '$.tasks[0].id');
  assert.match(r.body.error.violations[0].hint, /copy/);
});

test('4.4 create over MCP takes the document as `document` and answers like REST', async () => {
  const r = await callTool(admin, 'create_template', { document: smallDoc('Created Over MCP') });
  assert.equal(r.isError, false);
  const rest = await s.api(KEYS.admin, 'GET', `/v3/templates/${r.body.key}`);
  assert.deepEqual(r.body, rest.body);
});

test('4.4 create: no body is 400; a body that is not an object is 422 at $', async () => {
  const none = await s.api(KEYS.admin, 'POST', '/v3/templates');
  assert.equal(none.status, 400);
  assert.equal(none.body.error.code, 'VALIDATION_ERROR');
  const arr = await s.api(KEYS.admin, 'POST', '/v3/templates', [1, 2]);
  assert.equal(arr.status, 422);
  assert.deepEqual(arr.body.error.violations.map((v: { path: string; code: string }) => [v.path, v.code]), [['$', 'invalid_type']]);
});

test('5.5 create: Template.Creator needed (403 before the document is read); folder Edit needed', async () => {
  const r = await same(KEYS.noperm, 'POST', '/v3/templates', 'create_template', { document: { not: 'a template' } }, { not: 'a template' });
  assert.equal(r.status, 403);
  assert.match(r.body.error.message, /Template\.Creator/);
  assert.match(r.body.error.message, /Administrator can/);
  setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Template.Creator']);
  try {
    const ok = await s.api(KEYS.member, 'POST', '/v3/templates?folder=HR', smallDoc('Mia In HR'));
    assert.equal(ok.status, 201);
    const perms = await s.api(KEYS.member, 'GET', `/v3/templates/${ok.body.key}/permissions`);
    assert.deepEqual(perms.body.permissions, [{ assigneeType: 'TeamMember', assigneeId: DEMO.members.mia, name: 'Mia Member', permission: 'RunAndView' }]);
    const view = await s.api(KEYS.member, 'POST', '/v3/templates?folder=Procurement', { garbage: true });
    assert.equal(view.status, 403);
    assert.match(view.body.error.message, /Edit/);
    const unknown = await s.api(KEYS.member, 'POST', '/v3/templates?folder=Nowhere', smallDoc());
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.field, 'folder');
  } finally {
    setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
  }
  const ws = await s.api(KEYS.workspace, 'POST', '/v3/templates', smallDoc('By The Workspace'));
  assert.equal(ws.status, 201);
});

test('4.4 rule 3 edit loop: export, change keeping ids, validate forTemplate, publish; task and field keys survive', async () => {
  const created = await s.api(KEYS.admin, 'POST', '/v3/templates', smallDoc('Edit Loop'));
  const key = created.body.key;
  const taskKey = created.body.tasks[0].key;
  const fieldKey = created.body.tasks[0].fields[0].key;
  const doc = (await same(KEYS.admin, 'GET', `/v3/templates/${key}/document`, 'export_template', { key })).body;
  assert.equal(doc.tasks[0].id, taskKey);
  doc.tasks[0].fields[0].label = 'Answer, renamed';
  doc.tasks[0].fields.push({ ref: 'new_field', type: 'LongText', label: 'New' });
  doc.tasks.push({ ref: 'third', name: 'Third' });
  const v = await same(KEYS.admin, 'POST', `/v3/templates/validate?forTemplate=${key}`, 'validate_template', { document: doc, forTemplate: key }, doc);
  assert.deepEqual(v.body, { valid: true, errorCount: 0, warningCount: 0, violations: [] });
  const published = await s.api(KEYS.admin, 'POST', `/v3/templates/${key}/versions`, doc);
  assert.equal(published.status, 201);
  assert.equal(published.body.version, 2);
  assert.equal(published.body.tasks[0].key, taskKey);
  assert.equal(published.body.tasks[0].fields[0].key, fieldKey);
  assert.equal(published.body.tasks[0].fields[0].name, 'Answer, renamed');
  assert.notEqual(published.body.tasks[0].fields[1].key, fieldKey);
  assert.equal(published.body.tasks.length, 3);
  // Over MCP too: publish the same document again.
  const again = await callTool(admin, 'create_template_version', { key, document: doc });
  assert.equal(again.isError, false);
  assert.equal(again.body.version, 3);
  assert.equal(again.body.tasks[0].fields[0].key, fieldKey);
});

test('4.4 rule 3 rollback: export version 1 and publish it as version 3', async () => {
  const created = await s.api(KEYS.admin, 'POST', '/v3/templates', smallDoc('Rollback'));
  const key = created.body.key;
  const v1doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${key}/document?version=1`)).body;
  const v2doc = structuredClone(v1doc);
  v2doc.name = 'Rollback, changed';
  v2doc.tasks.splice(1, 1);
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${key}/versions`, v2doc)).status, 201);
  const old = (await s.api(KEYS.admin, 'GET', `/v3/templates/${key}/document?version=1`)).body;
  const v3 = await s.api(KEYS.admin, 'POST', `/v3/templates/${key}/versions`, old);
  assert.equal(v3.status, 201);
  assert.equal(v3.body.version, 3);
  assert.equal(v3.body.name, 'Rollback');
  assert.deepEqual(v3.body.tasks.map((t: { key: string }) => t.key), created.body.tasks.map((t: { key: string }) => t.key));
  assert.deepEqual((await s.api(KEYS.admin, 'GET', `/v3/templates/${key}/document?version=3`)).body, old);
  // Versions are never edited: version 2 is still there, unchanged.
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/templates/${key}?version=2`)).body.name, 'Rollback, changed');
});

test('4.4 publish: ids of another template are unknown_id (422); 404 unknown template; 400 bad key', async () => {
  const doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.expense}/document`)).body;
  const r = await s.api(KEYS.admin, 'POST', `/v3/templates/${T}/versions`, doc);
  assert.equal(r.status, 422);
  assert.equal(r.body.error.violations[0].code, 'unknown_id');
  assert.equal(r.body.error.violations[0].path, '$.tasks[0].id');
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${MISSING}/versions`, doc)).status, 404);
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/nope/versions`, doc)).body.error.field, 'key');
});

test('5.5 publish: View is 403, no Template.Creator is 403, Deny is 403, all before the document is read', async () => {
  const junk = { this: 'is not a document' };
  const noRight = await same(KEYS.member, 'POST', `/v3/templates/${T}/versions`, 'create_template_version', { key: T, document: junk }, junk);
  assert.equal(noRight.status, 403);
  assert.match(noRight.body.error.message, /Template\.Creator/);
  const deny = await s.api(KEYS.noperm, 'POST', `/v3/templates/${DEMO.vendor}/versions`, junk);
  assert.equal(deny.status, 403);
  assert.match(deny.body.error.message, /Deny/);
  setRights(s, DEMO.members.mia, ['Template.Creator']);
  try {
    const view = await s.api(KEYS.member, 'POST', `/v3/templates/${DEMO.vendor}/versions`, junk);
    assert.equal(view.status, 403);
    assert.match(view.body.error.message, /View/);
    const edit = await s.api(KEYS.member, 'POST', `/v3/templates/${T}/versions`, junk);
    assert.equal(edit.status, 422); // HR: Operations has Edit, so the document is read
    const copyView = await s.api(KEYS.member, 'POST', `/v3/templates/${DEMO.vendor}/copy`, {});
    assert.equal(copyView.status, 403);
    const permsView = await s.api(KEYS.member, 'PUT', `/v3/templates/${DEMO.vendor}/permissions`, { permissions: [] });
    assert.equal(permsView.status, 403);
  } finally {
    setRights(s, DEMO.members.mia, ['Checklist.Creator', 'Task.Creator', 'Task.Attacher']);
  }
});

test('4.4 copy: a new template with new keys and the same tasks; name and version; permission checks', async () => {
  const r = await s.api(KEYS.admin, 'POST', `/v3/templates/${T}/copy`, { name: 'Onboarding Copy', version: 1 });
  assert.equal(r.status, 201);
  assert.notEqual(r.body.key, T);
  assert.equal(r.body.name, 'Onboarding Copy');
  assert.equal(r.body.version, 1);
  assert.equal(r.body.tasks.length, 6);
  assert.ok(!r.body.tasks.some((t: { key: string }) => t.key === DEMO.tasks.heading));
  const perms = await s.api(KEYS.admin, 'GET', `/v3/templates/${r.body.key}/permissions`);
  assert.deepEqual(perms.body.permissions.map((p: { assigneeId: number }) => p.assigneeId), [DEMO.groups.operations]);
  const m = await callTool(admin, 'copy_template', { key: DEMO.expense });
  assert.equal(m.isError, false);
  assert.equal(m.body.name, 'Expense Report (copy)');
  const noRight = await same(KEYS.member, 'POST', `/v3/templates/${DEMO.expense}/copy`, 'copy_template', { key: DEMO.expense }, {});
  assert.equal(noRight.status, 403);
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${T}/copy`, { version: 0 })).body.error.field, 'version');
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${T}/copy`, { version: 7 })).status, 404);
});

test('3 template archive: POST archives, DELETE unarchives; Administrators and the workspace key only; set_template_archived', async () => {
  const created = await s.api(KEYS.admin, 'POST', '/v3/templates', smallDoc('To Archive'));
  const key = created.body.key;
  const refused = await same(KEYS.member, 'POST', `/v3/templates/${key}/archive`, 'set_template_archived', { key, archived: true });
  assert.equal(refused.status, 403);
  assert.match(refused.body.error.message, /Administrator/);
  const a = await s.api(KEYS.admin, 'POST', `/v3/templates/${key}/archive`);
  assert.equal(a.status, 200);
  assert.equal(a.body.isArchived, true);
  assert.ok(!(await s.api(KEYS.admin, 'GET', '/v3/templates')).body.items.some((i: { key: string }) => i.key === key));
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/templates/${key}`)).body.isArchived, true);
  const u = await s.api(KEYS.workspace, 'DELETE', `/v3/templates/${key}/archive`);
  assert.equal(u.status, 200);
  assert.equal(u.body.isArchived, false);
  const t = await callTool(admin, 'set_template_archived', { key, archived: true });
  assert.equal(t.body.isArchived, true);
  const t2 = await callTool(admin, 'set_template_archived', { key, archived: false });
  assert.equal(t2.body.isArchived, false);
  assert.equal((await s.api(KEYS.member, 'DELETE', `/v3/templates/${key}/archive`)).status, 403);
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/templates/${MISSING}/archive`)).status, 404);
});

test('2.5 permissions: list in order, set replaces all, name ignored, refusals 400 with field', async () => {
  const list = await same(KEYS.admin, 'GET', `/v3/templates/${DEMO.vendor}/permissions`, 'list_template_permissions', { key: DEMO.vendor });
  assert.deepEqual(list.body.permissions, [
    { assigneeType: 'TeamMember', assigneeId: 107, name: 'Alex Kim', permission: 'RunAndView' },
    { assigneeType: 'TeamMember', assigneeId: 103, name: 'Mia Member', permission: 'ViewOnly' },
  ]);
  const created = await s.api(KEYS.admin, 'POST', '/v3/templates', smallDoc('Permissions'));
  const key = created.body.key;
  const body = {
    permissions: [
      { assigneeType: 'TeamMember', assigneeId: 104, name: 'ignored name', permission: 'ViewAssignedOnly' },
      { assigneeType: 'Group', assigneeId: 302, permission: 'RunAndViewAssigned' },
      { assigneeType: 'AllUsers', permission: 'ViewOnly' },
    ],
  };
  const set = await same(KEYS.admin, 'PUT', `/v3/templates/${key}/permissions`, 'set_template_permissions', { key, ...body }, body);
  assert.deepEqual(set.body.permissions, [
    { assigneeType: 'AllUsers', name: 'All Users', permission: 'ViewOnly' },
    { assigneeType: 'Group', assigneeId: 302, name: 'Sales', permission: 'RunAndViewAssigned' },
    { assigneeType: 'TeamMember', assigneeId: 104, name: 'Nora Noperm', permission: 'ViewAssignedOnly' },
  ]);
  const cases: [unknown, string][] = [
    [{ permissions: [{ assigneeType: 'Nobody', permission: 'ViewOnly' }] }, 'permissions[0].assigneeType'],
    [{ permissions: [{ assigneeType: 'AllUsers', permission: 'Everything' }] }, 'permissions[0].permission'],
    [{ permissions: [{ assigneeType: 'TeamMember', permission: 'ViewOnly' }] }, 'permissions[0].assigneeId'],
    [{ permissions: [{ assigneeType: 'AllUsers', assigneeId: 3, permission: 'ViewOnly' }] }, 'permissions[0].assigneeId'],
    [{ permissions: [{ assigneeType: 'TeamMember', assigneeId: 9999, permission: 'ViewOnly' }] }, 'permissions[0].assigneeId'],
    [{ permissions: [{ assigneeType: 'AllUsers', permission: 'ViewOnly' }, { assigneeType: 'AllUsers', permission: 'RunAndView' }] }, 'permissions[1]'],
    [{}, 'permissions'],
  ];
  for (const [b, field] of cases) {
    const r = await s.api(KEYS.admin, 'PUT', `/v3/templates/${key}/permissions`, b);
    assert.equal(r.status, 400, JSON.stringify(b));
    assert.equal(r.body.error.field, field, JSON.stringify(b));
  }
  // A refused write changed nothing.
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/templates/${key}/permissions`)).body.permissions.length, 3);
  const empty = await s.api(KEYS.admin, 'PUT', `/v3/templates/${key}/permissions`, { permissions: [] });
  assert.deepEqual(empty.body.permissions, []);
  const noRight = await s.api(KEYS.noperm, 'PUT', `/v3/templates/${key}/permissions`, { permissions: [] });
  assert.equal(noRight.status, 403);
});

test('8: validate is cheap, the other template routes standard', async () => {
  const v = await s.api(KEYS.admin, 'POST', '/v3/templates/validate', smallDoc());
  assert.equal(v.headers.get('x-ratelimit-bucket'), 'cheap');
  const g = await s.api(KEYS.admin, 'GET', `/v3/templates/${T}`);
  assert.equal(g.headers.get('x-ratelimit-bucket'), 'standard');
});

test('fixture: templates load through the create and publish path with their keys', async () => {
  const doc = (await s.api(KEYS.admin, 'GET', `/v3/templates/${T}/document?version=1`)).body;
  assert.equal(doc.tasks[1].fields[2].id, '22000000-0000-4000-8000-000000000102');
  assert.equal(doc.conditions[0].id, '23000000-0000-4000-8000-000000000101');
  assert.equal(doc.notifications[0].id, '24000000-0000-4000-8000-000000000101');
  const tags = await s.api(KEYS.admin, 'GET', '/v3/tags?search=hr');
  assert.ok(tags.body.items.find((t: { name: string }) => t.name === 'hr').templates >= 1);
  const v = await s.api(KEYS.admin, 'POST', `/v3/templates/validate?forTemplate=${T}`, doc);
  assert.equal(v.body.valid, true);
});
