// Task assignments as stored (schema.sql `task_assignees`): a member or a group per row.
import type { Db } from '../store/open';
import type { RowOf } from '../store/columns';
import type { taskAssigneesTable } from '../store/tables/tasks';
import type { TaskRow } from './tasks';

/** An assignment as the finders read it: without its task (store/tables/tasks.ts). */
export type TaskAssigneeRow = Pick<RowOf<typeof taskAssigneesTable.columns>, 'assignee_type' | 'assignee_id'>;

export function assigneesOfTask(db: Db, taskId: number): TaskAssigneeRow[] {
  return db.prepare<[number], TaskAssigneeRow>('SELECT assignee_type, assignee_id FROM task_assignees WHERE task_id = ?').all(taskId);
}

export function addTaskAssignee(db: Db, taskId: number, type: 'TeamMember' | 'Group', id: number): void {
  db.prepare('INSERT OR IGNORE INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, ?, ?)').run(taskId, type, id);
}

export function removeTaskAssignee(db: Db, taskId: number, type: string, id: number): void {
  db.prepare('DELETE FROM task_assignees WHERE task_id = ? AND assignee_type = ? AND assignee_id = ?').run(taskId, type, id);
}

/** Members covered by a task's assignees, directly or through a group. */
export function memberIdsAssignedTo(db: Db, taskId: number): number[] {
  return db
    .prepare<[number, number], { member_id: number }>(
      `SELECT assignee_id AS member_id FROM task_assignees WHERE task_id = ? AND assignee_type = 'TeamMember'
       UNION SELECT gm.member_id FROM task_assignees a JOIN group_members gm ON gm.group_id = a.assignee_id
        WHERE a.task_id = ? AND a.assignee_type = 'Group'`,
    )
    .all(taskId, taskId)
    .map((r) => r.member_id);
}

/** Tasks of the workspace (headings excepted) assigned directly to the member or group. */
export function tasksAssignedTo(db: Db, type: string, id: number, workspaceId: number): TaskRow[] {
  return db
    .prepare<[string, number, number], TaskRow>(
      'SELECT t.* FROM task_assignees a JOIN tasks t ON t.id = a.task_id WHERE a.assignee_type = ? AND a.assignee_id = ? AND t.workspace_id = ? AND t.is_heading = 0',
    )
    .all(type, id, workspaceId);
}

export function clearTaskAssignees(db: Db, taskId: number): void {
  db.prepare('DELETE FROM task_assignees WHERE task_id = ?').run(taskId);
}
