// The emulator's control routes under /_emulator (EMULATOR.md "Addresses", README
// "Control routes"): health, clock, journal, reset, export, import.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { RequestJournal } from '../src/platform/journal';

let s: TestServer;
before(async () => {
  s = await startTestServer({ standardBudget: 50 });
});
after(async () => {
  await s.close();
});

const ctl = (method: string, path: string, body?: unknown, base?: string) => s.api(null, method, `/_emulator${path}`, body, {}, base);

test('control: GET /_emulator/health answers on both addresses', async () => {
  for (const base of [s.us, s.eu]) {
    const r = await ctl('GET', '/health', undefined, base);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok');
    assert.equal(r.body.fixture, 'demo');
    assert.equal(r.body.database, 'memory');
    assert.equal(typeof r.body.schemaVersion, 'number');
    assert.match(r.headers.get('content-type')!, /application\/json/);
    assert.ok(r.headers.get('x-request-id'));
  }
});

test('control: unknown control route is 404 and a wrong method 405, in the envelope', async () => {
  const r = await ctl('GET', '/nothing-here');
  assert.equal(r.status, 404);
  assert.equal(r.body.error.code, 'NOT_FOUND');
  assert.ok(r.body.error.requestId);
  const m = await ctl('DELETE', '/clock');
  assert.equal(m.status, 405);
  assert.equal(m.body.error.code, 'METHOD_NOT_ALLOWED');
  assert.equal(m.headers.get('allow'), 'GET, PUT');
});

test('control: GET/PUT /_emulator/clock reads and sets the clock; frozen stays put', async () => {
  const r0 = await ctl('GET', '/clock');
  assert.equal(r0.status, 200);
  assert.equal(r0.body.frozen, false);
  assert.ok(Math.abs(Date.parse(r0.body.now) - Date.now()) < 5_000);
  const set = await ctl('PUT', '/clock', { now: '2031-05-01T12:00:00Z', frozen: true });
  assert.equal(set.status, 200);
  assert.deepEqual({ now: set.body.now, frozen: set.body.frozen }, { now: '2031-05-01T12:00:00.000Z', frozen: true });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await ctl('GET', '/clock')).body.now, '2031-05-01T12:00:00.000Z');
  // An offset is honoured; no offset means UTC (spec v3 4.1 rule 6).
  assert.equal((await ctl('PUT', '/clock', { now: '2031-05-01T14:00:00+02:00' })).body.now.slice(0, 19), '2031-05-01T12:00:00');
  assert.equal((await ctl('PUT', '/clock', { now: '2031-05-01T12:00:00', frozen: true })).body.now, '2031-05-01T12:00:00.000Z');
  // Unfreeze without moving.
  const thawed = await ctl('PUT', '/clock', { frozen: false });
  assert.equal(thawed.body.frozen, false);
});

test('control: the clock is the one clock: key expiry follows it', async () => {
  // acme-expired-key expires on 2026-01-31 (end of that day UTC).
  await ctl('PUT', '/clock', { now: '2026-01-31T23:59:00Z', frozen: true });
  assert.equal((await s.api(KEYS.expired, 'GET', '/v3/auth/test')).status, 200);
  await ctl('POST', '/clock/advance', { minutes: 1 });
  const r = await s.api(KEYS.expired, 'GET', '/v3/auth/test');
  assert.equal(r.status, 401);
  assert.equal(r.body.error.code, 'API_KEY_EXPIRED');
});

test('control: POST /_emulator/clock/advance moves by seconds, minutes, hours and days together', async () => {
  await ctl('PUT', '/clock', { now: '2032-01-01T00:00:00Z', frozen: true });
  const r = await ctl('POST', '/clock/advance', { days: 1, hours: 2, minutes: 3, seconds: 4 });
  assert.equal(r.status, 200);
  assert.equal(r.body.now, '2032-01-02T02:03:04.000Z');
  assert.equal(r.body.frozen, true);
});

test('control: nonsense clock bodies are 400 VALIDATION_ERROR with the field, and change nothing', async () => {
  const before = (await ctl('GET', '/clock')).body.now;
  const cases: [unknown, string | undefined][] = [
    [{ now: 'yesterday' }, 'now'],
    [{ now: '2031-02-30T00:00:00Z' }, 'now'],
    [{ now: 5 }, 'now'],
    [{ now: '20000-01-01T00:00:00Z' }, 'now'],
    [{ now: '1969-12-31T23:00:00Z' }, 'now'],
    [{ frozen: 'yes' }, 'frozen'],
    [{}, 'now'],
    [{ now: '2031-01-01T00:00:00Z', later: true }, 'later'],
    [[1, 2], undefined],
    ['"just a string"', undefined],
  ];
  for (const [body, field] of cases) {
    const r = await ctl('PUT', '/clock', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    if (field) assert.equal(r.body.error.field, field, JSON.stringify(body));
  }
  const bad = await s.api(null, 'PUT', '/_emulator/clock', '{not json', { 'Content-Type': 'application/json' });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /not valid JSON/);
  for (const [body, field] of [
    [{ minutes: -1 }, 'minutes'],
    [{ seconds: 'ten' }, 'seconds'],
    [{}, 'seconds'],
    [{ days: 1e12 }, 'days'],
    [{ weeks: 1 }, 'weeks'],
  ] as const) {
    const r = await ctl('POST', '/clock/advance', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.error.field, field, JSON.stringify(body));
  }
  assert.equal((await ctl('GET', '/clock')).body.now, before);
});

test('control: GET /_emulator/journal lists the last requests, newest first, with key name and request id', async () => {
  await ctl('PUT', '/clock', { now: '2033-03-03T03:03:03Z', frozen: true });
  await s.api(KEYS.member, 'GET', '/v3/members/103', undefined, { 'X-Request-Id': 'journal-1' });
  await s.api('nobody-key', 'GET', '/v3/auth/test', undefined, { 'X-Request-Id': 'journal-2' });
  const c = await s.mcp(KEYS.admin);
  await c.listTools();
  const r = await ctl('GET', '/journal?limit=50');
  assert.equal(r.status, 200);
  const items = r.body.items as any[];
  const one = items.find((e) => e.requestId === 'journal-1');
  assert.deepEqual({ ...one, durationMs: 0 }, {
    at: '2033-03-03T03:03:03.000Z',
    method: 'GET',
    path: '/v3/members/103',
    status: 200,
    keyName: one.keyName,
    requestId: 'journal-1',
    durationMs: 0,
    region: 'US',
  });
  assert.equal(typeof one.keyName, 'string');
  assert.ok(one.durationMs >= 0);
  const two = items.find((e) => e.requestId === 'journal-2');
  assert.equal(two.status, 401);
  assert.equal(two.keyName, undefined);
  assert.ok(items.indexOf(two) < items.indexOf(one), 'newest first');
  assert.ok(items.some((e) => e.path === '/mcp' && e.method === 'POST' && typeof e.keyName === 'string' && e.status === 200));
  assert.ok(!items.some((e) => e.path.startsWith('/_emulator')), 'control routes are not journaled');
  const limited = await ctl('GET', '/journal?limit=1');
  assert.equal(limited.body.items.length, 1);
  for (const bad of ['0', '-1', 'ten', '1.5']) {
    const b = await ctl('GET', `/journal?limit=${bad}`);
    assert.equal(b.status, 400, bad);
    assert.equal(b.body.error.field, 'limit');
  }
  assert.equal((await ctl('DELETE', '/journal')).status, 204);
  assert.equal((await ctl('GET', '/journal')).body.items.length, 0);
});

test('control: the journal is bounded (a ring of its capacity)', () => {
  const j = new RequestJournal(3);
  for (let i = 0; i < 5; i++) j.record({ at: 0, method: 'GET', path: `/${i}`, status: 200, requestId: String(i), durationMs: 0, region: 'US' });
  assert.equal(j.size, 3);
  assert.deepEqual(j.last(10).map((e) => e.path), ['/4', '/3', '/2']);
});

test('control: GET /_emulator/export answers the whole database as a SQLite file', async () => {
  const res = await fetch(`${s.us}/_emulator/export`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/vnd.sqlite3');
  assert.match(res.headers.get('content-disposition')!, /attachment; filename="wfe-.*\.sqlite"/);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(bytes.subarray(0, 16).toString('latin1'), 'SQLite format 3\u0000');
  const db = new Database(bytes);
  assert.equal((db.prepare('SELECT name FROM workspaces WHERE key = ?').get(DEMO.acme) as { name: string }).name, 'Acme Corp');
  db.close();
});

test('control: POST /_emulator/import replaces the data with an exported file', async () => {
  const exported = Buffer.from(await (await fetch(`${s.us}/_emulator/export`)).arrayBuffer());
  s.emu.db.prepare("UPDATE members SET first_name = 'Changed' WHERE id = 103").run();
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members/103')).body.firstName, 'Changed');
  const r = await fetch(`${s.us}/_emulator/import`, { method: 'POST', body: exported, headers: { 'Content-Type': 'application/vnd.sqlite3' } });
  assert.equal(r.status, 200);
  const body = await r.json();
  assert.equal(body.status, 'imported');
  assert.ok(body.rows > 10);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members/103')).body.firstName, 'Mia');
  // Keys keep working after an import (prepared statements survive).
  assert.equal((await s.api(KEYS.member, 'GET', '/v3/auth/test')).status, 200);
});

test('control: import refuses what is not a wfe database, with 400 in the envelope, and changes nothing', async () => {
  s.emu.db.prepare("UPDATE members SET first_name = 'Kept' WHERE id = 104").run();
  const other = new Database(':memory:');
  other.exec('CREATE TABLE t (x)');
  const foreign = other.serialize();
  other.pragma('user_version = 999');
  const future = other.serialize();
  other.close();
  const exported = Buffer.from(await (await fetch(`${s.us}/_emulator/export`)).arrayBuffer());
  const truncated = exported.subarray(0, 4096);
  for (const [name, bytes, pattern] of [
    ['garbage', Buffer.from('hello, this is not a database at all'.repeat(10)), /not a SQLite database/],
    ['empty', Buffer.alloc(0), /not a SQLite database/],
    ['foreign', foreign, /not a wfe database/],
    ['future', future, /schema version 999/],
    ['truncated', truncated, /./],
  ] as const) {
    const r = await fetch(`${s.us}/_emulator/import`, { method: 'POST', body: new Uint8Array(bytes) });
    const b = await r.json();
    assert.equal(r.status, 400, name);
    assert.equal(b.error.code, 'VALIDATION_ERROR', name);
    assert.match(b.error.message, pattern, name);
  }
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members/104')).body.firstName, 'Kept');
});

test('control: POST /_emulator/reset goes back to the fixture and clears the budgets', async () => {
  s.emu.db.prepare("UPDATE members SET first_name = 'Changed' WHERE id = 103").run();
  s.emu.db.prepare("INSERT INTO settings (name, value) VALUES ('junk', 'x')").run();
  await s.api(KEYS.admin, 'GET', '/v3/members');
  const before = Number((await s.api(KEYS.admin, 'GET', '/v3/members')).headers.get('x-ratelimit-remaining'));
  assert.ok(before < 49);
  const r = await ctl('POST', '/reset');
  assert.equal(r.status, 200);
  assert.equal(r.body.status, 'reset');
  const mia = await s.api(KEYS.admin, 'GET', '/v3/members/103');
  assert.equal(mia.headers.get('x-ratelimit-remaining'), '49');
  assert.equal(mia.body.firstName, 'Mia');
  assert.equal((s.emu.db.prepare("SELECT COUNT(*) AS n FROM settings WHERE name = 'junk'").get() as { n: number }).n, 0);
  // The fixture's own identifiers are the same after a reset.
  const ws = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(ws.body.teamId, DEMO.acme);
  assert.equal((await ctl('POST', '/reset', undefined, s.eu)).status, 200);
});

test("control: a JSON body sent as curl -d sends it (application/x-www-form-urlencoded) is read as JSON (README's clock examples)", async () => {
  const put = await s.api(null, 'PUT', '/_emulator/clock', '{"now":"2026-03-01T09:00:00Z","frozen":true}', { 'Content-Type': 'application/x-www-form-urlencoded' });
  assert.equal(put.status, 200);
  assert.equal(put.body.now, '2026-03-01T09:00:00.000Z');
  const adv = await s.api(null, 'POST', '/_emulator/clock/advance', '{"hours":1}', { 'Content-Type': 'application/x-www-form-urlencoded' });
  assert.equal(adv.status, 200);
  assert.equal(adv.body.now, '2026-03-01T10:00:00.000Z');
  await s.api(null, 'PUT', '/_emulator/clock', { frozen: false });
});
