// Spec v3 2.3 (auth test), 2.6 (members, groups, tags), 4.5/4.6 (their tools'
// arguments), GET /v3/workspace, and paging (4.1 rule 11).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const ids = (body: { items: { id: number }[] }) => body.items.map((m) => m.id);
const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Walks every page; returns all items and checks the envelope on the way. */
async function walk(key: string, path: string): Promise<{ id?: number; name?: string }[]> {
  const all: { id?: number; name?: string }[] = [];
  let after: string | undefined;
  let total: number | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await s.api(key, 'GET', after ? `${path}${sep}after=${encodeURIComponent(after)}` : path);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), (r.body.hasMore ? ['hasMore', 'items', 'nextCursor', 'total'] : ['hasMore', 'items', 'total']));
    total ??= r.body.total;
    assert.equal(r.body.total, total);
    all.push(...r.body.items);
    if (!r.body.hasMore) break;
    assert.equal(typeof r.body.nextCursor, 'string');
    after = r.body.nextCursor;
  }
  assert.equal(all.length, total);
  return all;
}

test('2.3 auth test: a member key reports the workspace and actsAs with id, email, name, role', async () => {
  const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ['status', 'teamId', 'teamName', 'region', 'isEnterprise', 'apiKey']);
  assert.equal(r.body.status, 'ok');
  assert.equal(r.body.teamId, DEMO.acme);
  assert.equal(r.body.teamName, 'Acme Corp');
  assert.equal(r.body.region, 'US');
  assert.equal(r.body.isEnterprise, true);
  assert.equal(r.body.apiKey.name, "Ada's integration");
  assert.match(r.body.apiKey.createdDateTime, ISO_Z);
  assert.ok(!('expiresDateTime' in r.body.apiKey), 'a key that never expires has no expiresDateTime');
  assert.deepEqual(r.body.apiKey.actsAs, { type: 'member', id: 101, email: 'ada@acme.test', name: 'Ada Admin', role: 'Administrator' });
  const mia = await s.api(KEYS.member, 'GET', '/v3/auth/test');
  assert.deepEqual(mia.body.apiKey.actsAs, { type: 'member', id: 103, email: 'mia@acme.test', name: 'Mia Member', role: 'Member' });
});

test('2.3 auth test: a workspace key reports actsAs with only type workspace', async () => {
  const r = await s.api(KEYS.workspace, 'GET', '/v3/auth/test');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.apiKey.actsAs, { type: 'workspace' });
  assert.equal(r.body.apiKey.name, 'Workspace automation');
  const g = await s.api(KEYS.globexWorkspace, 'GET', '/v3/auth/test', undefined, {}, s.eu);
  assert.deepEqual(g.body.apiKey.actsAs, { type: 'workspace' });
  assert.equal(g.body.teamName, 'Globex GmbH');
  assert.equal(g.body.region, 'EU');
  assert.equal(g.body.isEnterprise, false);
});

test('2.6 members: list gives every active member except the anonymous one, in name order', async () => {
  const r = await s.api(KEYS.admin, 'GET', '/v3/members');
  assert.equal(r.status, 200);
  // Name order; Smith (no first name) sorts by surname; Dee (deactivated) and the anonymous member (100) are absent.
  assert.deepEqual(ids(r.body), [101, 107, 108, 105, 103, 104, 102, 110, 109]);
  assert.equal(r.body.total, 9);
  assert.equal(r.body.hasMore, false);
  assert.ok(!('nextCursor' in r.body));
  assert.deepEqual(r.body.items[0], { id: 101, type: 'TeamMember', name: 'Ada Admin', firstName: 'Ada', lastName: 'Admin', email: 'ada@acme.test', role: 'Administrator', isActive: true });
  for (const key of [KEYS.workspace, KEYS.member]) {
    const all = await s.api(key, 'GET', '/v3/members?includeInactive=true&pageSize=100');
    assert.ok(!ids(all.body).includes(100), 'the anonymous member is never listed');
  }
});

test('4.6 list_members: includeInactive only on `true` in any case', async () => {
  for (const on of ['true', 'TRUE', 'True', 'tRuE']) {
    const r = await s.api(KEYS.admin, 'GET', `/v3/members?includeInactive=${on}`);
    assert.ok(ids(r.body).includes(106), on);
    const dee = r.body.items.find((m: { id: number }) => m.id === 106);
    assert.equal(dee.isActive, false);
  }
  for (const off of ['false', 'yes', '1', 'on', '', 'truee', 'y']) {
    const r = await s.api(KEYS.admin, 'GET', `/v3/members?includeInactive=${off}`);
    assert.equal(r.status, 200, off);
    assert.ok(!ids(r.body).includes(106), off);
  }
});

test('4.6 list_members: search matches either name part or email, case-insensitively', async () => {
  const q = async (search: string) => ids((await s.api(KEYS.admin, 'GET', `/v3/members?search=${encodeURIComponent(search)}`)).body);
  assert.deepEqual(await q('alex'), [107, 108]);
  assert.deepEqual(await q('KIM'), [107, 108]);
  assert.deepEqual(await q('alex kim'), [107, 108]);
  assert.deepEqual(await q('kim2@'), [108]);
  assert.deepEqual(await q('smith'), [109]);
  assert.deepEqual(await q('noperm'), [104]);
  assert.deepEqual(await q('@acme.test').then((x) => x.length), 9);
  assert.deepEqual(await q('departed'), []);
  assert.deepEqual(ids((await s.api(KEYS.admin, 'GET', '/v3/members?search=departed&includeInactive=true')).body), [106]);
  assert.deepEqual(await q('zzz'), []);
});

test('4.6 list_members: role filter, sort by email both ways', async () => {
  const q = async (p: string) => ids((await s.api(KEYS.admin, 'GET', `/v3/members?${p}`)).body);
  assert.deepEqual(await q('role=Administrator'), [101, 102]);
  assert.deepEqual(await q('role=Guest'), [105]);
  assert.deepEqual(await q('role=Member'), [107, 108, 103, 104, 110, 109]);
  assert.deepEqual(await q('role=Member&includeInactive=true'), [107, 108, 106, 103, 104, 110, 109]);
  assert.deepEqual(await q('sort=email'), [101, 107, 108, 105, 103, 104, 102, 110, 109]);
  assert.deepEqual(await q('sort=email:desc'), [109, 110, 102, 104, 103, 105, 108, 107, 101]);
  assert.deepEqual(await q('sort=name:desc'), [109, 110, 102, 104, 103, 105, 108, 107, 101]);
});

test('4.1 rule 11: walking every page of members gives every row once, in order', async () => {
  const full = await s.api(KEYS.admin, 'GET', '/v3/members?includeInactive=true&pageSize=100');
  for (const size of [1, 2, 3, 4, 9]) {
    const all = await walk(KEYS.admin, `/v3/members?includeInactive=true&pageSize=${size}`);
    assert.deepEqual(all, full.body.items, `pageSize ${size}`);
  }
  const desc = await walk(KEYS.member, '/v3/members?sort=email:desc&pageSize=3&search=acme');
  assert.equal(desc.length, 9);
});

test('2.6 groups: list in name order; a single read adds members', async () => {
  const r = await s.api(KEYS.member, 'GET', '/v3/groups');
  assert.deepEqual(r.body, {
    items: [
      { id: 303, type: 'Group', name: 'Empty Group' },
      { id: 301, type: 'Group', name: 'Operations' },
      { id: 302, type: 'Group', name: 'Sales' },
    ],
    hasMore: false,
    total: 3,
  });
  assert.deepEqual(ids((await s.api(KEYS.member, 'GET', '/v3/groups?sort=name:desc')).body), [302, 301, 303]);
  assert.deepEqual(ids((await s.api(KEYS.member, 'GET', '/v3/groups?search=OPER')).body), [301]);
  const all = await walk(KEYS.admin, '/v3/groups?pageSize=1');
  assert.deepEqual(all, r.body.items);
  const ops = await s.api(KEYS.workspace, 'GET', '/v3/groups/301');
  assert.equal(ops.status, 200);
  assert.deepEqual(ops.body.id, 301);
  assert.deepEqual(ops.body.type, 'Group');
  assert.deepEqual(ops.body.name, 'Operations');
  assert.deepEqual(
    ops.body.members.map((m: { id: number; name: string }) => [m.id, m.name]),
    [
      [107, 'Alex Kim'],
      [103, 'Mia Member'],
    ],
  );
  assert.deepEqual(ops.body.members[1], { id: 103, type: 'TeamMember', name: 'Mia Member', firstName: 'Mia', lastName: 'Member', email: 'mia@acme.test', role: 'Member', isActive: true });
  assert.deepEqual((await s.api(KEYS.admin, 'GET', '/v3/groups/303')).body, { id: 303, type: 'Group', name: 'Empty Group', members: [] });
});

test('4.6 get_member: a deactivated member is returned with isActive false', async () => {
  const r = await s.api(KEYS.member, 'GET', '/v3/members/106');
  assert.equal(r.status, 200);
  assert.equal(r.body.isActive, false);
  assert.equal(r.body.name, 'Dee Departed');
  const gus = await s.api(KEYS.workspace, 'GET', '/v3/members/105');
  assert.equal(gus.body.role, 'Guest');
});

test('2.6 tags: counts per carrier; total also counts carriers the API does not reach', async () => {
  const r = await s.api(KEYS.admin, 'GET', '/v3/tags');
  assert.equal(r.status, 200);
  for (const t of r.body.items) {
    assert.deepEqual(Object.keys(t), ['name', 'checklists', 'templates', 'tasks', 'total']);
    assert.ok(t.total >= t.checklists + t.templates + t.tasks, JSON.stringify(t));
  }
  const urgent = r.body.items.find((t: { name: string }) => t.name === 'urgent');
  assert.ok(urgent, 'the fixture tags a task urgent');
  assert.ok(urgent.tasks >= 1);
  // Counts follow what is stored: another carrier and an article (other_count) raise them.
  const tag = s.emu.db.prepare<[], { id: number }>("SELECT id FROM tags WHERE workspace_id = 1 AND name = 'urgent'").get();
  assert.ok(tag);
  s.emu.db.prepare('UPDATE tags SET other_count = other_count + 2 WHERE id = ?').run(tag.id);
  try {
    const again = (await s.api(KEYS.admin, 'GET', '/v3/tags?search=URG')).body;
    assert.deepEqual(again.items, [{ ...urgent, total: urgent.total + 2 }]);
  } finally {
    s.emu.db.prepare('UPDATE tags SET other_count = other_count - 2 WHERE id = ?').run(tag.id);
  }
});

test('4.6 list_tags: sort by name or usage, search, paging', async () => {
  const names = (await s.api(KEYS.admin, 'GET', '/v3/tags')).body.items.map((t: { name: string }) => t.name);
  assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)));
  const desc = (await s.api(KEYS.admin, 'GET', '/v3/tags?sort=name:desc')).body.items.map((t: { name: string }) => t.name);
  assert.deepEqual(desc, [...names].reverse());
  const usage = (await s.api(KEYS.admin, 'GET', '/v3/tags?sort=usage:desc')).body.items;
  for (let i = 1; i < usage.length; i++) assert.ok(usage[i - 1].total >= usage[i].total);
  const all = await walk(KEYS.admin, '/v3/tags?pageSize=1');
  assert.deepEqual(
    all.map((t) => t.name),
    names,
  );
  assert.deepEqual((await s.api(KEYS.admin, 'GET', '/v3/tags?search=no-such-tag')).body, { items: [], hasMore: false, total: 0 });
});

test('4.5 GET /v3/workspace: members, groups, tags and templates in one unpaged call', async () => {
  const r = await s.api(KEYS.member, 'GET', '/v3/workspace');
  assert.equal(r.status, 200);
  assert.equal(r.body.key, DEMO.acme);
  assert.equal(r.body.name, 'Acme Corp');
  assert.equal(r.body.region, 'US');
  assert.equal(r.body.isEnterprise, true);
  assert.match(r.body.createdDateTime, ISO_Z);
  const members = await s.api(KEYS.member, 'GET', '/v3/members?pageSize=100');
  assert.deepEqual(r.body.members, members.body.items);
  const groups = await s.api(KEYS.member, 'GET', '/v3/groups');
  assert.deepEqual(r.body.groups, groups.body.items);
  const tags = await s.api(KEYS.member, 'GET', '/v3/tags');
  assert.deepEqual(r.body.tags, tags.body.items);
  assert.ok(Array.isArray(r.body.templates));
  const names = r.body.templates.map((t: { name: string }) => t.name);
  for (const n of ['Employee Onboarding', 'Expense Report', 'Vendor Review']) assert.ok(names.includes(n), n);
  assert.ok(!names.includes('Old Process'), 'archived templates are not listed');
  // Another workspace sees only its own.
  const g = await s.api(KEYS.globexAdmin, 'GET', '/v3/workspace', undefined, {}, s.eu);
  assert.deepEqual(
    g.body.members.map((m: { id: number }) => m.id),
    [202, 201],
  );
  assert.deepEqual(
    g.body.groups.map((m: { id: number }) => m.id),
    [311],
  );
});
