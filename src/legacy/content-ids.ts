// The legacy integer ids of controls (legacy spec 4.2 update-task-content: taskContentID,
// contentID). Checklists and tasks use their row ids; controls live in template documents
// under GUID keys, so their integers are handed out here on first sight and kept
// (schema.sql version 2), stable across restarts.
import type { Db } from '../store/open';

/** taskContentID: the control (template field key) within the workspace. */
export function taskContentId(db: Db, workspaceId: number, fieldKey: string): number {
  db.prepare('INSERT OR IGNORE INTO legacy_task_contents (workspace_id, field_key) VALUES (?, ?)').run(workspaceId, fieldKey);
  return db.prepare<[number, string], { id: number }>('SELECT id FROM legacy_task_contents WHERE workspace_id = ? AND field_key = ?').get(workspaceId, fieldKey)!.id;
}

/** contentID: the control on one task (checklist task or standalone). */
export function contentId(db: Db, taskId: number, fieldKey: string): number {
  db.prepare('INSERT OR IGNORE INTO legacy_contents (task_id, field_key) VALUES (?, ?)').run(taskId, fieldKey);
  return db.prepare<[number, string], { id: number }>('SELECT id FROM legacy_contents WHERE task_id = ? AND field_key = ?').get(taskId, fieldKey)!.id;
}

/** The task and field a contentID names, within the workspace. */
export function contentById(db: Db, workspaceId: number, id: number): { task_id: number; field_key: string } | undefined {
  return db
    .prepare<[number, number], { task_id: number; field_key: string }>(
      'SELECT c.task_id, c.field_key FROM legacy_contents c JOIN tasks t ON t.id = c.task_id WHERE c.id = ? AND t.workspace_id = ?',
    )
    .get(id, workspaceId);
}

/** The field key a taskContentID names, within the workspace. */
export function fieldKeyOfTaskContent(db: Db, workspaceId: number, id: number): string | undefined {
  return db.prepare<[number, number], { field_key: string }>('SELECT field_key FROM legacy_task_contents WHERE id = ? AND workspace_id = ?').get(id, workspaceId)?.field_key;
}
