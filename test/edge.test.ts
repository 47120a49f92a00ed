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
  { method: 'GET', path: '/files/0123456789abcdef0123' },
  { method: 'GET', path: '/elsewhere' },
];

test('the edge: the socket and the in-process fetch answer the same status, headers and bytes', async () => {
  for (const r of REQUESTS) {
    const init = (): RequestInit => ({
      method: r.method,
      headers: { 'X-Request-Id': 'parity-1', ...(r.key ? { 'X-API-KEY': r.key } : {}), ...(r.type ? { 'Content-Type': r.type } : {}) },
      body: r.body,
    });
    const socket = await seen(await fetch(`${emu.urls.US}${r.path}`, init()));
    const inProcess = await seen(await emu.fetch(`${emu.urls.US}${r.path}`, init()));
    assert.deepEqual(inProcess, socket, `${r.method} ${r.path}`);
  }
});

/** A concrete path for a route pattern: each parameter a value of the demo fixture's kind. */
const concrete = (pattern: string) => pattern.replace(/:(\w+)/g, (_m, name: string) => (/id$/i.test(name) ? '1' : DEMO.onboarding));

/** The answer a request no route serves: the table's own 404 or 405. */
async function unrouted(method: string, path: string): Promise<string | undefined> {
  const res = await fetch(`${emu.urls.US}${path}`, {
    method,
    headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json' },
    body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
  });
  const text = await res.text();
  if (res.status === 404 && text.includes('No route matches')) return `${method} ${path}: 404 ${text}`;
  if (res.status === 405 && text.includes('METHOD_NOT_ALLOWED')) return `${method} ${path}: 405 ${text}`;
  return undefined;
}

test('the edge: every route of the one route table is served (v3, MCP, control, legacy)', async () => {
  const { emu: e, ext } = createEmulator({ log: () => {} });
  const table = buildRouteTable(e, ext);
  await e.close();
  const missing: string[] = [];
  let listed = 0;
  for (const route of table.routes) {
    // Prefix entries (legacy, console, the extensions' own control routes) are listed through their own tables below.
    if (route.method === '*' && route.family !== 'mcp') continue;
    listed++;
    const why = await unrouted(route.method === '*' ? 'POST' : route.method, concrete(route.path));
    if (why) missing.push(why);
  }
  for (const r of legacyRoutes) {
    listed++;
    const why = await unrouted(r.method, concrete(r.path));
    if (why) missing.push(why);
  }
  assert.ok(listed > 150, `${listed} routes listed`);
  assert.deepEqual(missing, []);
});

test('the edge: /_emulator/openapi.json documents every declared control route', async () => {
  const res = await fetch(`${emu.urls.US}/_emulator/openapi.json`);
  assert.equal(res.status, 200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
  assert.equal(doc.openapi, '3.1.0');
  const { emu: e, ext } = createEmulator({ log: () => {} });
  await e.close();
  const declared = ext.routes.filter((r) => r.family === 'control' && r.path !== '/_emulator/openapi.json');
  assert.ok(declared.length >= 9);
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
