// Who may list and upgrade a template's checklists (spec v3 5.5 "List or upgrade a
// template's checklists: folder permission other than View or Deny"; 4.4 "403 member key
// whose folder permission is only View or Deny"). No capability right is needed.
import type { Ctx } from '../../context';
import { forbidden } from '../../errors';
import { folderPermission } from '../access/templates';
import type { TemplateRow } from '../../rows/templates';

const ADMIN_CAN = 'An Administrator can give you or your group Edit on the Library folder.';

export function assertCanUpgrade(ctx: Ctx, t: TemplateRow, name: string, action: 'list' | 'upgrade'): void {
  if (ctx.actor.kind === 'workspace' || ctx.actor.isAdmin) return;
  // A template in no folder, or archived, passes folder checks (5.7).
  if (t.folder_id === null || t.is_archived === 1) return;
  const p = folderPermission(ctx, t.folder_id, ctx.actor.member.id);
  if (p === 'View' || p === 'Deny') {
    const what = action === 'list' ? 'list the checklists to upgrade' : 'upgrade checklists';
    throw forbidden(`To ${what} of template "${name}" you need a Library folder permission other than View or Deny; yours is ${p}. ${ADMIN_CAN}`);
  }
}
