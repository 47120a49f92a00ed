// Template permission rules (schema.sql `template_permissions`): who may view, run or edit a template.
import type { Db } from '../store/open';

export interface PermissionRow {
  assignee_type: 'AllUsers' | 'Group' | 'TeamMember';
  assignee_id: number;
  permission: string;
}

export const permissionsOfTemplate = (db: Db, templateId: number): PermissionRow[] =>
  db.prepare<[number], PermissionRow>('SELECT assignee_type, assignee_id, permission FROM template_permissions WHERE template_id = ?').all(templateId);

export const insertPermission = (db: Db, templateId: number, r: PermissionRow): void =>
  void db.prepare('INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, ?, ?, ?)').run(templateId, r.assignee_type, r.assignee_id, r.permission);

/** Lets a member run and view a template, unless a rule for them already exists. */
export const grantRunAndView = (db: Db, templateId: number, memberId: number): void =>
  void db.prepare("INSERT OR IGNORE INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, 'TeamMember', ?, 'RunAndView')").run(templateId, memberId);

/** Gives template `to` every rule of template `from`. */
export const copyPermissions = (db: Db, from: number, to: number): void =>
  void db.prepare('INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) SELECT ?, assignee_type, assignee_id, permission FROM template_permissions WHERE template_id = ?').run(to, from);

export const deletePermissionsOf = (db: Db, templateId: number): void => void db.prepare('DELETE FROM template_permissions WHERE template_id = ?').run(templateId);
