// API keys a test can make (spec v3 5.2; README "Control routes"): /_emulator/keys creates,
// changes and revokes keys as an Administrator would in the app, and the library's apiKeys does
// the same. Every rule of 5.2: name up to 100 characters, optional expiry to the end of that day
// UTC, acting as an Administrator, a Member or the workspace and never a Guest, other
// Administrators notified of create and revoke, a revoked key never restored, editing changes
// name, acting member and expiry. Keys are workspace data: a reset brings back the fixture's alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, PLANNER_KEY, type TestServer } from './helpers/server';
import { startEmulator } from '../src/library/index';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

const ctl = (method: string, path: string, body?: unknown) => s.api(null, method, `/_emulator${path}`, body);
const whoAmI = (key: string, base?: string) => s.api(key, 'GET', '/v3/auth/test', undefined, {}, base);
const setClock = (now: string, frozen = true) => ctl('PUT', '/clock', { now, frozen });
const refused = (r: { status: number; body: { error?: { code: string; field?: string } }; text: string }, status: number, code: string, field?: string) => {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error?.code, code, r.text);
  if (field !== undefined) assert.equal(r.body.error?.field, field, r.text);
};
let n = 0;
const make = (over: Record<string, unknown> = {}) => ctl('POST', '/keys', { workspace: DEMO.acme, name: `Test key ${++n}`, actsAs: { type: 'member', id: DEMO.members.mia }, ...over });

test('5.2 create: a key acting as a Member works at once with the name given; the other Administrators are notified', async () => {
  const r = await make({ name: 'CI runner', key: 'made-in-test-1' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.key, 'made-in-test-1');
  assert.equal(r.headers.get('location'), `/_emulator/keys/${r.body.apiKey.id}`);
  assert.deepEqual(
    { ...r.body.apiKey, id: 0, createdDateTime: '' },
    { id: 0, workspace: DEMO.acme, region: 'US', name: 'CI runner', actsAs: { type: 'member', id: 103, name: 'Mia Member', role: 'Member' }, state: 'active', createdDateTime: '' },
  );
  // Made by the workspace's first Administrator (Ada) when no `by` is named; Omar is told.
  assert.deepEqual(r.body.by, { id: 101, name: 'Ada Admin' });
  assert.deepEqual(r.body.notified, [{ id: 102, name: 'Omar Owner' }]);
  const me = await whoAmI('made-in-test-1');
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.apiKey.name, 'CI runner');
  assert.deepEqual(me.body.apiKey.actsAs, { type: 'member', id: 103, email: 'mia@acme.test', name: 'Mia Member', role: 'Member' });
  const listed = await ctl('GET', `/keys?workspace=${DEMO.acme}`);
  assert.ok(listed.body.items.some((k: { id: number }) => k.id === r.body.apiKey.id));
});

test('5.2 create: acting as an Administrator or as the workspace; `by` names the Administrator and the others are notified', async () => {
  const admin = await make({ actsAs: { type: 'member', id: DEMO.members.omar }, by: DEMO.members.omar });
  assert.equal(admin.status, 201, admin.text);
  assert.deepEqual(admin.body.by, { id: 102, name: 'Omar Owner' });
  assert.deepEqual(admin.body.notified, [{ id: 101, name: 'Ada Admin' }]);
  assert.equal((await whoAmI(admin.body.key)).body.apiKey.actsAs.role, 'Administrator');
  const ws = await make({ actsAs: { type: 'workspace' } });
  assert.equal(ws.status, 201, ws.text);
  assert.deepEqual(ws.body.apiKey.actsAs, { type: 'workspace' });
  assert.deepEqual((await whoAmI(ws.body.key)).body.apiKey.actsAs, { type: 'workspace' });
});

test('5.2 create: the key string is generated when none is chosen; a chosen one already in use is 409 CONFLICT', async () => {
  const a = await make();
  assert.equal(a.status, 201, a.text);
  assert.match(a.body.key, /^wfe_[0-9a-f]{40}$/);
  assert.equal((await whoAmI(a.body.key)).status, 200);
  refused(await make({ key: KEYS.admin }), 409, 'CONFLICT');
  refused(await make({ key: 'short' }), 400, 'VALIDATION_ERROR', 'key');
  refused(await make({ key: 'has space in it' }), 400, 'VALIDATION_ERROR', 'key');
});

test('5.2 names: 1 to 100 characters (trimmed); 101 is refused with field name', async () => {
  const hundred = 'n'.repeat(100);
  const ok = await make({ name: `  ${hundred}  ` });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.apiKey.name, hundred);
  refused(await make({ name: 'n'.repeat(101) }), 400, 'VALIDATION_ERROR', 'name');
  refused(await make({ name: '   ' }), 400, 'VALIDATION_ERROR', 'name');
  refused(await make({ name: 7 }), 400, 'VALIDATION_ERROR', 'name');
});

test('5.2 never a Guest: a key acting as the Guest is refused; nor a deactivated member, a member of another workspace or an unknown one', async () => {
  refused(await make({ actsAs: { type: 'member', id: DEMO.members.gus } }), 400, 'VALIDATION_ERROR', 'actsAs.id');
  refused(await make({ actsAs: { type: 'member', id: DEMO.members.dee } }), 400, 'VALIDATION_ERROR', 'actsAs.id');
  refused(await make({ actsAs: { type: 'member', id: DEMO.members.gina } }), 400, 'VALIDATION_ERROR', 'actsAs.id');
  refused(await make({ actsAs: { type: 'member', id: 99999 } }), 400, 'VALIDATION_ERROR', 'actsAs.id');
  refused(await make({ actsAs: { type: 'guest' } }), 400, 'VALIDATION_ERROR', 'actsAs.type');
  const mia = await make();
  refused(await ctl('PATCH', `/keys/${mia.body.apiKey.id}`, { actsAs: { type: 'member', id: DEMO.members.gus } }), 400, 'VALIDATION_ERROR', 'actsAs.id');
});

test('5.2 only Administrators: `by` naming a Member, a Guest or another workspace\'s Administrator is refused', async () => {
  refused(await make({ by: DEMO.members.mia }), 400, 'VALIDATION_ERROR', 'by');
  refused(await make({ by: DEMO.members.gus }), 400, 'VALIDATION_ERROR', 'by');
  refused(await make({ by: DEMO.members.gina }), 400, 'VALIDATION_ERROR', 'by');
  refused(await make({ workspace: '99999999-0000-4000-8000-000000000000' }), 400, 'VALIDATION_ERROR', 'workspace');
  refused(await make({ extra: 1 }), 400, 'VALIDATION_ERROR', 'extra');
  refused(await ctl('POST', '/keys', '[1]'), 400, 'VALIDATION_ERROR');
});

test('5.2 revoke: the key answers 401 API_KEY_REVOKED on its next request; a revoked key cannot be changed or revoked again (never restored)', async () => {
  const k = await make({ key: 'revoke-me-now' });
  assert.equal((await whoAmI('revoke-me-now')).status, 200);
  const r = await ctl('DELETE', `/keys/${k.body.apiKey.id}`, { by: DEMO.members.omar });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.apiKey.state, 'revoked');
  assert.ok(r.body.apiKey.revokedDateTime);
  assert.deepEqual(r.body.notified, [{ id: 101, name: 'Ada Admin' }]);
  refused(await whoAmI('revoke-me-now'), 401, 'API_KEY_REVOKED');
  refused(await s.api('revoke-me-now', 'GET', '/v3/members'), 401, 'API_KEY_REVOKED');
  refused(await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { name: 'back again' }), 409, 'CONFLICT');
  refused(await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { expiresOn: null }), 409, 'CONFLICT');
  refused(await ctl('DELETE', `/keys/${k.body.apiKey.id}`), 409, 'CONFLICT');
  refused(await whoAmI('revoke-me-now'), 401, 'API_KEY_REVOKED');
  // The fixture's own keys can be revoked too (a reset brings them back; see below).
  refused(await ctl('DELETE', '/keys/999999'), 404, 'NOT_FOUND');
  refused(await ctl('DELETE', '/keys/abc'), 400, 'VALIDATION_ERROR', 'id');
});

test('5.2 expiry: a key expiring on a day works to the end of that day UTC and answers 401 API_KEY_EXPIRED once the clock passes it', async () => {
  await setClock('2031-03-10T12:00:00Z');
  try {
    const k = await make({ key: 'expires-tonight', expiresOn: '2031-03-10' });
    assert.equal(k.status, 201, k.text);
    assert.equal(k.body.apiKey.expiresOn, '2031-03-10');
    assert.equal((await whoAmI('expires-tonight')).status, 200);
    assert.equal((await whoAmI('expires-tonight')).body.apiKey.expiresDateTime.slice(0, 10), '2031-03-10');
    await setClock('2031-03-10T23:59:59Z');
    assert.equal((await whoAmI('expires-tonight')).status, 200, 'still the same day');
    await setClock('2031-03-11T00:00:00Z');
    refused(await whoAmI('expires-tonight'), 401, 'API_KEY_EXPIRED');
    assert.equal((await ctl('GET', `/keys/${k.body.apiKey.id}`)).body.state, 'expired');
    // Editing may change the expiry (5.2): moved a day on, the key works again; null: never expires.
    const moved = await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { expiresOn: '2031-03-11' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await whoAmI('expires-tonight')).status, 200);
    const never = await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { expiresOn: null });
    assert.ok(!('expiresOn' in never.body.apiKey));
    await setClock('2040-01-01T00:00:00Z');
    assert.equal((await whoAmI('expires-tonight')).status, 200);
    // A day already over would make a key expired at once; not a day at all is refused too.
    refused(await make({ expiresOn: '2039-12-31' }), 400, 'VALIDATION_ERROR', 'expiresOn');
    refused(await make({ expiresOn: '2040-02-30' }), 400, 'VALIDATION_ERROR', 'expiresOn');
    refused(await make({ expiresOn: 'tomorrow' }), 400, 'VALIDATION_ERROR', 'expiresOn');
  } finally {
    await ctl('PUT', '/clock', { now: new Date().toISOString(), frozen: false });
  }
});

test('5.2 edit: name, acting member and expiry change and the key acts accordingly at once; an empty change is refused', async () => {
  const k = await make({ key: 'edit-me-key' });
  const r = await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { name: 'Renamed', actsAs: { type: 'member', id: DEMO.members.ada } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.notified, []);
  const me = await whoAmI('edit-me-key');
  assert.equal(me.body.apiKey.name, 'Renamed');
  assert.equal(me.body.apiKey.actsAs.id, DEMO.members.ada);
  const ws = await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { actsAs: { type: 'workspace' } });
  assert.equal(ws.status, 200, ws.text);
  assert.deepEqual((await whoAmI('edit-me-key')).body.apiKey.actsAs, { type: 'workspace' });
  refused(await ctl('PATCH', `/keys/${k.body.apiKey.id}`, {}), 400, 'VALIDATION_ERROR', 'name');
  refused(await ctl('PATCH', `/keys/${k.body.apiKey.id}`, { key: 'other-value' }), 400, 'VALIDATION_ERROR', 'key');
  refused(await ctl('PUT', `/keys/${k.body.apiKey.id}`, {}), 405, 'METHOD_NOT_ALLOWED');
});

test('5.1, 5.11 regions: a key made for the EU workspace works on the EU address only (421 WRONG_REGION on the US one)', async () => {
  const k = await make({ workspace: DEMO.globex, actsAs: { type: 'member', id: DEMO.members.gina }, key: 'made-for-globex' });
  assert.equal(k.status, 201, k.text);
  assert.equal(k.body.apiKey.region, 'EU');
  assert.equal((await whoAmI('made-for-globex', s.eu)).status, 200);
  refused(await whoAmI('made-for-globex', s.us), 421, 'WRONG_REGION');
});

test('issue 22: keys are workspace data: a reset removes the keys made and restores the fixture\'s (a revoked fixture key works again)', async () => {
  const made = await make({ key: 'gone-after-reset' });
  assert.equal(made.status, 201);
  const noperm = (await ctl('GET', `/keys?workspace=${DEMO.acme}`)).body.items.find((k: { actsAs: { id?: number } }) => k.actsAs.id === DEMO.members.nora);
  assert.equal((await ctl('DELETE', `/keys/${noperm.id}`)).status, 200);
  refused(await whoAmI(KEYS.noperm), 401, 'API_KEY_REVOKED');
  assert.equal((await ctl('POST', '/reset')).status, 200);
  refused(await whoAmI('gone-after-reset'), 401, 'INVALID_API_KEY');
  assert.equal((await whoAmI(KEYS.noperm)).status, 200);
  const after = (await ctl('GET', '/keys')).body.items;
  assert.equal(after.length, (s.emu.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n);
  assert.ok(!after.some((k: { name: string }) => /^Test key/.test(k.name)));
});

test('issue 22: a reset at a frozen clock (the fixture image) also drops the keys made', async () => {
  await setClock('2032-05-05T10:00:00Z');
  try {
    assert.equal((await ctl('POST', '/reset')).status, 200);
    const made = await make({ key: 'gone-after-frozen-reset' });
    assert.equal(made.status, 201, made.text);
    assert.equal((await whoAmI('gone-after-frozen-reset')).status, 200);
    assert.equal((await ctl('POST', '/reset')).status, 200);
    refused(await whoAmI('gone-after-frozen-reset'), 401, 'INVALID_API_KEY');
    assert.equal((await whoAmI(PLANNER_KEY)).status, 200);
  } finally {
    await ctl('PUT', '/clock', { now: new Date().toISOString(), frozen: false });
  }
});

test('issue 22 library: apiKeys creates, edits and revokes with the same rules; a reset brings back the fixture keys alone', async () => {
  const emu = await startEmulator({ listen: false });
  try {
    const made = emu.apiKeys.create({ workspace: DEMO.acme, name: 'Library key', actsAs: { type: 'workspace' }, key: 'library-made-key' });
    assert.deepEqual(made.notified, [{ id: 102, name: 'Omar Owner' }]);
    const ask = () => emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'library-made-key' } });
    assert.equal((await ask()).status, 200);
    assert.equal(emu.apiKeys.update(made.apiKey.id, { name: 'Renamed in library' }).apiKey.name, 'Renamed in library');
    assert.throws(() => emu.apiKeys.create({ workspace: DEMO.acme, name: 'x'.repeat(101), actsAs: { type: 'workspace' } }), (e: Error & { code?: string }) => e.code === 'VALIDATION_ERROR');
    assert.throws(() => emu.apiKeys.create({ workspace: DEMO.acme, name: 'guest', actsAs: { type: 'member', id: DEMO.members.gus } }), /never acts as a Guest/);
    emu.apiKeys.revoke(made.apiKey.id);
    const r = await ask();
    assert.equal(r.status, 401);
    assert.equal((await r.json()).error.code, 'API_KEY_REVOKED');
    assert.throws(() => emu.apiKeys.update(made.apiKey.id, { name: 'again' }), /cannot be changed or restored/);
    await emu.reset();
    assert.equal((await ask()).status, 401);
    assert.ok(emu.apiKeys.list(DEMO.acme).every((k) => k.name !== 'Renamed in library'));
  } finally {
    await emu.close();
  }
});
