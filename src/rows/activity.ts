// The activity feed as stored (schema.sql `activity`). No memo declares reading it
// (store/memo.ts), so recording who did what does not make the checklist's evaluated state,
// computed by the same write, stale.
import type { Db } from '../store/open';
import { activityTable, insertOf, type InsertOf } from '../store/columns';

/** What an activity entry is written with (store/columns.ts). */
export type ActivityInsert = InsertOf<typeof activityTable.columns>;

const ACTIVITY_INSERT = insertOf(activityTable);

export function insertActivity(db: Db, a: ActivityInsert): void {
  db.prepare(ACTIVITY_INSERT.sql).run(ACTIVITY_INSERT.values(a));
}

export interface ActivityRow {
  id: number;
  member_id: number | null;
  action: string;
  text: string;
  data: string | null;
  created_at: number;
}

/** A task's feed, newest first. */
export function activityOfTask(db: Db, taskId: number): ActivityRow[] {
  return db.prepare<[number], ActivityRow>('SELECT id, member_id, action, text, data, created_at FROM activity WHERE task_id = ? ORDER BY created_at DESC, id DESC').all(taskId);
}

/** A checklist's feed, newest first, with the key of the task each entry is about. */
export function activityOfChecklist(db: Db, checklistId: number): (ActivityRow & { task_key: string | null })[] {
  return db
    .prepare<[number], ActivityRow & { task_key: string | null }>(
      `SELECT a.id, t.key AS task_key, a.member_id, a.action, a.text, a.data, a.created_at
         FROM activity a LEFT JOIN tasks t ON t.id = a.task_id
        WHERE a.checklist_id = ? ORDER BY a.created_at DESC, a.id DESC`,
    )
    .all(checklistId);
}
