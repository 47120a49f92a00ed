// Spec v3 4.1 rule 7: X-SVC-Timezone (IANA or Windows names), else the acting
// member's profile zone, else UTC for a workspace key; never changes JSON timestamps.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, callTool, withoutRequestId, KEYS, type TestServer } from './helpers/server';
import { testOps } from './helpers/platform';
import { resolveZone } from '../src/domain/timezone';

let s: TestServer;
before(async () => {
  s = await startTestServer({ ops: testOps });
});
after(async () => {
  await s.close();
});

const zone = async (key: string, header?: string) => {
  const r = await s.api(key, 'GET', '/v3/test-zone', undefined, header === undefined ? {} : { 'X-SVC-Timezone': header });
  return r;
};

test('4.1 rule 7: without the header, the acting member profile zone is used', async () => {
  assert.equal((await zone(KEYS.admin)).body.timeZone, 'America/New_York'); // Ada
  assert.equal((await zone(KEYS.member)).body.timeZone, 'Europe/Berlin'); // Mia
});

test('4.1 rule 7: a member without a profile zone, and a workspace key, get UTC', async () => {
  assert.equal((await zone(KEYS.owner)).body.timeZone, 'UTC');
  assert.equal((await zone(KEYS.workspace)).body.timeZone, 'UTC');
});

test('4.1 rule 7: the header beats the profile zone (IANA names)', async () => {
  assert.equal((await zone(KEYS.admin, 'Asia/Tokyo')).body.timeZone, 'Asia/Tokyo');
  assert.equal((await zone(KEYS.workspace, 'Australia/Sydney')).body.timeZone, 'Australia/Sydney');
  assert.equal((await zone(KEYS.member, 'UTC')).body.timeZone, 'UTC');
});

test('4.1 rule 7: Windows zone names resolve to their IANA zone, in any letter case', async () => {
  assert.equal((await zone(KEYS.admin, 'W. Europe Standard Time')).body.timeZone, 'Europe/Berlin');
  assert.equal((await zone(KEYS.admin, 'pacific standard time')).body.timeZone, 'America/Los_Angeles');
  assert.equal((await zone(KEYS.admin, 'Tokyo Standard Time')).body.timeZone, 'Asia/Tokyo');
  assert.equal(resolveZone('India Standard Time'), 'Asia/Calcutta');
});

test('4.1 rule 7: an unknown zone is 400 VALIDATION_ERROR with field X-SVC-Timezone', async () => {
  for (const bad of ['Mars/Olympus_Mons', 'Not A Zone Standard Time', '', '+25:00']) {
    const r = await zone(KEYS.admin, bad);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, 'X-SVC-Timezone');
  }
  // On every operation, not only this one.
  const members = await s.api(KEYS.admin, 'GET', '/v3/members', undefined, { 'X-SVC-Timezone': 'Nowhere/Land' });
  assert.equal(members.status, 400);
  assert.equal(members.body.error.field, 'X-SVC-Timezone');
});

test('4.1 rule 7: the header never changes how JSON timestamps are written', async () => {
  const plain = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  for (const tz of ['Asia/Kolkata', 'Pacific/Chatham', 'Hawaiian Standard Time']) {
    const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { 'X-SVC-Timezone': tz });
    assert.deepEqual(r.body, plain.body);
  }
  assert.match(plain.body.apiKey.createdDateTime, /Z$/);
  const a = await zone(KEYS.admin, 'Asia/Kolkata');
  assert.match(a.body.now, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
});

test('4.1 rule 7: MCP over HTTP honours the header sent with the request', async () => {
  const c = new Client({ name: 'tz', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.us}/mcp`), { requestInit: { headers: { 'X-API-KEY': KEYS.admin, 'X-SVC-Timezone': 'Central Europe Standard Time' } } }));
  try {
    const r = await callTool(c, 'test_zone');
    assert.equal(r.body.timeZone, 'Europe/Budapest');
  } finally {
    await c.close();
  }
  const bad = new Client({ name: 'tz', version: '1' });
  await bad.connect(new StreamableHTTPClientTransport(new URL(`${s.us}/mcp`), { requestInit: { headers: { 'X-API-KEY': KEYS.admin, 'X-SVC-Timezone': 'Bogus/Zone' } } }));
  try {
    const r = await callTool(bad, 'test_zone');
    assert.equal(r.isError, true);
    const rest = await zone(KEYS.admin, 'Bogus/Zone');
    assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body));
  } finally {
    await bad.close();
  }
});
