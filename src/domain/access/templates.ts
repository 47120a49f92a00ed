// Who may read and change templates (spec v3 5.4-5.7, 5.9, 5.10; docs/template-document.md
// "Permissions"). Library folder permissions: View, Edit, Deny per member or group.
// When several rules name the member (directly or through groups), Deny wins, then
// Edit, then View. A folder with no rule naming the member defers to its parent; no
// rule up to the root means the folder check passes (5.7). Administrators and the
// workspace key pass every folder and capability check.
import type { Ctx } from '../../context';
import { forbidden } from '../../errors';
import type { TemplateRow } from '../../rows/templates';
import { folderById, folderByName, folderNameById, folderRulesOf, type FolderRow } from '../../rows/folders';
import { groupIdsOfMember } from '../../rows/people';

export type FolderPermission = 'View' | 'Edit' | 'Deny';

const RANK: Record<FolderPermission, number> = { View: 1, Edit: 2, Deny: 3 };


/** The member's permission on a folder, or undefined when no rule names them (up to the root). */
export function folderPermission(ctx: Ctx, folderId: number, memberId: number): FolderPermission | undefined {
  const groups = groupIdsOfMember(ctx.db, memberId);
  let id: number | null = folderId;
  for (let hops = 0; id !== null && hops < 64; hops++) {
    const rules = folderRulesOf(ctx.db, id);
    let best: FolderPermission | undefined;
    for (const r of rules) {
      const applies = r.assignee_type === 'TeamMember' ? r.assignee_id === memberId : groups.includes(r.assignee_id);
      if (applies && (!best || RANK[r.permission] > RANK[best])) best = r.permission;
    }
    if (best) return best;
    const f: FolderRow | undefined = folderById(ctx.db, id);
    id = f?.parent_id ?? null;
  }
  return undefined;
}

export function findFolder(ctx: Ctx, name: string): FolderRow | undefined {
  return folderByName(ctx.db, ctx.workspace.id, name.trim());
}

export const folderName = (ctx: Ctx, id: number | null): string | undefined =>
  id === null ? undefined : folderNameById(ctx.db, id);

/** Keys that pass every template check: the workspace key and Administrators. */
const passesAll = (ctx: Ctx) => ctx.actor.kind === 'workspace' || ctx.actor.isAdmin;

/** The folder permission that applies to this template for the acting member (undefined: passes). */
function effective(ctx: Ctx, t: Pick<TemplateRow, 'folder_id' | 'is_archived'>): FolderPermission | undefined {
  if (passesAll(ctx) || t.folder_id === null || t.is_archived === 1) return undefined;
  return folderPermission(ctx, t.folder_id, ctx.actor.member.id);
}

const ADMIN_CAN = 'An Administrator can change the Library folder permission for you or your group.';

/** Template reads (get, export, versions, permissions list): any folder permission but Deny (5.4, 5.7). */
export function assertCanReadTemplate(ctx: Ctx, t: TemplateRow, name: string): void {
  if (effective(ctx, t) === 'Deny') {
    throw forbidden(`Your Library folder permission on the folder of template "${name}" is Deny, so you may not read it. ${ADMIN_CAN}`);
  }
}

export function hasRight(ctx: Ctx, right: string): boolean {
  return passesAll(ctx) || ctx.actor.rights.has(right);
}

/** Create a template (5.5): Template.Creator; into a folder also Edit on that folder. */
export function assertCanCreateTemplate(ctx: Ctx, folder?: { id: number; name: string }): void {
  if (!hasRight(ctx, 'Template.Creator')) {
    throw forbidden('Creating a template needs the Template.Creator right, which you do not have. An Administrator can give you Template.Creator.');
  }
  if (folder && !passesAll(ctx)) {
    const p = folderPermission(ctx, folder.id, ctx.actor.member.id);
    if (p === 'View' || p === 'Deny') {
      throw forbidden(`Creating a template in folder "${folder.name}" needs Edit on that folder; your folder permission is ${p}. ${ADMIN_CAN}`);
    }
  }
}

/** Publish a version, set permissions, copy, commit a draft (5.5): Template.Creator plus Edit. */
export function assertCanEditTemplate(ctx: Ctx, t: TemplateRow, name: string, action: string): void {
  const p = effective(ctx, t);
  if (p === 'Deny') throw forbidden(`Your Library folder permission on the folder of template "${name}" is Deny, so you may not ${action}. ${ADMIN_CAN}`);
  if (!hasRight(ctx, 'Template.Creator')) {
    throw forbidden(`To ${action} you need the Template.Creator right and Edit on the template's folder; you do not have Template.Creator. An Administrator can give you Template.Creator.`);
  }
  if (p === 'View') throw forbidden(`To ${action} you need Edit on the Library folder of template "${name}"; your folder permission is View. ${ADMIN_CAN}`);
}

/** Archive and unarchive (3, 5.6): Administrators and the workspace key only. */
export function assertCanArchiveTemplate(ctx: Ctx): void {
  if (!passesAll(ctx)) {
    throw forbidden('Only Administrators may archive or unarchive a template; your key acts as a Member. An Administrator can do it, or create a key that acts as an Administrator or as the workspace.');
  }
}
