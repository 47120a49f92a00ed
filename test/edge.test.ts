// The one HTTP edge (docs/architecture.md "The edge"): the same requests over the socket
// and through the library's in-process fetch answer the same status, headers and bytes;
// every route of the one route table is served; the control API has its own OpenAPI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type EmbeddedEmulator } from '../src/library';
import { createEmulator } from '../src/start';
import { buildRouteTable } from '../src/transports/http/app';
import { legacyRoutes } from '../src/legacy/routes';
import { KEYS, DEMO } from './helpers/server';

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startEmulator({ clock: { start: '2030-01-02T03:04:05Z', frozen: true } });
});
after(async () => {
  await emu.close();
});

/** Headers that differ by nature between two calls or two connections. */
const BY_NATURE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

async function seen(res: Response) {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!BY_NATURE.has(k)) headers[k] = v;
  });
  return { status: res.status, headers, bytes: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

const REQUESTS: { method: string; path: string; key?: string; body?: string; type?: string }[] = [
  { method: 'GET', path: '/v3/templates', key: KEYS.member },
  { method: 'GET', path: `/v3/templates/${DEMO.onboarding}`, key: KEYS.member },
  { method: 'GET', path: '/v3/templates/not-a-guid', key: KEYS.member },
  { method: 'GET', path: '/v3/members?pageSize=2', key: KEYS.admin },
  { method: 'GET', path: '/v3/templates', key: 'nobody' },
  { method: 'GET', path: '/v3/templates' },
  { method: 'PUT', path: '/v3/templates', key: KEYS.member },
  { method: 'GET', path: '/v3/no-such-thing', key: KEYS.member },
  { method: 'POST', path: `/v3/templates/${DEMO.onboarding}/checklists`, key: KEYS.member, body: '{not json', type: 'application/json' },
  { method: 'GET', path: '/v3/openapi.json' },
  { method: 'POST', path: '/v3/openapi.json' },
  { method: 'GET', path: '/mcp', key: KEYS.member },
  { method: 'GET', path: '/_emulator/clock' },
  { method: 'DELETE', path: '/_emulator/clock' },
  { method: 'GET', path: '/_emulator/nothing-here' },
  { method: 'GET', path: '/_emulator/openapi.json' },
  { method: 'GET', path: '/api/web-hook/subscriptions', key: KEYS.admin },
  { method: 'PUT', path: '/api/web-hook/subscribe', key: KEYS.admin },
  { method: 'GET', path: '/api/WEB-HOOK/Subscriptions', key: KEYS.admin },
  { method: 'GET', path: '/api/no-such-route', key: KEYS.admin },
  { method: 'GET', path: '/files/0123456789abcdef0123' },
  { method: 'POST', path: '/files/0123456789abcdef0123' },
  { method: 'GET', path: '/_emulator/faults' },
  { method: 'PUT', path: '/_emulator/faults/fault-9' },
  { method: 'GET', path: '/_emulator/keys/not-an-id' },
  { method: 'GET', path: '/_emulator/webhooks/sender' },
  { method: 'PUT', path: '/_emulator/webhooks/sender' },
  { method: 'GET', path: '/_emulator/upgrades' },
  { method: 'GET', path: '/_emulator/console/keys' },
  { method: 'GET', path: '/.well-known/oauth-protected-resource' },
  { method: 'POST', path: '/oauth/token', body: 'grant_type=password', type: 'application/x-www-form-urlencoded' },
  { method: 'GET', path: '/oauth/token' },
  { method: 'GET', path: '/app/_/app.000000000000.css' },
  { method: 'PUT', path: '/app/checklists' },
  { method: 'POST', path: '/app/_/feeds' },
  { method: 'GET', path: '/app/_/feeds' },
  { method: 'GET', path: '/app/_/v3/templates', key: KEYS.member },
  { method: 'GET', path: '/app/_/nothing-here' },
  { method: 'GET', path: '/elsewhere' },
];

test('the edge: the socket and the in-process fetch answer the same status, headers and bytes', async () => {
  for (const r of REQUESTS) {
    const init = (): RequestInit => ({
      method: r.method,
      // Both ask for identity: fetch over a socket offers gzip by itself, and decodes it (docs/console.md, compression).
      headers: { 'X-Request-Id': 'parity-1', 'Accept-Encoding': 'identity', ...(r.key ? { 'X-API-KEY': r.key } : {}), ...(r.type ? { 'Content-Type': r.type } : {}) },
      body: r.body,
    });
    const socket = await seen(await fetch(`${emu.urls.US}${r.path}`, init()));
    const inProcess = await seen(await emu.fetch(`${emu.urls.US}${r.path}`, init()));
    assert.deepEqual(inProcess, socket, `${r.method} ${r.path}`);
  }
});

/** A concrete path for a route pattern: each parameter a value of the demo fixture's kind. */
const concrete = (pattern: string) =>
  pattern
    .replace(/\*$/, 'x')
    .replace(/:(\w+)/g, (_m, name: string) => (name === 'token' ? '0123456789abcdef0123' : name === 'hash' ? '0123456789ab' : name === 'ext' ? 'js' : /id$/i.test(name) ? '1' : DEMO.onboarding));

/** The table's own 404 or 405 (the v3 envelope, or the legacy and console shapes of 405), or undefined when a route served the request. */
async function unrouted(base: string, method: string, path: string, cookie: string): Promise<string | undefined> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json', Cookie: cookie },
    body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
  });
  // A change feed never ends: its status and type say it was served.
  const text = (res.headers.get('content-type') ?? '').startsWith('text/event-stream') ? (await res.body?.cancel(), '') : await res.text();
  if (res.status === 404 && text.includes('No route matches')) return `${method} ${path}: 404 ${text}`;
  if (res.status === 405) return `${method} ${path}: 405 ${text}`;
  return undefined;
}

test('the edge: every route of the one route table is served (v3, MCP, control, legacy, console, files)', async () => {
  const { emu: e, ext } = createEmulator({ log: () => {} });
  const table = buildRouteTable(e, ext);
  await e.close();
  // An emulator of its own: the control routes below reset, revoke and pause.
  const own = await startEmulator({ clock: { start: '2030-01-02T03:04:05Z', frozen: true } });
  const base = own.urls.US;
  // The console's routes need the session cookie its pages set.
  const page = await fetch(`${base}/app`);
  await page.text();
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  assert.match(cookie, /^wfe_console=/);
  const missing: string[] = [];
  const families = new Map<string, number>();
  // The control routes last: they reset, revoke and pause what the others use.
  for (const route of [...table.routes.filter((r) => r.family !== 'control'), ...table.routes.filter((r) => r.family === 'control')]) {
    // The catch-alls that answer every method (the console API's session check and its 404/405) are met through the routes after them.
    if (route.method === '*' && route.family !== 'mcp') continue;
    families.set(route.family, (families.get(route.family) ?? 0) + 1);
    const why = await unrouted(base, route.method === '*' ? 'POST' : route.method, concrete(route.path), cookie);
    if (why) missing.push(why);
  }
  await own.close();
  assert.deepEqual(missing, []);
  // Every family is in the one table, each with its routes.
  assert.deepEqual([...families.keys()].sort(), ['console', 'console-api', 'control', 'files', 'legacy', 'mcp', 'oauth', 'v3']);
  assert.equal(families.get('legacy'), legacyRoutes.length);
  assert.equal(families.get('console-api'), e.ops.length);
  assert.ok((families.get('control') ?? 0) > 40, `${families.get('control')} control routes`);
});

test('the edge: /_emulator/openapi.json documents every declared control route', async () => {
  const res = await fetch(`${emu.urls.US}/_emulator/openapi.json`);
  assert.equal(res.status, 200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
  assert.equal(doc.openapi, '3.1.0');
  const { emu: e, ext } = createEmulator({ log: () => {} });
  await e.close();
  const declared = ext.routes.filter((r) => r.family === 'control' && r.path !== '/_emulator/openapi.json');
  // Every control route: the core's, instances', webhooks', upgrades', faults', keys' and the console's key list.
  for (const path of ['/_emulator/clock', '/_emulator/instances', '/_emulator/webhooks/deliveries', '/_emulator/upgrades', '/_emulator/faults', '/_emulator/keys/:id', '/_emulator/console/keys']) {
    assert.ok(declared.some((r) => r.path === path), `${path} is declared`);
  }
  for (const r of declared) {
    const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
    assert.ok(op, `${r.method} ${r.path} is documented`);
    assert.ok(op.responses['401'], `${r.method} ${r.path} documents the admin gate`);
  }
});

test('the edge: control routes take JSON whatever the Content-Type says (curl -d sends a form type)', async () => {
  const res = await fetch(`${emu.urls.US}/_emulator/clock/advance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '{"minutes": 1}',
  });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { now: string }).now, '2030-01-02T03:05:05.000Z');
});
