// Workspace rights of spec v3 5.5 (members.rights JSON).
// Decisions (docs/checklists.md): an Administrator holds every right (the fixture lists none for
// Administrators, and an Administrator can grant any right); the workspace key needs no
// Checklist.Creator, Task.Creator or Task.Attacher (5.9).
import type { Ctx } from '../../context';

/** Every member permission spec v3 5.4 and 5.5 name; the fixture format takes each of them. */
export const MEMBER_RIGHTS = ['Checklist.Creator', 'Template.Creator', 'Library.Creator', 'Schedule.Viewer', 'Schedule.Creator', 'Task.Creator', 'Task.Attacher'] as const;

export type Right = (typeof MEMBER_RIGHTS)[number];

export function hasRight(ctx: Ctx, right: Right): boolean {
  if (ctx.actor.kind === 'workspace' || ctx.actor.isAdmin) return true;
  return ctx.actor.rights.has(right);
}
