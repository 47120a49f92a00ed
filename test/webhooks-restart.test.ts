// Durability and tools (issue 6 "Done when"; ../shared/EMULATOR.md): deliveries
// pending when the server stops are sent after the next start (file database);
// `wfe listen` subscribes, prints and unsubscribes; --forward-events.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fromSource, startTestServer, KEYS, DEMO, ROOT } from './helpers/server';
import { startReceiver, fire, checklistId, sleep, deliveryRows } from './helpers/webhooks';
import { Clock } from '../src/clock';

const dir = mkdtempSync(join(tmpdir(), 'wfe-webhooks-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('EMULATOR.md: deliveries pending when the server stops (in flight or waiting to retry) are delivered after restart', async () => {
  const db = join(dir, 'restart.sqlite');
  const rx = await startReceiver();
  rx.script.push('hang'); // the first attempt of the first event is in flight when the server stops
  const port = rx.port;
  const s1 = await startTestServer({ db, webhooks: { retryBaseMs: 60_000, timeoutMs: 5_000, pollMs: 10 } });
  const hangSub = await s1.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'checklist_completed', targetUrl: rx.url });
  // A second subscription whose receiver is down: refused, next retry in 60 s.
  const down = `http://127.0.0.1:${port}/down`;
  await s1.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'checklist_completed', targetUrl: down });
  rx.script.push({ status: 503 });
  fire(s1.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s1.emu, DEMO.expenseMarch) });
  await rx.waitFor(2);
  await sleep(100);
  const before = deliveryRows(s1.emu);
  assert.deepEqual(
    before.map((d) => [d.status, d.attempts]).sort(),
    [
      ['pending', 0],
      ['pending', 1],
    ],
  );
  const body = before[0].body;
  await s1.close(); // stops with one request in flight and one retry waiting

  // Restart on the same file, 61 s later on the emulator clock: both go out.
  const clock = new Clock();
  clock.set(Date.now() + 61_000);
  const s2 = await startTestServer({ db, clock, webhooks: { retryBaseMs: 60_000, pollMs: 10 } });
  try {
    const until = Date.now() + 5000;
    while (deliveryRows(s2.emu).some((d) => d.status !== 'delivered')) {
      if (Date.now() > until) throw new Error(JSON.stringify(deliveryRows(s2.emu).map((d) => [d.status, d.attempts, d.last_error])));
      await sleep(20);
    }
    const after = deliveryRows(s2.emu);
    assert.deepEqual(
      after.map((d) => [d.status, d.attempts]).sort(),
      [
        ['delivered', 1],
        ['delivered', 2],
      ],
    );
    const bodies = rx.received.slice(2).map((r) => r.body);
    assert.deepEqual(bodies, [body, body], 'the same bytes as built before the restart');
    assert.ok(hangSub.body.id);
  } finally {
    await s2.close();
    await rx.close();
  }
});

test('wfe listen: subscribes a local receiver, prints events with a verified signature, unsubscribes on exit', async () => {
  const s = await startTestServer();
  const child = spawn(process.execPath, fromSource(['listen', '--url', s.us, '--key', KEYS.admin, '--event', 'checklist_completed', 'task_completed', '--secret', 'abc']), {
    cwd: ROOT,
    env: { ...process.env, WFE_CLI: '1' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const until = Date.now() + 15_000;
    while (!err.includes('Ready.')) {
      if (Date.now() > until) throw new Error(`listen did not start: ${err}`);
      await sleep(20);
    }
    const subs = await s.api(KEYS.admin, 'GET', '/v3/webhooks');
    assert.equal(subs.body.total, 2);
    assert.ok(subs.body.items.every((w: { hasSecret: boolean }) => w.hasSecret));
    fire(s.emu, KEYS.admin, 'checklist_completed', { checklistId: checklistId(s.emu, DEMO.expenseMarch) });
    while (!out.includes('--> checklist_completed')) {
      if (Date.now() > until) throw new Error(`no event printed: ${out} ${err}`);
      await sleep(20);
    }
    assert.match(out, /--> checklist_completed \S+ signature ok\n\{\n  "checklistId": 3,/);
    child.kill('SIGINT');
    assert.equal(await exited, 0);
    assert.match(err, /Unsubscribed/);
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/webhooks')).body.total, 0);
  } finally {
    child.kill('SIGKILL');
    await s.close();
  }
});

test('wfe serve --forward-events (webhooks.forwardEvents): every event goes to the URL without a subscription', async () => {
  const rx = await startReceiver();
  const s = await startTestServer({ webhooks: { forwardEvents: rx.url } });
  try {
    fire(s.emu, KEYS.globexAdmin, 'new_checklist', { checklistId: checklistId(s.emu, DEMO.globexChecklist) });
    const [got] = await rx.waitFor(1);
    assert.equal(got.headers['svc-event'], 'new_checklist');
    assert.equal((await s.api(KEYS.admin, 'GET', '/v3/webhooks')).body.total, 0);
  } finally {
    await s.close();
    await rx.close();
  }
});
