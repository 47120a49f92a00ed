// Task comments as stored (schema.sql `comments`). Never edited: added and deleted whole.
import type { Db } from '../store/open';

export interface CommentRow {
  id: number;
  task_id: number;
  author_id: number | null;
  html: string | null;
  text: string;
  mentions: string;
  file_id: number | null;
  created_at: number;
}

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

export function insertComment(db: Db, c: Omit<CommentRow, 'id'>): number {
  return Number(
    db
      .prepare('INSERT INTO comments (task_id, author_id, html, text, mentions, file_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(c.task_id, c.author_id, c.html, c.text, c.mentions, c.file_id, c.created_at).lastInsertRowid,
  );
}

export function deleteComment(db: Db, id: number): void {
  db.prepare('DELETE FROM comments WHERE id = ?').run(id);
}

/** Comments that carried the file keep their text without it. */
export function detachFileFromComments(db: Db, fileId: number): void {
  db.prepare('UPDATE comments SET file_id = NULL WHERE file_id = ?').run(fileId);
}
