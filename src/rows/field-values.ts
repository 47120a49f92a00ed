// Field answers as stored (schema.sql `field_values`): JSON text per task and field key.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { fieldValuesTable } from '../store/tables/tasks';

/** An answer as the finders of a task's answers read it: its key and JSON value. */
export type FieldValueRow = Pick<StoredFieldValueRow, 'field_key' | 'value'>;

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

const VALUE_INSERT = insertOf(fieldValuesTable);

/** Replaces the answer (the key is stored as given, whatever case an earlier answer had). */
export function replaceFieldValue(db: Db, taskId: number, fieldKey: string, json: string, at: number, by: number): void {
  deleteFieldValue(db, taskId, fieldKey);
  db.prepare(VALUE_INSERT.sql).run(VALUE_INSERT.values({ task_id: taskId, field_key: fieldKey, value: json, updated_at: at, updated_by: by }));
}

/** An answer row as stored (store/tables/tasks.ts). */
export type StoredFieldValueRow = RowOf<typeof fieldValuesTable.columns>;

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

/** One stored answer of a task (key compared without case). */
export function fieldValueOf(db: Db, taskId: number, fieldKey: string): { value: string | null } | undefined {
  return db.prepare<[number, string], { value: string | null }>('SELECT value FROM field_values WHERE task_id = ? AND field_key = ? COLLATE NOCASE').get(taskId, fieldKey);
}

/** A checklist task's answer naming a linked checklist, with the task that holds it. */
export interface LinkAnswerRow {
  checklist_id: number;
  task_key: string;
  field_key: string;
  value: string;
}

/** Checklist tasks of the workspace whose answer is exactly this text, oldest answer first. */
export function checklistAnswersEqualTo(db: Db, workspaceId: number, value: string): LinkAnswerRow[] {
  return db
    .prepare<[string, number], LinkAnswerRow>(
      `SELECT t.checklist_id, t.key AS task_key, fv.field_key, fv.value FROM field_values fv JOIN tasks t ON t.id = fv.task_id
        WHERE fv.value = ? AND t.workspace_id = ? AND t.checklist_id IS NOT NULL ORDER BY fv.updated_at, t.id`,
    )
    .all(value, workspaceId);
}

/** A checklist's own answers that name a checklist, in task order. */
export function checklistKeyAnswersOf(db: Db, checklistId: number): LinkAnswerRow[] {
  return db
    .prepare<[number], LinkAnswerRow>(
      `SELECT t.checklist_id, t.key AS task_key, fv.field_key, fv.value FROM field_values fv JOIN tasks t ON t.id = fv.task_id
        WHERE t.checklist_id = ? AND fv.value LIKE '{"checklistKey":%' ORDER BY t.position, t.id, fv.field_key`,
    )
    .all(checklistId);
}

/** The first stored answer, on any of a checklist's own tasks, under a field key (compared without case). */
export function checklistFieldValue(db: Db, checklistId: number, fieldKey: string): { value: string | null } | undefined {
  return db
    .prepare<[number, string], { value: string | null }>('SELECT v.value FROM field_values v JOIN tasks t ON t.id = v.task_id WHERE t.checklist_id = ? AND v.field_key = ? COLLATE NOCASE')
    .get(checklistId, fieldKey);
}
