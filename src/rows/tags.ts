// Tags and their carriers (schema.sql `tags`, `tag_assignments`). other_count counts carriers the API does not reach.
import type { Db } from '../store/open';
import { insertOf, selectList, type RowOf } from '../store/columns';
import { tagsTable, type tagAssignmentsTable } from '../store/tables/tags';

/** What a tag is put on (store/tables/tags.ts). */
export type TagTarget = RowOf<typeof tagAssignmentsTable.columns>['target_type'];

export const tagByName = (db: Db, workspaceId: number, name: string): { id: number; other_count: number } | undefined =>
  db.prepare<[number, string], { id: number; other_count: number }>('SELECT id, other_count FROM tags WHERE workspace_id = ? AND name = ? COLLATE NOCASE').get(workspaceId, name);

/** A tag on no carrier the API does not reach (other_count 0). */
const TAG_INSERT = insertOf(tagsTable);

export const insertTag = (db: Db, t: { key: string; workspaceId: number; name: string; now: number }): number =>
  Number(db.prepare(TAG_INSERT.sql).run(TAG_INSERT.values({ key: t.key, workspace_id: t.workspaceId, name: t.name, created_at: t.now })).lastInsertRowid);

export const deleteTagRow = (db: Db, id: number): void => void db.prepare('DELETE FROM tags WHERE id = ?').run(id);

/** Puts the tag on a carrier, unless it is there already. */
export const assignTag = (db: Db, key: string, tagId: number, targetType: TagTarget, targetId: number): void =>
  void db.prepare('INSERT OR IGNORE INTO tag_assignments (key, tag_id, target_type, target_id) VALUES (?, ?, ?, ?)').run(key, tagId, targetType, targetId);

/** Takes the tag off a carrier; false when it was not there. */
export const unassignTag = (db: Db, tagId: number, targetType: TagTarget, targetId: number): boolean =>
  db.prepare('DELETE FROM tag_assignments WHERE tag_id = ? AND target_type = ? AND target_id = ?').run(tagId, targetType, targetId).changes > 0;

export const carrierCount = (db: Db, tagId: number): number => db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM tag_assignments WHERE tag_id = ?').get(tagId)!.n;

/** The tags on one carrier, by name. */
export const tagsOf = (db: Db, targetType: TagTarget, targetId: number): { key: string; name: string }[] =>
  db
    .prepare<[string, number], { key: string; name: string }>('SELECT t.key, t.name FROM tag_assignments a JOIN tags t ON t.id = a.tag_id WHERE a.target_type = ? AND a.target_id = ? ORDER BY t.name COLLATE NOCASE, t.id')
    .all(targetType, targetId);

export interface TagCountsRow {
  name: string;
  checklists: number | null;
  templates: number | null;
  tasks: number | null;
  total: number;
}

/** Every tag of a workspace with its carriers counted by kind; total also counts other_count. */
export const tagCountRows = (db: Db, workspaceId: number): TagCountsRow[] =>
  db
    .prepare<[number], TagCountsRow>(
      `SELECT t.name,
              SUM(a.target_type = 'checklist') AS checklists,
              SUM(a.target_type = 'template') AS templates,
              SUM(a.target_type = 'task') AS tasks,
              COUNT(a.id) + t.other_count AS total
         FROM tags t LEFT JOIN tag_assignments a ON a.tag_id = t.id
        WHERE t.workspace_id = ? GROUP BY t.id`,
    )
    .all(workspaceId);

/** Tags on a checklist and on its tasks, with their names. */
export const tagsOnChecklistAndTasks = (db: Db, checklistId: number): { target_type: 'checklist' | 'task'; target_id: number; name: string }[] =>
  db
    .prepare<[number, number], { target_type: 'checklist' | 'task'; target_id: number; name: string }>(
      `SELECT a.target_type, a.target_id, t.name FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
          WHERE (a.target_type = 'checklist' AND a.target_id = ?)
             OR (a.target_type = 'task' AND a.target_id IN (SELECT id FROM tasks WHERE checklist_id = ?))`,
    )
    .all(checklistId, checklistId);

/** Takes every tag off a task. */
export const untagTask = (db: Db, taskId: number): void => void db.prepare("DELETE FROM tag_assignments WHERE target_type = 'task' AND target_id = ?").run(taskId);

/** A tag as the finders read it: its id, key and name (store/tables/tags.ts). */
export type TagRow = Pick<RowOf<typeof tagsTable.columns>, (typeof TAG_COLUMNS)[number]>;

const TAG_COLUMNS = ['id', 'key', 'name'] as const;
const TAG = selectList(tagsTable, TAG_COLUMNS);

/** Every tag of a workspace, by name without case. */
export const tagsOfWorkspace = (db: Db, workspaceId: number): TagRow[] =>
  db.prepare<[number], TagRow>(`SELECT ${TAG} FROM tags WHERE workspace_id = ? ORDER BY name COLLATE NOCASE, id`).all(workspaceId);

/** The workspace's tag of that name, compared without case. */
export const tagRowByName = (db: Db, workspaceId: number, name: string): TagRow | undefined =>
  db.prepare<[number, string], TagRow>(`SELECT ${TAG} FROM tags WHERE workspace_id = ? AND name = ? COLLATE NOCASE`).get(workspaceId, name);

/** The workspace's tag of that key (a GUID, compared without case). */
export const tagByKey = (db: Db, workspaceId: number, key: string): TagRow | undefined =>
  db.prepare<[string, number], TagRow>(`SELECT ${TAG} FROM tags WHERE key = ? COLLATE NOCASE AND workspace_id = ?`).get(key, workspaceId);

/** The key of the tag's assignment to one carrier, or undefined when it is not on it. */
export const assignmentKeyOf = (db: Db, tagId: number, targetType: TagTarget, targetId: number): string | undefined =>
  db.prepare<[number, TagTarget, number], { key: string }>('SELECT key FROM tag_assignments WHERE tag_id = ? AND target_type = ? AND target_id = ?').get(tagId, targetType, targetId)?.key;

/** The tags on a task with their assignment keys (any order). */
export const tagAssignmentsOfTask = (db: Db, taskId: number): { tag_key: string; name: string; a_key: string }[] =>
  db
    .prepare<[number], { tag_key: string; name: string; a_key: string }>(
      `SELECT t.key AS tag_key, t.name, a.key AS a_key FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
        WHERE a.target_type = 'task' AND a.target_id = ?`,
    )
    .all(taskId);
