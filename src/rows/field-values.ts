// Field answers as stored (schema.sql `field_values`): JSON text per task and field key.
import type { Db } from '../store/open';

export interface FieldValueRow {
  field_key: string;
  value: string | null;
}

/** A task's stored answers. */
export function fieldValuesOfTask(db: Db, taskId: number): FieldValueRow[] {
  return db.prepare<[number], FieldValueRow>('SELECT field_key, value FROM field_values WHERE task_id = ?').all(taskId);
}

/** Every stored answer of a checklist's own tasks. */
export function fieldValuesOfChecklist(db: Db, checklistId: number): FieldValueRow[] {
  return db.prepare<[number], FieldValueRow>('SELECT v.field_key, v.value FROM field_values v JOIN tasks t ON t.id = v.task_id WHERE t.checklist_id = ?').all(checklistId);
}

export function deleteFieldValue(db: Db, taskId: number, fieldKey: string): void {
  db.prepare('DELETE FROM field_values WHERE task_id = ? AND field_key = ? COLLATE NOCASE').run(taskId, fieldKey);
}

/** Replaces the answer (the key is stored as given, whatever case an earlier answer had). */
export function replaceFieldValue(db: Db, taskId: number, fieldKey: string, json: string, at: number, by: number): void {
  deleteFieldValue(db, taskId, fieldKey);
  db.prepare('INSERT INTO field_values (task_id, field_key, value, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)').run(taskId, fieldKey, json, at, by);
}
