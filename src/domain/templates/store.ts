// Writing templates and versions. Versions are never edited or deleted.
import type { Db } from '../../store/open';
import type { TemplateDocument } from '../../rows/template-document';

export function insertTemplate(db: Db, p: { key: string; workspaceId: number; folderId?: number | null; now: number }): number {
  return Number(
    db.prepare('INSERT INTO templates (key, workspace_id, folder_id, created_at) VALUES (?, ?, ?, ?)').run(p.key, p.workspaceId, p.folderId ?? null, p.now).lastInsertRowid,
  );
}

/** Stores `doc` (every item carrying its id) as the next version of the template. */
export function publishVersion(db: Db, templateId: number, doc: TemplateDocument, createdBy: number | null, now: number): number {
  const { latest_version } = db.prepare('SELECT latest_version FROM templates WHERE id = ?').get(templateId) as { latest_version: number };
  const version = latest_version + 1;
  db.prepare('INSERT INTO template_versions (template_id, version, name, description, document, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    templateId,
    version,
    doc.name,
    doc.description ?? null,
    JSON.stringify(doc),
    now,
    createdBy,
  );
  db.prepare('UPDATE templates SET latest_version = ? WHERE id = ?').run(version, templateId);
  return version;
}
