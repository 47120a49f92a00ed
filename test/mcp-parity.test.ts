// Spec v3 4.6 (MCP server) and 9 (OpenAPI): for every operation of the table that
// has a tool, the tool answers what its REST route answers (success and refusal),
// over Streamable HTTP and stdio; tools/list and /v3/openapi.json are generated
// from the same table. Table-driven over s.emu.ops: new operations join by
// adding a sample to test/helpers/op-samples.ts.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, callTool, mcpStdioClient, withoutRequestId, DEMO, KEYS, type TestServer } from './helpers/server';
import { opSamples, type NoRefusal, type SampleCall, type SetupRest } from './helpers/op-samples';
import { restCallFor } from './helpers/spine';
import { successResult } from '../src/transports/mcp/tools';
import { toolInputSchema } from '../src/contract/tool';
import type { Operation } from '../src/operations/define';
import type { ZodType } from 'zod';

let s: TestServer;
let dir: string;
let dbFile: string;
const stdio = new Map<string, Promise<Client>>();

before(async () => {
  // A file database so the stdio processes read the same rows as the HTTP server.
  dir = mkdtempSync(join(tmpdir(), 'wfe-mcp-'));
  dbFile = join(dir, 'parity.db');
  s = await startTestServer({ db: dbFile });
});
after(async () => {
  for (const c of stdio.values()) await (await c).close().catch(() => {});
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One stdio `wfe mcp` process per key, on the shared database file, its links naming the server's addresses. */
function stdioClient(key: string): Promise<Client> {
  let c = stdio.get(key);
  if (!c) {
    c = mcpStdioClient(key, ['--db', dbFile, '--port-us', new URL(s.us).port, '--port-eu', new URL(s.eu).port]);
    stdio.set(key, c);
  }
  return c;
}

/** One Streamable HTTP client per key (the server is stateless: each call is its own request). */
const http = new Map<string, Promise<Client>>();
function httpClient(key: string): Promise<Client> {
  let c = http.get(key);
  if (!c) http.set(key, (c = s.mcp(key)));
  return c;
}

const toolOps = (): Operation[] => s.emu.ops.filter((o) => o.tool);
const ACCEPT = { Accept: 'application/json, text/event-stream' };

async function restBody(op: Operation, call: SampleCall, args: Record<string, unknown>) {
  const rc = restCallFor(op, args);
  const r = await s.api(call.key ?? KEYS.admin, rc.method, rc.path, rc.body);
  return r;
}

/** Setup's REST: as the fixture Administrator; a setup that fails stops the test with its answer. */
const setupRest: SetupRest = async (method, path, body) => {
  const r = await s.api(KEYS.admin, method, path, body);
  assert.ok(r.status < 300, `sample setup ${method} ${path} answered ${r.status} ${r.text}`);
  return r.body;
};

/** The sample's arguments, with what its setup made merged over them. */
async function argsOf(call: SampleCall): Promise<Record<string, unknown>> {
  return call.setup ? { ...call.args, ...(await call.setup(setupRest)) } : call.args;
}

const isNoRefusal = (c: SampleCall | NoRefusal): c is NoRefusal => 'none' in c;

/**
 * A sample may say the operation can refuse nothing only when that is so: a GET whose every
 * argument is an optional boolean (REST reads any value but `true` as false) or that has none.
 */
function assertNothingToRefuse(op: Operation, why: string): void {
  assert.ok(why.trim().length > 0, `${op.id}: say why nothing can be refused`);
  assert.equal(op.method, 'GET', `${op.id}: only a read may claim it refuses nothing`);
  for (const [name, schema] of Object.entries(op.input)) {
    const zs = schema as ZodType;
    const optionalBool = [undefined, true, false].every((v) => zs.safeParse(v).success) && !zs.safeParse('x').success && !zs.safeParse(1).success;
    assert.ok(optionalBool, `${op.id}: argument ${name} can be refused; give a refusal sample`);
  }
}

function assertToolMatchesRest(op: Operation, transport: string, rest: { status: number; body: any }, r: Awaited<ReturnType<typeof callTool>>, call: SampleCall, refusal: boolean): void {
  const norm = call.normalize ?? ((b: unknown) => b);
  const label = `${op.tool} over ${transport}`;
  if (refusal) {
    assert.ok(rest.status >= 400, `${label}: the refusal sample should be refused over REST (got ${rest.status})`);
    assert.equal(r.isError, true, `${label}: expected isError`);
    assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body), label);
    const { code, message, requestId } = r.body.error;
    assert.ok(r.text.startsWith(`${code}: ${message}`), `${label}: text starts with code and message: ${r.text}`);
    assert.ok(r.text.endsWith(requestId), `${label}: text ends with requestId: ${r.text}`);
  } else {
    assert.ok(rest.status < 300, `${label}: the ok sample should succeed over REST (got ${rest.status} ${JSON.stringify(rest.body)})`);
    assert.equal(r.isError, false, `${label}: ${r.text}`);
    const expected = rest.status === 204 ? { result: null } : Array.isArray(rest.body) ? { result: rest.body } : rest.body;
    assert.deepEqual(norm(r.body), norm(expected), label);
    assert.deepEqual(JSON.parse(r.text), r.body, `${label}: text carries the same JSON`);
  }
}

test('4.6: every operation with a tool has parity samples (test/helpers/op-samples.ts)', () => {
  const missing = toolOps().filter((o) => !opSamples[o.id]?.ok || !opSamples[o.id]?.refusal).map((o) => `${o.id} (${o.tool})`);
  assert.deepEqual(missing, [], `add samples for: ${missing.join(', ')}`);
  for (const op of toolOps()) {
    const r = opSamples[op.id].refusal;
    if (isNoRefusal(r)) assertNothingToRefuse(op, r.none);
  }
  // Samples of operations that are gone (or lost their tool) would silently test nothing.
  const stale = Object.keys(opSamples).filter((id) => !toolOps().some((o) => o.id === id));
  assert.deepEqual(stale, [], 'samples for operations without a tool');
});

for (const transport of ['Streamable HTTP', 'stdio'] as const) {
  test(`4.6 rules 1-2: structuredContent equals the REST body for every tool, success and refusal, over ${transport}`, async () => {
    for (const op of toolOps()) {
      const sample = opSamples[op.id];
      if (!sample) continue; // reported by the test above
      for (const [kind, call] of [['ok', sample.ok], ['refusal', sample.refusal]] as const) {
        if (isNoRefusal(call)) continue; // checked by the test above
        const key = call.key ?? KEYS.admin;
        const args = await argsOf(call);
        const rest = await restBody(op, call, args);
        const client = transport === 'stdio' ? await stdioClient(key) : await httpClient(key);
        const r = await callTool(client, op.tool!, call.setupEachCall ? await argsOf(call) : args);
        assertToolMatchesRest(op, transport, rest, r, call, kind === 'refusal');
      }
    }
  });
}

test('4.6: tools/list is exactly the table operations with a tool, over HTTP and stdio, with honest annotations', async () => {
  const expected = toolOps().map((o) => o.tool!).sort();
  for (const client of [await s.mcp(KEYS.admin), await stdioClient(KEYS.admin)]) {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), expected);
    for (const t of tools) {
      const op = toolOps().find((o) => o.tool === t.name)!;
      assert.deepEqual(t.inputSchema, toolInputSchema(op), `${t.name} input schema is generated from the op's zod shape`);
      assert.equal(t.annotations?.readOnlyHint, op.annotations.readOnlyHint, t.name);
      assert.equal(t.annotations?.idempotentHint, op.annotations.idempotentHint, t.name);
      assert.equal(t.annotations?.destructiveHint, op.annotations.destructiveHint, t.name);
      assert.equal(t.annotations?.openWorldHint, false, t.name);
      assert.ok(t.description && t.description.includes(op.path.replace(/:(\w+)/g, '{$1}')), t.name);
      if (op.method === 'GET') assert.equal(op.annotations.readOnlyHint, true, `${op.id} is a GET: readOnlyHint`);
      // A POST that only computes (validation) is honestly read-only; every other non-GET writes.
      else if (!PURE_POSTS.has(op.id)) assert.equal(op.annotations.readOnlyHint, false, `${op.id} writes: not readOnly`);
    }
  }
  // Operations the spec gives no tool (auth test, workspace) are not tools (get_authoring_guide is one).
  assert.ok(!expected.some((n) => /(^|_)auth(_|$)|workspace/.test(n)), expected.join(', '));
});

const PURE_POSTS = new Set(['validateTemplate', 'validateTemplateDraft', 'searchChecklists']);

test('9: GET /v3/openapi.json lists every operation in the table (no key needed)', async () => {
  const r = await s.api(null, 'GET', '/v3/openapi.json');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.body.openapi, '3.1.0');
  assert.deepEqual(
    r.body.servers.map((x: { url: string }) => x.url),
    [s.us, s.eu],
  );
  const listed: string[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(r.body.paths)) {
    for (const [method, o] of Object.entries(methods)) {
      listed.push(o.operationId);
      const op = s.emu.ops.find((x) => x.id === o.operationId);
      assert.ok(op, `${o.operationId} is in the table`);
      assert.equal(method.toUpperCase(), op.method);
      assert.equal(path, op.path.replace(/:(\w+)/g, '{$1}'));
      assert.equal(o['x-mcp-tool'], op.tool);
      assert.equal(o['x-rate-budget'], op.budget);
      for (const q of op.query ?? []) assert.ok(o.parameters.some((p: { name: string; in: string }) => p.name === q && p.in === 'query'), `${op.id} ${q}`);
    }
  }
  assert.deepEqual(listed.sort(), s.emu.ops.map((o) => o.id).sort());
  assert.equal(r.body.paths['/v3/auth/test'].get['x-rate-budget'], 'cheap');
});

test('4.6 rule 1: a 204 route gives {result: null}; a bare array gives {result: [...]}', () => {
  const none = successResult(undefined, false);
  assert.deepEqual(none.structuredContent, { result: null });
  assert.equal(none.content[0].text, '{"result":null}');
  const arr = successResult([{ a: 1, b: null }], false);
  assert.deepEqual(arr.structuredContent, { result: [{ a: 1 }] });
  const replay = successResult({ x: 1 }, true);
  assert.deepEqual(replay._meta, { idempotentReplay: true });
});

test('4.6 rule 2: malformed arguments are isError results, not protocol errors (an unknown tool is one: test/mcp-protocol.test.ts)', async () => {
  const c = await s.mcp(KEYS.admin);
  const bad = await callTool(c, 'get_member', { memberId: 'abc' });
  assert.equal(bad.isError, true);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(bad.body.error.field, 'memberId');
  const missing = await callTool(c, 'get_group', {});
  assert.equal(missing.body.error.field, 'groupId');
  assert.match(missing.text, /^VALIDATION_ERROR: groupId is required requestId: \S+$/);
});

test('4.6 rule 2: tools/call whose arguments are not an object is refused like a bad REST body; no name is a JSON-RPC invalid params', async () => {
  const call = (params: unknown) => ({ jsonrpc: '2.0', id: 9, method: 'tools/call', ...(params === undefined ? {} : { params }) });
  for (const args of [[1], null, 'x', 5]) {
    const r = await s.api(KEYS.admin, 'POST', '/mcp', call({ name: 'list_members', arguments: args }), ACCEPT);
    assert.equal(r.status, 200);
    assert.equal(r.body.result.isError, true, JSON.stringify(args));
    assert.equal(r.body.result.structuredContent.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.result.structuredContent.error.field, 'arguments');
  }
  for (const params of [undefined, 5, {}, { name: 5 }]) {
    const r = await s.api(KEYS.admin, 'POST', '/mcp', call(params), ACCEPT);
    assert.ok(r.status === 200 || r.status === 400, r.text);
    assert.ok(r.body.error.code === -32602 || r.body.error.code === -32700, r.text);
  }
  // No arguments at all is an empty argument object.
  const none = await s.api(KEYS.admin, 'POST', '/mcp', call({ name: 'list_groups' }), ACCEPT);
  assert.equal(none.body.result.structuredContent.total, 3);
});

test('4.1 rule 7 over MCP HTTP: an unknown X-SVC-Timezone refuses the tool call with field X-SVC-Timezone', async () => {
  const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_groups', arguments: {} } };
  const r = await s.api(KEYS.admin, 'POST', '/mcp', call, { ...ACCEPT, 'X-SVC-Timezone': 'Atlantis/Capital', 'X-Request-Id': 'tz-1' });
  assert.equal(r.status, 200);
  assert.equal(r.body.result.isError, true);
  assert.deepEqual(r.body.result.structuredContent, {
    error: { code: 'VALIDATION_ERROR', message: r.body.result.structuredContent.error.message, requestId: 'tz-1', field: 'X-SVC-Timezone' },
  });
  const ok = await s.api(KEYS.admin, 'POST', '/mcp', call, { ...ACCEPT, 'X-SVC-Timezone': 'W. Europe Standard Time' });
  assert.equal(ok.body.result.isError, undefined);
});

test('4.6 stdio: without SVC_API_KEY every tool call is refused MISSING_API_KEY; --key works', async () => {
  const none = await mcpStdioClient(undefined, ['--db', dbFile]);
  try {
    const r = await callTool(none, 'list_members', {});
    assert.equal(r.isError, true);
    assert.equal(r.body.error.code, 'MISSING_API_KEY');
    assert.match(r.text, /^MISSING_API_KEY: .* requestId: req_[0-9a-f]{32}$/);
    // Over stdio there is no header to send: the message names where the key goes.
    assert.match(r.body.error.message, /SVC_API_KEY/);
    assert.match(r.body.error.message, /--key/);
    assert.doesNotMatch(r.body.error.message, /X-API-KEY/);
  } finally {
    await none.close();
  }
  const flag = await mcpStdioClient(undefined, ['--key', KEYS.globexAdmin]);
  try {
    const r = await callTool(flag, 'list_groups', {});
    assert.equal(r.isError, false);
    assert.deepEqual(
      r.body.items.map((g: { id: number }) => g.id),
      [311],
    );
  } finally {
    await flag.close();
  }
});

test('8: over budget, /mcp answers inside the JSON-RPC response with the rate-limit headers', async () => {
  const small = await startTestServer({ standardBudget: 1 });
  try {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_member', arguments: { memberId: 101 } } });
    const first = await small.api(KEYS.admin, 'POST', '/mcp', call(1), ACCEPT);
    assert.equal(first.body.result.isError, undefined);
    const r = await small.api(KEYS.admin, 'POST', '/mcp', [call(2), { jsonrpc: '2.0', id: 3, method: 'ping' }], { ...ACCEPT, 'X-Request-Id': 'over' });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(r.headers.get('x-ratelimit-bucket'), 'standard');
    assert.match(r.headers.get('retry-after')!, /^\d+$/);
    const [tool, ping] = r.body;
    assert.equal(tool.id, 2);
    assert.equal(tool.result.isError, true);
    assert.equal(tool.result.structuredContent.error.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(tool.result.structuredContent.error.requestId, 'over');
    assert.equal(typeof tool.result.structuredContent.error.retryAfterSeconds, 'number');
    assert.equal(ping.id, 3);
    assert.equal(ping.error.data.error.code, 'RATE_LIMIT_EXCEEDED');
    // Cheap messages alone still pass (separate budget).
    const cheap = await small.api(KEYS.admin, 'POST', '/mcp', { jsonrpc: '2.0', id: 4, method: 'ping' }, ACCEPT);
    assert.deepEqual(cheap.body, { jsonrpc: '2.0', id: 4, result: {} });
    // REST gets the plain 429 with Retry-After, the four headers and retryAfterSeconds.
    const rest = await small.api(KEYS.member, 'GET', '/v3/members', undefined, { 'X-Request-Id': 'rest-over' });
    assert.equal(rest.status, 429);
    assert.equal(rest.body.error.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(rest.body.error.requestId, 'rest-over');
    assert.equal(String(rest.body.error.retryAfterSeconds), rest.headers.get('retry-after'));
    assert.equal(rest.headers.get('x-ratelimit-bucket'), 'standard');
    assert.equal(rest.headers.get('x-ratelimit-limit'), '1');
    assert.equal(rest.headers.get('x-ratelimit-remaining'), '0');
    assert.match(rest.headers.get('x-ratelimit-reset')!, /^\d+$/);
    // The cheap auth test still works: the budgets are counted separately.
    assert.equal((await small.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
  } finally {
    await small.close();
  }
});

test('4.6 rule 2: a whole-document argument left out is refused as REST refuses the request without a body', async () => {
  const op = (id: string) => s.emu.ops.find((o) => o.id === id)!;
  const { key: draft } = (await s.api(KEYS.admin, 'POST', '/v3/drafts', {})).body;
  const cases: [string, string, Record<string, unknown>][] = [
    ['createTemplate', KEYS.admin, {}],
    ['createTemplate', KEYS.noperm, {}], // permission is checked before the document is read (4.4 rule 5)
    ['createTemplateVersion', KEYS.admin, { key: DEMO.vendor }],
    ['updateTemplateDraft', KEYS.admin, { key: draft }],
  ];
  for (const [id, key, args] of cases) {
    const rest = await restBody(op(id), { key, args }, args);
    assert.ok(rest.status === 400 || rest.status === 403, `${id}: ${rest.status} ${rest.text}`);
    for (const client of [await s.mcp(key), await stdioClient(key)]) {
      const r = await callTool(client, op(id).tool!, args);
      assert.equal(r.isError, true, id);
      assert.deepEqual(withoutRequestId(r.body), withoutRequestId(rest.body), `${id} as ${key}`);
    }
  }
});

test('4.6 stdio: links carry the addresses of the wfe serve named by --host, --port-us, --port-eu', async () => {
  const c = await mcpStdioClient(KEYS.admin, ['--db', dbFile, '--host', 'localhost', '--port-us', '9123', '--port-eu', '0']);
  try {
    const r = await callTool(c, 'get_template', { key: DEMO.expense });
    assert.equal(r.body.url, `http://localhost:9123/app/templates/${DEMO.expense}`);
  } finally {
    await c.close();
  }
});
