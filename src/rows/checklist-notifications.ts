// Custom notifications added to a checklist as stored (schema.sql `checklist_notifications`).
import type { Db } from '../store/open';

export function notificationsOfChecklist(db: Db, checklistId: number): { id: number; task_key: string | null; subject: string }[] {
  return db.prepare<[number], { id: number; task_key: string | null; subject: string }>('SELECT id, task_key, subject FROM checklist_notifications WHERE checklist_id = ?').all(checklistId);
}

export function deleteChecklistNotification(db: Db, id: number): void {
  db.prepare('DELETE FROM checklist_notifications WHERE id = ?').run(id);
}
