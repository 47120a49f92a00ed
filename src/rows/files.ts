// Stored files (schema.sql `files`): File Upload answers (field_key set) and comment attachments.
import type { Db } from '../store/open';
import { columnNames, insertOf, selectList, type RowOf } from '../store/columns';
import { filesTable } from '../store/tables/tasks';

/** File Upload answers of a checklist's own tasks, by field key, in upload order. */
export function fieldFileNamesOfChecklist(db: Db, checklistId: number): { field_key: string; name: string }[] {
  return db
    .prepare<[number], { field_key: string; name: string }>(
      'SELECT f.field_key, f.name FROM files f JOIN tasks t ON t.id = f.task_id WHERE t.checklist_id = ? AND f.field_key IS NOT NULL ORDER BY f.id',
    )
    .all(checklistId);
}

export function countFieldFiles(db: Db, taskId: number, fieldKey: string): number {
  return db.prepare<[number, string], { n: number }>('SELECT COUNT(*) AS n FROM files WHERE task_id = ? AND field_key = ? COLLATE NOCASE').get(taskId, fieldKey)!.n;
}

/** What a comment's attachment shows. */
export function attachmentById(db: Db, id: number): { name: string; content_type: string; token: string } | undefined {
  return db.prepare<[number], { name: string; content_type: string; token: string }>('SELECT name, content_type, token FROM files WHERE id = ?').get(id);
}

export function deleteFile(db: Db, id: number): void {
  db.prepare('DELETE FROM files WHERE id = ?').run(id);
}

/** A file row as stored (store/tables/tasks.ts). */
export type FileRow = RowOf<typeof filesTable.columns>;

/** A file's facts without its bytes, with their size. */
export type FileInfo = Omit<FileRow, 'data'> & { size: number };

const INFO = `SELECT ${selectList(filesTable, columnNames(filesTable).filter((c) => c !== 'data'))}, length(data) AS size FROM files`;

export function fileInfoById(db: Db, id: number): FileInfo | undefined {
  return db.prepare<[number], FileInfo>(`${INFO} WHERE id = ?`).get(id);
}

/** A File Upload field's files, in upload order. */
export function fileInfosOfField(db: Db, taskId: number, fieldKey: string): FileInfo[] {
  return db.prepare<[number, string], FileInfo>(`${INFO} WHERE task_id = ? AND field_key = ? COLLATE NOCASE ORDER BY id`).all(taskId, fieldKey);
}

/** A file of the field, or undefined. */
export function fileOfField(db: Db, id: number, taskId: number, fieldKey: string): { id: number; name: string } | undefined {
  return db.prepare<[number, number, string], { id: number; name: string }>('SELECT id, name FROM files WHERE id = ? AND task_id = ? AND field_key = ? COLLATE NOCASE').get(id, taskId, fieldKey);
}

const FILE_INSERT = insertOf(filesTable);

export function insertFile(db: Db, f: Omit<FileRow, 'id'>): number {
  return Number(db.prepare(FILE_INSERT.sql).run(FILE_INSERT.values(f)).lastInsertRowid);
}

/** The File Upload answers of a checklist's tasks. */
export function fieldFilesOfChecklist(db: Db, checklistId: number): { id: number; task_id: number; field_key: string; name: string }[] {
  return db
    .prepare<[number], { id: number; task_id: number; field_key: string; name: string }>(
      'SELECT f.id, f.task_id, f.field_key, f.name FROM files f JOIN tasks t ON t.id = f.task_id WHERE t.checklist_id = ? AND f.field_key IS NOT NULL',
    )
    .all(checklistId);
}

export function moveFileToTask(db: Db, id: number, taskId: number): void {
  db.prepare('UPDATE files SET task_id = ? WHERE id = ?').run(taskId, id);
}

/** A File Upload field's files by its exact key, oldest first (what a webhook payload lists). */
export function filesOfFieldKey(db: Db, taskId: number, fieldKey: string): { id: number; name: string; content_type: string; token: string }[] {
  return db
    .prepare<[number, string], { id: number; name: string; content_type: string; token: string }>('SELECT id, name, content_type, token FROM files WHERE task_id = ? AND field_key = ? ORDER BY created_at, id')
    .all(taskId, fieldKey);
}

/** A stored file by its download token, with the region of the workspace that holds it. */
export function fileWithRegionByToken(db: Db, token: string): { name: string; content_type: string; data: Buffer; region: string } | undefined {
  return db
    .prepare<[string], { name: string; content_type: string; data: Buffer; region: string }>(
      'SELECT f.name, f.content_type, f.data, w.region FROM files f JOIN workspaces w ON w.id = f.workspace_id WHERE f.token = ?',
    )
    .get(token);
}

/** The names of the files uploaded to a field (key compared without case) on a checklist's own tasks, oldest first. */
export function fileNamesOfChecklistField(db: Db, checklistId: number, fieldKey: string): string[] {
  return db
    .prepare<[number, string], { name: string }>('SELECT f.name FROM files f JOIN tasks t ON t.id = f.task_id WHERE t.checklist_id = ? AND f.field_key = ? COLLATE NOCASE ORDER BY f.id')
    .all(checklistId, fieldKey)
    .map((x) => x.name);
}
