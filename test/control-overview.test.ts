// GET /_emulator/overview (issue 40, the console panel's overview): each workspace's rate
// budgets spent in the current window (spec v3 8), webhook deliveries pending, retrying and
// failed, and the database's size; guarded like every control route.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { startReceiver, type Receiver } from './helpers/webhooks';

let s: TestServer;
let rx: Receiver;

before(async () => {
  s = await startTestServer({ webhooks: { retryBaseMs: 60_000 } });
  rx = await startReceiver();
});

after(async () => {
  await s.close();
  await rx.close();
});

const overview = async (base = s.us) => {
  const r = await fetch(`${base}/_emulator/overview`);
  assert.equal(r.status, 200);
  return r.json();
};

test('issue 40: the overview counts each workspace\'s budget spent in this window (spec v3 8), as the rate headers say', async () => {
  const before = await overview();
  const acme = before.workspaces.find((w: any) => w.key === DEMO.acme);
  const globex = before.workspaces.find((w: any) => w.key === DEMO.globex);
  assert.equal(acme.region, 'US');
  assert.equal(globex.region, 'EU');
  assert.equal(typeof acme.name, 'string');
  const a = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
  await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
  const after = await overview();
  const acme2 = after.workspaces.find((w: any) => w.key === DEMO.acme);
  const bucket = a.headers.get('x-ratelimit-bucket') as 'standard' | 'cheap';
  assert.equal(acme2.budgets[bucket].used, acme.budgets[bucket].used + 2);
  assert.equal(acme2.budgets[bucket].limit, Number(a.headers.get('x-ratelimit-limit')));
  assert.equal(acme2.budgets[bucket].remaining, acme2.budgets[bucket].limit - acme2.budgets[bucket].used);
  assert.equal(Date.parse(acme2.budgets[bucket].resetsAt) / 1000, Number(a.headers.get('x-ratelimit-reset')));
  // The other workspace spent nothing.
  assert.deepEqual(after.workspaces.find((w: any) => w.key === DEMO.globex).budgets, globex.budgets);
  // The same figures on the other address (one emulator).
  assert.deepEqual((await overview(s.eu)).workspaces.find((w: any) => w.key === DEMO.acme).budgets, acme2.budgets);
});

test('issue 40: the overview counts deliveries pending, retrying after a failed attempt, and by workspace; the database has a size', async () => {
  rx.fallback = { status: 500 };
  const sub = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: rx.url });
  assert.equal(sub.status, 201, sub.text);
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/tasks/${DEMO.renewInsurance}/complete`)).status, 200);
  await rx.waitFor(1);
  // The refused attempt is recorded just after the receiver answered.
  let o: any;
  for (let i = 0; i < 100; i++) {
    o = await overview();
    if (o.deliveries.retrying === 1) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(o.deliveries.pending, 1);
  assert.equal(o.deliveries.retrying, 1);
  assert.equal(o.deliveries.failed, 0);
  assert.equal(o.workspaces.find((w: any) => w.key === DEMO.acme).deliveries.retrying, 1);
  assert.equal(o.workspaces.find((w: any) => w.key === DEMO.globex).deliveries.pending, 0);
  assert.equal(o.database.storage, 'memory');
  assert.ok(o.database.bytes > 0 && o.database.freeBytes >= 0 && o.database.freeBytes < o.database.bytes);
  assert.equal(typeof o.frozen, 'boolean');
  assert.ok(!Number.isNaN(Date.parse(o.now)));
});

test('issue 40: the overview sits behind the admin gate (--admin-token) and is gone under --no-admin', async () => {
  const guarded = await startTestServer({ adminToken: 'sesame' });
  try {
    const no = await fetch(`${guarded.us}/_emulator/overview`);
    assert.equal(no.status, 401);
    assert.equal((await no.json()).error.code, 'MISSING_ADMIN_TOKEN');
    assert.equal((await fetch(`${guarded.us}/_emulator/overview`, { headers: { Authorization: 'Bearer sesame' } })).status, 200);
    // A wrong method is the table's 405 with Allow.
    const post = await fetch(`${guarded.us}/_emulator/overview`, { method: 'POST', headers: { Authorization: 'Bearer sesame' } });
    assert.equal(post.status, 405);
  } finally {
    await guarded.close();
  }
  const off = await startTestServer({ noAdmin: true });
  try {
    assert.equal((await fetch(`${off.us}/_emulator/overview`)).status, 404);
  } finally {
    await off.close();
  }
});
