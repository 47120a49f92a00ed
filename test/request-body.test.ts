// Request bodies on v3 routes (spec v3 4.1 rules 1, 3, 10 and 7): the spine's own
// routes take none, so a test-only operation is added to a real emulator's table
// and served through the real transports (REST and MCP) on free ports.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Emulator } from '../src/emulator';
import { listen, type Running } from '../src/transports/http/server';
import { CREATE, REMOVE, defineOperation, type Operation } from '../src/operations/define';
import { memberIdParam, queryBool } from '../src/operations/input-kinds';
import { mcpHttpClient, callTool, withoutRequestId, KEYS } from './helpers/server';

let emu: Emulator;
let running: Running;
const writes: unknown[] = [];

const echo = defineOperation({
  id: 'testEcho',
  fidelity: { mark: 'designed', source: 'test', designed: 'a test operation' },
  tool: 'test_echo',
  method: 'POST',
  path: '/v3/test-echo/:memberId',
  summary: 'Echo (test only)',
  input: () => ({
    memberId: memberIdParam(),
    flag: queryBool(),
    name: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
    count: z.number({ error: 'must be a number' }).int().optional(),
  }),
  query: ['flag'],
  budget: 'standard',
  annotations: CREATE,
  status: 201,
  handler: (ctx, input) => {
    writes.push(input);
    return { ...input, actor: ctx.actor.member.id, zone: ctx.timeZone, none: null };
  },
});
const drop = defineOperation({
  id: 'testDrop',
  fidelity: { mark: 'designed', source: 'test', designed: 'a test operation' },
  tool: 'test_drop',
  method: 'DELETE',
  path: '/v3/test-echo/:memberId',
  summary: 'Nothing to return (test only)',
  input: () => ({ memberId: memberIdParam() }),
  budget: 'standard',
  annotations: REMOVE,
  status: 204,
  handler: () => undefined,
});

before(async () => {
  emu = new Emulator({ log: () => {}, maxBodyBytes: 1024 });
  (emu as { ops: Operation[] }).ops = [...emu.ops, echo, drop];
  running = await listen(emu, { portUs: 0, portEu: 0 });
});
after(async () => {
  await running.close();
  await emu.close();
});

async function post(body: string | undefined, headers: Record<string, string> = {}, path = '/v3/test-echo/101') {
  const res = await fetch(running.urls.US + path, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin, ...headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

test('4.1 rule 1: a JSON object body is read together with path and query', async () => {
  const r = await post(JSON.stringify({ name: 'x', count: 2 }), { 'Content-Type': 'application/json', 'X-SVC-Timezone': 'Tokyo Standard Time' }, '/v3/test-echo/103?flag=TRUE');
  assert.equal(r.status, 201);
  assert.deepEqual(r.body, { memberId: 103, flag: true, name: 'x', count: 2, actor: 101, zone: 'Asia/Tokyo' });
  assert.ok(!r.text.includes('null'), 'null dropped by the JSON writer');
});

test('4.1 rule 3: a body that is not valid JSON is 400 VALIDATION_ERROR about an invalid request body', async () => {
  for (const bad of ['{', "{'a':1}", 'name=x', '{"name":"x"}}']) {
    const r = await post(bad, { 'Content-Type': 'application/json' });
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.match(r.body.error.message, /invalid request body/i);
  }
});

test('4.1 rule 3: a JSON body that is not an object is 400', async () => {
  for (const bad of ['[1,2]', '"name"', '42', 'null', 'true']) {
    const r = await post(bad, { 'Content-Type': 'application/json' });
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.match(r.body.error.message, /invalid request body/i, bad);
  }
});

test('4.1 rule 1: a non-JSON Content-Type is 400 VALIDATION_ERROR (docs/decisions.md)', async () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const r = await post('{"name":"x"}', { 'Content-Type': type });
    assert.equal(r.status, 400, type);
    assert.match(r.body.error.message, /Content-Type: application\/json/);
  }
  for (const type of ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json']) {
    assert.equal((await post('{"name":"x"}', { 'Content-Type': type })).status, 201, type);
  }
});

test('4.1: no body where one is required names the missing property; bad properties name theirs', async () => {
  const none = await post(undefined);
  assert.equal(none.status, 400);
  assert.equal(none.body.error.field, 'name');
  assert.equal(none.body.error.message, 'name is required');
  const wrong = await post(JSON.stringify({ name: 'x', count: 'two' }), { 'Content-Type': 'application/json' });
  assert.equal(wrong.body.error.field, 'count');
  const path = await post(JSON.stringify({ name: 'x' }), { 'Content-Type': 'application/json' }, '/v3/test-echo/abc');
  assert.equal(path.body.error.field, 'memberId');
});

test('4.1: a body over the limit is 413 PAYLOAD_TOO_LARGE; a refused write changes nothing', async () => {
  const before = writes.length;
  const r = await post(JSON.stringify({ name: 'x'.repeat(2000) }), { 'Content-Type': 'application/json' });
  assert.equal(r.status, 413);
  assert.equal(r.body.error.code, 'PAYLOAD_TOO_LARGE');
  assert.equal(writes.length, before);
});

test('4.1 rule 10: a write with nothing to return is 204 with no body; over MCP {result: null}', async () => {
  const res = await fetch(`${running.urls.US}/v3/test-echo/101`, { method: 'DELETE', headers: { 'X-API-KEY': KEYS.admin } });
  assert.equal(res.status, 204);
  assert.equal(await res.text(), '');
  assert.equal(res.headers.get('content-type'), null);
  assert.match(res.headers.get('x-request-id')!, /^req_/);
  const c = await mcpHttpClient(`${running.urls.US}/mcp`, KEYS.admin);
  try {
    const r = await callTool(c, 'test_drop', { memberId: 101 });
    assert.deepEqual(r.body, { result: null });
    const e = await callTool(c, 'test_echo', { memberId: 101, name: '' });
    const rest = await post(JSON.stringify({ name: '' }), { 'Content-Type': 'application/json' });
    assert.deepEqual(withoutRequestId(e.body), withoutRequestId(rest.body));
    const ok = await callTool(c, 'test_echo', { memberId: 101, name: 'y', flag: true });
    assert.deepEqual(ok.body, { memberId: 101, flag: true, name: 'y', actor: 101, zone: 'America/New_York' });
  } finally {
    await c.close();
  }
});
