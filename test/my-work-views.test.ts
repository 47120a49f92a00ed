// Saved views of the Tasks grid (spec v3 2.6 saved view, 4.5, 4.6 view tools, 5.3, 8):
// the five core views, create / get / replace / delete, who may do what, idempotency,
// every refusal, and a view's definition sent to list_my_work.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, callTool, withoutRequestId, type TestServer } from './helpers/server';
import { refused, GUID_RE } from './helpers/checklists';

let s: TestServer;
const NOWHERE = '99999999-9999-4999-8999-999999999999';
const OPEN_TASKS = '70000000-0000-4000-8000-000000000001';
const CORE = ['Open tasks', 'Due today', 'Overdue', 'Completed', 'All tasks'];

const views = (key: string) => s.api(key, 'GET', '/v3/my-work/views');
const create = (key: string, body: unknown, headers: Record<string, string> = {}) => s.api(key, 'POST', '/v3/my-work/views', body, headers);
const viewCount = () => (s.emu.db.prepare('SELECT COUNT(*) AS n FROM saved_views').get() as { n: number }).n;

before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

test('2.6, 4.6 list_my_work_views: the five core views first, never writable; a bare array, {result: [...]} over MCP', async () => {
  const r = await views(KEYS.member);
  assert.equal(r.status, 200, r.text);
  assert.ok(Array.isArray(r.body));
  assert.deepEqual(r.body.slice(0, 5).map((v: { name: string }) => v.name), CORE);
  for (const v of r.body.slice(0, 5)) {
    assert.equal(v.type, 'Core');
    assert.equal(v.isCore, true);
    assert.equal(v.canEdit, false);
    assert.equal(v.createdBy, undefined);
    assert.deepEqual([v.allTemplates, v.templates, v.includeStandalone, v.allAssignees, v.includeUnassigned, v.assignees, v.visibleTo], [true, [], true, false, false, [], []]);
  }
  assert.deepEqual(r.body[0].statuses, ['Incomplete', 'DueToday', 'Overdue', 'DueInFuture']);
  assert.equal(r.body[0].isDefault, true, 'Open tasks is the default of a member who chose none');
  assert.deepEqual(r.body[1].statuses, ['DueToday']);
  assert.deepEqual(r.body[2].statuses, ['Overdue']);
  assert.deepEqual(r.body[3].statuses, ['Complete', 'NotApplicable']);
  assert.equal(r.body[4].statuses.length, 8);
  const one = await s.api(KEYS.member, 'GET', `/v3/my-work/views/${OPEN_TASKS}`);
  assert.deepEqual(one.body, r.body[0]);
  const c = await s.mcp(KEYS.member);
  const tool = await callTool(c, 'list_my_work_views', {});
  assert.equal(tool.isError, false);
  assert.deepEqual(tool.body, { result: r.body });
  refused(await views(KEYS.workspace), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  refused(await s.api(KEYS.workspace, 'GET', `/v3/my-work/views/${OPEN_TASKS}`), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  refused(await s.api(KEYS.member, 'GET', '/v3/my-work/views/not-a-key'), 400, 'VALIDATION_ERROR', 'viewKey');
  refused(await s.api(KEYS.member, 'GET', `/v3/my-work/views/${NOWHERE}`), 404, 'VIEW_NOT_FOUND');
});

test('4.6 create_my_work_view: defaults, then every argument stored and returned', async () => {
  const min = await create(KEYS.member, { name: '  Mine  ' });
  assert.equal(min.status, 201, min.text);
  assert.match(min.body.key, GUID_RE);
  assert.deepEqual({ ...min.body, key: '<key>' }, {
    key: '<key>',
    name: 'Mine',
    type: 'Private',
    isCore: false,
    isDefault: false,
    canEdit: true,
    createdBy: { id: DEMO.members.mia, name: 'Mia Member', email: 'mia@acme.test' },
    statuses: ['Incomplete', 'DueToday', 'Overdue', 'DueInFuture'],
    allTemplates: true,
    templates: [],
    includeStandalone: true,
    allAssignees: false,
    includeUnassigned: false,
    assignees: [],
    sort: 'dueDateTime:asc',
    visibleTo: [],
  });
  const full = await create(KEYS.member, {
    name: 'Vendor work',
    search: 'widgets',
    statuses: ['overdue', 'Due Today', 'Overdue'],
    templates: [DEMO.vendor, DEMO.vendor.toUpperCase()],
    includeStandalone: false,
    includeUnassigned: true,
    assignees: [{ name: 'Operations' }, { type: 'teammember', id: DEMO.members.nora }],
    sort: 'templateName:DESC',
  });
  assert.equal(full.status, 201, full.text);
  const v = full.body;
  assert.equal(v.search, 'widgets');
  assert.deepEqual(v.statuses, ['DueToday', 'Overdue']);
  assert.equal(v.allTemplates, false, 'false when templates are named and allTemplates omitted');
  assert.deepEqual(v.templates, [{ key: DEMO.vendor, name: 'Vendor Review', url: `${s.us}/app/templates/${DEMO.vendor}` }]);
  assert.equal(v.includeStandalone, false);
  assert.equal(v.includeUnassigned, true);
  assert.deepEqual(v.assignees, [
    { id: DEMO.groups.operations, type: 'Group', name: 'Operations' },
    { id: DEMO.members.nora, type: 'TeamMember', name: 'Nora Noperm' },
  ]);
  assert.equal(v.sort, 'templateName:desc');
  const got = await s.api(KEYS.member, 'GET', `/v3/my-work/views/${v.key}`);
  assert.deepEqual(got.body, v);
  const list = await views(KEYS.member);
  assert.deepEqual(list.body.slice(5).map((x: { key: string }) => x.key), [min.body.key, v.key]);
});

test('4.6, 8 create_my_work_view refusals: each with its field, nothing written (REST and MCP)', async () => {
  const cases: [string, unknown, number, string, string | undefined][] = [
    [KEYS.member, {}, 400, 'VALIDATION_ERROR', 'name'],
    [KEYS.member, { name: '   ' }, 400, 'VALIDATION_ERROR', 'name'],
    [KEYS.member, { name: 'x'.repeat(201) }, 400, 'VALIDATION_ERROR', 'name'],
    [KEYS.member, { name: 'v', type: 'Core' }, 400, 'VALIDATION_ERROR', 'type'],
    [KEYS.member, { name: 'v', type: 'Public' }, 400, 'VALIDATION_ERROR', 'type'],
    [KEYS.member, { name: 'v', search: 's'.repeat(1001) }, 400, 'VALIDATION_ERROR', 'search'],
    [KEYS.member, { name: 'v', statuses: [] }, 400, 'VALIDATION_ERROR', 'statuses'],
    [KEYS.member, { name: 'v', statuses: ['Overdue', 'Late'] }, 400, 'VALIDATION_ERROR', 'statuses[1]'],
    [KEYS.member, { name: 'v', allTemplates: true, templates: [DEMO.vendor] }, 400, 'VALIDATION_ERROR', 'allTemplates'],
    [KEYS.member, { name: 'v', templates: ['nope'] }, 400, 'VALIDATION_ERROR', 'templates[0]'],
    [KEYS.member, { name: 'v', allAssignees: true, assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] }, 400, 'VALIDATION_ERROR', 'allAssignees'],
    [KEYS.member, { name: 'v', assignees: [{ name: 'Alex Kim' }] }, 400, 'VALIDATION_ERROR', 'assignees[0].name'],
    [KEYS.member, { name: 'v', assignees: [{ id: 3 }] }, 400, 'VALIDATION_ERROR', 'assignees[0].type'],
    [KEYS.member, { name: 'v', assignees: [{ type: 'CurrentUser' }] }, 400, 'VALIDATION_ERROR', 'assignees[0].type'],
    [KEYS.member, { name: 'v', visibleTo: [{ name: 'Operations' }] }, 400, 'VALIDATION_ERROR', 'visibleTo'],
    [KEYS.admin, { name: 'v', type: 'Team', visibleTo: [] }, 400, 'VALIDATION_ERROR', 'visibleTo'],
    [KEYS.member, { name: 'v', sort: 'priority' }, 400, 'VALIDATION_ERROR', 'sort'],
    [KEYS.member, { name: 'v', includeStandalone: 'yes' }, 400, 'VALIDATION_ERROR', 'includeStandalone'],
    [KEYS.member, { name: 'v', type: 'Team' }, 403, 'FORBIDDEN', undefined],
    [KEYS.member, { name: 'v', type: 'UsersGroups', visibleTo: [{ name: 'Operations' }] }, 403, 'FORBIDDEN', undefined],
    [KEYS.member, { name: 'v', templates: [NOWHERE] }, 404, 'TEMPLATE_NOT_FOUND', undefined],
    [KEYS.admin, { name: 'v', type: 'UsersGroups', visibleTo: [{ name: 'Alex Kim' }] }, 400, 'VALIDATION_ERROR', 'visibleTo[0].name'],
  ];
  const before = viewCount();
  const clients = new Map<string, Awaited<ReturnType<TestServer['mcp']>>>();
  for (const [key, body, status, code, field] of cases) {
    const r = await create(key, body);
    refused(r, status, code, field);
    if (!clients.has(key)) clients.set(key, await s.mcp(key));
    const tool = await callTool(clients.get(key)!, 'create_my_work_view', body as Record<string, unknown>);
    assert.equal(tool.isError, true, JSON.stringify(body));
    assert.deepEqual(withoutRequestId(tool.body), withoutRequestId(r.body));
  }
  assert.equal(viewCount(), before);
  refused(await create(KEYS.workspace, { name: 'v' }), 403, 'API_KEY_ACTS_AS_WORKSPACE');
});

test('4.6 rule 4: create_my_work_view with an idempotency key answers the first view again, marked _meta.idempotentReplay', async () => {
  const c = await s.mcp(KEYS.member);
  const args = { name: 'Replayed', statuses: ['Overdue'], idempotencyKey: 'view-once' };
  const first = await callTool(c, 'create_my_work_view', args);
  assert.equal(first.isError, false, first.text);
  assert.equal(first.meta?.idempotentReplay, undefined);
  const n = viewCount();
  const again = await callTool(c, 'create_my_work_view', args);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.meta?.idempotentReplay, true);
  assert.equal(viewCount(), n);
  const other = await callTool(c, 'create_my_work_view', { ...args, name: 'Different' });
  assert.equal(other.body.error.code, 'CONFLICT');
  // REST: the Idempotency-Key header.
  const r1 = await create(KEYS.member, { name: 'REST once' }, { 'Idempotency-Key': 'rest-view-once' });
  const r2 = await create(KEYS.member, { name: 'REST once' }, { 'Idempotency-Key': 'rest-view-once' });
  assert.equal(r2.status, 201);
  assert.deepEqual(r2.body, r1.body);
  // Without a key, two calls make two views.
  const a = await callTool(c, 'create_my_work_view', { name: 'Twice' });
  const b = await callTool(c, 'create_my_work_view', { name: 'Twice' });
  assert.notEqual(a.body.key, b.body.key);
});

test('4.6 views by role: Team and UsersGroups need an Administrator; a group shares with whoever is in it; Private is private', async () => {
  const team = await create(KEYS.admin, { name: 'Everyone', type: 'team' });
  assert.equal(team.status, 201, team.text);
  assert.equal(team.body.type, 'Team');
  const shared = await create(KEYS.admin, { name: 'Ops only', type: 'UsersGroups', visibleTo: [{ name: 'Operations' }, { type: 'TeamMember', id: DEMO.members.gus }] });
  assert.equal(shared.status, 201, shared.text);
  assert.deepEqual(shared.body.visibleTo, [
    { id: DEMO.groups.operations, type: 'Group', name: 'Operations' },
    { id: DEMO.members.gus, type: 'TeamMember', name: 'Gus Guest' },
  ]);
  const secret = await create(KEYS.owner, { name: "Omar's own" });
  const listed = async (key: string) => ((await views(key)).body as { key: string; canEdit: boolean }[]).filter((v) => [team.body.key, shared.body.key, secret.body.key].includes(v.key));
  const mia = await listed(KEYS.member); // in Operations
  assert.deepEqual(mia.map((v) => [v.key, v.canEdit]), [[team.body.key, false], [shared.body.key, false]]);
  const nora = await listed(KEYS.noperm); // not in Operations
  assert.deepEqual(nora.map((v) => v.key), [team.body.key]);
  refused(await s.api(KEYS.noperm, 'GET', `/v3/my-work/views/${shared.body.key}`), 404, 'VIEW_NOT_FOUND');
  refused(await s.api(KEYS.member, 'GET', `/v3/my-work/views/${secret.body.key}`), 404, 'VIEW_NOT_FOUND');
  // Administrators see and may change every view.
  const ada = await listed(KEYS.admin);
  assert.deepEqual(ada.map((v) => [v.key, v.canEdit]), [[team.body.key, true], [shared.body.key, true], [secret.body.key, true]]);
  // A member may not change a Team view or a UsersGroups view someone else created.
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${team.body.key}`, { name: 'Mine now', type: 'Team' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${shared.body.key}`, { name: 'Mine now', type: 'UsersGroups' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.member, 'DELETE', `/v3/my-work/views/${team.body.key}`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.noperm, 'DELETE', `/v3/my-work/views/${shared.body.key}`), 404, 'VIEW_NOT_FOUND');
});

test('4.6 update_my_work_view: a replacement; omitted arguments return to their defaults; the author is kept', async () => {
  const made = await create(KEYS.member, { name: 'Before', statuses: ['Complete'], templates: [DEMO.expense], includeStandalone: false, sort: 'name:desc', search: 'old' });
  const key = made.body.key;
  const put = await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${key}`, { name: 'After' });
  assert.equal(put.status, 200, put.text);
  const { search: _old, ...kept } = made.body;
  void _old;
  assert.deepEqual(put.body, {
    ...kept,
    name: 'After',
    statuses: ['Incomplete', 'DueToday', 'Overdue', 'DueInFuture'],
    allTemplates: true,
    templates: [],
    includeStandalone: true,
    sort: 'dueDateTime:asc',
  });
  assert.equal(put.body.search, undefined);
  // An Administrator changes it; Mia stays the author.
  const ada = await s.api(KEYS.admin, 'PUT', `/v3/my-work/views/${key}`, { name: 'Shared by Ada', type: 'UsersGroups', visibleTo: [{ name: 'Sales' }] });
  assert.equal(ada.status, 200, ada.text);
  assert.equal(ada.body.createdBy.id, DEMO.members.mia);
  assert.equal(ada.body.type, 'UsersGroups');
  // Mia may change the UsersGroups view she created; omitting type makes it Private again.
  const back = await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${key}`, { name: 'Private again' });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.body.type, 'Private');
  assert.deepEqual(back.body.visibleTo, []);
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${key}`, { name: 'x', type: 'Team' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${OPEN_TASKS}`, { name: 'x' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.admin, 'PUT', `/v3/my-work/views/${OPEN_TASKS}`, { name: 'x' }), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${NOWHERE}`, { name: 'x' }), 404, 'VIEW_NOT_FOUND');
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${key}`, {}), 400, 'VALIDATION_ERROR', 'name');
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${key}`, { name: 'x', visibleTo: [] }), 400, 'VALIDATION_ERROR', 'visibleTo');
  refused(await s.api(KEYS.member, 'PUT', `/v3/my-work/views/${key}`, { name: 'x', templates: [NOWHERE] }), 404, 'TEMPLATE_NOT_FOUND');
  refused(await s.api(KEYS.workspace, 'PUT', `/v3/my-work/views/${key}`, { name: 'x' }), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  const c = await s.mcp(KEYS.member);
  const tool = await callTool(c, 'update_my_work_view', { viewKey: key, name: 'Over MCP', statuses: ['Overdue'] });
  assert.equal(tool.isError, false, tool.text);
  const rest = await s.api(KEYS.member, 'GET', `/v3/my-work/views/${key}`);
  assert.deepEqual(tool.body, rest.body);
});

test('4.6 delete_my_work_view: DELETE /v3/my-work/views/{viewKey}; no task changes; whose default it was lands on Open tasks', async () => {
  const made = await create(KEYS.member, { name: 'Doomed' });
  const key = made.body.key;
  // The app chooses a member's default view; the emulator's control route stands in for it.
  const control = (body: unknown) => fetch(`${s.us}/_emulator/my-work/default-view`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const set = await control({ memberId: DEMO.members.mia, viewKey: key });
  assert.equal(set.status, 200, await set.clone().text());
  assert.deepEqual(await set.json(), { memberId: DEMO.members.mia, viewKey: key });
  assert.equal((await control({ memberId: DEMO.members.mia, viewKey: NOWHERE })).status, 404);
  assert.equal((await control({ memberId: 999999, viewKey: key })).status, 400);
  assert.equal((await control({ memberId: DEMO.members.mia })).status, 400);
  const listed = (await views(KEYS.member)).body as { key: string; isDefault: boolean }[];
  assert.deepEqual(listed.filter((v) => v.isDefault).map((v) => v.key), [key]);
  const tasksBefore = s.emu.db.prepare('SELECT COUNT(*) AS n, SUM(status = \'Complete\') AS c FROM tasks').get();
  refused(await s.api(KEYS.member, 'DELETE', `/v3/my-work/views/${OPEN_TASKS}`), 403, 'FORBIDDEN');
  refused(await s.api(KEYS.workspace, 'DELETE', `/v3/my-work/views/${key}`), 403, 'API_KEY_ACTS_AS_WORKSPACE');
  const del = await s.api(KEYS.member, 'DELETE', `/v3/my-work/views/${key}`);
  assert.equal(del.status, 204, del.text);
  assert.equal(del.text, '');
  refused(await s.api(KEYS.member, 'GET', `/v3/my-work/views/${key}`), 404, 'VIEW_NOT_FOUND');
  refused(await s.api(KEYS.member, 'DELETE', `/v3/my-work/views/${key}`), 404, 'VIEW_NOT_FOUND');
  assert.deepEqual(s.emu.db.prepare('SELECT COUNT(*) AS n, SUM(status = \'Complete\') AS c FROM tasks').get(), tasksBefore);
  const after = (await views(KEYS.member)).body as { key: string; isDefault: boolean }[];
  assert.deepEqual(after.filter((v) => v.isDefault).map((v) => v.key), [OPEN_TASKS]);
  // MCP: {result: null}; an Administrator may delete a member's view.
  const other = await create(KEYS.member, { name: 'Ada deletes this' });
  const tool = await callTool(await s.mcp(KEYS.admin), 'delete_my_work_view', { viewKey: other.body.key });
  assert.equal(tool.isError, false, tool.text);
  assert.deepEqual(tool.body, { result: null });
});

test("4.6: a saved view's statuses, templates, assignees and sort sent to list_my_work give the view's rows", async () => {
  const view = (
    await create(KEYS.admin, {
      name: 'Onboarding for Mia and nobody',
      statuses: ['Overdue', 'DueToday', 'DueInFuture', 'Incomplete', 'Halted'],
      templates: [DEMO.onboarding],
      assignees: [{ type: 'TeamMember', id: DEMO.members.mia }],
      includeUnassigned: true,
      includeStandalone: false,
      sort: 'name:desc',
    })
  ).body;
  // The view's definition as list_my_work arguments (docs/tasks-grid.md "From a view to the grid").
  const assignee = [...view.assignees.map((a: { type: string; id: number }) => `${a.type}:${a.id}`), ...(view.includeUnassigned ? ['unassigned'] : [])].join(',');
  const query = new URLSearchParams({
    status: view.statuses.join(','),
    template: view.templates.map((t: { key: string }) => t.key).join(','),
    assignee,
    includeStandalone: String(view.includeStandalone),
    sort: view.sort,
    pageSize: '100',
  });
  const r = await s.api(KEYS.admin, 'GET', `/v3/my-work?${query}`);
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.items.length > 0);
  for (const row of r.body.items) {
    assert.equal(row.isStandalone, false);
    assert.equal(row.checklist.template.key, DEMO.onboarding);
    assert.ok(row.assignees.length === 0 || row.assignees.some((a: { id: number; type: string }) => a.type === 'TeamMember' && a.id === DEMO.members.mia));
  }
  const names = r.body.items.map((i: { name: string }) => i.name.toLowerCase());
  assert.deepEqual(names, [...names].sort().reverse());
  // Sorting by status, assignees or tags is the grid's own, not list_my_work's.
  refused(await s.api(KEYS.admin, 'GET', '/v3/my-work?sort=status'), 400, 'VALIDATION_ERROR', 'sort');
});
