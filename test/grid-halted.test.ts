// tasks.grid_halted (schema.sql versions 6-8, docs/tasks-grid.md): kept by a trigger that, since
// version 8, rewrites only the tasks whose halt changes. After each status write of a stop task
// the stored flags are what the flag's definition gives when worked out from scratch, and what
// the v3 read says (spec v3 2.4 isCurrentlyHalted).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { taskPath, T } from './helpers/tasks';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

/** Each task's stored flag beside the flag worked out from the stored rows (the version 6 migration's own formula). */
const flags = (checklistKey: string) =>
  s.emu.db
    .prepare(
      `SELECT t.key, t.grid_halted AS stored,
              (t.is_heading = 0 AND t.position > coalesce((SELECT min(x.position) FROM tasks x
                 WHERE x.checklist_id = t.checklist_id AND x.is_stop = 1 AND x.is_heading = 0 AND coalesce(x.status, 'Incomplete') = 'Incomplete' AND x.stop_hidden = 0), 9000000000000000)) AS fresh
         FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? ORDER BY t.position`,
    )
    .all(checklistKey) as { key: string; stored: number; fresh: number }[];

test('2.4 / 4.3 complete and uncomplete of a stop task: every task\'s stored halt flag is the one worked out from scratch and the one the read answers', async () => {
  const c = DEMO.janeDoe;
  const check = async (when: string) => {
    const rows = flags(c);
    assert.ok(rows.some((r) => r.fresh === 1) || when !== 'start', 'the fixture halts something behind Manager approval');
    for (const r of rows) assert.equal(r.stored, r.fresh, `${when}: task ${r.key}`);
    const welcome = await s.api(KEYS.admin, 'GET', taskPath(c, T.firstDayWelcome));
    assert.equal(welcome.body.isCurrentlyHalted, rows.find((r) => r.key === T.firstDayWelcome)!.stored === 1, `${when}: the read agrees`);
  };
  await check('start');
  for (const [method, step] of [['POST', 'complete'], ['DELETE', 'uncomplete'], ['POST', 'complete again'], ['POST', 'complete twice (nothing written)'], ['DELETE', 'uncomplete again']] as const) {
    const r = await s.api(KEYS.admin, method, taskPath(c, T.managerApproval, '/complete'));
    assert.equal(r.status, 200, r.text);
    await check(`after ${step}`);
  }
});
