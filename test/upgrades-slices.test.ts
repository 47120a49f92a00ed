// Background work in slices (docs/reliability.md "Background work"; docs/upgrades.md "The
// worker"): the upgrade worker rebuilds in short transactions and yields between them, so
// requests are answered while 1,000 checklists are upgraded; the scheduler's catch-up after
// a clock jump of years does the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO } from './helpers/server';
import { upgradeKit, UPGRADE_DELAY_MS } from './helpers/upgrades';

const COUNT = 1000;

test('an upgrade of 1,000 checklists runs in slices: a request sent mid-upgrade is answered before the upgrade ends, and every checklist ends on the new version', async () => {
  const s = await startTestServer({ upgrades: { delayMs: UPGRADE_DELAY_MS, pollMs: 20 }, standardBudget: 1e9, cheapBudget: 1e9 });
  const k = upgradeKit(s);
  try {
    const v1 = await k.createTemplate({ name: 'Sliced upgrade', tasks: [{ ref: 'a', name: 'A', fields: [{ ref: 'note', type: 'ShortText', label: 'Note' }] }, { ref: 'b', name: 'B' }] });
    for (let i = 0; i < COUNT; i += 25) {
      await Promise.all(Array.from({ length: Math.min(25, COUNT - i) }, (_, j) => k.start(v1.key, `sliced ${i + j}`)));
    }
    const doc2 = structuredClone(v1.doc);
    doc2.tasks[1].name = 'B renamed';
    doc2.tasks.push({ ref: 'c', name: 'C' });
    await k.publish(v1.key, doc2);
    const queued = await k.upgrade(v1.key, { all: true });
    assert.equal(queued.status, 202, queued.text);
    assert.equal(queued.body.queued, COUNT);
    const done = s.emu.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM upgrade_jobs WHERE state = 'done'");
    // The clock passes the queue delay; the worker starts at its next poll.
    assert.equal((await k.control('POST', '/_emulator/clock/advance', { seconds: UPGRADE_DELAY_MS / 1000 })).status, 200);
    let seenMidway = -1;
    for (let i = 0; i < 100_000 && seenMidway < 0; i++) {
      await new Promise((r) => setImmediate(r));
      const n = done.get()!.n;
      if (n > 0 && n < COUNT) seenMidway = n;
      if (n === COUNT) break;
    }
    assert.ok(seenMidway > 0, 'the upgrade was seen part done: it yields between slices');
    // A request sent now, mid-upgrade, is answered before the upgrade is over.
    const r = await s.api(KEYS.admin, 'GET', `/v3/checklists/${DEMO.janeDoe}`);
    assert.equal(r.status, 200);
    const whenAnswered = done.get()!.n;
    assert.ok(whenAnswered < COUNT, `answered with ${whenAnswered} of ${COUNT} rebuilt`);
    // And the upgrade finishes: every checklist on version 2.
    for (let i = 0; i < 6000 && done.get()!.n < COUNT; i++) await new Promise((res) => setTimeout(res, 10));
    assert.equal(done.get()!.n, COUNT);
    const onV2 = s.emu.db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM checklists c JOIN templates t ON t.id = c.template_id WHERE t.key = ? AND c.template_version = 2 AND c.name LIKE 'sliced %'").get(v1.key)!.n;
    assert.equal(onV2, COUNT);
  } finally {
    await s.close();
  }
});

test('the scheduler catches up a clock jump of ten years in slices: requests are answered while daily runs start, and each run starts once', async () => {
  const s = await startTestServer({ standardBudget: 1e9, cheapBudget: 1e9 });
  try {
    const k = upgradeKit(s);
    await k.control('PUT', '/_emulator/clock', { now: '2030-01-01T00:00:00Z', frozen: true });
    const made = await s.api(KEYS.admin, 'POST', '/v3/schedules', { name: 'Daily', templateKey: DEMO.expense, timeZone: 'UTC', startDateTime: '2030-01-01T09:00:00', recurrence: { frequency: 'Daily' } });
    assert.equal(made.status, 201, made.text);
    const runs = s.emu.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM schedule_runs WHERE status <> 'Upcoming'");
    const before = runs.get()!.n;
    // The move answers once the runs it made due have started (README "Schedules", issue 35), so it
    // is not awaited here: while it waits, the catch-up runs in slices and other requests are answered.
    const moved = k.control('POST', '/_emulator/clock/advance', { days: 3650 });
    let seenMidway = false;
    for (let i = 0; i < 100_000; i++) {
      await new Promise((r) => setImmediate(r));
      const n = runs.get()!.n - before;
      if (n > 0 && n < 3000) seenMidway = true;
      if (seenMidway) break;
    }
    assert.ok(seenMidway, 'the catch-up was seen part done: it yields between slices');
    const r = await s.api(KEYS.admin, 'GET', '/v3/auth/test');
    assert.equal(r.status, 200);
    assert.ok(runs.get()!.n - before < 3650, 'answered before the catch-up ended');
    // Ten years of days, 2030-01-01 to 2039-12-29: one run each, none twice, all started when the move answers.
    const expected = Math.floor((Date.parse('2039-12-29T00:00:00Z') - Date.parse('2030-01-01T00:00:00Z')) / 86_400_000) + 1;
    assert.equal((await moved).status, 200);
    assert.equal(runs.get()!.n - before, expected);
    const twice = s.emu.db.prepare("SELECT scheduled_at, COUNT(*) AS n FROM schedule_runs GROUP BY schedule_id, scheduled_at HAVING n > 1").all();
    assert.deepEqual(twice, []);
  } finally {
    await s.close();
  }
});
