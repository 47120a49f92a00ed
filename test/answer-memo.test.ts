// A read's answer remembered until the database changes (src/pipeline/answer-memo.ts,
// docs/performance.md): it never outlives what it says. The database side (a write, a rollback,
// another process, a reset) is test/memo-rules.test.ts, whose reads go through the same memo;
// here the time side, on a running clock: the Tasks grid's statuses move when a due date
// passes, a snooze ends or the member's day ends, with no write in between; a read that asks the
// time without saying how long its answer holds is answered afresh; and an answer is the
// asker's own (key, time zone, transport).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, mcpHttpClient, callTool, KEYS, DEMO, type TestServer } from './helpers/server';
import { taskPath, T } from './helpers/tasks';

let s: TestServer;
// 13:00 in Berlin (Mia's profile zone, UTC+1 in March).
const NOW = Date.parse('2026-03-10T12:00:00Z');
const MINUTE = 60_000;
const toMia = { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }] };

before(async () => {
  s = await startTestServer();
  // The rate-budget counters are saved to `settings` every 5 s when they moved
  // (src/platform/budget-store.ts): a write on a timer, not the status judgement's, which a run
  // slowed past 5 s by a loaded machine met. Counted here so `writes` can leave it out.
  s.emu.db.exec(`CREATE TEMP TABLE budget_saves (n INTEGER);
    CREATE TEMP TRIGGER budget_saved_new AFTER INSERT ON main.settings WHEN new.name = 'platform.rateBudgets' BEGIN INSERT INTO budget_saves VALUES (1); END;
    CREATE TEMP TRIGGER budget_saved AFTER UPDATE ON main.settings WHEN new.name = 'platform.rateBudgets' BEGIN INSERT INTO budget_saves VALUES (1); END;`);
});
after(async () => {
  await s.close();
});

async function raise(name: string, body: Record<string, unknown>): Promise<string> {
  const r = await s.api(KEYS.admin, 'POST', '/v3/tasks', { name, ...toMia, ...body });
  assert.equal(r.status, 201, r.text);
  return r.body.key;
}

/** Mia's grid, every status, as a map from task key to status. */
async function statuses(headers: Record<string, string> = {}): Promise<Map<string, string>> {
  const r = await s.api(KEYS.member, 'GET', '/v3/my-work?status=all&pageSize=100', undefined, headers);
  assert.equal(r.status, 200, r.text);
  return new Map(r.body.items.map((i: { key: string; status: string }) => [i.key, i.status]));
}

/** Rows written on the server's connection, but for the budget saves (each one row, and one more by its counting trigger). */
const writes = () => (s.emu.db.prepare('SELECT total_changes() - 2 * (SELECT COUNT(*) FROM budget_saves) AS n').get() as { n: number }).n;

test('4.6 status judgement on a running clock: DueToday turns Overdue the moment its due date passes, a snooze ends, the day ends: no write in between', async () => {
  s.emu.clock.set(NOW, true);
  const soon = await raise('Memo: due in ten minutes', { dueDateTime: new Date(NOW + 10 * MINUTE).toISOString() });
  const tomorrow = await raise('Memo: due 00:30 Berlin tomorrow', { dueDateTime: '2026-03-11T00:30:00+01:00' });
  const later = await raise('Memo: snoozed for twenty minutes', { dueDateTime: '2026-03-12T09:00:00Z' });
  const snoozed = await s.api(KEYS.member, 'POST', '/v3/my-work/snooze', { snoozedUntil: new Date(NOW + 20 * MINUTE).toISOString(), tasks: [{ taskKey: later }] });
  assert.equal(snoozed.status, 200, snoozed.text);

  s.emu.clock.set(NOW, false); // running from 13:00 Berlin
  const at = writes();
  const first = await statuses();
  assert.deepEqual([first.get(soon), first.get(tomorrow), first.get(later)], ['DueToday', 'DueInFuture', 'Snoozed']);
  assert.deepEqual(await statuses(), first, 'the same instant range: the same answer');

  s.emu.clock.advance(10 * MINUTE + 1000);
  const overdue = await statuses();
  assert.deepEqual([overdue.get(soon), overdue.get(tomorrow), overdue.get(later)], ['Overdue', 'DueInFuture', 'Snoozed'], 'the due date has passed');

  s.emu.clock.advance(10 * MINUTE);
  assert.equal((await statuses()).get(later), 'DueInFuture', 'the snooze has ended');

  // One second before midnight in Berlin, then past it.
  s.emu.clock.set(Date.parse('2026-03-10T22:59:59.500Z'), false);
  assert.equal((await statuses()).get(tomorrow), 'DueInFuture');
  s.emu.clock.advance(1000);
  assert.equal((await statuses()).get(tomorrow), 'DueToday', "Berlin's day has turned");
  assert.equal((await statuses({ 'X-SVC-Timezone': 'UTC' })).get(tomorrow), 'DueToday', 'UTC: 23:30 on the 10th, due within the day');

  // The clock set back: the answer of the earlier instant again.
  s.emu.clock.set(NOW, false);
  const back = await statuses();
  assert.deepEqual([back.get(soon), back.get(tomorrow), back.get(later)], ['DueToday', 'DueInFuture', 'Snoozed']);
  assert.equal(writes(), at, 'nothing was written while the statuses moved');
  s.emu.clock.set(NOW, true);
});

test('3 get_task_snooze on a running clock (a read that asks the time and does not say for how long its answer holds): isSnoozed ends when the snooze does', async () => {
  s.emu.clock.set(NOW, false);
  const key = await raise('Memo: snooze read', {});
  const path = `/v3/tasks/${key}/snooze`;
  const until = new Date(s.emu.clock.now() + MINUTE).toISOString();
  assert.equal((await s.api(KEYS.member, 'PUT', path, { snoozedUntil: until })).status, 200);
  const on = await s.api(KEYS.member, 'GET', path);
  assert.equal(on.status, 200, on.text);
  assert.equal(on.body.isSnoozed, true);
  assert.equal((await s.api(KEYS.member, 'GET', path)).body.isSnoozed, true);
  s.emu.clock.advance(MINUTE + 1);
  const off = await s.api(KEYS.member, 'GET', path);
  assert.deepEqual(off.body, { isSnoozed: false });
  s.emu.clock.set(NOW, true);
});

test("2.4 get_task: one key's answer is not another's (access, who asks), and REST and MCP each answer the same as before", async () => {
  const path = taskPath(DEMO.janeDoe, T.firstDayWelcome);
  const admin = await s.api(KEYS.admin, 'GET', path);
  assert.equal(admin.status, 200, admin.text);
  const nora = await s.api(KEYS.noperm, 'GET', path);
  assert.equal(nora.status, 403, 'Nora has nothing on the checklist (5.4), though Ada just read the same task');
  const again = await s.api(KEYS.admin, 'GET', path);
  assert.deepEqual(again.body, admin.body);
  assert.notEqual(again.headers.get('x-request-id'), admin.headers.get('x-request-id'), 'each answer has its own request id');
  const client = await mcpHttpClient(`${s.urls.US}/mcp`, KEYS.admin);
  try {
    for (let i = 0; i < 2; i++) {
      const r = await callTool(client, 'get_task', { checklistKey: DEMO.janeDoe, taskKey: T.firstDayWelcome });
      assert.equal(r.isError, false, r.text);
      assert.deepEqual(r.body, admin.body);
    }
  } finally {
    await client.close();
  }
  const who = await s.api(KEYS.member, 'GET', '/v3/auth/test');
  const ada = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
  assert.notDeepEqual(who.body.apiKey.actsAs, ada.body.apiKey.actsAs);
});
