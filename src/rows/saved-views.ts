// Saved views of the Tasks grid (schema.sql saved_views) and each member's default view
// (my_work_defaults). The rules of who sees and changes a view are src/domain/mywork/views.ts.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { savedViewsTable } from '../store/tables/my-work';

/** A saved view row as stored (store/tables/my-work.ts): `data` the view's definition as JSON. */
export type SavedViewRow = RowOf<typeof savedViewsTable.columns>;

export type SavedViewType = SavedViewRow['type'];

/** A view of the workspace by key, any case. */
export function savedViewByKey(db: Db, workspaceId: number, key: string): SavedViewRow | undefined {
  return db.prepare<[string, number], SavedViewRow>('SELECT * FROM saved_views WHERE key = ? COLLATE NOCASE AND workspace_id = ?').get(key, workspaceId);
}

/** A view of the workspace by its exact key (as stored in my_work_defaults). */
export function savedViewByExactKey(db: Db, workspaceId: number, key: string): SavedViewRow | undefined {
  return db.prepare<[string, number], SavedViewRow>('SELECT * FROM saved_views WHERE key = ? AND workspace_id = ?').get(key, workspaceId);
}

/** Every view of the workspace, oldest first. */
export function savedViewsOfWorkspace(db: Db, workspaceId: number): SavedViewRow[] {
  return db.prepare<[number], SavedViewRow>('SELECT * FROM saved_views WHERE workspace_id = ? ORDER BY created_at, id').all(workspaceId);
}

const VIEW_INSERT = insertOf(savedViewsTable);

export function insertSavedView(db: Db, row: Omit<SavedViewRow, 'id'>): void {
  db.prepare(VIEW_INSERT.sql).run(VIEW_INSERT.values(row));
}

export function updateSavedView(db: Db, id: number, type: SavedViewType, data: string): void {
  db.prepare('UPDATE saved_views SET type = ?, data = ? WHERE id = ?').run(type, data, id);
}

/** Deletes the view and every member's default naming it. */
export function deleteSavedView(db: Db, view: Pick<SavedViewRow, 'id' | 'key'>): void {
  db.prepare('DELETE FROM saved_views WHERE id = ?').run(view.id);
  db.prepare('DELETE FROM my_work_defaults WHERE view_key = ? COLLATE NOCASE').run(view.key);
}

/** The member's default view key, when they chose one. */
export function defaultViewKey(db: Db, memberId: number): string | undefined {
  return db.prepare<[number], { view_key: string }>('SELECT view_key FROM my_work_defaults WHERE member_id = ?').get(memberId)?.view_key;
}

/** Sets (a key) or clears (null) the member's default view. */
export function setDefaultViewKey(db: Db, memberId: number, viewKey: string | null): void {
  if (viewKey === null) db.prepare('DELETE FROM my_work_defaults WHERE member_id = ?').run(memberId);
  else db.prepare('INSERT OR REPLACE INTO my_work_defaults (member_id, view_key) VALUES (?, ?)').run(memberId, viewKey);
}
