// The library API (issue 16 item 1): an emulator inside the test process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../src/library';

const ADMIN = { 'X-API-KEY': 'acme-admin-key' };
const EXPENSE = '20000000-0000-4000-8000-000000000002';
const JANE = '30000000-0000-4000-8000-000000000001';

test('16.1 library: two emulators in one process are independent (own ports, own data)', async () => {
  const a = await startEmulator();
  const b = await startEmulator();
  try {
    assert.notEqual(a.urls.US, b.urls.US);
    assert.match(a.urls.US, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(a.mcpUrls.EU, `${a.urls.EU}/mcp`);
    const created = await a.fetch('/v3/checklists', { method: 'POST', headers: { ...ADMIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ templateKey: EXPENSE, name: 'Only in A' }) });
    assert.equal(created.status, 201, await created.clone().text());
    const key = (await created.json()).key;
    assert.equal((await fetch(`${a.urls.US}/v3/checklists/${key}`, { headers: ADMIN })).status, 200);
    assert.equal((await fetch(`${b.urls.US}/v3/checklists/${key}`, { headers: ADMIN })).status, 404);
  } finally {
    await a.close();
    await b.close();
  }
});

test('16.1 library: in-process fetch answers without a socket, relative paths go to US, the EU host to EU', async () => {
  const emu = await startEmulator({ listen: false });
  try {
    assert.equal(emu.urls.US, 'http://us.wfe.internal');
    const us = await emu.fetch('/v3/auth/test', { headers: ADMIN });
    assert.equal(us.status, 200);
    assert.equal((await us.json()).teamName, 'Acme Corp');
    const wrong = await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'globex-admin-key' } });
    assert.equal(wrong.status, 421);
    assert.equal((await wrong.json()).error.url, 'http://eu.wfe.internal/v3/auth/test');
    const eu = await emu.fetch(new Request(`${emu.urls.EU}/v3/auth/test`, { headers: { 'X-API-KEY': 'globex-admin-key' } }));
    assert.equal(eu.status, 200);
    assert.equal(emu.journal(2)[0].region, 'EU');
  } finally {
    await emu.close();
  }
});

test('16.1 library: keys lists the fixture keys with their state', async () => {
  await using emu = await startEmulator({ listen: false });
  const byKey = new Map(emu.keys.map((k) => [k.key, k]));
  assert.equal(byKey.get('acme-admin-key')?.state, 'active');
  assert.equal(byKey.get('acme-revoked-key')?.state, 'revoked');
  assert.equal(byKey.get('acme-expired-key')?.state, 'expired');
  assert.equal(byKey.get('acme-unavailable-key')?.state, 'unavailable');
  assert.equal(byKey.get('globex-admin-key')?.region, 'EU');
});

test('16.1 library: reset wipes changes and reloads the fixture', async () => {
  await using emu = await startEmulator();
  const r = await emu.fetch(`/v3/checklists/${JANE}`, { method: 'DELETE', headers: ADMIN });
  assert.equal(r.status, 204, await r.text());
  assert.equal((await emu.fetch(`/v3/checklists/${JANE}`, { headers: ADMIN })).status, 404);
  emu.faults.add({ path: '/v3/**', status: 503, times: 5 });
  await emu.reset();
  assert.equal(emu.faults.list().length, 0, 'reset clears fault rules');
  assert.equal((await emu.fetch(`/v3/checklists/${JANE}`, { headers: ADMIN })).status, 200);
});

test('16.1 library: the clock starts where asked, freezes, advances and is what the API sees', async () => {
  await using emu = await startEmulator({ listen: false, clock: { start: '2030-05-01T09:00:00Z', frozen: true } });
  assert.equal(emu.clock.now().toISOString(), '2030-05-01T09:00:00.000Z');
  assert.equal(emu.clock.frozen, true);
  assert.equal(emu.clock.advance({ days: 2, hours: 1 }).toISOString(), '2030-05-03T10:00:00.000Z');
  const health = await (await emu.fetch('/_emulator/health')).json();
  assert.equal(health.now, '2030-05-03T10:00:00.000Z');
  emu.clock.set('2031-01-01T00:00:00Z');
  assert.equal(emu.clock.now().toISOString(), '2031-01-01T00:00:00.000Z');
  emu.clock.unfreeze();
  assert.equal(emu.clock.frozen, false);
  emu.clock.freeze();
  assert.equal(emu.clock.frozen, true);
  assert.throws(() => emu.clock.advance(-1), /0 or more/);
  // Relative fixture dates follow the clock: the demo's Jane Doe checklist started 3 days before the start.
  const jane = await (await emu.fetch('/v3/checklists/30000000-0000-4000-8000-000000000001', { headers: ADMIN })).json();
  assert.equal(jane.createdDateTime.slice(0, 10), '2030-04-28');
});

test('16.1 library: await using closes the emulator at the end of the block', async () => {
  let url: string;
  {
    await using emu = await startEmulator();
    url = emu.urls.US;
    assert.equal((await fetch(`${url}/_emulator/health`)).status, 200);
  }
  await assert.rejects(fetch(`${url}/_emulator/health`), /fetch failed/);
});

test('16.1 library: options are used: budgets, fixture none, closed emulators refuse fetch', async () => {
  const emu = await startEmulator({ listen: false, budgets: { standard: 2 }, fixture: 'none' });
  assert.deepEqual(emu.keys, []);
  const r = await emu.fetch('/v3/auth/test', { headers: ADMIN });
  assert.equal(r.status, 401);
  await emu.close();
  await emu.close();
  await assert.rejects(emu.fetch('/v3/auth/test'), /closed/);
  const small = await startEmulator({ listen: false, budgets: { standard: 1 } });
  try {
    assert.equal((await small.fetch('/v3/members', { headers: ADMIN })).status, 200);
    const over = await small.fetch('/v3/members', { headers: ADMIN });
    assert.equal(over.status, 429);
  } finally {
    await small.close();
  }
});

test('16.4 library: faults through the library; a drop rejects the in-process fetch like a closed connection', async () => {
  await using emu = await startEmulator({ listen: false });
  const rule = emu.faults.add({ path: `/v3/checklists/${JANE}`, method: 'DELETE', drop: true, times: 1 });
  await assert.rejects(emu.fetch(`/v3/checklists/${JANE}`, { method: 'DELETE', headers: ADMIN }), (e: Error) => e instanceof TypeError && /fetch failed/.test(e.message));
  assert.equal((await emu.fetch(`/v3/checklists/${JANE}`, { headers: ADMIN })).status, 200, 'nothing deleted');
  assert.equal(emu.journal(5).find((e) => e.method === 'DELETE')?.fault?.rule, rule.id);
  emu.faults.add({ tool: 'get_member', status: 503 });
  assert.equal(emu.faults.list().length, 1);
  assert.throws(() => emu.faults.add({ path: '/v3/**', delayMs: -1 }), /delayMs must not be negative/);
  assert.throws(() => emu.faults.add({ path: '/v3/**', status: 500, bogus: 1 } as never), /Unknown property bogus/);
  assert.equal(emu.faults.list().length, 1);
  assert.equal(emu.faults.remove(emu.faults.list()[0].id), true);
  assert.deepEqual(emu.faults.list(), []);
});

test('16.1 library: webhook deliveries are readable; settleWebhooks waits for them', async () => {
  const { startReceiver } = await import('./helpers/webhooks');
  const rx = await startReceiver();
  await using emu = await startEmulator({ listen: false, webhooks: { retryBaseMs: 1000 } });
  try {
    const sub = await emu.fetch('/v3/webhooks', { method: 'POST', headers: { ...ADMIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ eventType: 'task_completed', targetUrl: rx.url }) });
    assert.equal(sub.status, 201, await sub.clone().text());
    const done = await emu.fetch(`/v3/checklists/${JANE}/tasks/21000000-0000-4000-8000-000000000104/complete`, { method: 'POST', headers: ADMIN });
    assert.equal(done.status, 200, await done.clone().text());
    await emu.settleWebhooks();
    const deliveries = emu.deliveries({ eventType: 'task_completed' });
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].status, 'delivered');
    assert.equal(deliveries[0].targetUrl, rx.url);
    assert.equal(rx.received.length, 1);
  } finally {
    await rx.close();
  }
});
