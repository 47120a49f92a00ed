// Assignees (spec v3 2.4, 5.8 row 2; EMULATOR.md: PUT {assignees, isAssignedExclusively?}
// replaces all, DELETE clears, both answer the task). task_assigned fires once for each
// assignee the task did not have before (6).
import type { Ctx } from '../../context';
import { actorName, recordActivity } from '../activity';
import { assertCanAssignOrDate } from '../access/checklists';
import { groupById, memberNameText, type AssigneeRef } from '../../rows/people';
import { assertTaskReadable, refuseHeading } from './guard';
import { reload, type TaskTarget } from './target';
import { assigneesOf, taskView } from './views';
import { addTaskAssignee, assigneesOfTask, removeTaskAssignee } from '../../rows/task-assignees';
import { setTaskExclusive } from '../../rows/tasks';

export function readAssignees(ctx: Ctx, t: TaskTarget) {
  assertTaskReadable(ctx, t);
  return { assignees: t.task.is_heading ? [] : assigneesOf(ctx, t.task.id), isAssignedExclusively: t.task.is_assigned_exclusively === 1 };
}

const label = (ctx: Ctx, a: { type: string; name?: string; id: number }) => `${a.name ?? `${a.type} ${a.id}`}`;

/** Replaces the assignees with `refs` (already resolved by the naming rules). */
export function setAssignees(ctx: Ctx, t: TaskTarget, refs: AssigneeRef[], isAssignedExclusively?: boolean) {
  assertTaskReadable(ctx, t);
  refuseHeading(t, 'A heading has no assignees.');
  assertCanAssignOrDate(ctx, t.task);
  const before = assigneesOfTask(ctx.db, t.task.id);
  const had = (r: AssigneeRef) => before.some((b) => b.assignee_type === r.type && b.assignee_id === r.id);
  const added = refs.filter((r) => !had(r));
  const removed = before.filter((b) => !refs.some((r) => r.type === b.assignee_type && r.id === b.assignee_id));
  const exclusiveChange = isAssignedExclusively !== undefined && (isAssignedExclusively ? 1 : 0) !== t.task.is_assigned_exclusively;

  for (const r of removed) removeTaskAssignee(ctx.db, t.task.id, r.assignee_type, r.assignee_id);
  for (const r of added) addTaskAssignee(ctx.db, t.task.id, r.type, r.id);
  if (exclusiveChange) setTaskExclusive(ctx.db, t.task.id, isAssignedExclusively === true);

  const where = { checklistId: t.task.checklist_id ?? t.task.attached_checklist_id, taskId: t.task.id };
  const now = assigneesOf(ctx, t.task.id);
  const nameOf = (type: string, id: number) => label(ctx, now.find((a) => a.type === type && a.id === id) ?? { type, id, name: undefined });
  for (const r of added) {
    recordActivity(ctx, { ...where, action: 'task.assigned', text: `${actorName(ctx)} assigned ${nameOf(r.type, r.id)}.`, data: { assigneeType: r.type, assigneeId: r.id } });
    ctx.hooks.event?.(ctx, 'task_assigned', { taskId: t.task.id, assigneeType: r.type, assigneeId: r.id });
  }
  for (const r of removed) {
    const name = r.assignee_type === 'Group'
      ? groupById(ctx.db, r.assignee_id)?.name
      : memberNameText(ctx.db, r.assignee_id);
    recordActivity(ctx, {
      ...where,
      action: 'task.unassigned',
      text: `${actorName(ctx)} unassigned ${name || `${r.assignee_type} ${r.assignee_id}`}.`,
      data: { assigneeType: r.assignee_type, assigneeId: r.assignee_id },
    });
  }
  if (exclusiveChange) {
    recordActivity(ctx, {
      ...where,
      action: isAssignedExclusively ? 'task.assignedExclusively' : 'task.assignedOpenly',
      text: isAssignedExclusively ? `${actorName(ctx)} made the assignment exclusive.` : `${actorName(ctx)} made the assignment no longer exclusive.`,
    });
  }
  return taskView(ctx, reload(ctx, t));
}

export function clearAssignees(ctx: Ctx, t: TaskTarget) {
  return setAssignees(ctx, t, []);
}
