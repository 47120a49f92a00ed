// Isolated instances on demand (docs/instances.md): POST/GET/DELETE /_emulator/instances,
// each a whole emulator of its own in this process, on its own ports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { startTestServer, mcpHttpClient, KEYS, DEMO, type TestServer, type ApiAnswer } from './helpers/server';
import { startReceiver } from './helpers/webhooks';
import { startEmulator } from '../src/library';
import { Emulator } from '../src/emulator';
import { listen } from '../src/transports/http/server';
import { instancesOf } from '../src/instances/install';
import { parseDuration } from '../src/instances/settings';
import { runCli } from './helpers/spine';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let s: TestServer;
before(async () => {
  s = await startTestServer({ webhooks: { retryBaseMs: 20, pollMs: 10, maxAttempts: 1000 } });
});
after(() => s.close());

const JSON_HEADERS = { 'Content-Type': 'application/json' };

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const res = await fetch(base + path, { method, headers: body === undefined ? headers : { ...JSON_HEADERS, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

interface Made {
  id: string;
  us: string;
  eu: string;
  api(key: string | null, method: string, path: string, body?: unknown): Promise<ApiAnswer>;
}

async function create(server: TestServer = s, body?: unknown): Promise<Made> {
  const r = await call(server.us, 'POST', '/_emulator/instances', body);
  assert.equal(r.status, 201, r.text);
  const us = r.body.baseUrls.US as string;
  return {
    id: r.body.id,
    us,
    eu: r.body.baseUrls.EU,
    api: (key, method, path, b) => call(us, method, path, b, key === null ? {} : { 'X-API-KEY': key }),
  };
}

const remove = async (m: Made, server: TestServer = s) => assert.equal((await call(server.us, 'DELETE', `/_emulator/instances/${m.id}`)).status, 204);

const refused = (url: string) =>
  assert.rejects(fetch(url), (e: Error & { cause?: { code?: string } }) => {
    assert.equal(e.cause?.code, 'ECONNREFUSED', String(e.cause));
    return true;
  });

/** Listening sockets of this process (servers of earlier tests may still be closing: compare with <=). */
const listeningServers = async () => {
  await new Promise((r) => setTimeout(r, 50));
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
};

const completePath = `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}/complete`;
const taskPath = `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}`;

test('instances: POST answers 201 with id, baseUrls, mcpUrls and createdAt; the instance answers with the fixture\'s own keys and ids on both regions', async () => {
  const r = await call(s.us, 'POST', '/_emulator/instances');
  assert.equal(r.status, 201, r.text);
  for (const k of ['id', 'baseUrls', 'mcpUrls', 'createdAt']) assert.ok(k in r.body, k);
  assert.equal(r.headers.get('location'), `/_emulator/instances/${r.body.id}`);
  assert.notEqual(r.body.baseUrls.US, s.us);
  assert.notEqual(r.body.baseUrls.US, r.body.baseUrls.EU);
  assert.equal(r.body.mcpUrls.US, `${r.body.baseUrls.US}/mcp`);
  assert.equal(r.body.fixture, 'demo');
  const us = await call(r.body.baseUrls.US, 'GET', '/v3/auth/test', undefined, { 'X-API-KEY': KEYS.admin });
  assert.equal(us.status, 200, us.text);
  assert.equal(us.body.teamId, DEMO.acme);
  const eu = await call(r.body.baseUrls.EU, 'GET', '/v3/auth/test', undefined, { 'X-API-KEY': KEYS.globexAdmin });
  assert.equal(eu.status, 200, eu.text);
  assert.equal(eu.body.teamId, DEMO.globex);
  const list = await call(s.us, 'GET', '/_emulator/instances');
  assert.equal(list.status, 200);
  assert.ok(list.body.items.some((i: { id: string }) => i.id === r.body.id));
  assert.equal(list.body.maxInstances, 64);
  const one = await call(s.us, 'GET', `/_emulator/instances/${r.body.id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.baseUrls, r.body.baseUrls);
  // The TTL counts from the last request to the instance.
  assert.ok(Date.parse(one.body.lastRequestAt) > Date.parse(r.body.createdAt), JSON.stringify(one.body));
  assert.equal(Date.parse(one.body.expiresAt) - Date.parse(one.body.lastRequestAt), 30 * 60_000);
  // MCP at its own address.
  const mcp = await mcpHttpClient(r.body.mcpUrls.US, KEYS.admin);
  const member = await mcp.callTool({ name: 'get_member', arguments: { memberId: DEMO.members.mia } });
  await mcp.close();
  assert.ok(!member.isError, JSON.stringify(member));
  assert.match(JSON.stringify(member.content), /Mia/);
  // Its own control routes, at its own address; no instances of an instance.
  assert.equal((await call(r.body.baseUrls.US, 'GET', '/_emulator/health')).status, 200);
  assert.equal((await call(r.body.baseUrls.US, 'POST', '/_emulator/instances')).status, 404);
  assert.equal((await call(s.us, 'DELETE', `/_emulator/instances/${r.body.id}`)).status, 204);
});

test('instances: a write, a reset, a clock move, a fault rule, a webhook subscription and a spent budget in one are invisible to the others and to the main emulator', async () => {
  const a = await create(s, { budgets: { cheap: 3 } });
  const b = await create(s, { budgets: { cheap: 3 } });
  try {
    // A write.
    const done = await a.api(KEYS.admin, 'POST', completePath);
    assert.equal(done.status, 200, done.text);
    assert.equal((await a.api(KEYS.admin, 'GET', taskPath)).body.status, 'Complete');
    assert.notEqual((await b.api(KEYS.admin, 'GET', taskPath)).body.status, 'Complete');
    assert.notEqual((await s.api(KEYS.admin, 'GET', taskPath)).body.status, 'Complete');

    // A reset of b leaves a's write alone.
    assert.equal((await b.api(null, 'POST', '/_emulator/reset')).status, 200);
    assert.equal((await a.api(KEYS.admin, 'GET', taskPath)).body.status, 'Complete');

    // A clock move.
    const before = (await call(s.us, 'GET', '/_emulator/clock')).body.now;
    const moved = await a.api(null, 'POST', '/_emulator/clock/advance', { days: 30 });
    assert.equal(moved.status, 200, moved.text);
    const bClock = (await b.api(null, 'GET', '/_emulator/clock')).body.now;
    const mainClock = (await call(s.us, 'GET', '/_emulator/clock')).body.now;
    assert.ok(Date.parse(moved.body.now) - Date.parse(bClock) > 29 * 86_400_000, `${moved.body.now} vs ${bClock}`);
    assert.ok(Date.parse(mainClock) - Date.parse(before) < 86_400_000);

    // A fault rule.
    const rule = await a.api(null, 'POST', '/_emulator/faults', { path: '/v3/members', status: 503 });
    assert.equal(rule.status, 201, rule.text);
    assert.equal((await a.api(KEYS.admin, 'GET', '/v3/members')).status, 503);
    assert.equal((await b.api(KEYS.admin, 'GET', '/v3/members')).status, 200);
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/members')).status, 200);
    assert.deepEqual((await b.api(null, 'GET', '/_emulator/faults')).body.items, []);

    // A webhook subscription.
    const sub = await a.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: 'http://127.0.0.1:9/hook', scope: { type: 'Workspace' } });
    assert.equal(sub.status, 201, sub.text);
    const ids = (r: ApiAnswer) => (r.body.items ?? r.body).map((w: { id: string }) => w.id);
    assert.ok(ids(await a.api(KEYS.admin, 'GET', '/v3/webhooks')).includes(sub.body.id));
    assert.ok(!ids(await b.api(KEYS.admin, 'GET', '/v3/webhooks')).includes(sub.body.id));
    assert.ok(!ids(await s.api(KEYS.admin, 'GET', '/v3/webhooks')).includes(sub.body.id));

    // A spent budget (3 cheap requests an hour in both instances; GET /v3/auth/test is cheap).
    let last: ApiAnswer | undefined;
    for (let i = 0; i < 4; i++) last = await a.api(KEYS.admin, 'GET', '/v3/auth/test');
    assert.equal(last!.status, 429, last!.text);
    const bAuth = await b.api(KEYS.admin, 'GET', '/v3/auth/test');
    assert.equal(bAuth.status, 200, bAuth.text);
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 200);

    // Each journal holds only its own requests.
    const journal = (await b.api(null, 'GET', '/_emulator/journal?limit=1000')).body.items as { path: string }[];
    assert.ok(!journal.some((e) => e.path === completePath));
  } finally {
    await remove(a);
    await remove(b);
  }
});

test('instances: an instance from the prepared image answers as the fixture loaded fresh at the same instant does', async () => {
  const at = '2025-03-03T09:00:00Z';
  const main = await startTestServer();
  try {
    assert.equal((await main.api(null, 'PUT', '/_emulator/clock', { now: at, frozen: true })).status, 200);
    assert.equal((await main.api(null, 'POST', '/_emulator/reset')).status, 200);
    const first = await create(main, { clock: { now: at, frozen: true } });
    const second = await create(main, { clock: { now: at, frozen: true } });
    const clock = await first.api(null, 'GET', '/_emulator/clock');
    assert.deepEqual([clock.body.now, clock.body.frozen], ['2025-03-03T09:00:00.000Z', true]);
    const paths = ['/v3/checklists?pageSize=100', `/v3/tasks/${DEMO.renewInsurance}`, '/v3/my-work?assignee=all&status=all&pageSize=100', '/v3/templates'];
    for (const path of paths) {
      const want = (await main.api(KEYS.admin, 'GET', path)).text.replaceAll(main.us, 'BASE');
      for (const m of [first, second]) assert.equal((await m.api(KEYS.admin, 'GET', path)).text.replaceAll(m.us, 'BASE'), want, path);
    }
    const none = await create(main, { fixture: 'none' });
    assert.equal((await none.api(KEYS.admin, 'GET', '/v3/auth/test')).status, 401);
  } finally {
    await main.close();
  }
});

test('instances: DELETE answers 204 and stops it: the ports refuse connections, its webhook deliveries stop, a second DELETE is 404', async () => {
  const rx = await startReceiver();
  rx.fallback = { status: 500 };
  const m = await create();
  try {
    const sub = await m.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: rx.url, scope: { type: 'Workspace' } });
    assert.equal(sub.status, 201, sub.text);
    assert.equal((await m.api(KEYS.admin, 'POST', completePath)).status, 200);
    // Refused by the receiver, retried every 20 ms and more (the server's webhook settings).
    await rx.waitFor(2);
    await remove(m);
    const sent = rx.received.length;
    await refused(`${m.us}/v3/auth/test`);
    await refused(`${m.eu}/v3/auth/test`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.length, sent, 'no delivery after DELETE');
    const again = await call(s.us, 'DELETE', `/_emulator/instances/${m.id}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'INSTANCE_NOT_FOUND');
    assert.ok(!(await call(s.us, 'GET', '/_emulator/instances')).body.items.some((i: { id: string }) => i.id === m.id));
  } finally {
    await rx.close();
  }
});

test('instances: an instance idle for the TTL is reaped (--instance-ttl), its ports closed', async () => {
  const short = await startTestServer({ instances: { ttlMs: 300 } });
  try {
    const m = await create(short);
    const d = (await call(short.us, 'GET', `/_emulator/instances/${m.id}`)).body;
    assert.equal(Date.parse(d.expiresAt) - Date.parse(d.lastRequestAt), 300);
    assert.equal((await call(short.us, 'GET', '/_emulator/instances')).body.ttlSeconds, 0.3);
    for (let i = 0; i < 200 && (await call(short.us, 'GET', '/_emulator/instances')).body.items.length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual((await call(short.us, 'GET', '/_emulator/instances')).body.items, []);
    await refused(`${m.us}/v3/auth/test`);
    assert.equal((await call(short.us, 'GET', `/_emulator/instances/${m.id}`)).status, 404);
  } finally {
    await short.close();
  }
});

test('instances: beyond --max-instances a create is refused with 503 and Retry-After; a DELETE makes room', async () => {
  const capped = await startTestServer({ instances: { max: 2 } });
  try {
    const a = await create(capped);
    await create(capped);
    const r = await call(capped.us, 'POST', '/_emulator/instances');
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.error.code, 'TOO_MANY_INSTANCES');
    const retry = Number(r.headers.get('retry-after'));
    assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 1800, String(retry));
    assert.equal(r.body.error.retryAfterSeconds, retry);
    await remove(a, capped);
    await create(capped);
  } finally {
    await capped.close();
  }
});

test('instances: 50 run at once, each on its own ports with its own data', async () => {
  const made = await Promise.all(Array.from({ length: 50 }, () => create()));
  try {
    const ports = new Set(made.flatMap((m) => [m.us, m.eu]));
    assert.equal(ports.size, 100);
    assert.equal((await call(s.us, 'GET', '/_emulator/instances')).body.items.length, 50);
    // Each completes the same task in its own database: every one succeeds (none sees another's write).
    const answers = await Promise.all(made.map((m) => m.api(KEYS.admin, 'POST', completePath)));
    for (const a of answers) assert.equal(a.status, 200, a.text);
  } finally {
    await Promise.all(made.map((m) => remove(m)));
  }
  assert.equal((await call(s.us, 'GET', '/_emulator/instances')).body.items.length, 0);
});

test('instances: bad input is refused with 400 and field; an unknown id is 404; other methods 405', async () => {
  const cases: [unknown, string][] = [
    [{ fixture: 'nope' }, 'fixture'],
    [{ fixture: '/etc/passwd' }, 'fixture'],
    [{ fixture: './fixtures/demo' }, 'fixture'],
    [{ fixture: 7 }, 'fixture'],
    [{ clock: { now: '1969-12-31T23:59:59Z' } }, 'clock.now'],
    [{ clock: { now: '2025-02-30T09:00:00Z' } }, 'clock.now'],
    [{ clock: { now: 'tomorrow' } }, 'clock.now'],
    [{ clock: { frozen: 'yes' } }, 'clock.frozen'],
    [{ clock: { now: '2025-01-01T00:00:00Z', tz: 'UTC' } }, 'clock.tz'],
    [{ budgets: { standard: 0 } }, 'budgets.standard'],
    [{ budgets: { cheap: 1.5 } }, 'budgets.cheap'],
    [{ name: 'x' }, 'name'],
  ];
  const before = (await call(s.us, 'GET', '/_emulator/instances')).body.items.length;
  for (const [body, field] of cases) {
    const r = await call(s.us, 'POST', '/_emulator/instances', body);
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.field, field, JSON.stringify(body));
  }
  for (const raw of ['[]', '"demo"', '{']) {
    const r = await fetch(`${s.us}/_emulator/instances`, { method: 'POST', headers: JSON_HEADERS, body: raw });
    assert.equal(r.status, 400, raw);
  }
  // The same range as /_emulator/clock.
  const clock = await call(s.us, 'PUT', '/_emulator/clock', { now: '1969-12-31T23:59:59Z' });
  assert.equal(clock.status, 400);
  assert.equal((await call(s.us, 'GET', '/_emulator/instances')).body.items.length, before, 'nothing half-created');
  for (const method of ['GET', 'DELETE']) {
    const r = await call(s.us, method, '/_emulator/instances/no-such-instance');
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'INSTANCE_NOT_FOUND');
  }
  // As the other control routes: JSON under any Content-Type (curl -d sends form-encoded).
  const form = await fetch(`${s.us}/_emulator/instances`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '{"fixture":"none"}' });
  const made = (await form.json()) as { id: string; fixture: string };
  assert.equal(form.status, 201);
  assert.equal(made.fixture, 'none');
  assert.equal((await call(s.us, 'DELETE', `/_emulator/instances/${made.id}`)).status, 204);
  const put = await call(s.us, 'PUT', '/_emulator/instances');
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, POST');
});

test('instances: the admin token guards the routes and the instances\' own control routes; --no-admin hides them', async () => {
  const guarded = await startTestServer({ adminToken: 'sesame' });
  const hidden = await startTestServer({ noAdmin: true });
  try {
    const no = await call(guarded.us, 'POST', '/_emulator/instances');
    assert.equal(no.status, 401);
    assert.equal(no.body.error.code, 'MISSING_ADMIN_TOKEN');
    assert.equal((await call(guarded.us, 'GET', '/_emulator/instances', undefined, { Authorization: 'Bearer wrong' })).status, 401);
    const ok = await call(guarded.us, 'POST', '/_emulator/instances', undefined, { Authorization: 'Bearer sesame' });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await call(ok.body.baseUrls.US, 'POST', '/_emulator/reset')).status, 401);
    assert.equal((await call(ok.body.baseUrls.US, 'POST', '/_emulator/reset', undefined, { Authorization: 'Bearer sesame' })).status, 200);
    assert.equal((await call(guarded.us, 'DELETE', `/_emulator/instances/${ok.body.id}`)).status, 401);
    assert.equal((await call(guarded.us, 'DELETE', `/_emulator/instances/${ok.body.id}`, undefined, { Authorization: 'Bearer sesame' })).status, 204);
    assert.equal((await call(hidden.us, 'POST', '/_emulator/instances')).status, 404);
  } finally {
    await guarded.close();
    await hidden.close();
  }
});

test('instances: a failed create frees its ports (nothing half-created)', async () => {
  // 192.0.2.1 (TEST-NET-1) is no address of this machine: the instance cannot listen.
  const unbindable = await startTestServer({ instances: { host: '192.0.2.1' } });
  try {
    const servers = await listeningServers();
    const r = await call(unbindable.us, 'POST', '/_emulator/instances');
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.error.code, 'INSTANCE_START_FAILED');
    assert.ok((await listeningServers()) <= servers);
    assert.deepEqual((await call(unbindable.us, 'GET', '/_emulator/instances')).body.items, []);
  } finally {
    await unbindable.close();
  }
  // One region listening, the other's port taken: the first is closed again.
  const taken: Server = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  const emu = new Emulator({ log: () => {} });
  try {
    const servers = await listeningServers();
    await assert.rejects(listen(emu, { portUs: 0, portEu: (taken.address() as { port: number }).port }), /EADDRINUSE/);
    assert.ok((await listeningServers()) <= servers);
  } finally {
    await emu.close();
    await new Promise((r) => taken.close(r));
  }
});

test('instances: the emulator closing stops every instance', async () => {
  const owner = await startTestServer();
  const m = await create(owner);
  await owner.close();
  await refused(`${m.us}/v3/auth/test`);
});

test('instances: the library: emulator.instances.create gives the same description and an in-process fetch; delete stops it', async () => {
  await using emu = await startEmulator({ instances: { max: 3 } });
  const inst = await emu.instances.create({ clock: { now: new Date('2025-06-02T09:00:00Z'), frozen: true }, budgets: { standard: 50 } });
  for (const k of ['id', 'baseUrls', 'mcpUrls', 'createdAt']) assert.ok(k in inst, k);
  assert.deepEqual(emu.instances.list().map((i) => i.id), [inst.id]);
  const done = await inst.fetch(completePath, { method: 'POST', headers: { 'X-API-KEY': KEYS.admin } });
  assert.equal(done.status, 200);
  assert.equal(((await (await inst.fetch(taskPath, { headers: { 'X-API-KEY': KEYS.admin } })).json()) as { status: string }).status, 'Complete');
  assert.notEqual(((await (await emu.fetch(taskPath, { headers: { 'X-API-KEY': KEYS.admin } })).json()) as { status: string }).status, 'Complete');
  const eu = await inst.fetch(`${inst.baseUrls.EU}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.globexAdmin } });
  assert.equal(eu.status, 200);
  assert.equal(((await (await inst.fetch('/_emulator/clock')).json()) as { now: string }).now, '2025-06-02T09:00:00.000Z');
  // Its ports answer too.
  assert.equal((await fetch(`${inst.baseUrls.US}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.admin } })).status, 200);
  await assert.rejects(emu.instances.create({ fixture: '../etc' }), (e: Error & { status?: number; extras?: { field?: string } }) => e.status === 400 && e.extras?.field === 'fixture');
  await inst.delete();
  await inst.delete();
  assert.deepEqual(emu.instances.list(), []);
  assert.equal(await emu.instances.delete(inst.id), false);
  await refused(`${inst.baseUrls.US}/v3/auth/test`);
  await assert.rejects(inst.fetch('/v3/auth/test'));
  // listen: false: instances answer only in process.
  await using quiet = await startEmulator({ listen: false });
  const q = await quiet.instances.create();
  assert.match(q.baseUrls.US, /^http:\/\/us\..+\.wfe\.internal$/);
  assert.equal((await q.fetch('/v3/auth/test', { headers: { 'X-API-KEY': KEYS.admin } })).status, 200);
  assert.equal((await q.fetch(`${q.baseUrls.EU}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.globexAdmin } })).status, 200);
});

test('instances: after DELETE nothing refers to the instance: its Emulator is garbage collected', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const manager = instancesOf(s.emu)!;
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const m = await create();
    // A request on each path a test takes: REST, a control route, the MCP endpoint.
    assert.equal((await m.api(KEYS.admin, 'POST', completePath)).status, 200);
    assert.equal((await m.api(null, 'GET', '/_emulator/journal')).status, 200);
    registry.register(manager.get(m.id).emu, m.id);
    ids.push(m.id);
  }
  for (const id of ids) assert.equal((await call(s.us, 'DELETE', `/_emulator/instances/${id}`, undefined, { Connection: 'close' })).status, 204);
  for (let i = 0; i < 50 && collected < ids.length; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(collected, ids.length);
});

test('instances: wfe serve --instance-ttl and --max-instances (and WFE_INSTANCE_TTL, WFE_MAX_INSTANCES); bad values refused', async () => {
  assert.deepEqual(['90', '500ms', '90s', '30m', '2h', '1.5s'].map(parseDuration), [90_000, 500, 90_000, 1_800_000, 7_200_000, 1500]);
  for (const bad of ['0', '-1', 'abc', '1d', '', '0ms']) assert.equal(parseDuration(bad), undefined, bad);
  const cli = runCli(['serve', '--port-us', '0', '--port-eu', '0', '--max-instances', '1'], { WFE_INSTANCE_TTL: '45m' });
  try {
    const us = /US\s+REST (http:\/\/\S+)\/v3/.exec(await cli.waitFor('Ctrl+C'))![1];
    const list = await call(us, 'GET', '/_emulator/instances');
    assert.deepEqual([list.body.ttlSeconds, list.body.maxInstances], [2700, 1]);
    assert.equal((await call(us, 'POST', '/_emulator/instances')).status, 201);
    assert.equal((await call(us, 'POST', '/_emulator/instances')).status, 503);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
  for (const [args, env, message] of [
    [['serve', '--instance-ttl', '0'], {}, /--instance-ttl/],
    [['serve', '--instance-ttl', 'soon'], {}, /a duration is a number of seconds/],
    [['serve', '--max-instances', '0'], {}, /--max-instances must be a whole number of 1 or more/],
    [['serve'], { WFE_MAX_INSTANCES: 'many' }, /WFE_MAX_INSTANCES/],
  ] as [string[], Record<string, string>, RegExp][]) {
    const r = runCli(args, env);
    assert.notEqual((await r.exited).code, 0, args.join(' '));
    assert.match(r.stderr(), message, args.join(' '));
    assert.equal(r.stdout(), '', 'nothing served');
  }
});

test('instances: the origin rules apply to every instance (docs/security.md): a foreign Origin or Host is refused 403 on its addresses, --allow-origin opens it there too', async () => {
  const m = await create();
  try {
    const foreign = await call(m.us, 'GET', '/v3/auth/test', undefined, { 'X-API-KEY': KEYS.admin, Origin: 'https://evil.example' });
    assert.equal(foreign.status, 403, foreign.text);
    assert.equal(foreign.body.error.code, 'ORIGIN_NOT_ALLOWED');
    const reset = await call(m.us, 'POST', '/_emulator/reset', undefined, { Origin: 'https://evil.example', 'Content-Type': 'text/plain' });
    assert.equal(reset.status, 403, reset.text);
    const host = await fetch(m.us.replace('127.0.0.1', 'localhost') + '/v3/auth/test', { headers: { 'X-API-KEY': KEYS.admin } });
    assert.equal(host.status, 200);
    const plain = await call(m.us, 'GET', '/v3/auth/test', undefined, { 'X-API-KEY': KEYS.admin });
    assert.equal(plain.status, 200, plain.text);
  } finally {
    await remove(m);
  }
  const open = await startTestServer({ allowOrigins: ['https://app.example'] });
  try {
    const m2 = await create(open);
    try {
      const allowed = await call(m2.us, 'GET', '/v3/auth/test', undefined, { 'X-API-KEY': KEYS.admin, Origin: 'https://app.example' });
      assert.equal(allowed.status, 200, allowed.text);
      const other = await call(m2.us, 'GET', '/v3/auth/test', undefined, { 'X-API-KEY': KEYS.admin, Origin: 'https://other.example' });
      assert.equal(other.status, 403, other.text);
    } finally {
      await remove(m2, open);
    }
  } finally {
    await open.close();
  }
});
