// Template permission rules (spec v3 2.5): who can see and run checklists made
// from the template. They grant no template editing (that is the folder's).
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { assertCanEditTemplate } from '../access/templates';
import { displayName, groupById, groupInWorkspace, memberById, memberInWorkspace } from '../../rows/people';
import { deletePermissionsOf, insertPermission, permissionsOfTemplate } from '../../rows/template-permissions';
import { compareText } from '../paging';
import { findTemplate, findVersion, readableTemplate } from './read';

export const TEMPLATE_PERMISSIONS = ['RunAndView', 'ViewOnly', 'RunAndViewAssigned', 'ViewAssignedOnly'] as const;
export type TemplatePermission = (typeof TEMPLATE_PERMISSIONS)[number];

export interface PermissionRuleInput {
  assigneeType: 'AllUsers' | 'TeamMember' | 'Group';
  assigneeId?: number;
  name?: string;
  permission: TemplatePermission;
}

const TYPE_ORDER = { AllUsers: 0, Group: 1, TeamMember: 2 } as const;

/** Rules in a fixed order: AllUsers, then groups, then members, each by name. */
export function permissionRules(ctx: Ctx, templateId: number) {
  const rows = permissionsOfTemplate(ctx.db, templateId);
  return rows
    .map((r) => {
      if (r.assignee_type === 'AllUsers') return { assigneeType: r.assignee_type, name: 'All Users', permission: r.permission };
      const name = r.assignee_type === 'Group' ? groupById(ctx.db, r.assignee_id)?.name : (() => {
        const m = memberById(ctx.db, r.assignee_id);
        return m ? displayName(m) : undefined;
      })();
      return { assigneeType: r.assignee_type, assigneeId: r.assignee_id, name, permission: r.permission };
    })
    .sort((a, b) => TYPE_ORDER[a.assigneeType] - TYPE_ORDER[b.assigneeType] || compareText(a.name ?? '', b.name ?? '') || (a.assigneeId ?? 0) - (b.assigneeId ?? 0));
}

export function listTemplatePermissions(ctx: Ctx, input: { key: string }) {
  const { t } = readableTemplate(ctx, input.key);
  return { permissions: permissionRules(ctx, t.id) };
}

/** PUT replaces every rule; `name` is ignored on send. */
export function setTemplatePermissions(ctx: Ctx, input: { key: string; permissions: PermissionRuleInput[] }) {
  const seen = new Set<string>();
  input.permissions.forEach((r, i) => {
    const f = `permissions[${i}]`;
    if (r.assigneeType === 'AllUsers' && r.assigneeId !== undefined) throw validationError(`${f}.assigneeId must be omitted for AllUsers.`, `${f}.assigneeId`);
    if (r.assigneeType !== 'AllUsers' && r.assigneeId === undefined) throw validationError(`${f}.assigneeId is required for ${r.assigneeType}.`, `${f}.assigneeId`);
    const k = `${r.assigneeType}:${r.assigneeId ?? 0}`;
    if (seen.has(k)) throw validationError(`${f} names the same assignee as an earlier rule; send one rule per assignee.`, f);
    seen.add(k);
  });
  const t = findTemplate(ctx, input.key);
  assertCanEditTemplate(ctx, t, findVersion(ctx, t).name, 'set its permissions');
  input.permissions.forEach((r, i) => {
    const f = `permissions[${i}]`;
    if (r.assigneeType !== 'AllUsers' && r.assigneeId !== undefined) {
      const found = r.assigneeType === 'Group' ? groupInWorkspace(ctx.db, ctx.workspace.id, r.assigneeId) !== undefined : memberInWorkspace(ctx.db, ctx.workspace.id, r.assigneeId);
      if (!found) throw validationError(`${f}.assigneeId: no ${r.assigneeType === 'Group' ? 'group' : 'member'} ${r.assigneeId} exists in this workspace.`, `${f}.assigneeId`);
    }
  });
  deletePermissionsOf(ctx.db, t.id);
  for (const r of input.permissions) insertPermission(ctx.db, t.id, { assignee_type: r.assigneeType, assignee_id: r.assigneeId ?? 0, permission: r.permission });
  return { permissions: permissionRules(ctx, t.id) };
}
