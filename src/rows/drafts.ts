// Template drafts (schema.sql `drafts`): a document being edited, and the state of its last commit.
import type { Db } from '../store/open';

export interface DraftRow {
  id: number;
  key: string;
  workspace_id: number;
  template_id: number | null;
  base_version: number | null;
  document: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  commit_state: 'pending' | 'succeeded' | 'failed' | null;
  commit_result: string | null;
}

export const draftByKey = (db: Db, workspaceId: number, key: string): DraftRow | undefined =>
  db.prepare<[number, string], DraftRow>('SELECT * FROM drafts WHERE workspace_id = ? AND key = ? COLLATE NOCASE').get(workspaceId, key);

export const draftById = (db: Db, id: number): DraftRow | undefined => db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE id = ?').get(id);

/** A workspace's drafts, last changed first. */
export const draftsOfWorkspace = (db: Db, workspaceId: number): DraftRow[] =>
  db.prepare<[number], DraftRow>('SELECT * FROM drafts WHERE workspace_id = ? ORDER BY updated_at DESC, id DESC').all(workspaceId);

export function insertDraft(db: Db, d: { key: string; workspaceId: number; templateId: number | null; baseVersion: number | null; document: string; createdBy: number; now: number }): void {
  db.prepare('INSERT INTO drafts (key, workspace_id, template_id, base_version, document, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    d.key,
    d.workspaceId,
    d.templateId,
    d.baseVersion,
    d.document,
    d.createdBy,
    d.now,
    d.now,
  );
}

export const setDraftDocument = (db: Db, id: number, document: string, at: number): void => void db.prepare('UPDATE drafts SET document = ?, updated_at = ? WHERE id = ?').run(document, at, id);

/** The draft now follows a template version (after a commit); updated_at is left as it was. */
export const setDraftTemplate = (db: Db, id: number, templateId: number, version: number, document: string): void =>
  void db.prepare('UPDATE drafts SET template_id = ?, base_version = ?, document = ? WHERE id = ?').run(templateId, version, document, id);

export const setDraftCommit = (db: Db, id: number, state: DraftRow['commit_state'], result: string): void =>
  void db.prepare('UPDATE drafts SET commit_state = ?, commit_result = ? WHERE id = ?').run(state, result, id);

export const deleteDraftRow = (db: Db, id: number): void => void db.prepare('DELETE FROM drafts WHERE id = ?').run(id);
