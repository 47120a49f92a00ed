// Writing templates and versions. Versions are never edited or deleted.
import type { Db } from '../../store/open';
import type { TemplateDocument } from '../../rows/template-document';
import { insertTemplateRow, insertVersionRow, latestVersionOf, setLatestVersion } from '../../rows/templates';

export function insertTemplate(db: Db, p: { key: string; workspaceId: number; folderId?: number | null; now: number }): number {
  return insertTemplateRow(db, { key: p.key, workspaceId: p.workspaceId, folderId: p.folderId ?? null, now: p.now });
}

/** Stores `doc` (every item carrying its id) as the next version of the template. */
export function publishVersion(db: Db, templateId: number, doc: TemplateDocument, createdBy: number | null, now: number): number {
  const version = latestVersionOf(db, templateId) + 1;
  insertVersionRow(db, { template_id: templateId, version, name: doc.name, description: doc.description ?? null, document: JSON.stringify(doc), created_at: now, created_by: createdBy });
  setLatestVersion(db, templateId, version);
  return version;
}
