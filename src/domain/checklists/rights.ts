// Workspace rights of spec v3 5.5 (members.rights JSON): Checklist.Creator, Task.Creator, Task.Attacher.
// Decisions (docs/checklists.md): an Administrator holds every right (the fixture lists none for
// Administrators, and an Administrator can grant any right); the workspace key needs no
// Checklist.Creator, Task.Creator or Task.Attacher (5.9).
import type { Ctx } from '../../context';

export type Right = 'Checklist.Creator' | 'Task.Creator' | 'Task.Attacher';

export function hasRight(ctx: Ctx, right: Right): boolean {
  if (ctx.actor.kind === 'workspace' || ctx.actor.isAdmin) return true;
  return ctx.actor.rights.has(right);
}
