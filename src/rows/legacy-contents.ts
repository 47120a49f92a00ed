// The legacy integer ids of controls (schema.sql version 2: `legacy_task_contents` per workspace
// and field key, `legacy_contents` per task and field key), handed out on first sight and kept.
import type { Db } from '../store/open';

/** The taskContentID of a field key in a workspace, made on first ask. */
export function taskContentIdOf(db: Db, workspaceId: number, fieldKey: string): number {
  db.prepare('INSERT OR IGNORE INTO legacy_task_contents (workspace_id, field_key) VALUES (?, ?)').run(workspaceId, fieldKey);
  return db.prepare<[number, string], { id: number }>('SELECT id FROM legacy_task_contents WHERE workspace_id = ? AND field_key = ?').get(workspaceId, fieldKey)!.id;
}

/** The contentID of a field key on a task, made on first ask. */
export function contentIdOf(db: Db, taskId: number, fieldKey: string): number {
  db.prepare('INSERT OR IGNORE INTO legacy_contents (task_id, field_key) VALUES (?, ?)').run(taskId, fieldKey);
  return db.prepare<[number, string], { id: number }>('SELECT id FROM legacy_contents WHERE task_id = ? AND field_key = ?').get(taskId, fieldKey)!.id;
}

/** The task and field a contentID names, when that task is of the workspace. */
export const contentRow = (db: Db, workspaceId: number, id: number): { task_id: number; field_key: string } | undefined =>
  db
    .prepare<[number, number], { task_id: number; field_key: string }>('SELECT c.task_id, c.field_key FROM legacy_contents c JOIN tasks t ON t.id = c.task_id WHERE c.id = ? AND t.workspace_id = ?')
    .get(id, workspaceId);

export const taskContentFieldKey = (db: Db, workspaceId: number, id: number): string | undefined =>
  db.prepare<[number, number], { field_key: string }>('SELECT field_key FROM legacy_task_contents WHERE id = ? AND workspace_id = ?').get(id, workspaceId)?.field_key;
