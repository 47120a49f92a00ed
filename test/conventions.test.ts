// Spec v3 4.1 (conventions for all v3 routes), 2.2 and 7: content type, request
// ids, omitted values, timestamps, bad input of every kind, unknown routes and
// methods, body limits, and requests node:http itself cannot parse. None is a 500.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer, type ApiAnswer } from './helpers/server';
import { rawHttp } from './helpers/spine';

let s: TestServer;
before(async () => {
  // A small body limit so the 413 tests need not send 16 MiB.
  s = await startTestServer({ maxBodyBytes: 64 * 1024 });
});
after(async () => {
  await s.close();
});

const JSON_TYPE = 'application/json; charset=utf-8';
const ACCEPT = { Accept: 'application/json, text/event-stream' };
const GENERATED_ID = /^req_[0-9a-f]{32}$/;

function assertError(r: ApiAnswer, status: number, code: string, field?: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers.get('content-type'), JSON_TYPE);
  assert.equal(r.body.error.code, code, r.text);
  assert.equal(r.body.error.requestId, r.headers.get('x-request-id'));
  if (field !== undefined) assert.equal(r.body.error.field, field, r.text);
  else assert.equal(r.body.error.field, undefined, r.text);
}

/** Every value in a v3 body: no null anywhere; every *DateTime is UTC ending Z. */
function assertV3Values(v: unknown, path = '$'): void {
  assert.notEqual(v, null, `${path} is null`);
  if (Array.isArray(v)) v.forEach((x, i) => assertV3Values(x, `${path}[${i}]`));
  else if (typeof v === 'object') {
    for (const [k, x] of Object.entries(v as object)) {
      if (/DateTime$/.test(k)) assert.match(x as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/, `${path}.${k}`);
      assertV3Values(x, `${path}.${k}`);
    }
  }
}

test('4.1 rule 2: answers are application/json; charset=utf-8, errors included', async () => {
  for (const [key, path] of [
    [KEYS.admin, '/v3/auth/test'],
    [KEYS.admin, '/v3/members'],
    [KEYS.admin, '/v3/members/abc'],
    [null, '/v3/members'],
    [KEYS.admin, '/v3/no-such-route'],
  ] as const) {
    const r = await s.api(key, 'GET', path);
    assert.equal(r.headers.get('content-type'), JSON_TYPE, path);
    assert.ok(r.body !== undefined, path);
  }
});

test('4.1 rule 9: a valid X-Request-Id is echoed and repeated as requestId', async () => {
  for (const id of ['a', 'abc-DEF_123.4:5+6/7=8', 'x'.repeat(128), 'trace=01/02:03']) {
    const ok = await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { 'X-Request-Id': id });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-request-id'), id);
    const bad = await s.api(KEYS.admin, 'GET', '/v3/members/0', undefined, { 'X-Request-Id': id });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('x-request-id'), id);
    assert.equal(bad.body.error.requestId, id);
  }
});

test('4.1 rule 9: an invalid X-Request-Id is replaced by req_ + 32 hex and the request is still served', async () => {
  for (const id of ['x'.repeat(129), 'has space', 'semi;colon', 'ümlaut', 'a,b', '{json}']) {
    const ok = await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { 'X-Request-Id': id });
    assert.equal(ok.status, 200, id);
    assert.match(ok.headers.get('x-request-id')!, GENERATED_ID, id);
    const bad = await s.api(KEYS.admin, 'GET', '/v3/members/abc', undefined, { 'X-Request-Id': id });
    assert.match(bad.body.error.requestId, GENERATED_ID);
    assert.equal(bad.body.error.requestId, bad.headers.get('x-request-id'));
  }
  const none = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.match(none.headers.get('x-request-id')!, GENERATED_ID);
  const empty = await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { 'X-Request-Id': '' });
  assert.match(empty.headers.get('x-request-id')!, GENERATED_ID);
});

test('4.1 rule 9: every answer carries X-Request-Id (401, 404, 405, 413, /mcp)', async () => {
  const answers = [
    await s.api(null, 'GET', '/v3/members', undefined, { 'X-Request-Id': 'r1' }),
    await s.api(KEYS.admin, 'GET', '/nowhere', undefined, { 'X-Request-Id': 'r1' }),
    await s.api(KEYS.admin, 'PATCH', '/v3/members', {}, { 'X-Request-Id': 'r1' }),
    await s.api(KEYS.admin, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...ACCEPT, 'X-Request-Id': 'r1' }),
  ];
  for (const r of answers) assert.equal(r.headers.get('x-request-id'), 'r1', r.text);
});

test('2.2 valueless properties are omitted, never null: Smith has no firstName (2.6: her name is her surname)', async () => {
  const r = await s.api(KEYS.admin, 'GET', `/v3/members/${DEMO.members.smith}`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { id: 109, type: 'TeamMember', name: 'Smith', lastName: 'Smith', email: 'smith@acme.test', role: 'Member', isActive: true });
  assert.ok(!('firstName' in r.body));
  assert.ok(!r.text.includes('null'));
});

test('2.2, 4.1 rule 6: no null anywhere and timestamps end in Z (auth test, workspace, lists)', async () => {
  for (const key of [KEYS.admin, KEYS.workspace, KEYS.member]) {
    for (const path of ['/v3/auth/test', '/v3/workspace', '/v3/members?includeInactive=true', '/v3/groups', '/v3/groups/301', '/v3/tags']) {
      const r = await s.api(key, 'GET', path);
      assert.equal(r.status, 200, path);
      assert.ok(!/:null\b/.test(r.text), `${path}: ${r.text}`);
      assertV3Values(r.body);
    }
  }
});

test('7 VALIDATION_ERROR: malformed member ids in the path name the field', async () => {
  for (const bad of ['abc', '1.5', '0', '-1', '99999999999999999999', '2147483648', '1e3', '0x10', '%20', '12abc']) {
    assertError(await s.api(KEYS.admin, 'GET', `/v3/members/${bad}`), 400, 'VALIDATION_ERROR', 'memberId');
  }
  for (const bad of ['abc', '0', '-7', '3.0.1']) {
    assertError(await s.api(KEYS.admin, 'GET', `/v3/groups/${bad}`), 400, 'VALIDATION_ERROR', 'groupId');
  }
});

test('7: malformed percent-encoding is a 400 or 404 in the envelope, never a 500', async () => {
  assertError(await s.api(KEYS.admin, 'GET', '/v3/members/%E0%A4%A'), 400, 'VALIDATION_ERROR', 'memberId');
  assertError(await s.api(KEYS.admin, 'GET', '/v3/members/%'), 400, 'VALIDATION_ERROR', 'memberId');
  assertError(await s.api(KEYS.admin, 'GET', '/v3/%ZZ'), 404, 'NOT_FOUND');
  const q = await s.api(KEYS.admin, 'GET', '/v3/members?search=%ZZ%&sort=%E0');
  assert.ok(q.status === 200 || q.status === 400, q.text);
});

test('4.1 rule 4: a well-formed id matching nothing is 404 with the resource code', async () => {
  assertError(await s.api(KEYS.admin, 'GET', '/v3/members/999'), 404, 'MEMBER_NOT_FOUND');
  assertError(await s.api(KEYS.admin, 'GET', '/v3/groups/999'), 404, 'GROUP_NOT_FOUND');
});

test('5.10: another workspace\'s member or group is 404, never 403; the anonymous member is never found', async () => {
  assertError(await s.api(KEYS.admin, 'GET', `/v3/members/${DEMO.members.gina}`), 404, 'MEMBER_NOT_FOUND');
  assertError(await s.api(KEYS.admin, 'GET', '/v3/groups/311'), 404, 'GROUP_NOT_FOUND');
  assertError(await s.api(KEYS.admin, 'GET', '/v3/members/100'), 404, 'MEMBER_NOT_FOUND');
  assertError(await s.api(KEYS.workspace, 'GET', '/v3/members/100'), 404, 'MEMBER_NOT_FOUND');
});

test('4.1 rule 11: list_members refuses pageSize out of range or not numeric', async () => {
  for (const bad of ['0', '101', '-1', 'abc', '1.5', '', '1e2', '99999999999999999999']) {
    assertError(await s.api(KEYS.admin, 'GET', `/v3/members?pageSize=${bad}`), 400, 'VALIDATION_ERROR', 'pageSize');
    assertError(await s.api(KEYS.admin, 'GET', `/v3/groups?pageSize=${bad}`), 400, 'VALIDATION_ERROR', 'pageSize');
  }
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members?pageSize=100')).status, 200);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members?pageSize=1')).status, 200);
});

test('4.6 list_tags: pageSize out of range or non-numeric reads as 50', async () => {
  const normal = await s.api(KEYS.admin, 'GET', '/v3/tags');
  for (const odd of ['0', '101', '-5', 'abc', '1.5', '', '99999999999999999999']) {
    const r = await s.api(KEYS.admin, 'GET', `/v3/tags?pageSize=${odd}`);
    assert.equal(r.status, 200, odd);
    assert.deepEqual(r.body, normal.body, odd);
  }
  // The cursor of a 50-row page fits the default: pageSize=abc and no pageSize are the same query.
  const one = await s.api(KEYS.admin, 'GET', '/v3/tags?pageSize=1');
  assert.equal(one.body.items.length, 1);
  assert.equal(one.body.hasMore, true);
});

test('4.1 rule 11: unknown sort fields and bad directions are 400 with field sort', async () => {
  for (const [path, bad] of [
    ['/v3/members', 'role'],
    ['/v3/members', 'name:up'],
    ['/v3/members', 'name:'],
    ['/v3/members', ':asc'],
    ['/v3/members', 'name:asc:desc'],
    ['/v3/members', ''],
    ['/v3/groups', 'email'],
    ['/v3/groups', 'name:descending'],
    ['/v3/tags', 'count'],
    ['/v3/tags', 'usage:sideways'],
  ]) {
    assertError(await s.api(KEYS.admin, 'GET', `${path}?sort=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', 'sort');
  }
  for (const ok of ['name', 'name:asc', 'NAME:DESC', 'email:desc']) {
    assert.equal((await s.api(KEYS.admin, 'GET', `/v3/members?sort=${encodeURIComponent(ok)}`)).status, 200, ok);
  }
});

test('4.6 list_members: an unknown role is refused with field role', async () => {
  for (const bad of ['Owner', 'admin', '', 'Guest,Member']) {
    assertError(await s.api(KEYS.admin, 'GET', `/v3/members?role=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', 'role');
  }
});

test('4.1 rule 11: bad cursors are 400 with field after', async () => {
  for (const bad of ['zzz', 'eyJ9', Buffer.from('{"o":-1,"b":"x"}').toString('base64url'), Buffer.from('[1]').toString('base64url'), '', '%00']) {
    assertError(await s.api(KEYS.admin, 'GET', `/v3/members?after=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', 'after');
    assertError(await s.api(KEYS.admin, 'GET', `/v3/tags?after=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', 'after');
  }
});

test('4.1 rule 11: a cursor is valid only with the same filters, sort and pageSize (any key of the workspace)', async () => {
  const first = await s.api(KEYS.admin, 'GET', '/v3/members?pageSize=2&sort=email&includeInactive=true');
  const cur = encodeURIComponent(first.body.nextCursor);
  assert.equal((await s.api(KEYS.admin, 'GET', `/v3/members?pageSize=2&sort=email&includeInactive=true&after=${cur}`)).status, 200);
  for (const changed of [
    'pageSize=3&sort=email&includeInactive=true',
    'pageSize=2&sort=email:desc&includeInactive=true',
    'pageSize=2&sort=email',
    'pageSize=2&sort=email&includeInactive=true&search=a',
    'pageSize=2&sort=email&includeInactive=true&role=Member',
  ]) {
    assertError(await s.api(KEYS.admin, 'GET', `/v3/members?${changed}&after=${cur}`), 400, 'VALIDATION_ERROR', 'after');
  }
  // Same query, another key of the workspace: the rule names filters, sort and pageSize (the member only for my-work).
  assert.equal((await s.api(KEYS.owner, 'GET', `/v3/members?pageSize=2&sort=email&includeInactive=true&after=${cur}`)).status, 200);
  assert.equal((await s.api(KEYS.workspace, 'GET', `/v3/members?pageSize=2&sort=email&includeInactive=true&after=${cur}`)).status, 200);
  // Another workspace, another list.
  assertError(await s.api(KEYS.globexAdmin, 'GET', `/v3/members?pageSize=2&sort=email&includeInactive=true&after=${cur}`, undefined, {}, s.eu), 400, 'VALIDATION_ERROR', 'after');
  assertError(await s.api(KEYS.admin, 'GET', `/v3/groups?pageSize=2&after=${cur}`), 400, 'VALIDATION_ERROR', 'after');
  const tags = await s.api(KEYS.admin, 'GET', '/v3/tags?pageSize=1');
  const tcur = encodeURIComponent(tags.body.nextCursor);
  assertError(await s.api(KEYS.admin, 'GET', `/v3/tags?pageSize=1&search=u&after=${tcur}`), 400, 'VALIDATION_ERROR', 'after');
  assert.equal((await s.api(KEYS.member, 'GET', `/v3/tags?pageSize=1&after=${tcur}`)).status, 200);
});

test('4.1 rule 7: an unknown X-SVC-Timezone is 400 with field X-SVC-Timezone; IANA and Windows names are accepted', async () => {
  for (const bad of ['Mars/Olympus', 'Nowhere', 'GMT+25', ' ', 'Europe/Berlin; drop']) {
    assertError(await s.api(KEYS.admin, 'GET', '/v3/members', undefined, { 'X-SVC-Timezone': bad }), 400, 'VALIDATION_ERROR', 'X-SVC-Timezone');
  }
  for (const good of ['Europe/Berlin', 'America/New_York', 'UTC', 'W. Europe Standard Time', 'Pacific Standard Time', 'Tokyo Standard Time']) {
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members', undefined, { 'X-SVC-Timezone': good })).status, 200, good);
  }
  // Also on the cheap auth test and for a workspace key.
  assertError(await s.api(KEYS.workspace, 'GET', '/v3/auth/test', undefined, { 'X-SVC-Timezone': 'Bad/Zone' }), 400, 'VALIDATION_ERROR', 'X-SVC-Timezone');
});

test('4.1 rule 11: duplicate query parameters are refused with the field', async () => {
  assertError(await s.api(KEYS.admin, 'GET', '/v3/members?pageSize=2&pageSize=3'), 400, 'VALIDATION_ERROR', 'pageSize');
  assertError(await s.api(KEYS.admin, 'GET', '/v3/members?role=Member&role=Guest'), 400, 'VALIDATION_ERROR', 'role');
});

test('4.1: unknown routes are 404 NOT_FOUND in the envelope', async () => {
  for (const path of ['/v3/nothing', '/v3', '/v3/', '/', '/v3//members', '/v3/members/101/extra', '/v4/members', '/favicon.ico']) {
    assertError(await s.api(KEYS.admin, 'GET', path), 404, 'NOT_FOUND');
  }
  // No key needed to learn that a route does not exist.
  assertError(await s.api(null, 'GET', '/v3/nothing'), 404, 'NOT_FOUND');
});

test('4.1: a wrong method is 405 METHOD_NOT_ALLOWED with Allow', async () => {
  for (const [method, path] of [
    ['POST', '/v3/members'],
    ['DELETE', '/v3/members/101'],
    ['PUT', '/v3/groups/301'],
    ['PATCH', '/v3/tags'],
    ['POST', '/v3/auth/test'],
    ['DELETE', '/v3/workspace'],
    ['POST', '/v3/openapi.json'],
  ]) {
    const r = await s.api(KEYS.admin, method, path, method === 'DELETE' ? undefined : {});
    assertError(r, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(r.headers.get('allow'), 'GET');
  }
});

test('4.6: /mcp answers only POST; other methods are 405 with Allow: POST', async () => {
  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
    const r = await s.api(KEYS.admin, method, '/mcp', method === 'GET' || method === 'DELETE' ? undefined : {}, ACCEPT);
    assertError(r, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(r.headers.get('allow'), 'POST');
  }
});

test('4.1: a body over the limit is 413 PAYLOAD_TOO_LARGE in the envelope, not a dropped connection', async () => {
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } });
  const r = await s.api(KEYS.admin, 'POST', '/mcp', big, ACCEPT);
  assertError(r, 413, 'PAYLOAD_TOO_LARGE');
  assert.match(r.body.error.message, /65536 bytes/);
  // Streamed without Content-Length (chunked): counted as it arrives.
  const chunks = new ReadableStream({
    start(c) {
      for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode('x'.repeat(10 * 1024)));
      c.close();
    },
  });
  const res = await fetch(`${s.us}/mcp`, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json', ...ACCEPT }, body: chunks, duplex: 'half' } as RequestInit);
  assert.equal(res.status, 413);
  assert.equal((await res.json()).error.code, 'PAYLOAD_TOO_LARGE');
  // The server still answers afterwards.
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
});

test('4.1 rule 3: invalid JSON to /mcp is 400: a JSON-RPC parse error carrying the v3 VALIDATION_ERROR', async () => {
  for (const bad of ['{not json', '', '[', '{"jsonrpc":']) {
    const r = await s.api(KEYS.admin, 'POST', '/mcp', bad, { ...ACCEPT, 'Content-Type': 'application/json', 'X-Request-Id': 'bad-json' });
    assert.equal(r.status, 400, bad);
    assert.equal(r.headers.get('content-type'), JSON_TYPE);
    assert.equal(r.body.jsonrpc, '2.0');
    assert.equal(r.body.error.code, -32700);
    assert.match(r.body.error.message, /invalid request body/i);
    assert.equal(r.body.error.data.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.data.error.requestId, 'bad-json');
  }
});

test('4.1 rule 1: a body sent to a route that takes none (GET) is not read', async () => {
  const r = await rawHttp(s.us, 'GET /v3/members/101 HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: acme-admin-key\r\nContent-Type: text/plain\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot json!');
  assert.equal(r.status, 200);
  assert.equal(JSON.parse(r.body).id, 101);
});

test('8: every authenticated answer carries the rate-limit headers (REST and /mcp); auth test is cheap', async () => {
  const cheap = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(cheap.headers.get('x-ratelimit-bucket'), 'cheap');
  assert.equal(cheap.headers.get('x-ratelimit-limit'), '10000');
  const std = await s.api(KEYS.admin, 'GET', '/v3/members/abc');
  assert.equal(std.headers.get('x-ratelimit-bucket'), 'standard');
  assert.equal(std.headers.get('x-ratelimit-limit'), '1000');
  assert.match(std.headers.get('x-ratelimit-remaining')!, /^\d+$/);
  assert.match(std.headers.get('x-ratelimit-reset')!, /^\d+$/);
  assert.equal(Number(std.headers.get('x-ratelimit-reset')) % 3600, 0);
  const mcp = await s.api(KEYS.admin, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, ACCEPT);
  assert.equal(mcp.status, 200);
  assert.equal(mcp.headers.get('x-ratelimit-bucket'), 'cheap');
  assert.equal(mcp.headers.get('content-type'), JSON_TYPE);
  const call = await s.api(KEYS.admin, 'POST', '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_member', arguments: { memberId: 101 } } }, ACCEPT);
  assert.equal(call.headers.get('x-ratelimit-bucket'), 'standard');
  assert.deepEqual(call.body.result.structuredContent, (await s.api(KEYS.admin, 'GET', '/v3/members/101')).body);
});

test('4.1: requests node:http cannot parse are answered in the envelope, not dropped (Content-Length, request line)', async () => {
  for (const req of [
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}',
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: -5\r\nConnection: close\r\n\r\n{}',
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\n{}',
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{}',
    'POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n',
    'GARBAGE\r\n\r\n',
  ]) {
    const r = await rawHttp(s.us, req);
    assert.equal(r.status, 400, req);
    assert.match(r.head, /content-type: application\/json; charset=utf-8/i);
    const body = JSON.parse(r.body);
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.match(body.error.requestId, GENERATED_ID);
  }
  const huge = await rawHttp(s.us, `GET /v3/members HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(40 * 1024)}\r\nConnection: close\r\n\r\n`);
  assert.equal(huge.status, 431);
  assert.equal(JSON.parse(huge.body).error.code, 'REQUEST_HEADERS_TOO_LARGE');
});

test('4.1: odd request targets and Host headers are 400 or 404 in the envelope, never a 500', async () => {
  const cases: [string, number][] = [
    ['GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 400],
    ['GET /v3/members HTTP/1.1\r\nHost: bad host\r\nX-API-KEY: acme-admin-key\r\nConnection: close\r\n\r\n', 400],
    ['GET /v3/me%ZZmbers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 404],
  ];
  for (const [req, status] of cases) {
    const r = await rawHttp(s.us, req);
    assert.equal(r.status, status, req);
    assert.ok(JSON.parse(r.body).error.code, r.body);
  }
  // HTTP/1.0 and HTTP/1.1 without Host are served (the emulator does not route by host).
  for (const req of [
    'GET /v3/members/101 HTTP/1.0\r\nX-API-KEY: acme-admin-key\r\n\r\n',
    'GET /v3/members/101 HTTP/1.1\r\nX-API-KEY: acme-admin-key\r\nConnection: close\r\n\r\n',
  ]) {
    const r = await rawHttp(s.us, req);
    assert.equal(r.status, 200, req);
    assert.equal(JSON.parse(r.body).id, 101);
  }
});
