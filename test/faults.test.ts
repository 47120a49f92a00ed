// Injected faults (issue 16 item 4, docs/faults.md): each kind on REST and MCP, the
// data unchanged by a faulted call, rules listed/removed/cleared, bad rules refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const addRule = async (rule: unknown) => s.api(null, 'POST', '/_emulator/faults', rule);
const template = async () => (await s.api(KEYS.admin, 'GET', `/v3/templates/${DEMO.vendor}`)).body;
const archive = () => s.api(KEYS.admin, 'POST', `/v3/templates/${DEMO.vendor}/archive`);

async function clean() {
  await s.api(null, 'DELETE', '/_emulator/faults');
}

test('16.4 faults: REST 503 answers the v3 envelope with Retry-After, the journal marks it, the data is unchanged', async () => {
  await clean();
  const before = await template();
  const added = await addRule({ method: 'post', path: '/v3/templates/*/archive', status: 503, retryAfter: 7, times: 1 });
  assert.equal(added.status, 201, added.text);
  assert.match(added.body.id, /^fault-\d+$/);
  assert.equal(added.body.method, 'POST');
  assert.equal(added.body.remaining, 1);
  const r = await archive();
  assert.equal(r.status, 503);
  assert.equal(r.body.error.code, 'SERVICE_UNAVAILABLE');
  assert.match(r.body.error.requestId, /\S/);
  assert.equal(r.headers.get('retry-after'), '7');
  assert.equal(r.headers.get('x-emulator-fault'), added.body.id);
  assert.deepEqual(await template(), before, 'a faulted call changes no data');
  const journal = (await s.api(null, 'GET', '/_emulator/journal?limit=5')).body.items;
  const entry = journal.find((e: { path: string; method: string }) => e.method === 'POST' && e.path.endsWith('/archive'));
  assert.deepEqual(entry.fault, { rule: added.body.id, kind: 'status' });
  assert.equal(entry.status, 503);
  // times: 1 is used up; the next call goes through.
  assert.deepEqual((await s.api(null, 'GET', '/_emulator/faults')).body.items, []);
  const ok = await archive();
  assert.equal(ok.status, 200, ok.text);
  await s.api(KEYS.admin, 'DELETE', `/v3/templates/${DEMO.vendor}/archive`);
});

test('16.4 faults: REST 500 and 429 (Retry-After, the four rate-limit headers, retryAfterSeconds)', async () => {
  await clean();
  await addRule({ method: 'GET', path: '/v3/members', status: 500, times: 1 });
  const r500 = await s.api(KEYS.admin, 'GET', '/v3/members');
  assert.equal(r500.status, 500);
  assert.equal(r500.body.error.code, 'INTERNAL_ERROR');
  await addRule({ path: '/v3/groups/:id', status: 429, times: 1 });
  const r429 = await s.api(KEYS.admin, 'GET', '/v3/groups/301');
  assert.equal(r429.status, 429);
  assert.equal(r429.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(r429.headers.get('x-ratelimit-bucket'), 'standard');
  assert.equal(r429.headers.get('x-ratelimit-limit'), '1000');
  assert.equal(r429.headers.get('x-ratelimit-remaining'), '0');
  assert.match(r429.headers.get('x-ratelimit-reset') ?? '', /^\d+$/);
  const retry = Number(r429.headers.get('retry-after'));
  assert.ok(retry >= 1 && retry <= 3600);
  assert.equal(r429.body.error.retryAfterSeconds, retry);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/groups/301')).status, 200);
});

test('16.4 faults: REST delay slows the answer and the call then runs; drop closes the connection and changes nothing', async () => {
  await clean();
  await addRule({ path: '/v3/auth/test', delayMs: 300, times: 1 });
  const t = Date.now();
  const slow = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(slow.status, 200);
  assert.ok(Date.now() - t >= 290, `took ${Date.now() - t} ms`);
  const before = await template();
  const rule = await addRule({ method: 'POST', path: '/v3/templates/**', drop: true, times: 1 });
  await assert.rejects(archive(), (e: Error) => /fetch failed/.test(e.message));
  assert.deepEqual(await template(), before);
  const entry = (await s.api(null, 'GET', '/_emulator/journal?limit=3')).body.items.find((e: { fault?: { rule: string } }) => e.fault?.rule === rule.body.id);
  assert.equal(entry.fault.kind, 'drop');
});

test('16.4 faults: probability with a seed faults the same calls on every run', async () => {
  const run = async () => {
    await clean();
    await addRule({ path: '/v3/auth/test', status: 503, probability: 0.5, seed: 42 });
    const out: number[] = [];
    for (let i = 0; i < 12; i++) out.push((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status);
    return out;
  };
  const a = await run();
  const b = await run();
  assert.deepEqual(a, b);
  assert.ok(a.includes(503) && a.includes(200), a.join(','));
  const listed = (await s.api(null, 'GET', '/_emulator/faults')).body.items[0];
  assert.equal(listed.seed, 42);
  assert.equal(listed.hits, a.filter((x) => x === 503).length);
  await clean();
});

test('16.4 faults: rules are listed, removed one by one, cleared by DELETE and by reset; region limits a rule', async () => {
  await clean();
  const a = (await addRule({ path: '/v3/members', status: 500 })).body;
  const b = (await addRule({ tool: 'get_member', status: 503 })).body;
  const c = (await addRule({ path: '/v3/auth/test', status: 500, region: 'EU' })).body;
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200, 'an EU rule leaves US alone');
  assert.equal((await s.api(KEYS.globexAdmin, 'GET', '/v3/auth/test', undefined, {}, s.eu)).status, 500);
  assert.deepEqual((await s.api(null, 'GET', '/_emulator/faults')).body.items.map((r: { id: string }) => r.id), [a.id, b.id, c.id]);
  assert.equal((await s.api(null, 'GET', `/_emulator/faults/${b.id}`)).body.tool, 'get_member');
  assert.equal((await s.api(null, 'DELETE', `/_emulator/faults/${a.id}`)).status, 204);
  const gone = await s.api(null, 'DELETE', `/_emulator/faults/${a.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'FAULT_NOT_FOUND');
  assert.deepEqual((await s.api(null, 'GET', '/_emulator/faults')).body.items.map((r: { id: string }) => r.id), [b.id, c.id]);
  assert.equal((await s.api(null, 'POST', '/_emulator/reset')).status, 200);
  assert.deepEqual((await s.api(null, 'GET', '/_emulator/faults')).body.items, []);
});

test('16.4 faults: MCP tool rule answers the refusal inside the MCP response; the data is unchanged', async () => {
  await clean();
  const client = await s.mcp(KEYS.admin);
  const before = await template();
  await addRule({ tool: 'set_template_archived', status: 503, retryAfter: 3, times: 1 });
  const r = await callTool(client, 'set_template_archived', { key: DEMO.vendor, archived: true });
  assert.equal(r.isError, true);
  assert.equal(r.body.error.code, 'SERVICE_UNAVAILABLE');
  assert.deepEqual(await template(), before);
  // Other tools are untouched by a tool rule.
  assert.equal((await callTool(client, 'get_member', { memberId: 103 })).isError, false);
});

test('16.4 faults: MCP 429 and 500 carry their headers on the HTTP answer; path rules match /mcp too', async () => {
  await clean();
  await addRule({ tool: 'get_member', status: 429, bucket: 'cheap', times: 1 });
  const raw = await fetch(`${s.us}/mcp`, {
    method: 'POST',
    headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_member', arguments: { memberId: 103 } } }),
  });
  assert.equal(raw.status, 200);
  assert.equal(raw.headers.get('x-ratelimit-bucket'), 'cheap');
  assert.equal(raw.headers.get('x-ratelimit-remaining'), '0');
  assert.match(raw.headers.get('retry-after') ?? '', /^\d+$/);
  const body = await raw.json();
  assert.equal(body.id, 1);
  assert.equal(body.result.isError, true);
  assert.equal(body.result.structuredContent.error.code, 'RATE_LIMIT_EXCEEDED');
  const client = await s.mcp(KEYS.member);
  await addRule({ method: 'POST', path: '/mcp', status: 500, times: 1 });
  const r = await callTool(client, 'get_member', { memberId: 103 });
  assert.equal(r.isError, true);
  assert.equal(r.body.error.code, 'INTERNAL_ERROR');
});

test('16.4 faults: MCP delay then runs the tool; MCP drop fails the call and changes nothing', async () => {
  await clean();
  const client = await s.mcp(KEYS.admin);
  await addRule({ tool: 'get_member', delayMs: 250, times: 1 });
  const t = Date.now();
  assert.equal((await callTool(client, 'get_member', { memberId: 103 })).body.email, 'mia@acme.test');
  assert.ok(Date.now() - t >= 240);
  const before = await template();
  await addRule({ tool: 'set_template_archived', drop: true, times: 1 });
  await assert.rejects(callTool(client, 'set_template_archived', { key: DEMO.vendor, archived: true }));
  assert.deepEqual(await template(), before);
});

test('16.4 faults: bad rules are refused with the field and nothing is added', async () => {
  await clean();
  const cases: [unknown, string, RegExp][] = [
    [{ path: '/v3/**', status: 503, when: 'always' }, 'when', /Unknown property when/],
    [{ path: '/v3/**', delayMs: -5 }, 'delayMs', /must not be negative/],
    [{ path: '/v3/**', status: 503, probability: 1.5 }, 'probability', /from 0 to 1/],
    [{ path: '/v3/**', status: 503, probability: -0.1 }, 'probability', /from 0 to 1/],
    [{ path: '/v3/**', status: 200 }, 'status', /400 to 599/],
    [{ path: '/v3/**' }, 'status', /Say what to do/],
    [{ path: '/v3/**', tool: 'get_member', status: 500 }, 'tool', /exactly one of path/],
    [{ status: 500 }, 'path', /exactly one of path/],
    [{ path: 'v3/members', status: 500 }, 'path', /starting with \//],
    [{ path: '/v3/**', drop: true, status: 500 }, 'drop', /not both/],
    [{ path: '/v3/**', status: 500, times: 0 }, 'times', /1 or more/],
    [{ path: '/v3/**', status: 500, retryAfter: 5 }, 'retryAfter', /429 or 503/],
    [{ tool: 'get_member', method: 'GET', status: 500 }, 'method', /path rules/],
    [{ path: '/v3/**', status: 500, seed: 3 }, 'seed', /probability/],
    [[{ path: '/v3/**', status: 500 }], '', /JSON object/],
  ];
  for (const [rule, field, message] of cases) {
    const r = await addRule(rule);
    assert.equal(r.status, 400, `${JSON.stringify(rule)}: ${r.text}`);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    if (field) assert.equal(r.body.error.field, field, JSON.stringify(rule));
    assert.match(r.body.error.message, message, JSON.stringify(rule));
  }
  assert.deepEqual((await s.api(null, 'GET', '/_emulator/faults')).body.items, []);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
});

test('16.4 faults: legacy routes answer in the legacy envelope; control routes are never faulted', async () => {
  await clean();
  await addRule({ path: '/**', status: 503, retryAfter: 2 });
  const legacy = await s.api(KEYS.admin, 'GET', '/api/v1/checklists');
  assert.equal(legacy.status, 503);
  assert.equal(typeof legacy.body.error, 'string');
  assert.equal(legacy.headers.get('retry-after'), '2');
  assert.equal((await s.api(null, 'GET', '/_emulator/health')).status, 200);
  await clean();
});
