// Template rows as stored (schema.sql `templates`, `template_versions`).
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { templatesTable, templateVersionsTable } from '../store/tables/templates';
/** A template row as stored (store/tables/templates.ts). */
export type TemplateRow = RowOf<typeof templatesTable.columns>;

/** A template version row as stored. */
export type TemplateVersionRow = RowOf<typeof templateVersionsTable.columns>;

export const templateById = (db: Db, id: number): TemplateRow | undefined => db.prepare<[number], TemplateRow>('SELECT * FROM templates WHERE id = ?').get(id);

export const templateByKey = (db: Db, workspaceId: number, key: string): TemplateRow | undefined =>
  db.prepare<[number, string], TemplateRow>('SELECT * FROM templates WHERE workspace_id = ? AND key = ? COLLATE NOCASE').get(workspaceId, key);

export const templatesOfWorkspace = (db: Db, workspaceId: number): TemplateRow[] => db.prepare<[number], TemplateRow>('SELECT * FROM templates WHERE workspace_id = ?').all(workspaceId);

export const templateVersion = (db: Db, templateId: number, version: number): TemplateVersionRow | undefined =>
  db.prepare<[number, number], TemplateVersionRow>('SELECT * FROM template_versions WHERE template_id = ? AND version = ?').get(templateId, version);

/** Every version of a template, oldest first. */
export const versionsOldestFirst = (db: Db, templateId: number): TemplateVersionRow[] =>
  db.prepare<[number], TemplateVersionRow>('SELECT * FROM template_versions WHERE template_id = ? ORDER BY version').all(templateId);

export const versionsNewestFirst = (db: Db, templateId: number): TemplateVersionRow[] =>
  db.prepare<[number], TemplateVersionRow>('SELECT * FROM template_versions WHERE template_id = ? ORDER BY version DESC').all(templateId);

/** The stored document text of every version (any order). */
export const versionDocumentTexts = (db: Db, templateId: number): string[] =>
  db.prepare<[number], { document: string }>('SELECT document FROM template_versions WHERE template_id = ?').all(templateId).map((r) => r.document);

export type LatestTemplateRow = TemplateRow & { v_name: string; v_description: string | null; v_created_at: number; v_created_by: number | null; v_document: string };

/** Every template of a workspace with its latest version's columns (v_*), by name. */
export const latestTemplateRows = (db: Db, workspaceId: number): LatestTemplateRow[] =>
  db
    .prepare<[number], LatestTemplateRow>(
      `SELECT t.*, v.name AS v_name, v.description AS v_description, v.created_at AS v_created_at, v.created_by AS v_created_by, v.document AS v_document
         FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version
        WHERE t.workspace_id = ? ORDER BY v.name COLLATE NOCASE, t.id`,
    )
    .all(workspaceId);

/** The latest version's document of every template of a workspace, in template order. */
export const latestDocuments = (db: Db, workspaceId: number): { id: number; key: string; name: string; document: string }[] =>
  db
    .prepare<[number], { id: number; key: string; name: string; document: string }>(
      `SELECT t.id, t.key, v.name, v.document FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version
        WHERE t.workspace_id = ? ORDER BY t.id`,
    )
    .all(workspaceId);

/** A template whose latest version has this name (any case). */
export const templateIdByLatestName = (db: Db, workspaceId: number, name: string): number | undefined =>
  db
    .prepare<[number, string], { id: number }>(
      `SELECT t.id FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version
          WHERE t.workspace_id = ? AND lower(v.name) = lower(?) LIMIT 1`,
    )
    .get(workspaceId, name)?.id;

/** A template's key and latest version name by row id. */
export const templateNameById = (db: Db, id: number): { key: string; name: string } | undefined =>
  db.prepare<[number], { key: string; name: string }>('SELECT t.key, v.name FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version WHERE t.id = ?').get(id);

// Not archived, at version 0 until its first version is written (the schema's defaults).
const TEMPLATE_INSERT = insertOf(templatesTable);

export function insertTemplateRow(db: Db, p: { key: string; workspaceId: number; folderId: number | null; now: number }): number {
  return Number(db.prepare(TEMPLATE_INSERT.sql).run(TEMPLATE_INSERT.values({ key: p.key, workspace_id: p.workspaceId, folder_id: p.folderId, created_at: p.now })).lastInsertRowid);
}

export const latestVersionOf = (db: Db, templateId: number): number => db.prepare<[number], { latest_version: number }>('SELECT latest_version FROM templates WHERE id = ?').get(templateId)!.latest_version;

const VERSION_INSERT = insertOf(templateVersionsTable);

export function insertVersionRow(db: Db, v: TemplateVersionRow): void {
  db.prepare(VERSION_INSERT.sql).run(VERSION_INSERT.values(v));
}

export const setLatestVersion = (db: Db, templateId: number, version: number): void => void db.prepare('UPDATE templates SET latest_version = ? WHERE id = ?').run(version, templateId);
export const setTemplateArchivedFlag = (db: Db, templateId: number, archived: boolean): void => void db.prepare('UPDATE templates SET is_archived = ? WHERE id = ?').run(archived ? 1 : 0, templateId);

/** The document of every version of every template of a workspace. */
export const allVersionDocumentTexts = (db: Db, workspaceId: number): string[] =>
  db.prepare<[number], { document: string }>('SELECT v.document FROM template_versions v JOIN templates t ON t.id = v.template_id WHERE t.workspace_id = ?').all(workspaceId).map((r) => r.document);

/** Latest-version documents of a workspace's templates whose text holds `needle` (any case): a key search narrowed before parsing. */
export const latestDocumentsHolding = (db: Db, workspaceId: number, needle: string): string[] =>
  db
    .prepare<[number, string], { document: string }>(
      `SELECT v.document FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version
        WHERE t.workspace_id = ? AND instr(lower(v.document), lower(?)) > 0`,
    )
    .all(workspaceId, needle)
    .map((r) => r.document);

/** Every version (any template of the workspace) whose document text holds `needle` (any case). */
export const versionsHolding = (db: Db, workspaceId: number, needle: string): { template_id: number; version: number; document: string }[] =>
  db
    .prepare<[number, string], { template_id: number; version: number; document: string }>(
      `SELECT v.template_id, v.version, v.document FROM template_versions v JOIN templates t ON t.id = v.template_id
        WHERE t.workspace_id = ? AND instr(lower(v.document), lower(?)) > 0`,
    )
    .all(workspaceId, needle);

/** Whether the template is archived, and its latest version. */
export const templateState = (db: Db, id: number): { is_archived: number; latest_version: number } =>
  db.prepare<[number], { is_archived: number; latest_version: number }>('SELECT is_archived, latest_version FROM templates WHERE id = ?').get(id)!;

export const templateIsArchived = (db: Db, id: number): boolean => db.prepare<[number], { is_archived: number }>('SELECT is_archived FROM templates WHERE id = ?').get(id)!.is_archived !== 0;

/** A template's key, latest version name and archived flag by row id. */
export const templateRefById = (db: Db, id: number): { key: string; name: string; is_archived: number } =>
  db
    .prepare<[number], { key: string; name: string; is_archived: number }>(
      `SELECT t.key, v.name, t.is_archived FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version WHERE t.id = ?`,
    )
    .get(id)!;

/** Who published a version of the template. */
export const versionPublisher = (db: Db, templateId: number, version: number): number | null | undefined =>
  db.prepare<[number, number], { created_by: number | null }>('SELECT created_by FROM template_versions WHERE template_id = ? AND version = ?').get(templateId, version)?.created_by;

/** A template's key and latest version name by key within the workspace (key compared with case). */
export const templateNameByKey = (db: Db, workspaceId: number, key: string): { key: string; name: string } | undefined =>
  db
    .prepare<[string, number], { key: string; name: string }>(
      'SELECT t.key, v.name FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version WHERE t.key = ? AND t.workspace_id = ?',
    )
    .get(key, workspaceId);

/** A template with its latest version's name. */
export type NamedTemplateRow = Pick<TemplateRow, 'id' | 'key' | 'is_archived' | 'latest_version'> & Pick<TemplateVersionRow, 'name'>;

/** The oldest template of the workspace whose latest version has this name (compared without case). */
export const templateByLatestName = (db: Db, workspaceId: number, name: string): NamedTemplateRow | undefined =>
  db
    .prepare<[number, string], NamedTemplateRow>(
      `SELECT t.id, t.key, v.name, t.is_archived, t.latest_version FROM templates t
         JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version
        WHERE t.workspace_id = ? AND lower(v.name) = lower(?) ORDER BY t.id LIMIT 1`,
    )
    .get(workspaceId, name);
