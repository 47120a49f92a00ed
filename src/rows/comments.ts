// Task comments as stored (schema.sql `comments`). Never edited: added and deleted whole.
import type { Db } from '../store/open';
import { insertOf, type InsertOf, type RowOf } from '../store/columns';
import { commentsTable } from '../store/tables/tasks';

/** A comment row as stored (store/tables/tasks.ts). */
export type CommentRow = RowOf<typeof commentsTable.columns>;

export function commentById(db: Db, id: number): CommentRow | undefined {
  return db.prepare<[number], CommentRow>('SELECT * FROM comments WHERE id = ?').get(id);
}

export function commentOfTask(db: Db, taskId: number, id: number): CommentRow | undefined {
  return db.prepare<[number, number], CommentRow>('SELECT * FROM comments WHERE id = ? AND task_id = ?').get(id, taskId);
}

/** A task's comments, oldest first. */
export function commentsOfTask(db: Db, taskId: number): CommentRow[] {
  return db.prepare<[number], CommentRow>('SELECT * FROM comments WHERE task_id = ? ORDER BY created_at, id').all(taskId);
}

const COMMENT_INSERT = insertOf(commentsTable);

/** The one INSERT of a comment (the generator's too); answers its row id. */
export function insertComment(db: Db, c: InsertOf<typeof commentsTable.columns>): number {
  return Number(db.prepare(COMMENT_INSERT.sql).run(COMMENT_INSERT.values(c)).lastInsertRowid);
}

export function deleteComment(db: Db, id: number): void {
  db.prepare('DELETE FROM comments WHERE id = ?').run(id);
}

/** Comments that carried the file keep their text without it. */
export function detachFileFromComments(db: Db, fileId: number): void {
  db.prepare('UPDATE comments SET file_id = NULL WHERE file_id = ?').run(fileId);
}
