// Spec v3 5.1-5.3, 5.11, 7 and 8: keys, actors, regions and the invalid-key throttle,
// over REST and MCP (Streamable HTTP).
import { test, after, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, KEYS, DEMO, type TestServer } from './helpers/server';
import { sha256 } from '../src/ids';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});
// Refusals of bad keys count towards the invalid-key throttle (spec v3 8): move the
// clock past its minute after every test so tests do not throttle each other.
afterEach(() => {
  s.emu.clock.advance(61_000);
});

const ACCEPT = { Accept: 'application/json, text/event-stream' };
const initMsg = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

function addKey(raw: string, memberId: number | null, expiresOn: string | null = null): void {
  s.emu.db
    .prepare('INSERT INTO api_keys (workspace_id, name, key_hash, member_id, expires_on, revoked_at, created_at) VALUES (1, ?, ?, ?, ?, NULL, ?)')
    .run(`test ${raw}`, sha256(raw), memberId, expiresOn, Date.parse('2026-01-01T00:00:00Z'));
}

function assertError(r: { status: number; body: any; headers: Headers }, status: number, code: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error.code, code);
  assert.equal(typeof r.body.error.message, 'string');
  assert.equal(r.body.error.requestId, r.headers.get('x-request-id'));
}

test('7 MISSING_API_KEY: no X-API-KEY header is 401', async () => {
  assertError(await s.api(null, 'GET', '/v3/auth/test'), 401, 'MISSING_API_KEY');
  assertError(await s.api(null, 'GET', '/v3/members'), 401, 'MISSING_API_KEY');
});

test('7 MISSING_API_KEY: an empty or blank X-API-KEY is 401 MISSING_API_KEY', async () => {
  assertError(await s.api('', 'GET', '/v3/auth/test'), 401, 'MISSING_API_KEY');
  assertError(await s.api('   ', 'GET', '/v3/members/101'), 401, 'MISSING_API_KEY');
});

test('7 MISSING_API_KEY on /mcp', async () => {
  const r = await s.api(null, 'POST', '/mcp', initMsg, ACCEPT);
  assertError(r, 401, 'MISSING_API_KEY');
});

test('7 INVALID_API_KEY: a key no workspace has is 401', async () => {
  assertError(await s.api('nobody-has-this-key', 'GET', '/v3/auth/test'), 401, 'INVALID_API_KEY');
  assertError(await s.api('nobody-has-this-key', 'POST', '/mcp', initMsg, ACCEPT), 401, 'INVALID_API_KEY');
});

test('7 API_KEY_REVOKED: 401 and the message gives the date', async () => {
  const r = await s.api(KEYS.revoked, 'GET', '/v3/auth/test');
  assertError(r, 401, 'API_KEY_REVOKED');
  assert.match(r.body.error.message, /2026-01-15/);
  assertError(await s.api(KEYS.revoked, 'POST', '/mcp', initMsg, ACCEPT), 401, 'API_KEY_REVOKED');
});

test('7 API_KEY_EXPIRED: 401 and the message gives the date', async () => {
  const r = await s.api(KEYS.expired, 'GET', '/v3/members');
  assertError(r, 401, 'API_KEY_EXPIRED');
  assert.match(r.body.error.message, /2026-01-31/);
});

test('3 API key states: expiry ends at the end of that day, UTC', async () => {
  addKey('test-expiring-key', DEMO.members.ada, '2030-06-15');
  try {
    s.emu.clock.set(Date.parse('2030-06-15T00:00:00.000Z'), true);
    assert.equal((await s.api('test-expiring-key', 'GET', '/v3/auth/test')).status, 200);
    s.emu.clock.set(Date.parse('2030-06-15T23:59:59.999Z'), true);
    const last = await s.api('test-expiring-key', 'GET', '/v3/auth/test');
    assert.equal(last.status, 200);
    assert.equal(last.body.apiKey.expiresDateTime, '2030-06-15T23:59:59.999Z');
    s.emu.clock.set(Date.parse('2030-06-16T00:00:00.000Z'), true);
    const r = await s.api('test-expiring-key', 'GET', '/v3/auth/test');
    assertError(r, 401, 'API_KEY_EXPIRED');
    assert.match(r.body.error.message, /2030-06-15/);
  } finally {
    s.emu.clock.reset();
  }
});

test('7 API_KEY_ACTOR_UNAVAILABLE: acting member deactivated (Dee)', async () => {
  const r = await s.api(KEYS.unavailable, 'GET', '/v3/auth/test');
  assertError(r, 401, 'API_KEY_ACTOR_UNAVAILABLE');
  const c = await s.api(KEYS.unavailable, 'POST', '/mcp', initMsg, ACCEPT);
  assertError(c, 401, 'API_KEY_ACTOR_UNAVAILABLE');
});

test('7 API_KEY_ACTOR_UNAVAILABLE: acting member made Guest, then back', async () => {
  addKey('test-alex-key', DEMO.members.alexKim2);
  assert.equal((await s.api('test-alex-key', 'GET', '/v3/auth/test')).status, 200);
  s.emu.db.prepare("UPDATE members SET role = 'Guest' WHERE id = ?").run(DEMO.members.alexKim2);
  try {
    assertError(await s.api('test-alex-key', 'GET', '/v3/auth/test'), 401, 'API_KEY_ACTOR_UNAVAILABLE');
  } finally {
    s.emu.db.prepare("UPDATE members SET role = 'Member' WHERE id = ?").run(DEMO.members.alexKim2);
  }
  assert.equal((await s.api('test-alex-key', 'GET', '/v3/auth/test')).status, 200);
});

test('7 API_KEY_ACTOR_UNAVAILABLE: acting member removed from the workspace', async () => {
  addKey('test-smith-key', DEMO.members.smith);
  s.emu.db.prepare('UPDATE members SET is_removed = 1 WHERE id = ?').run(DEMO.members.smith);
  try {
    assertError(await s.api('test-smith-key', 'GET', '/v3/members'), 401, 'API_KEY_ACTOR_UNAVAILABLE');
    const mcp = await s.api('test-smith-key', 'POST', '/mcp', initMsg, ACCEPT);
    assertError(mcp, 401, 'API_KEY_ACTOR_UNAVAILABLE');
  } finally {
    s.emu.db.prepare('UPDATE members SET is_removed = 0 WHERE id = ?').run(DEMO.members.smith);
  }
});

test('5.11 WRONG_REGION: 421 with url = the same path and query on the EU address', async () => {
  const r = await s.api(KEYS.globexAdmin, 'GET', '/v3/members?search=g&pageSize=2');
  assertError(r, 421, 'WRONG_REGION');
  assert.equal(r.body.error.url, `${s.eu}/v3/members?search=g&pageSize=2`);
  const ok = await fetch(r.body.error.url, { headers: { 'X-API-KEY': KEYS.globexAdmin } });
  assert.equal(ok.status, 200);
  // And the other way round: a US key on the EU address.
  const back = await s.api(KEYS.admin, 'GET', '/v3/groups/301', undefined, {}, s.eu);
  assertError(back, 421, 'WRONG_REGION');
  assert.equal(back.body.error.url, `${s.us}/v3/groups/301`);
});

test('5.11 WRONG_REGION is given before any data is read (bad input and unknown ids still get 421)', async () => {
  const bad = await s.api(KEYS.globexWorkspace, 'GET', '/v3/members/abc?pageSize=0');
  assertError(bad, 421, 'WRONG_REGION');
  assert.equal(bad.body.error.url, `${s.eu}/v3/members/abc?pageSize=0`);
  const tz = await s.api(KEYS.globexAdmin, 'GET', '/v3/members', undefined, { 'X-SVC-Timezone': 'Nowhere/Else' });
  assertError(tz, 421, 'WRONG_REGION');
  // /mcp: 421 before the body is even parsed.
  const mcp = await s.api(KEYS.globexAdmin, 'POST', '/mcp?x=1', '{not json', ACCEPT);
  assertError(mcp, 421, 'WRONG_REGION');
  assert.equal(mcp.body.error.url, `${s.eu}/mcp?x=1`);
});

test('5.11 WRONG_REGION over the MCP client: the HTTP answer is 421 and the EU address serves the key', async () => {
  await assert.rejects(() => s.mcp(KEYS.globexAdmin, 'US'), /421|WRONG_REGION/);
  const c = await s.mcp(KEYS.globexAdmin, 'EU');
  const r = await callTool(c, 'list_members', {});
  assert.equal(r.isError, false);
  assert.deepEqual(
    r.body.items.map((m: { id: number }) => m.id),
    [202, 201], // Gero Grau, Gina Global: name order
  );
});

test('8 invalid-key throttle: after 20 refusals in a minute, 429 before the key is checked, until the minute is up', async () => {
  const start = Date.parse('2031-03-03T10:00:00.000Z');
  s.emu.clock.set(start, true);
  try {
    const bad = [KEYS.revoked, KEYS.expired, 'no-such-key'];
    for (let i = 0; i < 20; i++) {
      const r = await s.api(bad[i % 3], 'GET', '/v3/auth/test');
      assert.equal(r.status, 401, `refusal ${i + 1}`);
    }
    // MISSING_API_KEY and ACTOR_UNAVAILABLE are not "invalid, revoked or expired": they never count.
    s.emu.clock.set(start + 10_000, true);
    const limited = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
    assertError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    assert.equal(limited.body.error.retryAfterSeconds, 50);
    assert.equal(limited.headers.get('retry-after'), '50');
    assertError(await s.api('no-such-key', 'GET', '/v3/members'), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(await s.api(KEYS.member, 'POST', '/mcp', initMsg, ACCEPT), 429, 'RATE_LIMIT_EXCEEDED');
    s.emu.clock.set(start + 59_999, true);
    assertError(await s.api(KEYS.admin, 'GET', '/v3/auth/test'), 429, 'RATE_LIMIT_EXCEEDED');
    s.emu.clock.set(start + 60_000, true);
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
  } finally {
    s.emu.clock.reset();
  }
});

test('8 invalid-key throttle: missing keys and unavailable actors do not count', async () => {
  const start = Date.parse('2031-03-04T10:00:00.000Z');
  s.emu.clock.set(start, true);
  try {
    for (let i = 0; i < 25; i++) {
      assert.equal((await s.api(i % 2 ? null : KEYS.unavailable, 'GET', '/v3/auth/test')).status, 401);
    }
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
  } finally {
    s.emu.clock.reset();
  }
});

test('5.1 a key refused mid-session over MCP is refused on the next call (checked per request)', async () => {
  addKey('test-gone-key', DEMO.members.alexKim1);
  const c = await s.mcp('test-gone-key');
  assert.equal((await callTool(c, 'get_member', { memberId: 101 })).isError, false);
  s.emu.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_hash = ?').run(Date.parse('2026-02-02T09:00:00Z'), sha256('test-gone-key'));
  await assert.rejects(() => c.callTool({ name: 'get_member', arguments: { memberId: 101 } }), /401|API_KEY_REVOKED|2026-02-02/);
});
