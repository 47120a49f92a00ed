// Builds a file database holding the demo fixture plus `count` checklists (copies of
// "Onboarding: Jane Doe" with their tasks, assignees and answers), for the memory
// target of issue 3: under 300 MB resident serving 100,000 checklists.
import { randomUUID } from 'node:crypto';
import { openDb } from '../src/store/open';
import { loadFixture } from '../src/fixtures/load';

export function buildBigDatabase(file: string, count: number): void {
  const db = openDb(file);
  loadFixture(db, 'demo', Date.now());
  const src = db.prepare("SELECT * FROM checklists WHERE key = '30000000-0000-4000-8000-000000000001'").get() as Record<string, unknown>;
  const insChecklist = db.prepare(
    `INSERT INTO checklists (key, workspace_id, template_id, template_version, name, status, created_by, created_at, started_at, is_archived)
     VALUES (?, ?, ?, ?, ?, 'InProgress', ?, ?, ?, 0)`,
  );
  const copyTasks = db.prepare(
    `INSERT INTO tasks (key, workspace_id, checklist_id, position, name, description, is_heading, is_stop, status, due_at, is_assigned_exclusively, created_at)
     SELECT key, workspace_id, ?, position, name, description, is_heading, is_stop, status, due_at, is_assigned_exclusively, created_at FROM tasks WHERE checklist_id = ?`,
  );
  const copyAssignees = db.prepare(
    `INSERT INTO task_assignees (task_id, assignee_type, assignee_id)
     SELECT n.id, a.assignee_type, a.assignee_id FROM task_assignees a JOIN tasks o ON o.id = a.task_id JOIN tasks n ON n.checklist_id = ? AND n.key = o.key WHERE o.checklist_id = ?`,
  );
  const copyAnswers = db.prepare(
    `INSERT INTO field_values (task_id, field_key, value, updated_at, updated_by)
     SELECT n.id, v.field_key, v.value, v.updated_at, v.updated_by FROM field_values v JOIN tasks o ON o.id = v.task_id JOIN tasks n ON n.checklist_id = ? AND n.key = o.key WHERE o.checklist_id = ?`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = Number(
        insChecklist.run(randomUUID(), src.workspace_id, src.template_id, src.template_version, `Onboarding: Person ${i + 1}`, src.created_by, now - i * 60_000, now - i * 60_000).lastInsertRowid,
      );
      copyTasks.run(id, src.id);
      copyAssignees.run(id, src.id);
      copyAnswers.run(id, src.id);
    }
  })();
  db.close();
}
