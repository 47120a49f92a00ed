// Template permission rules (spec v3 2.5): who can see and run checklists made
// from the template. They grant no template editing (that is the folder's).
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { assertCanEditTemplate } from '../access/templates';
import { displayName, type GroupRow, type MemberRow } from '../../rows/people';
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

interface RuleRow {
  assignee_type: 'AllUsers' | 'TeamMember' | 'Group';
  assignee_id: number;
  permission: TemplatePermission;
}

const TYPE_ORDER = { AllUsers: 0, Group: 1, TeamMember: 2 } as const;

/** Rules in a fixed order: AllUsers, then groups, then members, each by name. */
export function permissionRules(ctx: Ctx, templateId: number) {
  const rows = ctx.db.prepare<[number], RuleRow>('SELECT assignee_type, assignee_id, permission FROM template_permissions WHERE template_id = ?').all(templateId);
  const member = ctx.db.prepare<[number], MemberRow>('SELECT * FROM members WHERE id = ?');
  const group = ctx.db.prepare<[number], GroupRow>('SELECT * FROM groups WHERE id = ?');
  return rows
    .map((r) => {
      if (r.assignee_type === 'AllUsers') return { assigneeType: r.assignee_type, name: 'All Users', permission: r.permission };
      const name = r.assignee_type === 'Group' ? group.get(r.assignee_id)?.name : (() => {
        const m = member.get(r.assignee_id);
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
  const member = ctx.db.prepare<[number, number], { id: number }>('SELECT id FROM members WHERE id = ? AND workspace_id = ? AND is_removed = 0');
  const group = ctx.db.prepare<[number, number], { id: number }>('SELECT id FROM groups WHERE id = ? AND workspace_id = ?');
  input.permissions.forEach((r, i) => {
    const f = `permissions[${i}]`;
    if (r.assigneeType !== 'AllUsers' && r.assigneeId !== undefined) {
      const found = r.assigneeType === 'Group' ? group.get(r.assigneeId, ctx.workspace.id) : member.get(r.assigneeId, ctx.workspace.id);
      if (!found) throw validationError(`${f}.assigneeId: no ${r.assigneeType === 'Group' ? 'group' : 'member'} ${r.assigneeId} exists in this workspace.`, `${f}.assigneeId`);
    }
  });
  ctx.db.prepare('DELETE FROM template_permissions WHERE template_id = ?').run(t.id);
  const ins = ctx.db.prepare('INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, ?, ?, ?)');
  for (const r of input.permissions) ins.run(t.id, r.assigneeType, r.assigneeId ?? 0, r.permission);
  return { permissions: permissionRules(ctx, t.id) };
}
