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

export interface StoredFieldValueRow {
  task_id: number;
  field_key: string;
  value: string | null;
  updated_at: number;
  updated_by: number | null;
}

/** Every stored answer of a checklist's tasks, with who answered when. */
export function storedValuesOfChecklist(db: Db, checklistId: number): StoredFieldValueRow[] {
  return db.prepare<[number], StoredFieldValueRow>('SELECT v.* FROM field_values v JOIN tasks t ON t.id = v.task_id WHERE t.checklist_id = ?').all(checklistId);
}

/** Writes an answer over whatever the task's field held. */
export function putFieldValue(db: Db, v: StoredFieldValueRow): void {
  db.prepare('INSERT OR REPLACE INTO field_values (task_id, field_key, value, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)').run(v.task_id, v.field_key, v.value, v.updated_at, v.updated_by);
}

export function deleteFieldValuesOfChecklist(db: Db, checklistId: number): void {
  db.prepare('DELETE FROM field_values WHERE task_id IN (SELECT id FROM tasks WHERE checklist_id = ?)').run(checklistId);
}
