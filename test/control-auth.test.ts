// Who may use /_emulator: --admin-token requires Authorization: Bearer; --no-admin
// turns the routes off (404). Plus `wfe seed`, `wfe export`, `wfe import`.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { fromSource, startTestServer, KEYS, PATIENCE_MS, ROOT, type TestServer } from './helpers/server';

const TOKEN = 's3cret-token';
let guarded: TestServer;
let off: TestServer;
before(async () => {
  guarded = await startTestServer({ adminToken: TOKEN });
  off = await startTestServer({ noAdmin: true });
});
after(async () => {
  await guarded.close();
  await off.close();
});

test('control: with --admin-token, a missing token is 401 MISSING_ADMIN_TOKEN in the envelope', async () => {
  for (const [method, path] of [['GET', '/_emulator/health'], ['POST', '/_emulator/reset'], ['GET', '/_emulator/export'], ['GET', '/_emulator/no-such-route']]) {
    const r = await guarded.api(null, method, path);
    assert.equal(r.status, 401, path);
    assert.equal(r.body.error.code, 'MISSING_ADMIN_TOKEN');
    assert.equal(r.body.error.requestId, r.headers.get('x-request-id'));
    assert.match(r.headers.get('www-authenticate')!, /^Bearer/);
  }
});

test('control: with --admin-token, a wrong token is 401 INVALID_ADMIN_TOKEN; the right one works', async () => {
  for (const auth of ['Bearer wrong', 'Basic czNjcmV0LXRva2Vu', `Bearer ${TOKEN}x`, TOKEN]) {
    const r = await guarded.api(null, 'GET', '/_emulator/clock', undefined, { Authorization: auth });
    assert.equal(r.status, 401, auth);
    assert.equal(r.body.error.code, 'INVALID_ADMIN_TOKEN');
  }
  const ok = await guarded.api(null, 'GET', '/_emulator/clock', undefined, { Authorization: `Bearer ${TOKEN}` });
  assert.equal(ok.status, 200);
  const eu = await guarded.api(null, 'GET', '/_emulator/health', undefined, { Authorization: `bearer ${TOKEN}` }, guarded.eu);
  assert.equal(eu.status, 200);
});

test('control: the admin token never touches /v3 or /mcp', async () => {
  const r = await guarded.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(r.status, 200);
  const c = await guarded.mcp(KEYS.admin);
  assert.ok((await c.listTools()).tools.length > 0);
});

test('control: with --no-admin every control route is 404 NOT_FOUND in the envelope', async () => {
  for (const [method, path] of [['GET', '/_emulator/health'], ['PUT', '/_emulator/clock'], ['POST', '/_emulator/reset'], ['GET', '/_emulator/journal']]) {
    const r = await off.api(null, method, path, method === 'GET' ? undefined : {});
    assert.equal(r.status, 404, path);
    assert.equal(r.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await off.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
});

const wfe = (args: string[]) =>
  spawnSync(process.execPath, fromSource(args), { cwd: ROOT, env: { ...process.env, WFE_CLI: '1' }, encoding: 'utf8', timeout: PATIENCE_MS });

test('CLI: wfe seed, wfe export and wfe import move a whole database between files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-cli-'));
  try {
    const a = join(dir, 'a.sqlite');
    const out = join(dir, 'out.sqlite');
    const b = join(dir, 'b.sqlite');
    const seed = wfe(['seed', '--db', a]);
    assert.equal(seed.status, 0, seed.stderr);
    const again = wfe(['seed', '--db', a]);
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /already holds data.*--force/);
    const db = new Database(a);
    db.prepare("UPDATE members SET first_name = 'Exported' WHERE id = 103").run();
    db.close();
    const exp = wfe(['export', '--db', a, out]);
    assert.equal(exp.status, 0, exp.stderr);
    assert.equal(readFileSync(out).subarray(0, 15).toString(), 'SQLite format 3');
    const imp = wfe(['import', '--db', b, out]);
    assert.equal(imp.status, 0, imp.stderr);
    const check = new Database(b);
    assert.equal((check.prepare('SELECT first_name FROM members WHERE id = 103').get() as { first_name: string }).first_name, 'Exported');
    check.close();
    const force = wfe(['seed', '--db', b, '--force']);
    assert.equal(force.status, 0, force.stderr);
    const reseeded = new Database(b);
    assert.equal((reseeded.prepare('SELECT first_name FROM members WHERE id = 103').get() as { first_name: string }).first_name, 'Mia');
    reseeded.close();
    const bad = wfe(['import', '--db', b, join(ROOT, 'package.json')]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /not a SQLite database/);
    const missing = wfe(['export', '--db', join(dir, 'nope.sqlite'), out]);
    assert.notEqual(missing.status, 0);
    assert.ok(!existsSync(join(dir, 'nope.sqlite')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
