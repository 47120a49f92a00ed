// What a checklist's tasks are (order, kind, status: rows/tasks.ts taskStatesOfChecklist) is
// remembered per checklist (store/per-checklist.ts), until a row of that checklist's tasks is
// written, something rolls back, a bulk write sets the counts aside, or another connection
// commits; a status write hands over the list it left. Each test checks the remembered list
// against the stored rows read afresh, and that what it says is remembered really was (the
// same objects come back, where a fresh read makes new ones).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { besideOneFile, callTool, startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { newChecklist, taskPath, T } from './helpers/tasks';
import { Memo } from '../src/store/memo';
import { TASK_ROW_COLUMNS, uncounted } from '../src/store/watched-tables';
import { openDb, type Db } from '../src/store/open';
import { resetToFixture } from '../src/platform/database';
import { checklistTaskByKey, setTaskComplete, setTaskUncompleted, taskById, taskStatesOfChecklist, type TaskRow } from '../src/rows/tasks';

/** Ada's member row (the Admin's key acts as her). */
const ADA = DEMO.members.ada;

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

class Undo extends Error {}

/** Runs `fn` in a transaction that is rolled back afterwards, so the fixture stays as it was. */
function rolledBack(db: Db, fn: () => void): void {
  try {
    db.transaction(() => {
      fn();
      throw new Undo();
    })();
  } catch (e) {
    if (!(e instanceof Undo)) throw e;
  }
}

const checklistId = (db: Db, key: string) => (db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number }).id;
const taskRow = (db: Db, checklist: number, key: string) => db.prepare('SELECT * FROM tasks WHERE checklist_id = ? AND key = ?').get(checklist, key) as TaskRow;
/** The stored states, read afresh (not through the remembered list). */
const storedStates = (db: Db, checklist: number) => db.prepare('SELECT id, key, is_heading, is_stop, status FROM tasks WHERE checklist_id = ? ORDER BY position, id').all(checklist);

/** A value per checklist and how many times each checklist's was computed. */
function probe(db: Db) {
  const reads = [{ table: 'tasks', columns: ['id', 'key', 'is_heading', 'is_stop', 'status', 'position', 'checklist_id'] }];
  const memo = new Memo<number, number>(db, { name: 'probe', reads, per: 'checklist' }, { verify: false });
  const computed = new Map<number, number>();
  return {
    read: (id: number) => memo.get(id, () => computed.set(id, (computed.get(id) ?? 0) + 1).get(id)!),
    computed: (id: number) => computed.get(id) ?? 0,
  };
}

test('per checklist: a task status written on another checklist leaves a checklist\'s task states remembered; its own tasks\' status, order, kind, key, checklist, an insert and a delete each make them fresh; other columns, and a write that changes none, do not', async () => {
  const db = s.emu.db;
  const jane = checklistId(db, DEMO.janeDoe);
  const other = checklistId(db, await newChecklist(s, { name: 'Beside Jane' }));
  const p = probe(db);
  rolledBack(db, () => {
    p.read(jane);
    p.read(other);
    db.prepare("UPDATE tasks SET status = 'Complete' WHERE checklist_id = ? AND key = ?").run(other, T.managerApproval);
    assert.equal(p.read(jane), 1, 'another checklist\'s status write: still remembered');
    assert.equal(p.read(other), 2, 'its own status write: fresh');
    db.prepare('UPDATE tasks SET due_at = 1, name = name, grid_halted = 1 - grid_halted, stop_hidden = stop_hidden WHERE checklist_id = ?').run(jane);
    assert.equal(p.read(jane), 1, 'due date, name and the grid\'s flags are not what the states hold');
    db.prepare('UPDATE tasks SET status = status, position = position WHERE checklist_id = ?').run(jane);
    assert.equal(p.read(jane), 1, 'a write that leaves the states as they were');
    let n = 1;
    for (const change of ["status = 'NotApplicable'", 'position = position + 100', 'is_stop = 1 - is_stop', 'is_heading = 1 - is_heading', "key = key || '-moved'"]) {
      db.prepare(`UPDATE tasks SET ${change} WHERE checklist_id = ? AND key = ?`).run(jane, T.managerApproval);
      assert.equal(p.read(jane), ++n, `after ${change}`);
    }
    db.prepare(`UPDATE tasks SET checklist_id = ? WHERE checklist_id = ? AND key = ?`).run(other, jane, `${T.managerApproval}-moved`);
    assert.equal(p.read(jane), ++n, 'after a task moved away');
    assert.equal(p.read(other), 3, 'and onto the other checklist');
    db.prepare(`UPDATE tasks SET checklist_id = ?, key = ? WHERE checklist_id = ? AND key = ?`).run(jane, T.managerApproval, other, `${T.managerApproval}-moved`);
    assert.equal(p.read(jane), ++n, 'moved back');
    db.exec(`CREATE TEMP TABLE probe_tasks AS SELECT * FROM main.tasks WHERE checklist_id = ${jane}`);
    db.prepare('DELETE FROM tasks WHERE checklist_id = ? AND key = ?').run(jane, T.firstDayWelcome);
    assert.equal(p.read(jane), ++n, 'after a delete');
    db.prepare(`INSERT INTO main.tasks SELECT * FROM temp.probe_tasks WHERE key = ?`).run(T.firstDayWelcome);
    assert.equal(p.read(jane), ++n, 'after an insert');
    db.exec('DROP TABLE temp.probe_tasks');
    assert.equal(p.read(other), 4, 'nothing else was the other checklist\'s');
  });
  const n = p.computed(jane);
  assert.equal(p.read(jane), n + 1, 'after the rollback: nothing computed inside the transaction is answered');
});

test('a status write hands over the list it left: the same objects for the tasks it did not write, equal to the stored rows read afresh', () => {
  const db = s.emu.db;
  const jane = checklistId(db, DEMO.janeDoe);
  rolledBack(db, () => {
    const beforeWrite = taskStatesOfChecklist(db, jane);
    assert.equal(taskStatesOfChecklist(db, jane), beforeWrite, 'remembered while nothing is written');
    setTaskComplete(db, taskRow(db, jane, T.managerApproval), 1, ADA);
    const afterWrite = taskStatesOfChecklist(db, jane);
    assert.notEqual(afterWrite, beforeWrite);
    assert.deepEqual(afterWrite, storedStates(db, jane), 'the list handed over is the stored one');
    const i = afterWrite.findIndex((t) => t.key === T.managerApproval);
    assert.equal(afterWrite[i].status, 'Complete');
    assert.equal(afterWrite[0], beforeWrite[0], 'handed over, not read again: the other tasks are the same objects');
    setTaskUncompleted(db, taskRow(db, jane, T.managerApproval));
    assert.deepEqual(taskStatesOfChecklist(db, jane), storedStates(db, jane));
    assert.equal(taskStatesOfChecklist(db, jane)[0], beforeWrite[0], 'handed over again');
  });
});

/** The list read after a status write that was not handed over: the stored one, with `status` on the task behind, read again (new objects). */
function readAgainWith(db: Db, checklist: number, first: readonly { key: string }[], status: string, why: string): void {
  const next = taskStatesOfChecklist(db, checklist);
  assert.deepEqual(next, storedStates(db, checklist));
  assert.equal(next.find((t) => t.key === T.firstDayWelcome)!.status, status, why);
  assert.notEqual(next[0], first[0], 'read again');
}

test('a status write after another write to the checklist\'s tasks is not handed over: the list is read again', () => {
  const db = s.emu.db;
  const jane = checklistId(db, DEMO.janeDoe);
  rolledBack(db, () => {
    const first = taskStatesOfChecklist(db, jane);
    // Written outside the row layer (as a template upgrade or a legacy import might): not handed over.
    db.prepare("UPDATE tasks SET status = 'NotApplicable' WHERE checklist_id = ? AND key = ?").run(jane, T.firstDayWelcome);
    setTaskComplete(db, taskRow(db, jane, T.managerApproval), 1, ADA);
    readAgainWith(db, jane, first, 'NotApplicable', 'the other write is in it');
  });
});

test('a status write whose statement writes more of the checklist\'s tasks than its own (a trigger) is not handed over: the list is read again', () => {
  const db = s.emu.db;
  const jane = checklistId(db, DEMO.janeDoe);
  rolledBack(db, () => {
    db.exec(`CREATE TEMP TRIGGER probe_cascade AFTER UPDATE OF status ON main.tasks WHEN NEW.key = '${T.managerApproval}'
      BEGIN UPDATE main.tasks SET status = 'NotApplicable' WHERE checklist_id = NEW.checklist_id AND key = '${T.firstDayWelcome}'; END`);
    const first = taskStatesOfChecklist(db, jane);
    setTaskComplete(db, taskRow(db, jane, T.managerApproval), 1, ADA);
    readAgainWith(db, jane, first, 'NotApplicable', 'what the trigger wrote is in it');
  });
});

test('a status write in a savepoint rolled back, and in a transaction rolled back: the list answered after is the stored one, never the one handed over', () => {
  const db = s.emu.db;
  const jane = checklistId(db, DEMO.janeDoe);
  const stop = () => taskStatesOfChecklist(db, jane).find((t) => t.key === T.managerApproval)!.status;
  assert.equal(stop(), 'Incomplete');
  rolledBack(db, () => {
    try {
      db.transaction(() => {
        setTaskComplete(db, taskRow(db, jane, T.managerApproval), 1, ADA);
        assert.equal(stop(), 'Complete', 'inside the savepoint');
        throw new Error('the step fails');
      })();
    } catch (e) {
      assert.equal((e as Error).message, 'the step fails');
    }
    assert.equal(stop(), 'Incomplete', 'after the savepoint rolled back');
    assert.deepEqual(taskStatesOfChecklist(db, jane), storedStates(db, jane));
    setTaskComplete(db, taskRow(db, jane, T.managerApproval), 1, ADA);
    assert.equal(stop(), 'Complete');
  });
  assert.equal(stop(), 'Incomplete', 'after the transaction rolled back');
  assert.deepEqual(taskStatesOfChecklist(db, jane), storedStates(db, jane));
});

test('a bulk write with the counts set aside (the generated workspace), and another connection committing to the same file: the list is read again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-states-'));
  const file = join(dir, 'shared.db');
  const a = openDb(file);
  const b = openDb(file);
  try {
    resetToFixture(a, 'demo', Date.now());
    const c = checklistId(a, DEMO.janeDoe);
    const x = T.managerApproval;
    const first = taskStatesOfChecklist(a, c);
    assert.equal(taskStatesOfChecklist(a, c), first, 'remembered');
    uncounted(a, () => a.prepare("UPDATE tasks SET status = 'Complete' WHERE checklist_id = ? AND key = ?").run(c, x));
    assert.equal(taskStatesOfChecklist(a, c).find((t) => t.key === x)!.status, 'Complete', 'the bulk write is seen');
    const second = taskStatesOfChecklist(a, c);
    b.prepare("UPDATE tasks SET status = 'NotApplicable' WHERE checklist_id = ? AND key = ?").run(c, x);
    const third = taskStatesOfChecklist(a, c);
    assert.notEqual(third, second);
    assert.equal(third.find((t) => t.key === x)!.status, 'NotApplicable', 'the other connection\'s commit is seen');
    // A status write whose checklist another connection changed since it was remembered: not handed over.
    b.prepare("UPDATE tasks SET status = 'Incomplete' WHERE checklist_id = ? AND key = ?").run(c, x);
    setTaskComplete(a, taskRow(a, c, x), 1, ADA);
    assert.deepEqual(taskStatesOfChecklist(a, c), storedStates(a, c));
  } finally {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('4.3 complete and uncomplete the stop task on two checklists in turn (2.4 isCurrentlyHalted), a status set through the legacy API between, and a reset: every answer follows the stored rows', async () => {
  const server = await startTestServer();
  try {
    const a = await newChecklist(server, { name: 'Turn A' });
    const b = await newChecklist(server, { name: 'Turn B' });
    const halted = async (c: string) => (await server.api(KEYS.admin, 'GET', taskPath(c, T.firstDayWelcome))).body.isCurrentlyHalted;
    for (const [c, method] of [[a, 'POST'], [b, 'POST'], [a, 'DELETE'], [b, 'DELETE'], [a, 'POST']] as const) {
      const r = await server.api(KEYS.admin, method, taskPath(c, T.managerApproval, '/complete'));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.status, method === 'POST' ? 'Complete' : 'Incomplete');
    }
    assert.equal(await halted(a), false, 'A\'s stop task is complete');
    assert.equal(await halted(b), true, 'B\'s is not');
    // The legacy status set (legacy 3) writes the same task by another route.
    const id = (server.emu.db.prepare('SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(a, T.managerApproval) as { id: number }).id;
    const legacy = await server.api(KEYS.admin, 'PUT', '/api/task/status', { taskId: id, status: 'Incomplete', modifiedByUserID: ADA }, { 'X-API-VERSION': '2.0' });
    assert.ok(legacy.status < 300, legacy.text);
    assert.equal(await halted(a), true, 'reopened through the legacy API');
    const again = await server.api(KEYS.admin, 'POST', taskPath(a, T.managerApproval, '/complete'));
    assert.equal(again.body.status, 'Complete', 'a real write, not a repeat of the earlier complete');
    assert.equal(await halted(a), false);
    assert.equal((await server.api(KEYS.admin, 'POST', '/_emulator/reset')).status, 200);
    assert.equal(await halted(DEMO.janeDoe), true, 'after the reset, as the fixture has it');
    const done = await server.api(KEYS.admin, 'POST', taskPath(DEMO.janeDoe, T.managerApproval, '/complete'));
    assert.equal(done.status, 200, done.text);
    assert.equal(await halted(DEMO.janeDoe), false);
  } finally {
    await server.close();
  }
});

const storedRow = (db: Db, id: number) => db.prepare(`SELECT ${TASK_ROW_COLUMNS.join(', ')} FROM tasks WHERE id = ?`).get(id);

test('a task\'s row is remembered until it is written (any column), and a status write hands over the row it left, equal to the stored row', () => {
  const db = s.emu.db;
  const jane = checklistId(db, DEMO.janeDoe);
  rolledBack(db, () => {
    const row = checklistTaskByKey(db, jane, T.managerApproval)!;
    assert.equal(taskById(db, row.id), row, 'the same row, remembered');
    assert.equal(checklistTaskByKey(db, jane, T.managerApproval.toUpperCase())!.id, row.id, 'another letter case finds it too');
    db.prepare('UPDATE tasks SET due_at = 5 WHERE id != ? AND checklist_id = ?').run(row.id, jane);
    assert.equal(taskById(db, row.id), row, 'other rows written: still remembered');
    db.prepare('UPDATE tasks SET due_at = 7 WHERE id = ?').run(row.id);
    const dated = taskById(db, row.id)!;
    assert.notEqual(dated, row);
    assert.equal(dated.due_at, 7, 'its own row written: read again');
    setTaskComplete(db, dated, 11, ADA);
    const done = taskById(db, row.id)!;
    assert.deepEqual(done, storedRow(db, row.id), 'the row handed over is the stored one');
    assert.equal(done.status, 'Complete');
    assert.equal(done.completed_at, 11);
    assert.equal(checklistTaskByKey(db, jane, T.managerApproval), done, 'found by key without a statement: the same object');
    setTaskUncompleted(db, done);
    assert.deepEqual(taskById(db, row.id), storedRow(db, row.id));
  });
  const row = checklistTaskByKey(db, jane, T.managerApproval)!;
  assert.deepEqual(row, storedRow(db, row.id), 'after the rollback: the stored row');
  assert.equal(row.status, 'Incomplete');
});

test('a status write whose statement also writes its own row (a trigger) is not handed over; a task deleted with its checklist is not found', async () => {
  const db = s.emu.db;
  const key = await newChecklist(s, { name: 'Deleted with its tasks' });
  const c = checklistId(db, key);
  rolledBack(db, () => {
    db.exec(`CREATE TEMP TRIGGER probe_stamp AFTER UPDATE OF status ON main.tasks WHEN NEW.checklist_id = ${c}
      BEGIN UPDATE main.tasks SET due_at = 42 WHERE id = NEW.id; END`);
    const row = checklistTaskByKey(db, c, T.managerApproval)!;
    setTaskComplete(db, row, 1, ADA);
    const after = taskById(db, row.id)!;
    assert.deepEqual(after, storedRow(db, row.id));
    assert.equal(after.due_at, 42, 'what the trigger wrote is in it');
  });
  const row = checklistTaskByKey(db, c, T.managerApproval)!;
  assert.equal(taskById(db, row.id), row);
  taskStatesOfChecklist(db, c);
  rolledBack(db, () => {
    db.prepare('DELETE FROM checklists WHERE id = ?').run(c);
    assert.equal(taskById(db, row.id), undefined, 'deleted by the cascade');
    assert.equal(checklistTaskByKey(db, c, T.managerApproval), undefined);
    assert.deepEqual(taskStatesOfChecklist(db, c), []);
  });
  assert.deepEqual(taskById(db, row.id), storedRow(db, row.id), 'back after the rollback');
});

test('a task row holds every column of tasks but the grid\'s two flags; writing only those flags (the stop task\'s halt, behind it) leaves the row remembered', () => {
  const db = s.emu.db;
  const columns = (db.prepare('PRAGMA main.table_info(tasks)').all() as { name: string }[]).map((c) => c.name);
  assert.deepEqual(
    columns.filter((c) => !(TASK_ROW_COLUMNS as readonly string[]).includes(c)),
    ['grid_halted', 'stop_hidden'],
    'a column added to tasks is read with the row (and watched), or named here as the grid\'s own',
  );
  const jane = checklistId(db, DEMO.janeDoe);
  rolledBack(db, () => {
    const behind = checklistTaskByKey(db, jane, T.firstDayWelcome)!;
    assert.equal(taskById(db, behind.id), behind);
    setTaskComplete(db, checklistTaskByKey(db, jane, T.managerApproval)!, 1, ADA);
    assert.equal((db.prepare('SELECT grid_halted FROM tasks WHERE id = ?').get(behind.id) as { grid_halted: number }).grid_halted, 0, 'released behind the stop task');
    assert.equal(taskById(db, behind.id), behind, 'its row as read is unchanged: still remembered');
    db.prepare('UPDATE tasks SET name = name WHERE id = ?').run(behind.id);
    assert.notEqual(taskById(db, behind.id), behind, 'any other column written: read again');
  });
});

test('a second process writing to the same database file (wfe mcp --db F beside the server) between the server\'s status writes: 4.3 and 2.4 answers follow what it wrote', async () => {
  await besideOneFile(async (served, other) => {
    const c = await newChecklist(served, { name: 'Shared file' });
    const read = async (task: string) => (await served.api(KEYS.admin, 'GET', taskPath(c, task))).body;
    const done = await served.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/complete'));
    assert.equal(done.body.status, 'Complete', done.text);
    assert.equal((await read(T.firstDayWelcome)).isCurrentlyHalted, false, 'released by the server\'s own write');
    const reopened = await callTool(other, 'uncomplete_task', { checklistKey: c, taskKey: T.managerApproval });
    assert.equal(reopened.isError, false, reopened.text);
    assert.equal((await read(T.managerApproval)).status, 'Incomplete', 'the task row the other process wrote');
    assert.equal((await read(T.firstDayWelcome)).isCurrentlyHalted, true, 'the task states it wrote: halted again');
    const again = await served.api(KEYS.admin, 'POST', taskPath(c, T.managerApproval, '/complete'));
    assert.equal(again.body.status, 'Complete');
    assert.notEqual(again.body.completedDateTime, undefined);
    const na = await callTool(other, 'uncomplete_task', { checklistKey: c, taskKey: T.managerApproval });
    assert.equal(na.isError, false, na.text);
    const back = await served.api(KEYS.admin, 'DELETE', taskPath(c, T.managerApproval, '/complete'));
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.status, 'Incomplete', 'a repeat of what the other process did, answered from the stored row');
    assert.equal((await read(T.firstDayWelcome)).isCurrentlyHalted, true);
  });
});
