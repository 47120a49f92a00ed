// The legacy API's searches and its analytics read model (legacy spec 4.1 checklist search, 4.6
// analytics): reads over checklists, tasks, tags and comments that only the legacy routes make.
// Whole checklist and task rows are returned as the caller's row type (`C`, `T`): their shapes
// belong to the checklist and task rows.
import type { Db } from '../store/open';

export interface ChecklistSearch {
  workspaceId: number;
  templateId: number;
  /** Part of the name, any case. */
  name?: string;
  /** Part of a tag's name, any case. */
  tag?: string;
  status?: 'Scheduled' | 'InProgress' | 'Complete';
  /** Completed at or after (with status Complete). */
  completedSince?: number;
}

/** A template's checklists, archived ones left out, matching every filter given, newest first. */
export function searchChecklists<C>(db: Db, f: ChecklistSearch): C[] {
  const where = ['workspace_id = ?', 'template_id = ?', 'is_archived = 0'];
  const args: (string | number)[] = [f.workspaceId, f.templateId];
  if (f.name) {
    where.push('instr(lower(name), lower(?)) > 0');
    args.push(f.name);
  }
  if (f.tag) {
    where.push(
      `id IN (SELECT a.target_id FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
               WHERE a.target_type = 'checklist' AND t.workspace_id = ? AND instr(lower(t.name), lower(?)) > 0)`,
    );
    args.push(f.workspaceId, f.tag);
  }
  if (f.status) {
    where.push('status = ?');
    args.push(f.status);
  }
  if (f.completedSince !== undefined) {
    where.push('completed_at >= ?');
    args.push(f.completedSince);
  }
  return db.prepare<(string | number)[], C>(`SELECT * FROM checklists WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC`).all(...args);
}

/** Every task of this key: the copies on the workspace's unarchived checklists, and the standalone task. */
export const tasksWithKey = <T>(db: Db, workspaceId: number, key: string): T[] =>
  db
    .prepare<[string, number, string, number], T>(
      `SELECT t.* FROM tasks t JOIN checklists c ON c.id = t.checklist_id
        WHERE t.key = ? COLLATE NOCASE AND c.workspace_id = ? AND c.is_archived = 0
       UNION ALL
       SELECT t.* FROM tasks t WHERE t.checklist_id IS NULL AND t.key = ? COLLATE NOCASE AND t.workspace_id = ?`,
    )
    .all(key, workspaceId, key, workspaceId);

/** The copies of one template task on the checklists run from one template version, with each checklist's creation time. */
export const taskCopiesOfVersion = <T>(db: Db, templateId: number, version: number, taskKey: string): (T & { c_created: number })[] =>
  db
    .prepare<[number, number, string], T & { c_created: number }>(
      `SELECT t.*, c.created_at AS c_created FROM tasks t JOIN checklists c ON c.id = t.checklist_id
      WHERE c.template_id = ? AND c.template_version = ? AND t.key = ? COLLATE NOCASE`,
    )
    .all(templateId, version, taskKey);

export const checklistsOfWorkspace = <C>(db: Db, workspaceId: number): C[] => db.prepare<[number], C>('SELECT * FROM checklists WHERE workspace_id = ?').all(workspaceId);

/** Every checklist task of the workspace that is not a heading. */
export const checklistTasksOfWorkspace = <T>(db: Db, workspaceId: number): T[] =>
  db.prepare<[number], T>('SELECT * FROM tasks WHERE workspace_id = ? AND checklist_id IS NOT NULL AND is_heading = 0').all(workspaceId);

/** Comments made on checklist tasks of the workspace in [from, to). */
export const checklistCommentsBetween = (db: Db, workspaceId: number, from: number, to: number): { task_id: number; author_id: number | null; checklist_id: number }[] =>
  db
    .prepare<[number, number, number], { task_id: number; author_id: number | null; checklist_id: number }>(
      'SELECT c.task_id, c.author_id, t.checklist_id FROM comments c JOIN tasks t ON t.id = c.task_id WHERE t.workspace_id = ? AND t.checklist_id IS NOT NULL AND c.created_at >= ? AND c.created_at < ?',
    )
    .all(workspaceId, from, to);
