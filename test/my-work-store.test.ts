// The Tasks grid's stored flags (schema.sql version 6, docs/tasks-grid.md "Performance"): a
// database of version 5 gains them on migration, and the triggers keep them right whoever
// writes the tasks; `wfe seed --generate` builds the same state set-wise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { migrate, schemaBlocks } from '../src/store/open';
import { loadFixture } from '../src/fixtures/load';
import { generateWorkspace, parseGenerateSpec } from '../src/fixtures/generate';
import { DEMO } from './helpers/server';

const halted = (db: Database.Database, checklistKey: string, taskKey: string) =>
  (db.prepare('SELECT t.grid_halted AS h FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(checklistKey, taskKey) as { h: number }).h;
const openAssignments = (db: Database.Database) =>
  (db.prepare('SELECT assignee_type || assignee_id || \':\' || task_id AS k FROM grid_open_assignments ORDER BY 1').all() as { k: string }[]).map((r) => r.k);
const expectedOpenAssignments = (db: Database.Database) =>
  (
    db
      .prepare(
        `SELECT a.assignee_type || a.assignee_id || ':' || a.task_id AS k FROM task_assignees a JOIN tasks t ON t.id = a.task_id
          WHERE t.is_heading = 0 AND coalesce(t.status, 'Incomplete') = 'Incomplete' ORDER BY 1`,
      )
      .all() as { k: string }[]
  ).map((r) => r.k);

test('schema version 6: a version-5 database gains grid_halted and grid_open_assignments for the rows it holds', () => {
  const db = new Database(':memory:');
  migrate(db, schemaBlocks().filter((b) => b.version < 6));
  loadFixture(db, 'demo', Date.now());
  migrate(db);
  assert.equal(halted(db, DEMO.janeDoe, DEMO.tasks.setUpEquipment), 1, 'behind Manager approval, an incomplete stop task');
  assert.equal(halted(db, DEMO.janeDoe, DEMO.tasks.collectDetails), 0);
  assert.equal(halted(db, DEMO.janeDoe, DEMO.tasks.managerApproval), 0, 'the stop task itself');
  assert.ok(openAssignments(db).length > 0);
  assert.deepEqual(openAssignments(db), expectedOpenAssignments(db));
  db.close();
});

test('schema version 6 triggers: status, stop flags, assignments and deletes keep the grid flags right', () => {
  const db = new Database(':memory:');
  migrate(db);
  loadFixture(db, 'demo', Date.now());
  const jane = (db.prepare('SELECT id FROM checklists WHERE key = ?').get(DEMO.janeDoe) as { id: number }).id;
  const task = (key: string) => (db.prepare('SELECT id FROM tasks WHERE checklist_id = ? AND key = ?').get(jane, key) as { id: number }).id;
  db.prepare("UPDATE tasks SET status = 'Complete' WHERE id = ?").run(task(DEMO.tasks.managerApproval));
  assert.equal(halted(db, DEMO.janeDoe, DEMO.tasks.setUpEquipment), 0, 'completing the stop task releases what follows');
  db.prepare("UPDATE tasks SET status = 'Incomplete' WHERE id = ?").run(task(DEMO.tasks.managerApproval));
  assert.equal(halted(db, DEMO.janeDoe, DEMO.tasks.setUpEquipment), 1);
  db.prepare('UPDATE tasks SET is_stop = 0 WHERE id = ?').run(task(DEMO.tasks.managerApproval));
  assert.equal(halted(db, DEMO.janeDoe, DEMO.tasks.setUpEquipment), 0);
  db.prepare('UPDATE tasks SET is_stop = 1 WHERE id = ?').run(task(DEMO.tasks.managerApproval));
  // Assignments of open tasks only.
  const collect = task(DEMO.tasks.collectDetails);
  db.prepare("INSERT INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, 'TeamMember', ?)").run(collect, DEMO.members.nora);
  assert.deepEqual(openAssignments(db), expectedOpenAssignments(db));
  db.prepare("UPDATE tasks SET status = 'Complete' WHERE id = ?").run(collect);
  assert.ok(!openAssignments(db).some((k) => k.endsWith(`:${collect}`)));
  db.prepare("UPDATE tasks SET status = 'Incomplete' WHERE id = ?").run(collect);
  assert.deepEqual(openAssignments(db), expectedOpenAssignments(db));
  db.prepare("DELETE FROM task_assignees WHERE task_id = ? AND assignee_id = ?").run(collect, DEMO.members.nora);
  assert.deepEqual(openAssignments(db), expectedOpenAssignments(db));
  db.pragma('foreign_keys = ON');
  db.prepare('DELETE FROM checklists WHERE id = ?').run(jane);
  assert.deepEqual(openAssignments(db), expectedOpenAssignments(db));
  db.close();
});

test('wfe seed --generate: the set-wise build leaves the same flags the triggers would', () => {
  const db = new Database(':memory:');
  migrate(db);
  loadFixture(db, 'demo', Date.now());
  generateWorkspace(db, parseGenerateSpec('checklists=300,tasks=8,members=10,groups=3,templates=4,standalone=20'), Date.now());
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM checklists').get() as { n: number }).n, 300 + 4 + 1);
  assert.deepEqual(openAssignments(db), expectedOpenAssignments(db));
  const wrong = db
    .prepare(
      `SELECT COUNT(*) AS n FROM tasks t WHERE t.checklist_id IS NOT NULL AND t.grid_halted != (t.is_heading = 0 AND t.position > coalesce((SELECT min(s.position) FROM tasks s
         WHERE s.checklist_id = t.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete'), 9000000000000000))`,
    )
    .get() as { n: number };
  assert.equal(wrong.n, 0);
  assert.ok((db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE grid_halted = 1').get() as { n: number }).n > 0);
  assert.equal((db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%grid%'").get() as { n: number }).n, 6, 'the triggers are back');
  assert.throws(() => parseGenerateSpec('checklists=ten'), /name=number/);
  assert.throws(() => parseGenerateSpec('tasks=1'), /tasks must be/);
  db.close();
});
