// Template drafts (schema.sql `drafts`): a document being edited, and the state of its last commit.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { draftsTable } from '../store/tables/templates';

/** A draft row as stored (store/tables/templates.ts). */
export type DraftRow = RowOf<typeof draftsTable.columns>;

export const draftByKey = (db: Db, workspaceId: number, key: string): DraftRow | undefined =>
  db.prepare<[number, string], DraftRow>('SELECT * FROM drafts WHERE workspace_id = ? AND key = ? COLLATE NOCASE').get(workspaceId, key);

export const draftById = (db: Db, id: number): DraftRow | undefined => db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE id = ?').get(id);

/** A workspace's drafts, last changed first. */
export const draftsOfWorkspace = (db: Db, workspaceId: number): DraftRow[] =>
  db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE workspace_id = ? ORDER BY updated_at DESC, id DESC').all(workspaceId);

/** A draft with no commit yet (commit state and result NULL). */
const DRAFT_INSERT = insertOf(draftsTable);

export function insertDraft(db: Db, d: { key: string; workspaceId: number; templateId: number | null; baseVersion: number | null; document: string; createdBy: number; now: number }): void {
  const row = { key: d.key, workspace_id: d.workspaceId, template_id: d.templateId, base_version: d.baseVersion, document: d.document, created_by: d.createdBy, created_at: d.now, updated_at: d.now };
  db.prepare(DRAFT_INSERT.sql).run(DRAFT_INSERT.values(row));
}

export const setDraftDocument = (db: Db, id: number, document: string, at: number): void => void db.prepare('UPDATE drafts SET document = ?, updated_at = ? WHERE id = ?').run(document, at, id);

/** The draft now follows a template version (after a commit); updated_at is left as it was. */
export const setDraftTemplate = (db: Db, id: number, templateId: number, version: number, document: string): void =>
  void db.prepare('UPDATE drafts SET template_id = ?, base_version = ?, document = ? WHERE id = ?').run(templateId, version, document, id);

export const setDraftCommit = (db: Db, id: number, state: DraftRow['commit_state'], result: string): void =>
  void db.prepare('UPDATE drafts SET commit_state = ?, commit_result = ? WHERE id = ?').run(state, result, id);

export const deleteDraftRow = (db: Db, id: number): void => void db.prepare('DELETE FROM drafts WHERE id = ?').run(id);
