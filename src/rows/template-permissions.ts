// Template permission rules (schema.sql `template_permissions`): who may view, run or edit a template.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { templatePermissionsTable } from '../store/tables/templates';

/** A rule as the finders read it: without its template (store/tables/templates.ts). */
export type PermissionRow = Pick<RowOf<typeof templatePermissionsTable.columns>, 'assignee_type' | 'assignee_id' | 'permission'>;

export const permissionsOfTemplate = (db: Db, templateId: number): PermissionRow[] =>
  db.prepare<[number], PermissionRow>('SELECT assignee_type, assignee_id, permission FROM template_permissions WHERE template_id = ?').all(templateId);

const PERMISSION_INSERT = insertOf(templatePermissionsTable);

export const insertPermission = (db: Db, templateId: number, r: PermissionRow): void =>
  void db.prepare(PERMISSION_INSERT.sql).run(PERMISSION_INSERT.values({ template_id: templateId, assignee_type: r.assignee_type, assignee_id: r.assignee_id, permission: r.permission }));

/** Lets a member run and view a template, unless a rule for them already exists. */
export const grantRunAndView = (db: Db, templateId: number, memberId: number): void =>
  void db.prepare("INSERT OR IGNORE INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, 'TeamMember', ?, 'RunAndView')").run(templateId, memberId);

/** Gives template `to` every rule of template `from`. */
export const copyPermissions = (db: Db, from: number, to: number): void =>
  void db.prepare('INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) SELECT ?, assignee_type, assignee_id, permission FROM template_permissions WHERE template_id = ?').run(to, from);

export const deletePermissionsOf = (db: Db, templateId: number): void => void db.prepare('DELETE FROM template_permissions WHERE template_id = ?').run(templateId);
