// The activity feed as stored (schema.sql `activity`). No memo declares reading it
// (store/memo.ts), so recording who did what does not make the checklist's evaluated state,
// computed by the same write, stale.
import type { Db } from '../store/open';
import { insertOf, selectList, type InsertOf, type RowOf } from '../store/columns';
import { activityTable } from '../store/tables/tasks';

/** What an activity entry is written with (store/tables/tasks.ts). */
export type ActivityInsert = InsertOf<typeof activityTable.columns>;

const ACTIVITY_INSERT = insertOf(activityTable);

export function insertActivity(db: Db, a: ActivityInsert): void {
  db.prepare(ACTIVITY_INSERT.sql).run(ACTIVITY_INSERT.values(a));
}

/** An entry as the feeds read it: the declared columns but where it happened (store/tables/tasks.ts). */
export type ActivityRow = Pick<RowOf<typeof activityTable.columns>, (typeof FEED_COLUMNS)[number]>;

const FEED_COLUMNS = ['id', 'member_id', 'action', 'text', 'data', 'created_at'] as const;

/** A task's feed, newest first. */
export function activityOfTask(db: Db, taskId: number): ActivityRow[] {
  return db.prepare<[number], ActivityRow>(`SELECT ${selectList(activityTable, FEED_COLUMNS)} FROM activity WHERE task_id = ? ORDER BY created_at DESC, id DESC`).all(taskId);
}

/** A checklist's feed, newest first, with the key of the task each entry is about. */
export function activityOfChecklist(db: Db, checklistId: number): (ActivityRow & { task_key: string | null })[] {
  return db
    .prepare<[number], ActivityRow & { task_key: string | null }>(
      `SELECT ${selectList(activityTable, FEED_COLUMNS, 'a')}, t.key AS task_key
         FROM activity a LEFT JOIN tasks t ON t.id = a.task_id
        WHERE a.checklist_id = ? ORDER BY a.created_at DESC, a.id DESC`,
    )
    .all(checklistId);
}
