// Permission checks for a task target (spec v3 5.4, 5.8, 5.9): the checklist's rules for a
// checklist task or an attached standalone task, the standalone rules for an unattached one.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import {
  assertCanChangeStatus,
  assertCanRead,
  assertCanReadStandalone,
  assertCanRunStandalone,
  checklistAccess,
} from '../access/checklists';
import type { TaskTarget } from './target';

/**
 * A checklist task, and an attached standalone task, read as the checklist on every route (5.4:
 * "readable only when the member could open the checklist"); its assignees do, since a task of the
 * checklist is assigned to them, but its raiser alone does not. An unattached one: its own rule.
 */
export function assertTaskReadable(ctx: Ctx, t: TaskTarget): void {
  if (t.checklist) assertCanRead(ctx, t.checklist);
  else assertCanReadStandalone(ctx, t.task);
}

/**
 * Complete, uncomplete, mark or clear not applicable (5.8 row 1); `completing` adds the exclusive
 * assignment (2.4).
 */
export function assertTaskRunnable(ctx: Ctx, t: TaskTarget, completing: boolean): void {
  assertTaskReadable(ctx, t);
  if (!t.standalone) return assertCanChangeStatus(ctx, t.checklist, t.task, completing);
  if (t.checklist && checklistAccess(ctx, t.checklist).canRun && ctx.actor.kind === 'member') return assertCanChangeStatus(ctx, null, t.task, completing);
  assertCanRunStandalone(ctx, t.task, completing);
}

/** Status, assignee, due-date and comment writes refuse a heading (2.4): 400 on taskKey. */
export function refuseHeading(t: TaskTarget, why: string): void {
  if (t.task.is_heading) throw validationError(`taskKey names a heading. ${why}`, 'taskKey');
}
