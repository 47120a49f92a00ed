// A member's snoozes of tasks (schema.sql snoozes): personal, one end per member and task.
import type { Db } from '../store/open';

/** When the member's snooze of the task ends (in force or not), if there is one. */
export function snoozeUntil(db: Db, memberId: number, taskId: number): number | undefined {
  return db.prepare<[number, number], { until_at: number }>('SELECT until_at FROM snoozes WHERE member_id = ? AND task_id = ?').get(memberId, taskId)?.until_at;
}

export function putSnooze(db: Db, memberId: number, taskId: number, untilAt: number): void {
  db.prepare('INSERT OR REPLACE INTO snoozes (member_id, task_id, until_at) VALUES (?, ?, ?)').run(memberId, taskId, untilAt);
}

export function deleteSnooze(db: Db, memberId: number, taskId: number): void {
  db.prepare('DELETE FROM snoozes WHERE member_id = ? AND task_id = ?').run(memberId, taskId);
}
