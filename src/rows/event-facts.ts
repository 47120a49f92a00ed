// What webhook matching reads of the thing an event names (a read model over tasks, checklists,
// templates and comments): the task key and the template key a subscription's scope compares.
import type { Db } from '../store/open';
import type { TaskRow } from './tasks';

/** What matching reads of a task row. */
export type TaskFactsRow = Pick<TaskRow, 'key' | 'checklist_id' | 'attached_checklist_id'>;

/** The key of the template a checklist was run from. */
export const templateKeyOfChecklistRow = (db: Db, checklistId: number): string | undefined =>
  db.prepare<[number], { key: string }>('SELECT t.key FROM checklists c JOIN templates t ON t.id = c.template_id WHERE c.id = ?').get(checklistId)?.key;

export const taskFactsById = (db: Db, taskId: number): TaskFactsRow | undefined =>
  db.prepare<[number], TaskFactsRow>('SELECT key, checklist_id, attached_checklist_id FROM tasks WHERE id = ?').get(taskId);

export const taskIdOfComment = (db: Db, commentId: number): number | undefined => db.prepare<[number], { task_id: number }>('SELECT task_id FROM comments WHERE id = ?').get(commentId)?.task_id;

/** Whether a standalone task of the workspace has this key. */
export const standaloneTaskKeyExists = (db: Db, workspaceId: number, key: string): boolean =>
  db.prepare('SELECT 1 FROM tasks WHERE workspace_id = ? AND checklist_id IS NULL AND key = ? COLLATE NOCASE').get(workspaceId, key) !== undefined;
