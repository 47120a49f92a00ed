// Permission checks for a task target (spec v3 5.4, 5.8, 5.9): the checklist's rules for a
// checklist task or an attached standalone task, the standalone rules for an unattached one.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import {
  assertCanChangeStatus,
  assertCanRead,
  assertCanReadStandalone,
  assertCanRunStandalone,
  assignedMemberIds,
  checklistAccess,
} from '../access/checklists';
import type { TaskTarget } from './target';

export function assertTaskReadable(ctx: Ctx, t: TaskTarget): void {
  if (t.checklist && !t.standalone) assertCanRead(ctx, t.checklist);
  else if (t.checklist && t.standalone) {
    // An attached standalone task reads as its checklist (5.4), and its raiser and assignees keep reading it.
    const own = t.task.raised_by === ctx.actor.member.id || assignedMemberIds(ctx, t.task.id).has(ctx.actor.member.id);
    if (!own) assertCanRead(ctx, t.checklist);
  } else assertCanReadStandalone(ctx, t.task);
}

/** Complete, uncomplete, mark or clear not applicable (5.8 row 1). */
export function assertTaskRunnable(ctx: Ctx, t: TaskTarget): void {
  assertTaskReadable(ctx, t);
  if (!t.standalone) return assertCanChangeStatus(ctx, t.checklist, t.task);
  if (t.checklist && checklistAccess(ctx, t.checklist).canRun && ctx.actor.kind === 'member') return assertCanChangeStatus(ctx, null, t.task);
  assertCanRunStandalone(ctx, t.task);
}

/** Status, assignee, due-date and comment writes refuse a heading (2.4): 400 on taskKey. */
export function refuseHeading(t: TaskTarget, why: string): void {
  if (t.task.is_heading) throw validationError(`taskKey names a heading. ${why}`, 'taskKey');
}
