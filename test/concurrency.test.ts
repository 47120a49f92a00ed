// Concurrency (docs/reliability.md): many clients at once with one Idempotency-Key
// (spec v3 4.1 rule 12), racing complete/uncomplete on one task (4.3, 6), and
// rate budgets that stay exact when requests arrive together (8).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, DEMO, KEYS, type TestServer } from './helpers/server';
import { Clock } from '../src/clock';

/**
 * A clock held mid-hour: budget windows start on the hour UTC (spec v3 8), and a test that
 * counts a budget while the hour turns sees it refilled (seen at 04:00: 31 of 20 succeeded).
 */
function midHour(): Clock {
  const clock = new Clock();
  clock.set(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 30 * 60_000, true);
  return clock;
}

const CLIENTS = 40;
const APPROVE = '21000000-0000-4000-8000-000000000202'; // "Approve expenses": no required fields, no stop task before it

let s: TestServer;
before(async () => {
  s = await startTestServer({ standardBudget: 1_000_000, cheapBudget: 1_000_000 });
});
after(() => s.close());

const count = (sql: string, ...args: unknown[]) => (s.emu.db.prepare(sql).get(...args) as { n: number }).n;

test('4.1 rule 12: 40 clients at once with the same Idempotency-Key and request: exactly one executes, the rest replay or get CONFLICT', async () => {
  const name = `Idempotent ${Date.now()}`;
  const answers = await Promise.all(
    Array.from({ length: CLIENTS }, () => s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name }, { 'Idempotency-Key': 'same-key-1' })),
  );
  assert.equal(count('SELECT COUNT(*) AS n FROM checklists WHERE name = ?', name), 1, 'one checklist made');
  assert.equal(count("SELECT COUNT(*) AS n FROM events WHERE event_type = 'new_checklist' AND json_extract(subject, '$.checklistId') = (SELECT id FROM checklists WHERE name = ?)", name), 1, 'one event');
  const ok = answers.filter((a) => a.status === 201);
  const conflicts = answers.filter((a) => a.status === 409);
  assert.equal(ok.length + conflicts.length, CLIENTS, JSON.stringify(answers.map((a) => a.status)));
  assert.ok(ok.length >= 1);
  for (const a of ok) assert.equal(a.body.key, ok[0].body.key, 'every success is the first answer');
  assert.equal(ok.filter((a) => a.headers.get('idempotent-replayed') !== 'true').length, 1, 'exactly one answer was executed, the others are replays');
  for (const c of conflicts) assert.equal(c.body.error.code, 'CONFLICT');
  // Afterwards, the same key replays.
  const later = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name }, { 'Idempotency-Key': 'same-key-1' });
  assert.equal(later.status, 201);
  assert.equal(later.body.key, ok[0].body.key);
});

test('4.1 rule 12: the same key with different arguments at once: one executes, every other is CONFLICT', async () => {
  const stamp = Date.now();
  const answers = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: `Different ${stamp} ${i}` }, { 'Idempotency-Key': 'same-key-2' })),
  );
  assert.equal(count('SELECT COUNT(*) AS n FROM checklists WHERE name LIKE ?', `Different ${stamp} %`), 1);
  const ok = answers.filter((a) => a.status === 201);
  assert.equal(ok.length, 1, JSON.stringify(answers.map((a) => a.status)));
  for (const a of answers) if (a.status !== 201) assert.equal(a.body.error.code, 'CONFLICT');
});

test('4.3, 6: racing completes and uncompletes on one task: the final state is the last write applied; events and activity follow the state changes', async () => {
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: `Race ${Date.now()}` });
  assert.equal(made.status, 201);
  const path = `/v3/checklists/${made.body.key}/tasks/${APPROVE}/complete`;
  const taskId = (s.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(made.body.key, APPROVE) as { id: number }).id;
  const sinceActivity = count('SELECT COALESCE(MAX(id), 0) AS n FROM activity');
  const sinceEvents = count('SELECT COALESCE(MAX(id), 0) AS n FROM events');
  const order: { method: string; status: number; state?: string; at: number }[] = [];
  await Promise.all(
    Array.from({ length: 60 }, async (_, i) => {
      const method = i % 3 === 0 ? 'DELETE' : 'POST';
      const r = await s.api(KEYS.member, method, path);
      order.push({ method, status: r.status, state: r.body?.status, at: order.length });
    }),
  );
  for (const o of order) assert.equal(o.status, 200, JSON.stringify(o));
  const final = (s.emu.db.prepare('SELECT status FROM tasks WHERE id = ?').get(taskId) as { status: string }).status;
  const activity = s.emu.db.prepare("SELECT action FROM activity WHERE id > ? AND task_id = ? AND action IN ('task.completed', 'task.uncompleted') ORDER BY id").all(sinceActivity, taskId) as { action: string }[];
  // Every recorded change is a real change: they alternate, starting from Incomplete, ending at the final state.
  activity.forEach((a, i) => assert.equal(a.action, i % 2 === 0 ? 'task.completed' : 'task.uncompleted', `activity ${i}`));
  assert.equal(activity.length > 0 ? (activity[activity.length - 1].action === 'task.completed' ? 'Complete' : 'Incomplete') : 'Incomplete', final);
  // One task_completed event per completion that changed the state (spec v3 6: raised on the change).
  const completions = activity.filter((a) => a.action === 'task.completed').length;
  const events = count("SELECT COUNT(*) AS n FROM events WHERE id > ? AND event_type = 'task_completed' AND json_extract(subject, '$.taskId') = ?", sinceEvents, taskId);
  assert.equal(events, completions);
  // The answer received last reported the state the task is in (requests are applied in arrival order, one at a time).
  const after = await s.api(KEYS.member, 'GET', `/v3/checklists/${made.body.key}/tasks/${APPROVE}`);
  assert.equal(after.body.status, final);
});

test('8: rate budgets stay exact under concurrency: with budget B, exactly B of N simultaneous requests succeed', async () => {
  for (const [budget, bucket, path] of [
    [25, 'standard', '/v3/members'],
    [30, 'cheap', '/v3/auth/test'],
  ] as const) {
    const t = await startTestServer({ clock: midHour(), ...(bucket === 'standard' ? { standardBudget: budget } : { cheapBudget: budget }) });
    try {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => t.api(i % 2 ? KEYS.admin : KEYS.member, 'GET', path)));
      const ok = answers.filter((a) => a.status === 200).length;
      const limited = answers.filter((a) => a.status === 429);
      assert.equal(ok, budget, `${bucket}: ${ok} succeeded`);
      assert.equal(limited.length, 100 - budget);
      for (const a of limited) {
        assert.equal(a.body.error.code, 'RATE_LIMIT_EXCEEDED');
        assert.equal(a.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(a.headers.get('x-ratelimit-bucket'), bucket);
      }
      const remaining = answers.filter((a) => a.status === 200).map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
      assert.deepEqual(remaining, Array.from({ length: budget }, (_, i) => i), 'each success saw its own remaining count');
      // The other budget is untouched (spec v3 8: counted separately); Globex has its own.
      const other = await t.api(KEYS.admin, 'GET', bucket === 'standard' ? '/v3/auth/test' : '/v3/members');
      assert.equal(other.status, 200);
      const globex = await t.api(KEYS.globexAdmin, 'GET', path, undefined, {}, t.eu);
      assert.equal(globex.status, 200);
    } finally {
      await t.close();
    }
  }
});

test('8: MCP and REST share one budget under concurrency', async () => {
  const t = await startTestServer({ clock: midHour(), standardBudget: 20 });
  try {
    const rest = Array.from({ length: 20 }, () => t.api(KEYS.admin, 'GET', '/v3/members'));
    const mcp = Array.from({ length: 20 }, (_, i) =>
      fetch(`${t.us}/mcp`, {
        method: 'POST',
        headers: { 'X-API-KEY': KEYS.member, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'list_members', arguments: {} } }),
      }).then(async (r) => ({ status: r.status, body: await r.json() })),
    );
    const [r, m] = await Promise.all([Promise.all(rest), Promise.all(mcp)]);
    const okRest = r.filter((a) => a.status === 200).length;
    const okMcp = m.filter((a) => a.status === 200 && !a.body.result?.isError && !a.body.error).length;
    assert.equal(okRest + okMcp, 20, `${okRest} REST + ${okMcp} MCP`);
  } finally {
    await t.close();
  }
});
