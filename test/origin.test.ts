// Only the emulator's own pages and non-browser clients get in (EMULATOR.md "Safe on a
// shared desktop"; docs/security.md): a foreign Origin or Host is refused with 403 at the
// edge on every route family, in that family's shape, and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { digest } from './fuzz/digest';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { runCli } from './helpers/spine';
import { Clock } from '../src/clock';
import { startEmulator } from '../src/library';

const EVIL = 'http://evil.example';

/** A raw HTTP request, so Host can be anything (fetch sets it from the URL). */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: string, version10 = false): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; json: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, setHost: false, ...(version10 ? {} : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Everything a control route can change, read without an Origin. */
async function snapshot(s: TestServer) {
  const get = async (p: string) => (await s.api(null, 'GET', p)).body;
  return {
    // Every row of every table (the rate-budget counters saved on a timer left out: test/fuzz/digest.ts).
    db: digest(s.emu.db),
    clock: (({ now, frozen }) => ({ now, frozen }))(await get('/_emulator/clock')),
    faults: await get('/_emulator/faults'),
    sender: await get('/_emulator/webhooks/sender'),
    forward: await get('/_emulator/webhooks/forward'),
    upgrades: await get('/_emulator/upgrades'),
    failures: await get('/_emulator/upgrades/failures'),
  };
}

/** Every control route that writes, with a body a page could send as a "simple" request. */
const CONTROL_WRITES: [string, string, string][] = [
  ['POST', '/_emulator/reset', ''],
  ['PUT', '/_emulator/clock', '{"now":"2031-01-01T00:00:00Z"}'],
  ['POST', '/_emulator/clock/advance', '{"days":3}'],
  ['PUT', '/_emulator/my-work/default-view', '{"memberId":101,"viewKey":null}'],
  ['DELETE', '/_emulator/journal', ''],
  ['POST', '/_emulator/faults', '{"path":"/v3/**","status":500}'],
  ['DELETE', '/_emulator/faults', ''],
  ['POST', '/_emulator/import', 'SQLite format 3\0'],
  ['POST', '/_emulator/webhooks/pause', ''],
  ['POST', '/_emulator/webhooks/resume', ''],
  ['POST', '/_emulator/webhooks/forward', '{"url":"http://evil.example/hook"}'],
  ['DELETE', '/_emulator/webhooks/forward', ''],
  ['POST', '/_emulator/webhooks/deliveries/1/replay', ''],
  ['POST', '/_emulator/upgrades/pause', ''],
  ['POST', '/_emulator/upgrades/resume', ''],
  ['POST', '/_emulator/upgrades/run', ''],
  ['POST', '/_emulator/upgrades/failures', '{"checklistId":"30000000-0000-4000-8000-000000000001"}'],
  ['DELETE', '/_emulator/upgrades/failures', ''],
];

test('a cross-site "simple" request (text/plain, form) to every control route is refused 403 ORIGIN_NOT_ALLOWED and changes nothing (EMULATOR.md "Safe on a shared desktop")', async () => {
  const clock = new Clock();
  clock.set(Date.parse('2026-03-02T09:00:00Z'), true);
  const s = await startTestServer({ clock });
  try {
    await s.api(KEYS.admin, 'GET', '/v3/auth/test'); // a journal entry DELETE /_emulator/journal would remove
    const before = await snapshot(s);
    for (const [method, path, body] of CONTROL_WRITES) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await fetch(s.us + path, { method, headers: { Origin: EVIL, 'Content-Type': type }, body: body || undefined });
        const b = await res.json();
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(b.error.code, 'ORIGIN_NOT_ALLOWED', `${method} ${path}`);
        assert.match(b.error.message, /evil\.example.*--allow-origin/);
        assert.equal(b.error.requestId, res.headers.get('x-request-id'));
      }
    }
    assert.deepEqual(await snapshot(s), before, 'nothing changed');
    const journal = (await s.api(null, 'GET', '/_emulator/journal')).body;
    assert.ok(journal.items.length > 0, 'DELETE /_emulator/journal was refused');
  } finally {
    await s.close();
  }
});

test('a foreign Origin is refused on /v3 writes with the public fixture keys too (DNS rebinding; docs/security.md)', async () => {
  const s = await startTestServer();
  try {
    const res = await fetch(`${s.us}/v3/checklists`, {
      method: 'POST',
      headers: { Origin: EVIL, 'X-API-KEY': KEYS.admin, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ templateKey: DEMO.expense, name: 'from a web page', parameters: { Amount: '10.00' } }),
    });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.code, 'ORIGIN_NOT_ALLOWED');
    const list = await s.api(KEYS.admin, 'GET', '/v3/checklists?limit=100');
    assert.ok(!JSON.stringify(list.body).includes('from a web page'));
    for (const origin of ['null', 'https://127.0.0.1:' + new URL(s.us).port, 'http://127.0.0.1:1', `http://127.0.0.1.evil.example:${new URL(s.us).port}`]) {
      const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { Origin: origin });
      assert.equal(r.status, 403, origin);
      assert.equal(r.body.error.code, 'ORIGIN_NOT_ALLOWED', origin);
    }
  } finally {
    await s.close();
  }
});

test('/mcp with a foreign Origin is refused 403 with a JSON-RPC error body carrying the v3 refusal (MCP transports: servers validate Origin)', async () => {
  const s = await startTestServer();
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    const res = await fetch(`${s.us}/mcp`, {
      method: 'POST',
      headers: { Origin: EVIL, 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body,
    });
    assert.equal(res.status, 403);
    const b = await res.json();
    assert.equal(b.jsonrpc, '2.0');
    assert.equal(b.id, null);
    assert.match(b.error.message, /^ORIGIN_NOT_ALLOWED: /);
    assert.equal(b.error.data.error.code, 'ORIGIN_NOT_ALLOWED');
    // Without Origin (an agent), the same call answers as before.
    const c = await s.mcp(KEYS.admin);
    assert.ok((await c.listTools()).tools.length > 10);
  } finally {
    await s.close();
  }
});

test('a foreign Host is refused 403 HOST_NOT_ALLOWED on every route family, each in its own shape (DNS rebinding)', async () => {
  const s = await startTestServer();
  try {
    const port = new URL(s.us).port;
    const cases: [string, string, (j: any) => void][] = [
      ['GET', '/v3/auth/test', (j) => assert.equal(j.error.code, 'HOST_NOT_ALLOWED')],
      ['POST', '/mcp', (j) => (assert.equal(j.jsonrpc, '2.0'), assert.equal(j.error.data.error.code, 'HOST_NOT_ALLOWED'))],
      ['GET', '/api/v1/checklists', (j) => (assert.equal(typeof j.error, 'string'), assert.match(j.error, /Host header names .*rebind\.example/))],
      ['GET', '/_emulator/health', (j) => assert.equal(j.error.code, 'HOST_NOT_ALLOWED')],
      ['GET', '/app', (j) => assert.equal(j.error.code, 'HOST_NOT_ALLOWED')],
      ['GET', '/files/abc', (j) => assert.equal(j.error.code, 'HOST_NOT_ALLOWED')],
    ];
    for (const [method, path, check] of cases) {
      const r = await raw(s.us, method, path, { Host: `rebind.example:${port}`, 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json' }, method === 'POST' ? '{}' : undefined);
      assert.equal(r.status, 403, path);
      assert.match(String(r.headers['content-type']), /application\/json/);
      check(r.json);
      // The same request on an allowed name is answered by the route (not refused at the edge).
      const ok = await raw(s.us, method, path, { Host: `localhost:${port}`, 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json' }, method === 'POST' ? '{}' : undefined);
      assert.notEqual(ok.status, 403, `${path} on localhost`);
    }
  } finally {
    await s.close();
  }
});

test('requests without Origin, without Host (HTTP/1.0), and from the console\'s own origins answer as before', async () => {
  const s = await startTestServer();
  try {
    const port = new URL(s.us).port;
    const euPort = new URL(s.eu).port;
    // curl-style: no Origin, any Content-Type, on a control route.
    const plain = await fetch(`${s.us}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '{"seconds":1}' });
    assert.equal(plain.status, 200);
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      const r = await raw(s.us, 'GET', '/v3/auth/test', { Host: `${host}:${port}`, 'X-API-KEY': KEYS.admin });
      assert.equal(r.status, 200, host);
    }
    const noHost = await raw(s.us, 'GET', '/v3/auth/test', { 'X-API-KEY': KEYS.admin });
    assert.equal(noHost.status, 200, 'no Host header');
    // The console's pages: same origin, and the other region's address of the same emulator.
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${euPort}`]) {
      const r = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: `console ${origin}`, parameters: { Amount: '10.00' } }, { Origin: origin });
      assert.equal(r.status, 201, origin);
      const c = await fetch(`${s.us}/_emulator/clock`, { headers: { Origin: origin } });
      assert.equal(c.status, 200, origin);
    }
    const page = await fetch(`${s.us}/app`, { headers: { Origin: `http://127.0.0.1:${port}` } });
    assert.equal(page.status, 200);
  } finally {
    await s.close();
  }
});

test('--allow-origin and --allow-host open exactly what they name', async () => {
  const s = await startTestServer({ allowOrigins: ['http://localhost:5173'], allowHosts: ['devbox.test', '.lan.test'] });
  try {
    const port = new URL(s.us).port;
    const origin = async (o: string) => (await s.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { Origin: o })).status;
    assert.equal(await origin('http://localhost:5173'), 200);
    for (const o of ['http://localhost:5174', 'https://localhost:5173', 'http://127.0.0.1:5173', 'http://devbox.test:5173']) assert.equal(await origin(o), 403, o);
    // An allowed host's pages on the emulator's own port are the emulator's own.
    assert.equal(await origin(`http://devbox.test:${port}`), 200);
    assert.equal(await origin(`http://a.lan.test:${port}`), 200);
    const host = async (h: string) => (await raw(s.us, 'GET', '/v3/auth/test', { Host: h, 'X-API-KEY': KEYS.admin })).status;
    assert.equal(await host(`devbox.test:${port}`), 200);
    assert.equal(await host('devbox.test'), 200, 'the port is not compared');
    assert.equal(await host(`lan.test:${port}`), 200);
    assert.equal(await host(`x.y.lan.test:${port}`), 200);
    for (const h of ['devbox.test.evil.example', 'evil-devbox.test', 'xlan.test', 'other.test']) assert.equal(await host(h), 403, h);
  } finally {
    await s.close();
  }
  // Without the options, the same names are refused.
  const plain = await startTestServer();
  try {
    assert.equal((await raw(plain.us, 'GET', '/v3/auth/test', { Host: 'devbox.test', 'X-API-KEY': KEYS.admin })).status, 403);
    assert.equal((await plain.api(KEYS.admin, 'GET', '/v3/auth/test', undefined, { Origin: 'http://localhost:5173' })).status, 403);
  } finally {
    await plain.close();
  }
});

test("the library's in-process fetch counts as the emulator's own; a foreign Origin is refused there too", async () => {
  const emu = await startEmulator({ listen: false });
  try {
    const own = await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': KEYS.admin, Origin: 'http://us.wfe.internal' } });
    assert.equal(own.status, 200);
    const none = await emu.fetch('/_emulator/reset', { method: 'POST' });
    assert.equal(none.status, 200);
    const foreign = await emu.fetch('/_emulator/reset', { method: 'POST', headers: { Origin: EVIL } });
    assert.equal(foreign.status, 403);
    assert.equal((await foreign.json()).error.code, 'ORIGIN_NOT_ALLOWED');
  } finally {
    await emu.close();
  }
});

test('CLI: --allow-origin and --allow-host are parsed (flags and WFE_ALLOW_ORIGIN), bad values refused, and --host 0.0.0.0 says remote names need --allow-host', async () => {
  const bad = runCli(['serve', '--allow-origin', 'localhost:5173/path']);
  assert.notEqual((await bad.exited).code, 0);
  assert.match(bad.stderr(), /is not an origin/);
  const r = runCli(['serve', '--host', '0.0.0.0', '--port-us', '0', '--port-eu', '0', '--allow-host', 'devbox.test', '--admin-token', 't'], { WFE_ALLOW_ORIGIN: 'http://localhost:5173, http://localhost:4000' });
  try {
    const banner = await r.waitFor('Ctrl+C');
    await r.waitFor('--allow-host (docs/security.md)');
    const us = /US\s+REST (http:\/\/[^/\s]+)\/v3/.exec(banner)![1];
    const port = new URL(us).port;
    assert.equal((await raw(us, 'GET', '/v3/auth/test', { Host: `devbox.test:${port}`, 'X-API-KEY': KEYS.admin })).status, 200);
    assert.equal((await raw(us, 'GET', '/v3/auth/test', { Host: `192.0.2.1:${port}`, 'X-API-KEY': KEYS.admin })).status, 403);
    for (const o of ['http://localhost:5173', 'http://localhost:4000']) {
      assert.equal((await fetch(`${us}/v3/auth/test`, { headers: { Origin: o, 'X-API-KEY': KEYS.admin } })).status, 200, o);
    }
  } finally {
    r.child.kill('SIGTERM');
  }
  await r.exited;
});
