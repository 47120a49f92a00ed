// Issue 37 "Fair delivery" (docs/webhooks.md "Fair delivery"): four subscriptions to
// new_checklist, pointing at a target that accepts and never answers, one that answers 500,
// a closed port and a healthy receiver; 1,000 checklists. The healthy receiver gets all 1,000
// deliveries within 20 s of the burst, and the others retry on their own schedule (the
// documented 10 s, 20 s, ... after each failure), each holding its own slots only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEMO, KEYS, startTestServer, type TestServer } from './helpers/server';
import { freePort } from './helpers/crash';
import { harness, startReceiver, waitUntil, type Receiver } from './helpers/webhooks';

let s: TestServer;
let healthy: Receiver;
let hanging: Receiver;
let failing: Receiver;
before(async () => {
  s = await startTestServer({ standardBudget: 1_000_000, webhooks: { timeoutMs: 10_000 } });
  healthy = await startReceiver();
  hanging = await startReceiver();
  hanging.fallback = 'hang';
  failing = await startReceiver();
  failing.fallback = { status: 500 };
});
after(async () => {
  await s.close();
  await Promise.all([healthy, hanging, failing].map((r) => r.close()));
});

const V2 = { 'X-API-VERSION': '2.0' };

test('docs/webhooks.md "Fair delivery": a hanging target, a 500 target and a closed port do not starve a healthy receiver: 1,000 deliveries within 20 s; the others retry on their own schedule', async (t) => {
  const h = harness(s);
  const closed = `http://127.0.0.1:${await freePort()}/hook`;
  const subs: Record<string, string> = {};
  for (const [name, targetUrl] of [['hanging', hanging.url], ['failing', failing.url], ['closed', closed], ['healthy', healthy.url]]) {
    subs[name] = await h.subscribe({ eventType: 'new_checklist', targetUrl, scope: { type: 'Template', key: DEMO.expense } });
  }
  // The burst: 1,000 checklists, 100 per legacy create-many (one new_checklist event per checklist).
  const t0 = Date.now();
  for (let i = 0; i < 10; i++) {
    const r = await s.api(KEYS.admin, 'POST', '/api/checklist/create-many', { templateKey: DEMO.expense, checklistNames: Array.from({ length: 100 }, (_, j) => `Burst ${i * 100 + j}`) }, V2);
    assert.equal(r.status, 200, r.text);
  }
  const burst = Date.now();
  await healthy.waitFor(1000, 20_000);
  const done = Date.now();
  t.diagnostic(`burst of 1,000 checklists took ${burst - t0} ms; the healthy receiver had all 1,000 deliveries ${done - burst} ms after it`);
  assert.ok(done - burst < 20_000);
  assert.equal(new Set(healthy.received.map((r) => JSON.parse(r.body).checklistId ?? JSON.parse(r.body).checklist?.id ?? r.body)).size, 1000, 'each checklist delivered once');

  // The failing targets were tried and wait out their own backoff (spec schedule: 10 s after the 1st failure).
  const rows = (sub: string) =>
    s.emu.db.prepare("SELECT d.status, d.attempts, d.next_attempt_at, d.attempt_log FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.key = ?").all(sub) as {
      status: string;
      attempts: number;
      next_attempt_at: number;
      attempt_log: string;
    }[];
  for (const name of ['failing', 'closed']) {
    const tried = await waitUntil(() => {
      const r = rows(subs[name]).filter((d) => d.attempts > 0);
      return r.length >= 5 && r;
    }, 10_000, `${name} attempts`);
    for (const d of tried) {
      const last = JSON.parse(d.attempt_log).at(-1);
      assert.equal(d.status, 'pending');
      assert.equal(d.next_attempt_at - last.at >= 10_000 * 2 ** (d.attempts - 1) - 1000, true, `${name}: retry due after its own backoff (${d.attempts} attempts)`);
    }
    assert.equal(rows(subs[name]).length, 1000, `${name}: every delivery is kept for its retries`);
  }
  // The hanging target holds at most its own slots: 4 before its first timeout, then 1.
  assert.ok(hanging.received.length >= 1 && hanging.received.length <= 6, `hanging target got ${hanging.received.length} requests so far`);
  assert.ok(failing.received.length >= 1);
  const sender = (await h.control('GET', '/_emulator/webhooks/sender')).body;
  assert.ok(sender.inFlight <= 64, JSON.stringify(sender));
});
