// Durability after a crash (issue 6 "Done when"; docs/webhooks.md "Delivery" 1 and 5): a real
// `wfe serve --db FILE` child process is killed with SIGKILL while deliveries are pending
// (refused with 500 and waiting to retry, in flight to a receiver that hangs, and never
// attempted because the sender was paused), restarted on the same file, and every pending
// delivery arrives exactly once per subscription, with the bytes built before the crash.
// test:slow: SIGKILLs and restarts a `wfe serve` child process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fromSource, ROOT, KEYS, DEMO } from './helpers/server';
import { bannerOf } from './helpers/spine';
import { startReceiver, sleep, type Receiver } from './helpers/webhooks';
import { F, T } from './helpers/tasks';

const dir = mkdtempSync(join(tmpdir(), 'wfe-crash-'));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Serve {
  child: ChildProcess;
  us: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Spawns `wfe serve --db FILE` on free ports and reads the banner for the US address. */
async function serve(db: string): Promise<Serve> {
  const child = spawn(process.execPath, fromSource(['serve', '--db', db, '--port-us', '0', '--port-eu', '0']), {
    cwd: ROOT,
    env: { ...process.env, WFE_CLI: '1', WFE_DB: '', WFE_FORWARD_EVENTS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const banner = await bannerOf(child, /US\s+REST http:\/\/\S+\/v3/);
  return { child, us: /US\s+REST (http:\/\/\S+)\/v3/.exec(banner)![1], exited };
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(base + path, {
    method,
    headers: { 'X-API-KEY': KEYS.admin, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined, text };
}
async function ok(base: string, method: string, path: string, body?: unknown, status = 200, headers: Record<string, string> = {}) {
  const r = await call(base, method, path, body, headers);
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.body;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

test('issue 6: SIGKILL of `wfe serve --db FILE` with deliveries pending (refused, in flight, unattempted); after restart each arrives exactly once per subscription', async () => {
  const db = join(dir, 'crash.sqlite');
  const refusing: Receiver = await startReceiver();
  refusing.fallback = { status: 500 }; // refuses every delivery until after the kill
  const hanging: Receiver = await startReceiver();
  hanging.fallback = 'hang'; // keeps the request in flight when the server dies
  const hangPort = hanging.port;
  let builtBefore = new Map<string, string>();
  const subs: Record<string, string> = {};

  const one = await serve(db);
  try {
    const base = one.us;
    // Subscriptions: v3 Task scope, legacy (v2) Template scope, both to the refusing receiver;
    // checklist_completed (Workspace) to the receiver that hangs.
    subs.task = (await ok(base, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: `${refusing.url}?to=task`, scope: { type: 'Task', key: '21000000-0000-4000-8000-000000000202' } }, 201)).id;
    subs.legacy = (await ok(base, 'POST', `/api/web-hook/subscribe?source=crash&eventType=task_completed&templateKey=${DEMO.expense}&targetUrl=${encodeURIComponent(`${refusing.url}?to=legacy`)}`)).id;
    subs.done = (await ok(base, 'POST', '/v3/webhooks', { eventType: 'checklist_completed', targetUrl: hanging.url }, 201)).id;

    // An Expense Report walked to Complete through the routes: 3 task_completed, 1 checklist_completed.
    const c1 = (await ok(base, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Crash 1' }, 201)).key;
    await ok(base, 'PUT', `/v3/checklists/${c1}/tasks/${T.submitReceipts}/fields/${F.amount}`, { value: '9.99' });
    for (const t of [T.submitReceipts, '21000000-0000-4000-8000-000000000202', '21000000-0000-4000-8000-000000000203']) {
      await ok(base, 'POST', `/v3/checklists/${c1}/tasks/${t}/complete`);
    }
    // Each delivery has been tried once: 4 refused with 500, 1 hanging.
    await waitFor('first attempts', () => refusing.received.length >= 4 && hanging.received.length >= 1);
    const tried = await waitFor('attempts recorded', async () => {
      const items = (await ok(base, 'GET', '/_emulator/webhooks/deliveries?status=pending')).items as any[];
      return items.filter((d) => d.attempts === 1).length === 4 ? items : undefined;
    });
    assert.equal(tried.length, 5, 'four waiting to retry, one in flight');
    builtBefore = new Map(tried.filter((d) => d.attempts === 1).map((d) => [d.id, d.request.body]));

    // Paused sender: a new completion is written (outbox) but never attempted before the crash.
    await ok(base, 'POST', '/_emulator/webhooks/pause');
    const c2 = (await ok(base, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Crash 2' }, 201)).key;
    await ok(base, 'POST', `/v3/checklists/${c2}/tasks/21000000-0000-4000-8000-000000000202/complete`);
    const state = await ok(base, 'GET', '/_emulator/webhooks/sender');
    assert.deepEqual(state, { paused: true, inFlight: 1, pendingDeliveries: 7 });

    one.child.kill('SIGKILL');
    assert.equal(await one.exited, 'SIGKILL');
  } finally {
    if (one.child.exitCode === null && one.child.signalCode === null) one.child.kill('SIGKILL');
  }

  // The receivers come back and answer 200 (the hanging one is replaced on the same port).
  const mark = refusing.received.length;
  refusing.fallback = { status: 200 };
  await hanging.close();
  const late = await startReceiver(hangPort);

  const two = await serve(db);
  try {
    const base = two.us;
    // Unattempted and in-flight deliveries are due at once; refused ones after their backoff
    // (10 s on the emulator clock): move the clock instead of waiting.
    await ok(base, 'POST', '/_emulator/clock/advance', { seconds: 60 });
    await waitFor('all delivered', async () => {
      const st = await ok(base, 'GET', '/_emulator/webhooks/sender');
      return st.pendingDeliveries === 0 && st.inFlight === 0;
    });
    const all = (await ok(base, 'GET', '/_emulator/webhooks/deliveries?limit=1000')).items as any[];
    assert.equal(all.length, 7);
    assert.ok(all.every((d) => d.status === 'delivered'), JSON.stringify(all.map((d) => [d.status, d.attempts, d.lastError])));
    const per = (id: string) => all.filter((d) => d.subscription.id === id).length;
    assert.deepEqual([per(subs.task), per(subs.legacy), per(subs.done)], [2, 4, 1]);
    await sleep(300); // nothing more arrives: no duplicates

    const after = refusing.received.slice(mark);
    const by = (to: string) => after.filter((r) => r.url === `/hook?to=${to}`).map((r) => JSON.parse(r.body));
    // Exactly once per subscription: the task subscription had 2 events (c1 and c2), the legacy one 4.
    const taskBodies = by('task');
    const legacyBodies = by('legacy');
    assert.equal(taskBodies.length, 2);
    assert.equal(legacyBodies.length, 4);
    assert.equal(new Set(taskBodies.map((b) => b.taskId)).size, 2, 'no event twice');
    assert.equal(new Set(legacyBodies.map((b) => b.taskId)).size, 4, 'no event twice');
    assert.deepEqual(new Set(legacyBodies.map((b) => b.checklist.checklistName)), new Set(['Crash 1', 'Crash 2']));
    assert.equal(late.received.length, 1, 'the delivery in flight at the crash is sent once after restart');
    const done = JSON.parse(late.received[0].body);
    assert.equal(done.checklistName, 'Crash 1');
    assert.notEqual(done.checklistEndDateTime, null);

    // The bytes built before the crash are the bytes sent after it (one body per event).
    for (const d of all) {
      if (builtBefore.has(d.id)) assert.equal(d.request.body, builtBefore.get(d.id));
    }
    // v2 and v3 subscriptions got the same bytes for the shared events.
    const rawTask = after.filter((r) => r.url === '/hook?to=task').map((r) => r.body).sort();
    const rawLegacy = after.filter((r) => r.url === '/hook?to=legacy').map((r) => r.body);
    for (const b of rawTask) assert.ok(rawLegacy.includes(b));
    // Attempts: refused ones 2 (500, then 200); in flight and unattempted ones 1.
    assert.deepEqual(all.map((d) => d.attempts).sort(), [1, 1, 1, 2, 2, 2, 2]);
    assert.equal((await ok(base, 'GET', '/_emulator/webhooks/sender')).paused, false, 'pause is not persisted');
    two.child.kill('SIGTERM');
    await two.exited;
  } finally {
    if (two.child.exitCode === null && two.child.signalCode === null) two.child.kill('SIGKILL');
    await refusing.close();
    await late.close();
  }
});
