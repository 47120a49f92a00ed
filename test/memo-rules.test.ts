// What the emulator remembers between requests (a checklist's evaluated state, its access facts,
// a task's assignees; store/memo.ts, docs/performance.md) never outlives the rows it came
// from: not a write rolled back by a refusal, not a savepoint rolled back inside a handler or a
// worker, not a commit by another process on the same file, not a reset. Each test first makes
// the emulator remember a value, then changes or rolls back its rows, then reads again and
// compares with what the stored rows say.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { besideOneFile, callTool, startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { newChecklist, taskPath, T } from './helpers/tasks';
import { upgradeKit } from './helpers/upgrades';
import { Memo } from '../src/store/memo';

const V2 = { 'X-API-VERSION': '2.0' };
const NORA = KEYS.noperm; // member 104: no template permission, nothing assigned in the fixture
const OMAR = DEMO.members.omar;
const MIA = DEMO.members.mia;

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const taskIdOf = (server: TestServer, checklistKey: string, taskKey: string) =>
  (server.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { id: number }).id;
const storedStatus = (server: TestServer, checklistKey: string, taskKey: string) =>
  (server.emu.db.prepare('SELECT t.status FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { status: string }).status;

async function read(server: TestServer, key: string, checklistKey: string, taskKey: string) {
  const r = await server.api(key, 'GET', taskPath(checklistKey, taskKey));
  return r;
}

/** Truth from the stored rows: First day welcome is halted exactly while the stop task Manager approval is Incomplete (spec v3 2.4). */
const haltedByStoredStop = (server: TestServer, checklistKey: string) => storedStatus(server, checklistKey, T.managerApproval) === 'Incomplete';

test('2.4 isCurrentlyHalted after a write rolled back by a refusal (legacy 4.2 status: the Incomplete step is undone with the 403): the answer follows the stored rows, not the rolled-back step', async () => {
  const c = await newChecklist(s, { version: 1 });
  // Mia runs the checklist because something on it is hers (5.4); Manager approval is Omar's alone.
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(c, T.setUpEquipment, '/assignees'), { assignees: [{ type: 'TeamMember', id: MIA }] })).status, 200);
  assert.equal((await s.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [{ type: 'TeamMember', id: OMAR }], isAssignedExclusively: true })).status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/not-applicable'))).status, 200);
  const before = await read(s, KEYS.member, c, T.firstDayWelcome);
  assert.equal(before.status, 200, before.text);
  assert.equal(before.body.isCurrentlyHalted, false, 'the stop task is not applicable: nothing behind it is halted');

  // NotApplicable → Complete passes through Incomplete (which halts First day welcome and is
  // evaluated for the step's answer), then completing is refused: the exclusive assignment keeps Mia out.
  const refused = await s.api(KEYS.member, 'PUT', '/api/task/status', { taskId: taskIdOf(s, c, T.managerApproval), status: 'Complete', modifiedByUserID: MIA }, V2);
  assert.equal(refused.status, 403, refused.text);

  assert.equal(storedStatus(s, c, T.managerApproval), 'NotApplicable', 'the whole write was rolled back');
  for (const key of [KEYS.member, KEYS.admin]) {
    const after = await read(s, key, c, T.firstDayWelcome);
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.isCurrentlyHalted, haltedByStoredStop(s, c), `as ${key}: halted as the stored stop task says`);
    assert.equal(after.body.isCurrentlyHalted, false);
  }
  const stop = await read(s, KEYS.member, c, T.managerApproval);
  assert.equal(stop.body.status, 'NotApplicable');
});

test('a savepoint rolled back inside a transaction (as the upgrade and schedule workers roll back one rebuild or run and go on): what was remembered inside it is not answered after', () => {
  // The emulator's own connection and transaction helper, as every handler and worker uses them.
  const db = s.emu.db;
  db.exec('CREATE TEMP TABLE memo_probe (n INTEGER)');
  const memo = new Memo<string, number>(db, { name: 'probe', reads: 'any' }, { verify: false });
  const count = () => memo.get('n', () => (db.prepare('SELECT COUNT(*) AS n FROM temp.memo_probe').get() as { n: number }).n);
  try {
    db.transaction(() => {
      db.prepare('INSERT INTO temp.memo_probe VALUES (1)').run();
      assert.equal(count(), 1);
      try {
        db.transaction(() => {
          db.prepare('INSERT INTO temp.memo_probe VALUES (2)').run();
          assert.equal(count(), 2, 'inside the savepoint: its own row counts');
          throw new Error('the rebuild fails');
        })();
      } catch {
        // rolled back to the savepoint; the outer transaction goes on, writing nothing more
      }
      assert.equal(count(), 1, 'after the savepoint rolled back: the value from inside it is not answered');
    })();
    assert.equal(count(), 1, 'after commit');
    try {
      db.transaction(() => {
        db.prepare('INSERT INTO temp.memo_probe VALUES (3)').run();
        assert.equal(count(), 2);
        throw new Error('refused');
      })();
    } catch {
      // the whole transaction rolled back
    }
    assert.equal(count(), 1, 'after a whole transaction rolled back');
  } finally {
    db.exec('DROP TABLE temp.memo_probe');
  }
});

test('3 / 4.4 a rebuild rolled back inside the upgrade worker (injected failure, a savepoint): the checklist reads as its stored version, tasks, halts and access', async () => {
  const k = upgradeKit(s);
  const c = await newChecklist(s, { version: 1 });
  const tasksBefore = await k.tasks(c);
  const welcomeBefore = await read(s, KEYS.admin, c, T.firstDayWelcome);
  assert.equal(welcomeBefore.body.isCurrentlyHalted, true);
  assert.equal((await read(s, NORA, c, T.firstDayWelcome)).status, 403);
  const r = await k.upgrade(DEMO.onboarding, { checklistKeys: [c] });
  assert.equal(r.status, 202, r.text);
  assert.equal((await k.control('POST', '/_emulator/upgrades/failures', { checklistKey: c, message: 'memo probe' })).status, 201);
  await k.runWorker();
  const stored = s.emu.db.prepare('SELECT template_version FROM checklists WHERE key = ?').get(c) as { template_version: number };
  assert.equal(stored.template_version, 1, 'the rebuild was rolled back');
  assert.equal((await k.checklist(c)).template.version, 1);
  assert.deepEqual(
    (await k.tasks(c)).map((t: any) => [t.key, t.status, t.isCurrentlyHalted, t.isCurrentlyHidden]),
    tasksBefore.map((t: any) => [t.key, t.status, t.isCurrentlyHalted, t.isCurrentlyHidden]),
  );
  const welcome = await read(s, KEYS.admin, c, T.firstDayWelcome);
  assert.equal(welcome.body.isCurrentlyHalted, haltedByStoredStop(s, c));
  assert.equal((await read(s, NORA, c, T.firstDayWelcome)).status, 403, 'access as stored: still nothing for Nora');
});

test('a second process writing to the same database file (wfe mcp --db F beside the server): the server answers what that process committed', async () => {
  await besideOneFile(async (served, other) => {
    const c = DEMO.janeDoe;
    // Remembered by the server: the halt behind the stop task, Nora's refusal, the assignees.
    assert.equal((await read(served, KEYS.admin, c, T.firstDayWelcome)).body.isCurrentlyHalted, true);
    assert.equal((await read(served, NORA, c, T.firstDayWelcome)).status, 403);
    assert.deepEqual((await read(served, KEYS.admin, c, T.managerApproval)).body.assignees, []);

    const done = await callTool(other, 'complete_task', { checklistKey: c, taskKey: T.managerApproval });
    assert.equal(done.isError, false, done.text);
    const assigned = await callTool(other, 'set_task_assignees', { checklistKey: c, taskKey: T.managerApproval, assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] });
    assert.equal(assigned.isError, false, assigned.text);

    const welcome = await read(served, KEYS.admin, c, T.firstDayWelcome);
    assert.equal(welcome.body.isCurrentlyHalted, haltedByStoredStop(served, c));
    assert.equal(welcome.body.isCurrentlyHalted, false, 'the stop task was completed by the other process');
    const nora = await read(served, NORA, c, T.firstDayWelcome);
    assert.equal(nora.status, 200, `something on the checklist is Nora's now (5.4): ${nora.text}`);
    assert.deepEqual((await read(served, KEYS.admin, c, T.managerApproval)).body.assignees.map((a: any) => a.id), [DEMO.members.nora]);
  });
});

for (const frozen of [true, false]) {
  test(`POST /_emulator/reset (${frozen ? 'frozen clock: the fixture image copied back' : 'running clock: the fixture loaded'}): what was remembered before is not answered after`, async () => {
    const server = await startTestServer();
    try {
      if (frozen) assert.equal((await fetch(`${server.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ frozen: true }) })).status, 200);
      const c = DEMO.janeDoe;
      const reset = async () => assert.equal((await fetch(`${server.us}/_emulator/reset`, { method: 'POST' })).status, 200);
      if (frozen) await reset(); // the first reset at this instant takes the image; the next copies it back
      assert.equal((await server.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/complete'))).status, 200);
      assert.equal((await server.api(KEYS.admin, 'PUT', taskPath(c, T.managerApproval, '/assignees'), { assignees: [{ type: 'TeamMember', id: DEMO.members.nora }] })).status, 200);
      assert.equal((await read(server, KEYS.admin, c, T.firstDayWelcome)).body.isCurrentlyHalted, false);
      assert.equal((await read(server, NORA, c, T.firstDayWelcome)).status, 200);
      assert.equal((await read(server, KEYS.admin, c, T.managerApproval)).body.assignees.length, 1);

      await reset();

      const welcome = await read(server, KEYS.admin, c, T.firstDayWelcome);
      assert.equal(welcome.body.isCurrentlyHalted, haltedByStoredStop(server, c));
      assert.equal(welcome.body.isCurrentlyHalted, true, 'the fixture leaves Manager approval incomplete');
      assert.equal((await read(server, NORA, c, T.firstDayWelcome)).status, 403, 'Nora has nothing on the checklist again');
      assert.deepEqual((await read(server, KEYS.admin, c, T.managerApproval)).body.assignees, []);
    } finally {
      await server.close();
    }
  });
}
