// Spec v3 8: rate budgets per workspace, fixed hourly windows, standard and cheap
// counted apart, refusals on REST, MCP over HTTP and MCP over stdio; the invalid-key throttle.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fromSource, PATIENCE_MS, startTestServer, budgetSpent, callTool, mcpStdioClient, withoutRequestId, KEYS, ROOT, type TestServer, type ApiAnswer } from './helpers/server';
import { HOUR } from './helpers/platform';
import { Clock } from '../src/clock';
import { Emulator } from '../src/emulator';

const STANDARD = 3;
const CHEAP = 4;
let s: TestServer;
/** Start of the hour the tests run in, frozen on the emulator clock. */
let hour: number;

before(async () => {
  s = await startTestServer({ standardBudget: STANDARD, cheapBudget: CHEAP });
});
after(async () => {
  await s.close();
});

/** Freezes the clock at `ms` through the control route. */
async function setClock(ms: number): Promise<void> {
  const r = await s.api(null, 'PUT', '/_emulator/clock', { now: new Date(ms).toISOString(), frozen: true });
  assert.equal(r.status, 200);
}

/** A fresh window: the next hour plus ten minutes. */
async function freshWindow(): Promise<number> {
  const now = s.emu.clock.now();
  hour = Math.floor(now / HOUR) * HOUR + HOUR;
  await setClock(hour + 10 * 60_000);
  return hour;
}

function assertBudgetHeaders(r: ApiAnswer, bucket: string, limit: number, remaining: number, reset: number) {
  assert.equal(r.headers.get('x-ratelimit-bucket'), bucket);
  assert.equal(r.headers.get('x-ratelimit-limit'), String(limit));
  assert.equal(r.headers.get('x-ratelimit-remaining'), String(remaining));
  assert.equal(r.headers.get('x-ratelimit-reset'), String(reset / 1000));
}

async function mcpRaw(key: string, body: unknown, base = s.us): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const toolsCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

test('8: every authenticated response carries the four X-RateLimit headers; standard counts down', async () => {
  const h = await freshWindow();
  for (let i = 1; i <= STANDARD; i++) {
    const r = await s.api(i === 2 ? KEYS.member : KEYS.admin, 'GET', '/v3/members');
    assert.equal(r.status, 200);
    assertBudgetHeaders(r, 'standard', STANDARD, STANDARD - i, h + HOUR);
  }
});

test('8: over budget: 429 RATE_LIMIT_EXCEEDED with Retry-After, the four headers and retryAfterSeconds, for every key of the workspace', async () => {
  const h = hour;
  for (const key of [KEYS.admin, KEYS.workspace, KEYS.noperm]) {
    const r = await s.api(key, 'GET', '/v3/members/103');
    assert.equal(r.status, 429);
    assert.equal(r.body.error.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(r.body.error.retryAfterSeconds, 50 * 60);
    assert.equal(r.headers.get('retry-after'), String(50 * 60));
    assert.equal(r.body.error.requestId, r.headers.get('x-request-id'));
    assertBudgetHeaders(r, 'standard', STANDARD, 0, h + HOUR);
  }
});

test('8: every request until the window ends is refused the same way', async () => {
  await setClock(hour + HOUR - 1_000);
  const r = await s.api(KEYS.admin, 'GET', '/v3/groups');
  assert.equal(r.status, 429);
  assert.equal(r.body.error.retryAfterSeconds, 1);
  assert.equal(r.headers.get('retry-after'), '1');
});

test('8: the cheap budget is counted separately and still answers while standard is spent', async () => {
  const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(r.status, 200);
  assertBudgetHeaders(r, 'cheap', CHEAP, CHEAP - 1, hour + HOUR);
});

test('8: another workspace has its own budgets', async () => {
  const r = await s.api(KEYS.globexAdmin, 'GET', '/v3/members', undefined, {}, s.eu);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('x-ratelimit-remaining'), String(STANDARD - 1));
});

test('8: MCP over HTTP: the refusal is inside the JSON-RPC answer and the headers are sent', async () => {
  const r = await mcpRaw(KEYS.admin, toolsCall(7, 'get_member', { memberId: 103 }));
  assert.equal(r.status, 200);
  assert.equal(r.body.id, 7);
  assert.equal(r.body.result.isError, true);
  assert.equal(r.body.result.structuredContent.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(r.body.result.structuredContent.error.retryAfterSeconds, 1);
  assert.equal(r.headers.get('retry-after'), '1');
  assert.equal(r.headers.get('x-ratelimit-bucket'), 'standard');
  assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
  const rest = await s.api(KEYS.admin, 'GET', '/v3/members/103');
  assert.deepEqual(withoutRequestId(r.body.result.structuredContent), withoutRequestId(rest.body));
});

test('8: MCP tools/list is cheap and answers while standard is spent; a batch is one request', async () => {
  const one = await mcpRaw(KEYS.admin, toolsList(1));
  assert.equal(one.status, 200);
  assert.ok(Array.isArray(one.body.result.tools));
  assert.equal(one.headers.get('x-ratelimit-bucket'), 'cheap');
  // A batch of cheap messages costs one cheap request (whatever the SDK answers to a batch).
  const batch = await mcpRaw(KEYS.admin, [toolsList(2), { jsonrpc: '2.0', id: 3, method: 'ping' }]);
  assert.equal(batch.headers.get('x-ratelimit-bucket'), 'cheap');
  assert.equal(budgetSpent(one, batch), 1);
});

test('8: a batch with one standard message is charged standard, and refused inside for every message', async () => {
  const r = await mcpRaw(KEYS.admin, [toolsList(4), toolsCall(5, 'get_group', { groupId: 301 })]);
  assert.equal(r.headers.get('x-ratelimit-bucket'), 'standard');
  assert.ok(Array.isArray(r.body));
  const byId = new Map(r.body.map((m: { id: number }) => [m.id, m]));
  assert.equal((byId.get(5) as any).result.structuredContent.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal((byId.get(4) as any).error.data.error.code, 'RATE_LIMIT_EXCEEDED');
});

test('8: the cheap budget runs out on its own; standard is unaffected by it', async () => {
  // Cheap used so far this window: auth test (1), tools/list (1), batch (1).
  const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
  const over = await s.api(KEYS.member, 'GET', '/v3/auth/test');
  assert.equal(over.status, 429);
  assertBudgetHeaders(over, 'cheap', CHEAP, 0, hour + HOUR);
  const mcp = await mcpRaw(KEYS.admin, toolsList(9));
  assert.equal(mcp.body.error.data.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(mcp.headers.get('x-ratelimit-bucket'), 'cheap');
});

test('8: windows are fixed and start on the hour UTC: both budgets refill at the hour', async () => {
  await setClock(hour + HOUR - 1);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members')).status, 429);
  const adv = await s.api(null, 'POST', '/_emulator/clock/advance', { seconds: 0.001 });
  assert.equal(adv.status, 200);
  const r = await s.api(KEYS.admin, 'GET', '/v3/members');
  assert.equal(r.status, 200);
  assertBudgetHeaders(r, 'standard', STANDARD, STANDARD - 1, hour + 2 * HOUR);
  const c = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assertBudgetHeaders(c, 'cheap', CHEAP, CHEAP - 1, hour + 2 * HOUR);
  // Half an hour later it is still the same window.
  await s.api(null, 'POST', '/_emulator/clock/advance', { minutes: 30 });
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members')).headers.get('x-ratelimit-remaining'), String(STANDARD - 2));
});

test('8: MCP over HTTP through the SDK client shares the workspace budget with REST', async () => {
  await freshWindow();
  const c = await s.mcp(KEYS.member);
  const ok = await callTool(c, 'get_member', { memberId: 101 });
  assert.equal(ok.isError, false);
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members')).headers.get('x-ratelimit-remaining'), String(STANDARD - 2));
  await s.api(KEYS.admin, 'GET', '/v3/members');
  const refused = await callTool(c, 'get_member', { memberId: 101 });
  assert.equal(refused.isError, true);
  assert.equal(refused.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.match(refused.text, /^RATE_LIMIT_EXCEEDED: /);
});

test('8: invalid-key throttle: after 20 refusals in a minute, even a good key is 429 until the minute is up', async () => {
  await freshWindow();
  for (let i = 0; i < 20; i++) assert.equal((await s.api('no-such-key', 'GET', '/v3/auth/test')).status, 401);
  const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.equal(r.status, 429);
  assert.equal(r.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(r.headers.get('retry-after'), '60');
  assert.equal(r.body.error.retryAfterSeconds, 60);
  await s.api(null, 'POST', '/_emulator/clock/advance', { seconds: 60 });
  assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);
});

test('8: MCP over stdio charges each tool call to the workspace budget', async () => {
  const c = await mcpStdioClient(KEYS.admin, ['--standard-budget', '2']);
  try {
    assert.equal((await callTool(c, 'get_member', { memberId: 103 })).isError, false);
    assert.equal((await callTool(c, 'list_groups', {})).isError, false);
    const r = await callTool(c, 'get_member', { memberId: 103 });
    assert.equal(r.isError, true);
    assert.equal(r.body.error.code, 'RATE_LIMIT_EXCEEDED');
    assert.ok(r.body.error.retryAfterSeconds >= 1 && r.body.error.retryAfterSeconds <= 3600);
    assert.match(r.text, /^RATE_LIMIT_EXCEEDED: .* requestId: \S+$/);
    // tools/list is cheap: still answered.
    assert.ok((await c.listTools()).tools.length > 0);
  } finally {
    await c.close();
  }
});

test('8: counters survive a restart within the hour (file database), without a write per request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-budget-'));
  const db = join(dir, 'budget.sqlite');
  const clock = new Clock();
  clock.set(Math.floor(Date.now() / HOUR) * HOUR + 5 * 60_000, true);
  try {
    const a = await startTestServer({ db, clock, standardBudget: 5 });
    for (let i = 0; i < 3; i++) await a.api(KEYS.admin, 'GET', '/v3/members');
    const saved = a.emu.db.prepare("SELECT value FROM settings WHERE name = 'platform.rateBudgets'").get();
    assert.equal(saved, undefined, 'nothing written per request');
    await a.close();
    const b = await startTestServer({ db, clock, standardBudget: 5 });
    const r = await b.api(KEYS.admin, 'GET', '/v3/members');
    assert.equal(r.headers.get('x-ratelimit-remaining'), '1');
    await b.close();
    // The next hour starts from a full budget.
    clock.advance(HOUR);
    const c = await startTestServer({ db, clock, standardBudget: 5 });
    assert.equal((await c.api(KEYS.admin, 'GET', '/v3/members')).headers.get('x-ratelimit-remaining'), '4');
    await c.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('8: budgets of 0 or negative are refused with a clear message', () => {
  assert.throws(() => new Emulator({ standardBudget: 0 }), /standard budget must be a whole number of 1 or more/);
  assert.throws(() => new Emulator({ cheapBudget: -5 }), /cheap budget must be a whole number of 1 or more/);
  const cli = spawnSync(process.execPath, fromSource(['serve', '--standard-budget', '0', '--port-us', '0', '--port-eu', '0']), {
    cwd: ROOT,
    env: { ...process.env, WFE_CLI: '1' },
    encoding: 'utf8',
    timeout: PATIENCE_MS,
  });
  assert.notEqual(cli.status, 0);
  assert.match(cli.stderr, /--standard-budget must be a whole number of 1 or more/);
  const env = spawnSync(process.execPath, fromSource(['mcp']), {
    cwd: ROOT,
    env: { ...process.env, WFE_CLI: '1', WFE_CHEAP_BUDGET: '-1' },
    encoding: 'utf8',
    timeout: PATIENCE_MS,
    input: '',
  });
  assert.notEqual(env.status, 0);
  assert.match(env.stderr, /cheap-budget must be a whole number of 1 or more/);
});
